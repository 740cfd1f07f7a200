"""Plain float64 numpy references written from CANN's published kernels and op_api (not from the C code).

RoIAlign: every sample is scattered to its four bilinear targets exactly as
the spec's pseudo-code says. Upsample: explicit (out x in) interpolation
matrices per axis, applied with einsum.
"""

from __future__ import annotations

import math

import numpy as np

# ---- upsample_bilinear2d_backward_v2 ----------------------------------------
#
# Written from CANN's op_api (image/upsample_bilinear2d_grad/op_host/op_api/
# aclnn_upsample_bilinear_2d_backward_v2.cpp), its tiling (compute_scale_value)
# and kernel (upsample_bilinear2d_grad.h), for the 910B/910_93 branch.

F32 = np.float32


def cann_upsample_ratios(g_shape, in_size, align_corners, scales_h, scales_w, nhwc=False):
    """(ratio_h, ratio_w, identity_h, identity_w): the kernel's float32 source step per
    gradOut index, and whether it skips that axis' pass. g_shape and in_size are in the
    tensors' own layout (NCHW, or NHWC when nhwc)."""
    n, c, h, w = (in_size[0], in_size[3], in_size[1], in_size[2]) if nhwc else tuple(in_size)
    out_h, out_w = (g_shape[1], g_shape[2]) if nhwc else (g_shape[2], g_shape[3])
    same = tuple(g_shape) == tuple(in_size)
    consistent = True
    if abs(scales_h) > 1e-9 or abs(scales_w) > 1e-9:
        consistent = out_h == math.floor(h * scales_h) and out_w == math.floor(w * scales_w)
    # CheckMinScale reads inputSize[2], [3] and gradOut dims 2, 3 whatever the layout.
    rh = 1.0 / scales_h if scales_h > 0 else in_size[2] / g_shape[2]
    rw = 1.0 / scales_w if scales_w > 0 else in_size[3] / g_shape[3]
    upsample_path = same or (consistent and rh >= 0.01 and rw >= 0.01)

    def ratio(real, size_in, size_out):
        if align_corners:
            return F32(size_in - 1) / F32(size_out - 1) if size_out > 1 else F32(0)
        return real if real > 0 else F32(size_in) / F32(size_out)

    real_h = F32(1.0 / scales_h) if upsample_path and scales_h > 0 else F32(0)
    real_w = F32(1.0 / scales_w) if upsample_path and scales_w > 0 else F32(0)
    r_h, r_w = ratio(real_h, h, out_h), ratio(real_w, w, out_w)
    if not upsample_path:
        return r_h, r_w, False, False
    ident_w = abs(float(r_w) - 1.0) < 1e-6
    ident_h = abs(float(r_h) - 1.0) < 1e-6 and not ident_w
    return r_h, r_w, ident_h, ident_w


def interpolation_matrix(out_size: int, in_size: int, align_corners: bool, ratio, identity=False) -> np.ndarray:
    """M[i, y]: weight of gradOut index i on input index y along one axis, positions in
    float32 as the kernel computes them; a source beyond the last index is dropped."""
    m = np.zeros((out_size, in_size))
    r = F32(ratio)
    for i in range(out_size):
        if identity:
            if i < in_size:
                m[i, i] = 1.0
            continue
        c = F32(i) * r if align_corners else (F32(i) + F32(0.5)) * r - F32(0.5)
        if not align_corners and not c > 0:
            c = F32(0)
        f = np.floor(c)
        if not f <= in_size - 1:
            continue
        lo = int(f)
        if lo == in_size - 1:
            m[i, lo] += 1.0
            continue
        lam = F32(c - f)
        m[i, lo] += float(F32(1) - lam)
        m[i, lo + 1] += float(lam)
    return m


def upsample_bilinear2d_backward(
    grad_nchw: np.ndarray,
    in_hw: tuple[int, int],
    align_corners: bool,
    scales_h: float,
    scales_w: float,
    nhwc: bool = False,
) -> np.ndarray:
    """Reference gradient of the forward input, NCHW, float64 sums of CANN's float32 weights.
    nhwc: the operator ran in NHWC (CANN reads some sizes in that layout)."""
    g = np.asarray(grad_nchw, dtype=np.float64)
    n, c, out_h, out_w = g.shape
    h, w = in_hw
    if nhwc:
        r_h, r_w, id_h, id_w = cann_upsample_ratios((n, out_h, out_w, c), (n, h, w, c), align_corners, scales_h,
                                                    scales_w, nhwc=True)  # fmt: skip
    else:
        r_h, r_w, id_h, id_w = cann_upsample_ratios((n, c, out_h, out_w), (n, c, h, w), align_corners, scales_h,
                                                    scales_w)  # fmt: skip
    mh = interpolation_matrix(out_h, h, align_corners, r_h, id_h)
    mw = interpolation_matrix(out_w, w, align_corners, r_w, id_w)
    return np.einsum("ncij,iy,jx->ncyx", g, mh, mw, optimize=True)


def cann_cube_windows(out_size: int, in_size: int, align_corners: bool, ratio, queue: int):
    """UpsampleBilinear2dGrad's cube tiles along one axis (ops-cv upsample_bilinear2d_grad tiling
    and kernel): [(t0, t1, k0, k1)]: output tile [t0, t1) of 16 multiplies sources [k0, k1), those
    from max(0, int((t0 - 2) / s) - 1), at most `queue` of them, whose floor index is in [t0-1, t1-1]."""
    r = F32(ratio) if ratio != 0 else F32(in_size) / F32(out_size)
    tiles = []
    for t0 in range(0, in_size, 16):
        t1 = min(t0 + 16, in_size)
        start = max(0, int(F32(t0 - 2) / r) - 1)
        ks = []
        for c in range(start, min(out_size, start + queue)):
            pos = F32(c) * F32(ratio) if align_corners else (F32(c) + F32(0.5)) * F32(ratio) - F32(0.5)
            if not align_corners and not pos > 0:
                pos = F32(0)
            f = int(np.floor(pos))
            if f >= t1:
                break
            if f >= t0 - 1 or ks:
                ks.append(c)
        tiles.append((t0, t1, ks[0], ks[-1] + 1) if ks else (t0, t1, 0, 0))
    return tiles


def upsample_grad_cube(g_nchw, in_hw, align_corners, scales_h=0.0, scales_w=0.0):
    """The cube's view of UpsampleBilinear2dGrad (910B): W pass then H pass, each output tile the
    float32 matmul of its source window with the bilinear weights, zeros included, so a
    non-finite gradOut value spreads over whole tiles (0 * Inf = NaN). NCHW, float32."""
    g = np.asarray(g_nchw, F32)
    n, c, out_h, out_w = g.shape
    h, w = in_hw
    r_h, r_w, id_h, id_w = cann_upsample_ratios((n, c, out_h, out_w), (n, c, h, w), align_corners, scales_h, scales_w)
    step_h = F32(r_h) if r_h != 0 else F32(h) / F32(out_h)
    step_w = F32(r_w) if r_w != 0 else F32(w) / F32(out_w)
    queue = max(int(F32(20) / step_w) + 8, int(F32(20) / step_h) + 8)
    queue = (queue + 7) // 8 * 8

    def axis(x, size_in, size_out, ratio, identity):  # x: (..., size_in) -> (..., size_out)
        y = np.zeros((*x.shape[:-1], size_out), F32)
        if identity:  # the pass is skipped: a copy
            k = min(size_in, size_out)
            y[..., :k] = x[..., :k]
            return y
        m = interpolation_matrix(size_in, size_out, align_corners, ratio).astype(F32)
        with np.errstate(invalid="ignore", over="ignore"):
            for t0, t1, k0, k1 in cann_cube_windows(size_in, size_out, align_corners, ratio, queue):
                if k1 > k0:
                    y[..., t0:t1] = np.matmul(x[..., k0:k1], m[k0:k1, t0:t1])
        return y

    mid = axis(g, out_w, w, r_w, id_w)
    return np.swapaxes(axis(np.swapaxes(mid, -1, -2), out_h, h, r_h, id_h), -1, -2)


def torch_interpolation_matrix(out_size: int, in_size: int, align_corners: bool, scale) -> np.ndarray:
    """PyTorch's rule (float64, clamped at the last index), for the cases CANN agrees with it."""
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


# ---- upsample_bilinear2d (forward) --------------------------------------------
#
# Written from CANN's op_api (image/upsample_bilinear2d/op_host/op_api/
# aclnn_upsample_bilinear_2d.cpp and upsample_bilinear2d.cpp), the AscendC
# tiling (compute_scale_value) and kernel (upsample_bilinear2d_common.h:
# getCenterValue, getLambda), and the TBE ResizeBilinearV2 of CANN 8.1.RC1
# (calculate_scale, calcu_out_in_idx), for the 910B branch.


def cann_upsample_forward_plan(in_hw, out_hw, align_corners, scales_h, scales_w, dtype, nhwc=False):
    """(path, ratio_h, ratio_w, skip_h, skip_w) of the 910B op_api and tiling; path is
    "copy", "upsample" (AscendC UpsampleBilinear2d) or "resize" (ResizeBilinearV2)."""
    (h, w), (oh, ow) = in_hw, out_hw
    is_bf16 = np.dtype(dtype).name == "bfloat16"

    def get_bilinear_scales(i, o, s):
        if o == i:
            return 1.0
        if align_corners:
            return (i - 1) / (o - 1) if o > 1 else 0.0
        return 1.0 / s if s > 0 else i / o

    def upsample_predicates():
        if abs(scales_w - 2.0) < 1e-9 and abs(scales_h - 2.0) < 1e-9 and not is_bf16:
            return False
        if abs(scales_h) < 1e-12 or abs(scales_w) < 1e-12:
            return False
        sh1, sw1 = scales_h, scales_w
        if abs(scales_h - 1.0) < 1e-9 and abs(scales_w - 1.0) < 1e-9 and (oh != h or ow != w):
            if not is_bf16:
                return False
            sh1 = sw1 = 0.0
        if F32(get_bilinear_scales(h, oh, sh1)) > 50 or F32(get_bilinear_scales(w, ow, sw1)) > 50:
            return False
        return int(h * scales_h) == oh and int(w * scales_w) == ow

    aicore = np.dtype(dtype) != np.float64
    if aicore and not nhwc and upsample_predicates():
        if (h, w) == (oh, ow):
            return "copy", F32(1), F32(1), False, False

        def tiling(i, o, real):
            if o == i:
                return F32(1)
            if align_corners:
                return F32(i - 1) / F32(o - 1) if o > 1 else F32(0)
            return real if real > 0 else F32(i) / F32(o)

        both_one = abs(scales_h - 1.0) <= 1e-9 and abs(scales_w - 1.0) <= 1e-9
        real_h = F32(0) if both_one else F32(1.0 / scales_h)
        real_w = F32(0) if both_one else F32(1.0 / scales_w)
        r_h, r_w = tiling(h, oh, real_h), tiling(w, ow, real_w)
        skip_w = abs(float(r_w) - 1.0) < 1e-6
        skip_h = abs(float(r_h) - 1.0) < 1e-6 and not skip_w
        return "upsample", r_h, r_w, skip_h, skip_w

    def resize(i, o):
        return F32(i - 1) / F32(o - 1) if align_corners and o > 1 else F32(i) / F32(o)

    return "resize", resize(h, oh), resize(w, ow), False, False


def forward_axis(out_size: int, in_size: int, align_corners: bool, ratio, skip=False):
    """(lo, hi, wl, wh) per output index, in float32 as the kernels compute them."""
    i = np.arange(out_size)
    if skip:
        lo = np.minimum(i, in_size - 1)
        return lo, lo, np.ones(out_size, F32), np.zeros(out_size, F32)
    r = F32(ratio)
    fi = i.astype(F32)
    c = r * fi if align_corners else r * (fi + F32(0.5)) - F32(0.5)
    c = np.where(c > 0, c, F32(0)).astype(F32)
    lo = np.where(c < in_size - 1, np.trunc(c), in_size - 1).astype(np.int64)
    lam = np.where(lo < in_size - 1, np.clip(c - lo.astype(F32), F32(0), F32(1)), F32(0)).astype(F32)
    hi = np.where(lo < in_size - 1, lo + 1, lo)
    return lo, hi, (F32(1) - lam).astype(F32), lam


def cann_forward_slide(out_size, rows, w_pass, ratio, cores, one_pixel):
    """UpsampleBilinear2d's tile length along one axis (ops-cv tiling getSlideSizeByScale)."""
    best, most = 16, 0
    for slide in (16, 32, 48, 64, 128):
        tiles = -(-out_size // slide)
        need = cores
        if tiles < cores:
            groups = cores // tiles
            per = -(-rows // groups)
            if w_pass:
                per = max(per, slide)
            need = min(cores, tiles * min(groups, -(-rows // per)))
        if need >= most:
            most, best = need, slide
    if one_pixel:
        best = 1024
    r = float(ratio)
    cap = 128 if r <= 1 else 64 if r <= 5 else 48 if r <= 8 else 32 if r <= 20 else 16
    return min(best, cap)


def upsample_forward_cube(x_nchw, out_hw, align_corners, scales_h, scales_w, cores):
    """The cube's view of UpsampleBilinear2d (910B): each output tile is the float32 matmul of its
    source window [xMin, xMax + 2) with the bilinear weights, zeros included, so a non-finite
    input spreads over whole tiles (0 * Inf = NaN). NCHW float32, on the "upsample" path."""
    x = np.asarray(x_nchw, F32)
    n, c, h, w = x.shape
    path, r_h, r_w, skip_h, skip_w = cann_upsample_forward_plan((h, w), out_hw, align_corners, scales_h, scales_w,
                                                                np.float32)  # fmt: skip
    assert path == "upsample", path

    def center(j, r):
        v = F32(r) * F32(j) if align_corners else F32(r) * (F32(j) + F32(0.5)) - F32(0.5)
        return max(v, F32(0))

    def axis(v, size_in, size_out, r, skip, rows, w_pass):  # v: (..., size_in)
        lo, hi, wl, wh = forward_axis(size_out, size_in, align_corners, r, skip)
        m = np.zeros((size_in, size_out), F32)
        for j in range(size_out):
            m[lo[j], j] += wl[j]
            if hi[j] != lo[j]:
                m[hi[j], j] += wh[j]
        if skip:
            return np.take(v, lo, axis=-1)
        slide = cann_forward_slide(size_out, rows, w_pass, r, cores, h == 1 and w == 1)
        tiles = -(-size_out // slide)
        whole = tiles // cores * cores
        y = np.zeros((*v.shape[:-1], size_out), F32)
        with np.errstate(invalid="ignore", over="ignore"):
            for t in range(tiles):
                t0 = t * slide
                length = slide if t < whole else min(slide, size_out - t0)  # whole tiles keep phantom outputs
                a, b = int(center(t0, r)), int(center(t0 + length - 1, r))
                a = min(a, size_in - 1)
                k = max(b - a + min(max(min(b + 2, size_in) - b, 0), 2), 1)
                k = min(k, size_in - a)
                t1 = min(t0 + length, size_out)
                y[..., t0:t1] = np.matmul(v[..., a : a + k], m[a : a + k, t0:t1])
        return y

    mid = axis(x, w, out_hw[1], r_w, skip_w, n * c * h, True)
    out = axis(np.swapaxes(mid, -1, -2), h, out_hw[0], r_h, skip_h, n * c, False)
    return np.swapaxes(out, -1, -2)


def upsample_bilinear2d_forward(x_nchw, out_hw, align_corners, scales_h, scales_w, dtype=np.float32, nhwc=False):
    """CANN's result, NCHW float32 (bit for bit): the W pass, then the H pass, in float32."""
    x = np.asarray(x_nchw).astype(F32)
    h, w = x.shape[2:]
    path, r_h, r_w, skip_h, skip_w = cann_upsample_forward_plan((h, w), out_hw, align_corners, scales_h, scales_w,
                                                                dtype, nhwc)  # fmt: skip
    if path == "copy":
        return x.copy()
    lo, hi, wl, wh = forward_axis(out_hw[1], w, align_corners, r_w, skip_w)
    t = (wl * x[..., lo] + wh * x[..., hi]).astype(F32)  # the W pass: (N, C, H, outW)
    lo, hi, wl, wh = forward_axis(out_hw[0], h, align_corners, r_h, skip_h)
    if skip_h:
        return t[:, :, lo, :]
    return (wl[:, None] * t[:, :, lo, :] + wh[:, None] * t[:, :, hi, :]).astype(F32)


# ---- roi_align_v2_backward ----------------------------------------------------
#
# A float32 model of CANN's kernels, written from their source: the 910B TBE
# kernel (opp/built-in/op_impl/ai_core/tbe/impl/dynamic/roi_align_grad.py in
# CANN 8.1.RC1) and Ascend950's SIMT kernel
# (objdetect/roi_align_grad/op_kernel/arch35/roi_align_grad_simt.h in ops-cv).


def _int32_cast(v: int) -> int:
    """C's (int32_t) of an int64 (two's complement wrap), as the tiling casts samplingRatio."""
    v &= 0xFFFFFFFF
    return v - (1 << 32) if v >= 1 << 31 else v


def _ceil_int32(v) -> int:
    v = float(v)
    if v != v:
        return 0
    return int(min(max(math.ceil(v), -(2**31)), 2**31 - 1))


def cann_roi_axis(start, end, pooled, ratio, aligned, soc950):
    """(start, bin, grid, count, norm) of one box axis in float32, as the kernel has it."""
    length = F32(end) - F32(start)
    if not aligned and length < 1:
        length = F32(1)
    ratio32 = _int32_cast(ratio)
    if soc950:
        bin_ = length / F32(pooled)
        count = ratio32 if ratio32 > 0 else max(_ceil_int32(length / F32(pooled)), 1)
        return F32(start), bin_, None, count, F32(1) / F32(count)
    bin_ = length * (F32(1) / F32(pooled))
    if ratio32 > 0:
        count, grid = ratio32, bin_ * (F32(1) / F32(ratio))
    else:
        count = _ceil_int32(bin_)
        grid = bin_ / F32(count) if count else F32(np.nan)
    return F32(start), bin_, grid, count, F32(1) / F32(count) if count else F32(0)


def cann_roi_geometry(box, scale, pooled_h, pooled_w, ratio, aligned, batch, soc950=False):
    """(image, y axis, x axis) of a box, or None when it contributes nothing."""
    box = np.asarray(box, dtype=np.float32)
    image = (
        math.trunc(float(box[0]))
        if soc950 and np.isfinite(box[0])
        else (math.floor(float(box[0])) if np.isfinite(box[0]) else -1)
    )
    if not 0 <= image < batch:
        return None
    x1, y1, x2, y2 = (v * F32(scale) for v in box[1:])
    if aligned:
        x1, y1, x2, y2 = (v - F32(0.5) for v in (x1, y1, x2, y2))
    ay = cann_roi_axis(y1, y2, pooled_h, ratio, aligned, soc950)
    ax = cann_roi_axis(x1, x2, pooled_w, ratio, aligned, soc950)
    if not all(np.isfinite([x1, y1, ay[1], ax[1]])) or ay[3] <= 0 or ax[3] <= 0:
        return None
    return image, ay, ax


def cann_roi_samples(axis, pooled, soc950):
    """Positions of every sample, shape (pooled, count), float32."""
    start, bin_, grid, count, _ = axis
    p = np.arange(pooled, dtype=np.float32)[:, None]
    i = np.arange(count, dtype=np.float32)[None, :]
    if soc950:
        return (start + p * bin_) + (i + F32(0.5)) * bin_ / F32(count)
    k = np.arange(pooled, dtype=np.int64)[:, None] * count + np.arange(count, dtype=np.int64)[None, :]
    return (k.astype(np.float32) + F32(0.5)) * grid + start


def cann_roi_pixels(t, n):
    """valid, lo, hi, weight of lo, weight of hi (float32) for sample positions t along an axis of n."""
    valid = (t >= -1) & (t <= n)
    x = np.maximum(np.where(valid, t, 0), F32(0)).astype(np.float32)
    lo = np.floor(x).astype(np.int64)
    last = lo >= n - 1
    lo = np.where(last, n - 1, lo)
    hi = np.where(last, n - 1, lo + 1)
    frac = np.where(last, F32(0), x - lo.astype(np.float32)).astype(np.float32)
    return valid, lo, hi, (F32(1) - frac), frac


def roi_align_backward(
    grad_output: np.ndarray,
    boxes: np.ndarray,
    input_shape: tuple[int, int, int, int],
    spatial_scale: float,
    sampling_ratio: int,
    aligned: bool,
    soc950: bool = False,
) -> np.ndarray:
    """Direct model: each sample scatters g * wy * wx to its four targets (float32 geometry and
    per-axis weights, each scaled by 1/count on its axis; sums in float64)."""
    g_all = np.asarray(grad_output, dtype=np.float64)
    k_count, _, pooled_h, pooled_w = g_all.shape
    _, _, h, w = input_shape
    out = np.zeros(input_shape)
    for k in range(k_count):
        geo = cann_roi_geometry(boxes[k], spatial_scale, pooled_h, pooled_w, sampling_ratio, aligned,
                                input_shape[0], soc950)  # fmt: skip
        if geo is None:
            continue
        b, ay, ax = geo
        vy, yl, yh, wyl, wyh = cann_roi_pixels(cann_roi_samples(ay, pooled_h, soc950), h)
        vx, xl, xh, wxl, wxh = cann_roi_pixels(cann_roi_samples(ax, pooled_w, soc950), w)
        wyl, wyh = (wyl * ay[4]).astype(np.float64) * vy, (wyh * ay[4]).astype(np.float64) * vy
        wxl, wxh = (wxl * ax[4]).astype(np.float64) * vx, (wxh * ax[4]).astype(np.float64) * vx
        plane = out[b]
        # (ph, iy, pw, ix) grids of the four targets.
        for yy, wy in ((yl, wyl), (yh, wyh)):
            for xx, wx in ((xl, wxl), (xh, wxh)):
                wgt = wy[:, :, None, None] * wx[None, None, :, :]
                gk = g_all[k][:, :, None, :, None] * wgt[None]  # (C, PH, sH, PW, sW)
                yi = np.broadcast_to(yy[:, :, None, None], wgt.shape)
                xi = np.broadcast_to(xx[None, None, :, :], wgt.shape)
                np.add.at(plane, (slice(None), yi.ravel(), xi.ravel()), gk.reshape(gk.shape[0], -1))
    return out


def roi_axis_weights(start: float, step: float, samples: int, n: int, norm: float) -> np.ndarray:
    """Summed weights of one bin's samples along one axis, by explicit enumeration in float64
    (for sample counts too large for the float32 model)."""
    m = np.arange(samples, dtype=np.float64)
    v = start + (m + 0.5) * step
    valid = (v >= -1.0) & (v <= n)
    v = np.clip(v, 0, n - 1)
    lo = np.floor(v).astype(np.int64)
    hi = np.minimum(lo + 1, n - 1)
    f = v - lo
    return (np.bincount(lo[valid], 1 - f[valid], minlength=n) + np.bincount(hi[valid], f[valid], minlength=n)) * norm


def roi_align_backward_separable(grad_output, boxes, input_shape, spatial_scale, sampling_ratio, aligned):
    """Reference for huge sample counts: CANN's float32 geometry, per-axis enumeration in float64
    (the weight and validity rule are products of a y part and an x part)."""
    g_all = np.asarray(grad_output, dtype=np.float64)
    _, _, pooled_h, pooled_w = g_all.shape
    _, _, h, w = input_shape
    out = np.zeros(input_shape)
    for k in range(g_all.shape[0]):
        geo = cann_roi_geometry(boxes[k], spatial_scale, pooled_h, pooled_w, sampling_ratio, aligned, input_shape[0])
        if geo is None:
            continue
        b, (sy, _, gy, cy, ny), (sx, _, gx, cx, nx) = geo
        ay = np.stack([roi_axis_weights(float(sy) + float(gy) * p * cy, float(gy), cy, h, float(ny))
                       for p in range(pooled_h)])  # fmt: skip
        axx = np.stack([roi_axis_weights(float(sx) + float(gx) * p * cx, float(gx), cx, w, float(nx))
                        for p in range(pooled_w)])  # fmt: skip
        out[b] += np.einsum("cpq,py,qx->cyx", g_all[k], ay, axx)
    return out


def random_boxes(rng: np.random.Generator, k: int, batch: int, h: int, w: int, scale: float) -> np.ndarray:
    """Benchmark-style boxes: corners inside 0.8 of the image, sizes 8 .. 8 + 0.3 of it."""
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


# ---- roi_align_v2 / roi_align (forward) -------------------------------------
#
# A model of CANN 8.1.RC1's TBE ROIAlign (opp/built-in/op_impl/ai_core/tbe/
# impl/dynamic/roi_align.py): _calc_fm_start_end_coordinate, _calc_roi_size,
# _calc_grid_size, _calc_bilinear_interpolate_coordinate and the per-sample
# (p1 w1 + p2 w2) + (p3 w3 + p4 w4) pooled in order, in the input's precision.


def cann_roi_align_forward(x, boxes, pooled_h, pooled_w, spatial_scale, sampling_ratio, roi_end_mode,
                           max_mode=False):  # fmt: skip
    """CANN's ROIAlign output (K, C, pooled_h, pooled_w) in x's dtype (float32 or float16), bit for bit.

    boxes: (K, 5) rows (image index, x1, y1, x2, y2) as the kernel receives them. Boxes the kernel
    leaves unwritten (image outside [0, N), no sample) are zeros here, as the emulator writes them."""
    dt = np.dtype(x.dtype)
    half = dt == np.float16
    n, c, h, w = x.shape
    fm = np.ascontiguousarray(np.asarray(x).transpose(0, 2, 3, 1))  # channels last, x's dtype
    b32 = np.asarray(boxes).astype(F32)
    scale = F32(spatial_scale)
    rec_h, rec_w = F32(1) / F32(pooled_h), F32(1) / F32(pooled_w)
    samples = _int32_cast(int(sampling_ratio))
    out = np.zeros((len(b32), c, pooled_h, pooled_w), dt)
    init = dt.type(-65504.0 if half else -np.finfo(F32).max) if max_mode else dt.type(0)

    def axis(start, step, count, size, pooled):
        taps = []
        for k in range(pooled * count):
            t = (F32(k) + F32(0.5)) * step + start
            xx = t if t > 0 else F32(0)
            lo = min(int(np.floor(xx)), size - 1)
            hi = min(int(np.floor(xx)) + 1, size - 1)
            xx = min(xx, F32(size - 1))
            wh = F32(xx - F32(lo))
            wl = F32(1) - wh
            if t < -1 or t > size:
                wl = wh = F32(0)
            if not max_mode:
                wl, wh = F32(wl / F32(count)), F32(wh / F32(count))
            taps.append((lo, hi, wl, wh))
        return taps

    for k, (idx, x1, y1, x2, y2) in enumerate(b32):
        image = int(np.floor(idx))
        x0s, y0s, x1s, y1s = x1 * scale, y1 * scale, x2 * scale, y2 * scale
        if roi_end_mode == 1:
            x1s, y1s = x1s + scale, y1s + scale
        elif roi_end_mode > 1:
            x0s, y0s, x1s, y1s = (v - F32(0.5) for v in (x0s, y0s, x1s, y1s))
        rw, rh = F32(x1s - x0s), F32(y1s - y0s)
        if roi_end_mode < 2:
            rw, rh = (rw if rw > 1 else F32(1)), (rh if rh > 1 else F32(1))
        bw, bh = F32(rw * rec_w), F32(rh * rec_h)
        if samples > 0:
            cx = cy = samples
            sx, sy = F32(bw * (F32(1) / F32(sampling_ratio))), F32(bh * (F32(1) / F32(sampling_ratio)))
        else:
            cx, cy = _ceil_int32(bw), _ceil_int32(bh)
            sx, sy = (F32(bw / F32(cx)) if cx else F32(np.nan)), (F32(bh / F32(cy)) if cy else F32(np.nan))
        if not 0 <= image < n or cx <= 0 or cy <= 0:
            continue
        tx, ty = axis(x0s, sx, cx, w, pooled_w), axis(y0s, sy, cy, h, pooled_h)
        img = fm[image]
        for i in range(pooled_h):
            for j in range(pooled_w):
                acc = np.full(c, init, dt)
                for iy in range(cy):
                    ylo, yhi, ywl, ywh = ty[i * cy + iy]
                    for ix in range(cx):
                        xlo, xhi, xwl, xwh = tx[j * cx + ix]
                        ws = [F32(ywl * xwl), F32(ywl * xwh), F32(ywh * xwl), F32(ywh * xwh)]
                        ws = [dt.type(v) for v in ws]
                        p = [img[ylo, xlo], img[ylo, xhi], img[yhi, xlo], img[yhi, xhi]]
                        v = (p[0] * ws[0] + p[1] * ws[1]) + (p[2] * ws[2] + p[3] * ws[3])
                        acc = np.maximum(acc, v) if max_mode else acc + v
                out[k, :, i, j] = acc
    return out


ROI_FORWARD_SCALES = [1.0, 0.5, 0.25, float(np.float32(1 / 3)), 0.125]


def roi_forward_case(i, dtype=np.float32):
    """RoIAlign forward test case i: (x, boxes, scale, pooled h, pooled w); boxes cross the edges when i % 4 == 3."""
    rng = np.random.default_rng(3000 + i)
    n, c, h, w = int(rng.integers(1, 3)), int(rng.integers(1, 6)), int(rng.integers(3, 30)), int(rng.integers(3, 30))
    scale = ROI_FORWARD_SCALES[i % len(ROI_FORWARD_SCALES)]
    k = int(rng.integers(1, 9))
    boxes = random_boxes(rng, k, n, h, w, scale)
    if i % 4 == 3:  # boxes crossing the map's edges
        boxes[:, 1:] += rng.uniform(-20, 20, (k, 4)).astype(np.float32)
    x = rng.standard_normal((n, c, h, w)).astype(dtype)
    return x, boxes.astype(dtype), scale, int(rng.integers(1, 5)), int(rng.integers(1, 5))


def nearest_resize(x, out_sizes, ratios, exact=False, channels_last=False):
    """Nearest(-exact) resize as CANN's kernels index it: per spatial axis, source
    min(floor(float32(i [+ 0.5]) * float32(ratio)), in - 1); elements copied whole (any dtype)."""
    axes = list(range(1, 1 + len(out_sizes))) if channels_last else list(range(2, 2 + len(out_sizes)))
    y = x
    for axis, n_out, ratio in zip(axes, out_sizes, ratios):
        i = np.arange(n_out, dtype=F32) + (F32(0.5) if exact else F32(0))
        src = np.floor((i * F32(ratio)).astype(F32)).astype(np.int64)
        y = np.take(y, np.minimum(src, x.shape[axis] - 1), axis=axis)
    return y


def cann_trilinear3d(x, out, align, scales=(0.0, 0.0, 0.0)):
    """ResizeUpsampleTrilinear (Atlas A2): W, then H, then D, each pass in float32 with the op_api's ratio
    (1 for an unchanged size; 1 / scale only when all three are positive), skipped at 1 but for D when all are."""
    y = x.astype(np.float32)
    all_scales = all(s > 0 for s in scales)
    ratios = []
    for n_in, n_out, s in zip(x.shape[2:], out, scales):
        if n_in == n_out:
            r = F32(1)
        elif align:
            r = F32(n_in - 1) / F32(n_out - 1) if n_out > 1 else F32(0)
        else:
            r = F32(1.0 / s) if all_scales else F32(n_in) / F32(n_out)
        ratios.append(r)
    unit = [abs(r - 1) < 1e-6 for r in ratios]
    for axis in (4, 3, 2):
        k = axis - 2
        skip = unit[k] and not (axis == 2 and all(unit))
        lo, hi, wl, wh = forward_axis(out[k], x.shape[axis], align, ratios[k], skip)
        shape = [1] * 5
        shape[axis] = -1
        a, b = np.take(y, lo, axis=axis), np.take(y, hi, axis=axis)
        y = (wl.reshape(shape) * a + wh.reshape(shape) * b).astype(np.float32) if not skip else a
    return y


def nearest_grad(g, in_sizes, steps, exact=False, channels_last=False):
    """Nearest(-exact) gradient as CANN's kernels gather it: along each spatial axis (innermost first), input
    index i sums gradOut over [ceil(float32(i) * s [- 0.5]), ceil(float32(i + 1) * s [- 0.5])), clamped, in float64."""
    axes = list(range(1, 1 + len(in_sizes))) if channels_last else list(range(2, 2 + len(in_sizes)))
    y = g.astype(np.float64)
    shift = F32(0.5) if exact else F32(0)
    for axis, n_in, s in reversed(list(zip(axes, in_sizes, steps))):
        n_out = y.shape[axis]
        i = np.arange(n_in + 1, dtype=F32)
        edges = np.clip(np.ceil((i * F32(s) - shift).astype(F32)), 0, n_out).astype(np.int64)
        parts = [np.take(y, range(a, b), axis=axis).sum(axis=axis, keepdims=True) for a, b in zip(edges, edges[1:])]
        y = np.concatenate(parts, axis=axis)
    return y


def nearest_scatter(g, in_sizes, ratios, channels_last=False):
    """A nearest gradient as CANN's TBE ResizeNearestNeighborV2Grad scatters it: along each spatial axis
    (innermost first), gradOut index j adds to input min(floor(float32(j) * float32(ratio)), in - 1), in float64."""
    axes = list(range(1, 1 + len(in_sizes))) if channels_last else list(range(2, 2 + len(in_sizes)))
    y = g.astype(np.float64)
    for axis, n_in, ratio in reversed(list(zip(axes, in_sizes, ratios))):
        j = np.arange(y.shape[axis], dtype=F32)
        dst = np.minimum(np.floor((j * F32(ratio)).astype(F32)).astype(np.int64), n_in - 1)
        shape = list(y.shape)
        shape[axis] = n_in
        acc = np.zeros(shape)
        for k, d in enumerate(dst):
            index = [slice(None)] * y.ndim
            index[axis], src = d, [slice(None)] * y.ndim
            src[axis] = k
            acc[tuple(index)] += y[tuple(src)]
        y = acc
    return y


def cann_resize_bilinear(x, out_hw, channels_last=False):
    """ResizeBilinearV2 (TBE, half-pixel centres): per output pixel the four taps of
    max((dst + 0.5) * float32(in / out) - 0.5, 0) on each axis, weighed by 2-D products and added as
    ((TL w00 + TR w01) + BL w10) + BR w11, all in float32."""
    xs = np.moveaxis(x, -1, 1) if channels_last else x
    xs = xs.astype(F32)
    taps = []
    for n_in, n_out in zip(xs.shape[2:], out_hw):
        c = np.maximum((np.arange(n_out, dtype=F32) + F32(0.5)) * (F32(n_in) / F32(n_out)) - F32(0.5), F32(0))
        lo = np.floor(c).astype(np.int64)
        inside = lo < n_in - 1
        wh = np.where(inside, c - lo.astype(F32), F32(0)).astype(F32)
        lo = np.where(inside, lo, n_in - 1)
        taps.append((lo, np.where(inside, lo + 1, n_in - 1), (F32(1) - wh).astype(F32), wh))
    (ylo, yhi, ywl, ywh), (xlo, xhi, xwl, xwh) = taps
    tl, tr = xs[:, :, ylo][..., xlo], xs[:, :, ylo][..., xhi]
    bl, br = xs[:, :, yhi][..., xlo], xs[:, :, yhi][..., xhi]
    w00, w01 = np.outer(ywl, xwl).astype(F32), np.outer(ywl, xwh).astype(F32)
    w10, w11 = np.outer(ywh, xwl).astype(F32), np.outer(ywh, xwh).astype(F32)
    y = (((tl * w00).astype(F32) + (tr * w01).astype(F32)).astype(F32) + (bl * w10).astype(F32)).astype(F32)
    y = (y + (br * w11).astype(F32)).astype(F32)
    return np.moveaxis(y, 1, -1) if channels_last else y


# ---- the runtime's random-number task (aclrtRandomNumAsync) ------------------
#
# Philox4x32-10 as Salmon et al. define it (Random123's philox4x32 with 10 rounds), checked against their
# known-answer vectors in test_builtin_tasks.py, then the emulator's documented use of it: the 128-bit counter
# of four little-endian words, one block per four draws, a float from a draw's top 24 bits.

_PHILOX_M = (0xD2511F53, 0xCD9E8D57)
_PHILOX_W = (0x9E3779B9, 0xBB67AE85)
_MASK32 = 0xFFFFFFFF


def philox4x32_10(key: tuple[int, int], ctr: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    """One Philox4x32-10 block: four 32-bit words from a 64-bit key and a 128-bit counter."""
    k0, k1 = key
    c0, c1, c2, c3 = ctr
    for _ in range(10):
        p0, p1 = _PHILOX_M[0] * c0, _PHILOX_M[1] * c2
        c0, c1, c2, c3 = (p1 >> 32) ^ c1 ^ k0, p1 & _MASK32, (p0 >> 32) ^ c3 ^ k1, p0 & _MASK32
        k0, k1 = (k0 + _PHILOX_W[0]) & _MASK32, (k1 + _PHILOX_W[1]) & _MASK32
    return c0, c1, c2, c3


class PhiloxStream:
    """The draws one random-number task takes: whole blocks from the counter on."""

    def __init__(self, seed: int, counter: int):
        self.key = (seed & _MASK32, seed >> 32 & _MASK32)
        self.counter = counter
        self.words: list[int] = []

    def next(self) -> int:
        if not self.words:
            ctr = tuple(self.counter >> (32 * i) & _MASK32 for i in range(4))
            self.words = list(philox4x32_10(self.key, ctr))  # type: ignore[arg-type]
            self.counter = (self.counter + 1) % (1 << 128)
        return self.words.pop(0)

    def unit(self) -> np.float32:
        return np.float32(self.next() >> 8) * np.float32(2.0**-24)

    def normal(self) -> float:
        u1, u2 = 1.0 - float(self.unit()), float(self.unit())
        return math.sqrt(-2.0 * math.log(u1)) * math.cos(2.0 * math.pi * u2)
