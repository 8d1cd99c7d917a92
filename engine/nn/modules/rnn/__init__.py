"""`torch.nn.modules.rnn`: the recurrent layers (layer.py), their cells (cell.py) and the packed
path (packed.py)."""

from engine.nn.modules.rnn.cell import GRUCell, LSTMCell, RNNCell
from engine.nn.modules.rnn.layer import GRU, LSTM, RNN, RNNBase

__all__ = ["GRU", "LSTM", "RNN", "GRUCell", "LSTMCell", "RNNBase", "RNNCell"]
