"""Rows for engine/ops/convert.py: dtype and device conversions, `new_*` factories."""

from tests.engine.cases import Case

S = (2, 3)

CASES = [
    Case("to_float32", "a.to(torch.float32)", {"a": S}, gradcheck=False),
    Case("to_same_dtype", "a.to(torch.float64) * 1", {"a": S}),
    Case("to_copy", "a.to(torch.float64, copy=True)", {"a": S}),
    Case("to_dtype_kw", "a.to(dtype=torch.float16)", {"a": S}, gradcheck=False),
    Case("to_other", "a.to(torch.zeros(1))", {"a": S}, gradcheck=False),
    Case("to_device_dtype", "a.to('cpu', torch.float32)", {"a": S}, gradcheck=False),
    Case("to_cpu_is_self", "a.to('cpu') is a", {"a": S}),
    Case("to_cuda_error", "a.to('cuda')", {"a": S}, raises=True),
    Case("float", "a.float()", {"a": S}, gradcheck=False),
    Case("double_is_self", "a.double() is a", {"a": S}),
    Case("half", "a.half()", {"a": S}, gradcheck=False),
    Case("long", "a.long()", {"a": S}),
    Case("int", "(a * 3).int()", {"a": S}),
    Case("short", "(a * 3).short()", {"a": S}),
    Case("bool", "a.bool()", {"a": S}),
    Case("type_name", "a.type()", {"a": S}),
    Case("type_name_float", "a.float().type()", {"a": S}),
    Case("type_dtype", "a.type(torch.float32)", {"a": S}, gradcheck=False),
    Case("type_string", "a.float().type('torch.DoubleTensor')", {"a": S}, gradcheck=False),
    Case("type_as", "a.type_as(torch.zeros(1))", {"a": S}, gradcheck=False),
    Case("cpu_is_self", "a.cpu() is a", {"a": S}),
    Case("cuda_error", "a.cuda()", {"a": S}, raises=True),
    Case("type_cuda_string_error", "a.type('torch.cuda.FloatTensor')", {"a": S}, raises=True),
    Case("type_bad_string", "a.type('torch.Foo')", {"a": S}, raises=True),
    Case("view_dtype", "a.float().view(torch.int32)", {"a": S}),
    Case("view_dtype_error", "a.float().view(torch.float64)", {"a": S}, raises=True),
    Case("grad_through_cast", "(a.float() * 2).double()", {"a": S}, gradcheck=False),
    Case("new_zeros", "a.new_zeros(2, 3)", {"a": S}),
    Case("new_ones_tuple", "a.new_ones((2,))", {"a": S}),
    Case("new_full", "a.new_full((2,), 3)", {"a": S}),
    Case("new_empty_shape", "a.new_empty(4).shape", {"a": S}),
    Case("new_tensor", "a.new_tensor([1, 2])", {"a": S}),
    Case("new_zeros_dtype", "a.new_zeros(2, dtype=torch.int64)", {"a": S}),
]
