"""Real PyTorch, watched: the capture that turns a real torch run into backscope's events (the
same protocol as the engine's tracer), and the stepper that pauses its backward pass.

>>> events = []
>>> with Capture(events.extend, {__file__}):  # doctest: +SKIP
...     (torch.ones(2, requires_grad=True) * 2).sum().backward()
"""

from backscope.capture.recorder import EventLimit, RunStopped
from backscope.capture.run import Capture, run_file

__all__ = ["Capture", "EventLimit", "RunStopped", "run_file"]
