import torch

float_tensor = torch.ones(1, dtype=torch.float)
double_tensor = torch.ones(1, dtype=torch.double)
complex_float_tensor = None
int_tensor = torch.ones(1, dtype=torch.int)
long_tensor = torch.ones(1, dtype=torch.long)
uint_tensor = torch.ones(1, dtype=torch.uint8)
bool_tensor = torch.ones(1, dtype=torch.bool)
long_zerodim = torch.tensor(1, dtype=torch.long)
int_zerodim = torch.tensor(1, dtype=torch.int)
print(torch.add(5, 5).dtype)
print((int_tensor + 5).dtype)
print((int_tensor + long_zerodim).dtype)
print((long_tensor + int_tensor).dtype)
print((bool_tensor + long_tensor).dtype)
print((bool_tensor + uint_tensor).dtype)
print((float_tensor + double_tensor).dtype)
print((long_tensor + float_tensor).dtype)
int_tensor += long_tensor
print(int_tensor.dtype)
try:
    long_tensor += float_tensor
except RuntimeError as e:
    print(e)
float_tensor *= float_tensor
float_tensor *= int_tensor
float_tensor *= uint_tensor
float_tensor *= bool_tensor
float_tensor *= double_tensor
print(float_tensor.dtype)
int_tensor *= uint_tensor
try:
    uint_tensor *= int_tensor
except RuntimeError as e:
    print(e)
