"""The engine's modules under PyTorch's names in one message: once the engine runs as torch
(`install_as_torch`), a missing attribute of `torch.nn.utils` raises PyTorch's
`module 'torch.nn.utils' has no attribute 'x'`, not `module 'engine.nn.utils' ...`.

CPython words that message from the module's `__name__`, which stays `engine....`: relative
imports, the lazy imports, the op table's families and the tracer all read it, and pickle finds
classes by their own `__module__`. So nothing is renamed; the modules instead get a ModuleType
subclass whose `__getattr__`, which Python calls only once the ordinary lookup (a module's own
`__getattr__` included) has failed, raises the message with the torch name. The subclass
prints as `module`, as PyTorch's modules' type does.
"""

from __future__ import annotations

import dis
import sys
from types import FrameType, ModuleType
from typing import Any


def torch_name(name: str) -> str:
    """The name PyTorch gives an engine module: `engine.nn` is `torch.nn`, `engine.vision.ops`
    is `torchvision.ops`."""
    if name == "engine.vision" or name.startswith("engine.vision."):
        return "torchvision" + name[len("engine.vision") :]
    return "torch" + name[len("engine") :]


class TorchNamed(ModuleType):
    """An engine module whose missing attributes are reported under its torch name."""

    def __getattr__(self, name: str) -> Any:
        torch = torch_name(self.__name__)
        if _importing_from(sys._getframe(1)):
            # `from torch.nn import x`: CPython turns our AttributeError into an ImportError
            # worded from `__name__` ('engine.nn'); any other error it lets through as it is.
            # Its fallback first: a submodule imported but not yet bound (a circular import)
            sub = sys.modules.get(f"{self.__name__}.{name}")
            if sub is not None:
                return sub
            where = self.__dict__.get("__file__")
            raise ImportError(
                f"cannot import name '{name}' from '{torch}' "
                + (f"({where})" if where else "(unknown location)"),
                name=torch,
                path=where,
            )
        raise AttributeError(f"module '{torch}' has no attribute '{name}'", name=name, obj=self)


_IMPORT_FROM = dis.opmap["IMPORT_FROM"]


def _importing_from(frame: FrameType) -> bool:
    """Whether `frame` is running a `from m import name` lookup (its IMPORT_FROM)."""
    code, at = frame.f_code.co_code, frame.f_lasti
    return 0 <= at < len(code) and code[at] == _IMPORT_FROM


TorchNamed.__name__ = TorchNamed.__qualname__ = "module"
TorchNamed.__module__ = "builtins"


def name_as_torch() -> None:
    """Give every loaded engine module the torch-named messages (again after later imports)."""
    for name, mod in list(sys.modules.items()):
        if type(mod) is ModuleType and (name == "engine" or name.startswith("engine.")):
            mod.__class__ = TorchNamed
