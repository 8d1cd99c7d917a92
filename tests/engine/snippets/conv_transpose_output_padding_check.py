# conv_transpose1d/2d/3d refuse an output_padding not smaller than stride or dilation with PyTorch's message (1d shown as its 2d view)
import torch
torch.manual_seed(0)
F = torch.nn.functional
for x, w, kw in [(torch.randn(1,2,4), torch.randn(2,2,3), dict(output_padding=1)),
                 (torch.randn(1,2,3,3), torch.randn(2,2,3,3), dict(stride=(2,1), output_padding=(1,1))),
                 (torch.randn(1,2,3,3), torch.randn(2,2,3,3), dict(stride=2, dilation=(1,3), output_padding=(2,2))),
                 (torch.randn(1,2,3,3), torch.randn(2,2,3,3), dict(stride=2, dilation=(1,3), output_padding=(1,2))),
                 (torch.randn(1,2,2,2,2), torch.randn(2,2,3,3,3), dict(output_padding=1))]:
    f = {3: F.conv_transpose1d, 4: F.conv_transpose2d, 5: F.conv_transpose3d}[x.ndim]
    try: print(f(x, w, **kw).shape)
    except Exception as e: print(type(e).__name__, e)
