"""`torch.optim`: SGD, Adam, AdamW, RMSprop and learning-rate schedulers.

>>> opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
"""

from engine.optim import lr_scheduler
from engine.optim.adagrad import Adagrad
from engine.optim.adam import Adam, AdamW
from engine.optim.optimizer import Optimizer
from engine.optim.rmsprop import RMSprop
from engine.optim.sgd import SGD

__all__ = ["SGD", "Adagrad", "Adam", "AdamW", "Optimizer", "RMSprop", "lr_scheduler"]
