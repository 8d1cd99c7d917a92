"""`torch.nn`: modules, parameters, `functional` and `init`.

>>> net = torch.nn.Sequential(torch.nn.Linear(3, 2), torch.nn.ReLU())
"""

from engine.nn import functional, init, utils
from engine.nn.modules import *  # noqa: F403
from engine.nn.modules import __all__ as _modules_all
from engine.nn.parameter import Buffer, Parameter

__all__ = ["Buffer", "Parameter", "functional", "init", "utils", *_modules_all]
