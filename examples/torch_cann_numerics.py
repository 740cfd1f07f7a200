"""A small detection head trained for a few steps with PyTorch's ops and with CANN's.

The head is a convolution, a 2x bilinear upsample (F.interpolate) and RoIAlign
(torchvision.ops.RoIAlign), then a linear classifier. The same model, data and
initial weights are trained twice: once as PyTorch computes it on the CPU, once
inside ``aclnn_emu.torch.cann_numerics()``, where the interpolation and the
RoIAlign (forward and backward) are CANN's aclnn operators as an Atlas A2 NPU
computes them. The script prints where the losses and the gradients diverge.

Run: ``python examples/torch_cann_numerics.py`` (needs torch and torchvision).
"""

from __future__ import annotations

import copy

import torch
import torchvision

import aclnn_emu.torch as cann


class Head(torch.nn.Module):
    """Convolution, 2x bilinear upsample, RoIAlign 7x7, linear classifier."""

    def __init__(self) -> None:
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 8, 3, padding=1)
        self.pool = torchvision.ops.RoIAlign((7, 7), spatial_scale=0.5, sampling_ratio=0, aligned=True)
        self.cls = torch.nn.Linear(8 * 7 * 7, 4)

    def forward(self, images: torch.Tensor, boxes: torch.Tensor) -> torch.Tensor:
        """Class scores of each box."""
        feat = torch.relu(self.conv(images))
        feat = torch.nn.functional.interpolate(feat, scale_factor=2.0, mode="bilinear", align_corners=False)
        return self.cls(self.pool(feat, boxes).flatten(1))


def train(model: Head, images, boxes, labels, steps: int) -> tuple[list[float], list[torch.Tensor]]:
    """SGD steps; the losses and the conv weight's gradients."""
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    losses, grads = [], []
    for _ in range(steps):
        loss = torch.nn.functional.cross_entropy(model(images, boxes), labels)
        opt.zero_grad()
        loss.backward()
        grads.append(model.conv.weight.grad.detach().clone())
        opt.step()
        losses.append(float(loss.detach()))
    return losses, grads


def main() -> int:
    """Train both ways and print where they diverge."""
    torch.manual_seed(0)
    images = torch.randn(2, 3, 32, 32)
    boxes = torch.tensor([[0, 3.0, 5.0, 40.0, 50.0], [0, 10.0, 2.0, 30.0, 20.0], [1, 0.0, 0.0, 63.0, 63.0],
                          [1, 20.5, 11.25, 44.0, 39.5]])  # fmt: skip
    labels = torch.tensor([0, 1, 2, 3])
    model = Head()
    torch_model, cann_model = model, copy.deepcopy(model)
    torch_losses, torch_grads = train(torch_model, images, boxes, labels, steps=5)
    with cann.cann_numerics():
        cann_losses, cann_grads = train(cann_model, images, boxes, labels, steps=5)
    print("step  loss (PyTorch)   loss (CANN)      |difference|   max |grad difference| (conv weight)")
    for i, (a, b, ga, gb) in enumerate(zip(torch_losses, cann_losses, torch_grads, cann_grads)):
        print(f"{i:4d}  {a:.9f}  {b:.9f}  {abs(a - b):.3e}      {float((ga - gb).abs().max()):.3e}")
    assert cann_losses[-1] < cann_losses[0], "CANN's numerics should train too"
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
