"""Hash every operator's output over a fixed sweep of inputs (a refactor's bitwise check).

Run before and after a change that must not alter results::

    python tests/tools/output_hashes.py > before.json
    ... change ...
    python tests/tools/output_hashes.py | diff before.json -

Each case is keyed by its operator and arguments; its value is the SHA-256 of
the output bytes (or the status code when the call is refused).
"""

from __future__ import annotations

import hashlib
import itertools
import json
import sys
from typing import Any, Callable

import numpy as np

import aclnn_emu as emu
from aclnn_emu.errors import AclnnError

try:
    import ml_dtypes

    BF16: Any = ml_dtypes.bfloat16
except ImportError:  # pragma: no cover
    BF16 = None


def _digest(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> str:
    try:
        out = np.ascontiguousarray(fn(*args, **kwargs))
    except AclnnError as e:
        return f"status {e.status}"
    return hashlib.sha256(out.tobytes()).hexdigest()[:16]


def _image(rng: np.random.Generator, shape: tuple[int, ...], dtype: Any, special: bool) -> np.ndarray:
    x = rng.standard_normal(shape).astype(np.float32)
    if special and x.size > 3:
        flat = x.reshape(-1)
        flat[x.size // 3] = np.inf
        flat[x.size // 2] = np.nan
    return x.astype(dtype)


def upsample_cases(rng: np.random.Generator) -> dict[str, str]:
    res: dict[str, str] = {}
    dtypes = [np.float32, np.float16] + ([BF16] if BF16 is not None else [])
    sizes = [((2, 3, 5, 7), (10, 14)), ((1, 4, 8, 8), (3, 5)), ((1, 2, 6, 6), (6, 6)), ((2, 16, 9, 4), (18, 8)),
             ((1, 3, 1, 1), (4, 4)), ((1, 2, 16, 16), (4, 4)), ((1, 1, 40, 3), (7, 9))]  # fmt: skip
    scales = [(0.0, 0.0), (2.0, 2.0), (0.5, 0.5), (1.0, 2.0)]
    for (shape, osize), dt, align, (sh, sw), fmt, special in itertools.product(
        sizes, dtypes, (False, True), scales, ("NCHW", "NHWC"), (False, True)
    ):
        name = np.dtype(dt).name
        x = _image(rng, shape, dt, special)
        if fmt == "NHWC":
            x = np.ascontiguousarray(x.transpose(0, 2, 3, 1))
        key = f"{shape}->{osize} {name} a={align} s={sh},{sw} {fmt} sp={special}"
        res["fwd " + key] = _digest(emu.upsample_bilinear2d, x, osize, align, sh, sw, format=fmt)
        n, c, h, w = shape
        isize = (n, c, h, w) if fmt == "NCHW" else (n, h, w, c)
        for op in (emu.upsample_bilinear2d_backward_v2, emu.upsample_bilinear2d_backward):
            oh, ow = osize
            g = _image(rng, (n, c, oh, ow), dt, special)
            if fmt == "NHWC":
                g = np.ascontiguousarray(g.transpose(0, 2, 3, 1))
            res[f"{op.__name__} {key}"] = _digest(op, g, osize, isize, align, sh, sw, format=fmt)
    return res


def roi_cases(rng: np.random.Generator, soc: str) -> dict[str, str]:
    res: dict[str, str] = {}
    for (shape, k), pooled, scale, ratio, aligned, dt in itertools.product(
        [((2, 3, 12, 10), 5), ((1, 17, 30, 30), 9), ((3, 1, 5, 40), 4)],
        [(2, 2), (7, 7), (3, 5)], [1.0, 0.25], [0, 2, 3], [False, True], [np.float32, np.float16],
    ):  # fmt: skip
        b, c, h, w = shape
        x = _image(rng, shape, dt, False)
        boxes = np.zeros((k, 5), np.float32)
        boxes[:, 0] = rng.integers(0, b, k)
        xy = rng.uniform(-3, max(h, w) / scale + 3, (k, 4))
        boxes[:, 1:3] = np.minimum(xy[:, :2], xy[:, 2:])
        boxes[:, 3:5] = np.maximum(xy[:, :2], xy[:, 2:])
        boxes[0, 1:] = [1.5, 1.5, 1.5, 1.5]  # a degenerate box
        key = f"{shape} k={k} p={pooled} s={scale} r={ratio} a={aligned} {np.dtype(dt).name} {soc}"
        res["roi_align_v2 " + key] = _digest(emu.roi_align_v2, x, boxes.astype(dt), *pooled, scale, ratio, aligned)
        for mode in ("avg", "max"):
            res[f"roi_align {mode} " + key] = _digest(
                emu.roi_align, x, boxes[:, 1:].astype(dt), boxes[:, 0].astype(np.int32), mode, *pooled, ratio, scale
            )
        g = rng.standard_normal((k, c, *pooled)).astype(np.float32)
        res["roi_align_v2_backward " + key] = _digest(
            emu.roi_align_v2_backward, g, boxes, shape, *pooled, scale, ratio, aligned
        )
    return res


def main() -> int:
    """Print the hashes of one SoC's cases (``ACLNN_EMU_SOC``; run once per SoC)."""
    rng = np.random.default_rng(20261201)
    soc = emu.soc_name()
    res = {**upsample_cases(rng), **roi_cases(rng, soc)}
    json.dump(res, sys.stdout, indent=0, sort_keys=True)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
