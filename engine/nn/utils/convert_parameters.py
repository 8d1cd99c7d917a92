"""`torch.nn.utils.convert_parameters`: parameters to one vector and back."""

from engine.nn.utils import parameters_to_vector as parameters_to_vector
from engine.nn.utils import vector_to_parameters as vector_to_parameters
