import torch

x = torch.ones(2, requires_grad=True)
with torch.inference_mode():
    print("inference:", torch.is_grad_enabled(), torch.is_inference_mode_enabled())
    with torch.enable_grad():
        y = x * 2
        print("enable_grad inside inference_mode:", torch.is_grad_enabled(), y.requires_grad)
        with torch.inference_mode(False):
            z = x * 2
            print("then inference_mode(False):", torch.is_grad_enabled(), z.requires_grad)
    with torch.set_grad_enabled(True):
        print("set_grad_enabled(True):", torch.is_grad_enabled(), (x * 2).requires_grad)
    with torch.no_grad():
        with torch.inference_mode(False):
            w = x * 2
            print("no_grad then inference_mode(False):", torch.is_grad_enabled(), w.grad_fn)
    print("back:", torch.is_grad_enabled(), (x * 2).requires_grad)
print("outside:", torch.is_grad_enabled(), (x * 2).requires_grad)

torch.set_grad_enabled(False)
with torch.inference_mode(False):
    print("set_grad_enabled(False) then inference_mode(False):", torch.is_grad_enabled())
print(torch.is_grad_enabled())
torch.set_grad_enabled(True)


@torch.inference_mode()
def infer():
    with torch.enable_grad():
        return (x * 3).requires_grad, torch.is_grad_enabled()


print(infer(), torch.is_grad_enabled())
