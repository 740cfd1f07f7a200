"""Plain float64 numpy references written from ../shared/spec (not from the C code).

RoIAlign: every sample is scattered to its four bilinear targets exactly as
the spec's pseudo-code says. Upsample: explicit (out x in) interpolation
matrices per axis, applied with einsum.
"""

from __future__ import annotations

import math

import numpy as np

# ---- upsample_bilinear2d_backward_v2 ----------------------------------------


def scales_usable(h: int, w: int, out_h: int, out_w: int, scales_h: float, scales_w: float) -> bool:
    """CANN's rule (spec): scales are used only if they reproduce the output size."""
    if not (abs(scales_h) > 1e-9 or abs(scales_w) > 1e-9):
        return False
    if out_h != math.floor(h * scales_h) or out_w != math.floor(w * scales_w):
        return False
    rh = 1.0 / scales_h if scales_h > 0 else h / out_h
    rw = 1.0 / scales_w if scales_w > 0 else w / out_w
    return rh >= 0.01 and rw >= 0.01


def interpolation_matrix(out_size: int, in_size: int, align_corners: bool, scale: float | None) -> np.ndarray:
    """M[i, y]: weight of gradOut index i on input index y along one axis."""
    if align_corners:
        r = (in_size - 1) / (out_size - 1) if out_size > 1 else 0.0
    elif scale is not None and scale > 0:
        r = 1.0 / scale
    else:
        r = in_size / out_size
    m = np.zeros((out_size, in_size))
    for i in range(out_size):
        s = i * r if align_corners else max(0.0, (i + 0.5) * r - 0.5)
        lo = min(math.floor(s), in_size - 1)
        hi = min(lo + 1, in_size - 1)
        f = s - lo
        m[i, lo] += 1.0 - f
        m[i, hi] += f
    return m


def upsample_bilinear2d_backward(
    grad_nchw: np.ndarray, in_hw: tuple[int, int], align_corners: bool, scales_h: float, scales_w: float
) -> np.ndarray:
    """Reference gradient of the forward input, NCHW, float64."""
    g = np.asarray(grad_nchw, dtype=np.float64)
    out_h, out_w = g.shape[2:]
    h, w = in_hw
    usable = scales_usable(h, w, out_h, out_w, scales_h, scales_w)
    mh = interpolation_matrix(out_h, h, align_corners, scales_h if usable else None)
    mw = interpolation_matrix(out_w, w, align_corners, scales_w if usable else None)
    return np.einsum("ncij,iy,jx->ncyx", g, mh, mw, optimize=True)


# ---- roi_align_v2_backward ----------------------------------------------------


def _box_geometry(box, spatial_scale, pooled_h, pooled_w, sampling_ratio, aligned, batch):
    """(b, y1, x1, bin_h, bin_w, sH, sW) or None when the box contributes nothing."""
    box = np.asarray(box, dtype=np.float64)
    if not np.isfinite(box[0]):
        return None
    b = math.floor(box[0])
    if b < 0 or b >= batch:
        return None
    off = 0.5 if aligned else 0.0
    x1, y1, x2, y2 = (float(v) * spatial_scale - off for v in box[1:])
    w, h = x2 - x1, y2 - y1
    if not aligned:
        w, h = max(w, 1.0), max(h, 1.0)
    bin_h, bin_w = h / pooled_h, w / pooled_w
    if not all(np.isfinite([x1, y1, bin_h, bin_w])):
        return None
    s_h = sampling_ratio if sampling_ratio > 0 else math.ceil(bin_h)
    s_w = sampling_ratio if sampling_ratio > 0 else math.ceil(bin_w)
    if s_h <= 0 or s_w <= 0:
        return None
    return b, y1, x1, bin_h, bin_w, s_h, s_w


def _contributing_boxes(g_all, boxes, input_shape, spatial_scale, sampling_ratio, aligned):
    """(k, geometry) of every box that contributes."""
    k_count, _, pooled_h, pooled_w = g_all.shape
    for k in range(k_count):
        geo = _box_geometry(boxes[k], spatial_scale, pooled_h, pooled_w, sampling_ratio, aligned, input_shape[0])
        if geo is not None:
            yield k, geo


def _clamp_axis(v: np.ndarray, n: int):
    """Spec's per-axis rule: validity, then lo, hi and fraction."""
    valid = (v >= -1.0) & (v <= n)
    v = np.clip(v, 0, n - 1)
    lo = np.floor(v).astype(np.int64)
    hi = np.minimum(lo + 1, n - 1)
    return valid, lo, hi, v - lo


def roi_align_backward(
    grad_output: np.ndarray,
    boxes: np.ndarray,
    input_shape: tuple[int, int, int, int],
    spatial_scale: float,
    sampling_ratio: int,
    aligned: bool,
) -> np.ndarray:
    """Direct reference: each sample scatters g/(sH*sW) to its four targets."""
    g_all = np.asarray(grad_output, dtype=np.float64)
    _, _, pooled_h, pooled_w = g_all.shape
    _, _, h, w = input_shape
    out = np.zeros(input_shape)
    for k, (b, y1, x1, bin_h, bin_w, s_h, s_w) in _contributing_boxes(g_all, boxes, input_shape, spatial_scale,
                                                                      sampling_ratio, aligned):  # fmt: skip
        ph, pw, iy, ix = np.meshgrid(
            np.arange(pooled_h), np.arange(pooled_w), np.arange(s_h), np.arange(s_w), indexing="ij"
        )
        y = y1 + ph * bin_h + (iy + 0.5) * bin_h / s_h
        x = x1 + pw * bin_w + (ix + 0.5) * bin_w / s_w
        vy, yl, yh, ly = _clamp_axis(y.ravel(), h)
        vx, xl, xh, lx = _clamp_axis(x.ravel(), w)
        keep = vy & vx
        gk = g_all[k][:, ph.ravel()[keep], pw.ravel()[keep]] / (s_h * s_w)  # (C, samples)
        yl, yh, ly, xl, xh, lx = (a[keep] for a in (yl, yh, ly, xl, xh, lx))
        plane = out[b]
        for yy, xx, wgt in ((yl, xl, (1 - ly) * (1 - lx)), (yl, xh, (1 - ly) * lx), (yh, xl, ly * (1 - lx)),
                            (yh, xh, ly * lx)):  # fmt: skip
            np.add.at(plane, (slice(None), yy, xx), gk * wgt)
    return out


def roi_axis_weights(start: float, bin_size: float, samples: int, n: int) -> np.ndarray:
    """Summed weights of one bin's samples along one axis, by explicit enumeration."""
    m = np.arange(samples, dtype=np.float64)
    v = start + (m + 0.5) * bin_size / samples
    valid, lo, hi, f = _clamp_axis(v, n)
    return np.bincount(lo[valid], 1 - f[valid], minlength=n) + np.bincount(hi[valid], f[valid], minlength=n)


def roi_align_backward_separable(grad_output, boxes, input_shape, spatial_scale, sampling_ratio, aligned):
    """Reference for huge sample counts: per-axis enumeration (valid because the
    spec's weight and validity rule are products of a y part and an x part)."""
    g_all = np.asarray(grad_output, dtype=np.float64)
    _, _, pooled_h, pooled_w = g_all.shape
    _, _, h, w = input_shape
    out = np.zeros(input_shape)
    for k, (b, y1, x1, bin_h, bin_w, s_h, s_w) in _contributing_boxes(g_all, boxes, input_shape, spatial_scale,
                                                                      sampling_ratio, aligned):  # fmt: skip
        ay = np.stack([roi_axis_weights(y1 + p * bin_h, bin_h, s_h, h) for p in range(pooled_h)]) / s_h
        ax = np.stack([roi_axis_weights(x1 + p * bin_w, bin_w, s_w, w) for p in range(pooled_w)]) / s_w
        out[b] += np.einsum("cpq,py,qx->cyx", g_all[k], ay, ax)
    return out


def random_boxes(rng: np.random.Generator, k: int, batch: int, h: int, w: int, scale: float) -> np.ndarray:
    """Boxes as in spec/performance.md: corners inside 0.8 of the image, sizes 8 .. 8 + 0.3 of it."""
    img_h, img_w = h / scale, w / scale
    x1 = rng.uniform(0, 0.8 * img_w, k)
    y1 = rng.uniform(0, 0.8 * img_h, k)
    bw = rng.uniform(8, 8 + 0.3 * img_w, k)
    bh = rng.uniform(8, 8 + 0.3 * img_h, k)
    ids = rng.integers(0, batch, k)
    return np.stack([ids, x1, y1, x1 + bw, y1 + bh], axis=1).astype(np.float32)


def rel_err(got: np.ndarray, ref: np.ndarray) -> float:
    """Max abs error relative to the largest magnitude of the reference."""
    scale = float(np.max(np.abs(ref))) if ref.size else 0.0
    err = float(np.max(np.abs(np.asarray(got, np.float64) - ref))) if ref.size else 0.0
    return err / scale if scale > 0 else err
