"""`torch.optim`: SGD, Adam and its variants, RMSprop, Rprop, Adagrad, Adadelta, Adafactor, ASGD,
LBFGS, learning-rate schedulers and weight averaging (swa_utils).

>>> opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
"""

from engine.optim import lr_scheduler, swa_utils
from engine.optim.adadelta import Adadelta
from engine.optim.adafactor import Adafactor
from engine.optim.adagrad import Adagrad
from engine.optim.adam import Adam, AdamW
from engine.optim.adam_variants import Adamax, NAdam, RAdam
from engine.optim.asgd import ASGD
from engine.optim.lbfgs import LBFGS
from engine.optim.optimizer import Optimizer
from engine.optim.rmsprop import RMSprop
from engine.optim.rprop import Rprop
from engine.optim.sgd import SGD

__all__ = [
    "ASGD",
    "LBFGS",
    "SGD",
    "Adadelta",
    "Adafactor",
    "Adagrad",
    "Adam",
    "AdamW",
    "Adamax",
    "NAdam",
    "Optimizer",
    "RAdam",
    "RMSprop",
    "Rprop",
    "lr_scheduler",
    "swa_utils",
]
