# Type promotion with complex dtypes and Python complex scalars.
import torch

f32 = torch.ones(2)
f64 = torch.ones(2, dtype=torch.float64)
i64 = torch.ones(2, dtype=torch.int64)
c64 = torch.ones(2, dtype=torch.cfloat)
c128 = torch.ones(2, dtype=torch.cdouble)
print(
    (f32 + 1j).dtype,
    (f64 * 1j).dtype,
    (i64 * 1j).dtype,
    (torch.ones(2, dtype=torch.bool) + 1j).dtype,
)
print((c64 + f64).dtype, (c64 + c128).dtype, (c64 * 2.5).dtype, (c64 + i64).dtype)
print((f32 + torch.tensor(2j, dtype=torch.complex128)).dtype)
print((i64 + torch.tensor(2j, dtype=torch.complex128)).dtype)
print((c64 + torch.tensor(1.0, dtype=torch.float64)).dtype)
print(
    torch.promote_types(torch.float64, torch.complex64),
    torch.promote_types(torch.int32, torch.cfloat),
)
print(torch.result_type(f32, 1j), torch.result_type(c128, f32))
print(c64.to(torch.float32))
print(f32.to(torch.cdouble), c64.double().dtype if False else c64.to(torch.complex128).dtype)
print(torch.tensor([1 + 1j]) == 1 + 1j, torch.tensor([1 + 1j]) != 1)
for op in ("lt", "le", "gt", "ge"):
    try:
        getattr(torch, op)(c64, 0)
    except NotImplementedError as e:
        print(e)
try:
    print(c128 < 1)
except NotImplementedError as e:
    print(e)
try:
    torch.clamp(c64, 0, 1)
except NotImplementedError as e:
    print(e)
float(torch.tensor(1j))
