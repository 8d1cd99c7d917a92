"""Rows for engine/ops/nn_upsample.py's antialiased modes: bilinear and bicubic with
antialias=True, and lanczos (antialiased only), up, down and mixed."""

from tests.engine.cases import Case

F = "torch.nn.functional.interpolate"
X = {"x": (1, 2, 5, 6)}

CASES = [
    Case("bilinear_aa_down", F + "(x, size=(2, 3), mode='bilinear', antialias=True)", X),
    Case("bilinear_aa_up", F + "(x, scale_factor=1.5, mode='bilinear', antialias=True)", X),
    Case(
        "bilinear_aa_ac",
        F + "(x, size=(3, 4), mode='bilinear', antialias=True, align_corners=True)",
        X,
    ),
    Case("bicubic_aa_down", F + "(x, size=(2, 3), mode='bicubic', antialias=True)", X),
    Case("bicubic_aa_mixed", F + "(x, size=(7, 4), mode='bicubic', antialias=True)", X),
    Case("lanczos_down", F + "(x, size=(3, 2), mode='lanczos', antialias=True)", X),
    Case("lanczos_up", F + "(x, scale_factor=2, mode='lanczos', antialias=True)", X),
    Case("lanczos_frac", F + "(x, scale_factor=0.7, mode='lanczos', antialias=True)", X),
    Case("lanczos_no_aa", F + "(x, scale_factor=2, mode='lanczos')", X, raises=True),
]
