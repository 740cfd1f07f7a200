"""Benchmarks of spec/performance.md: workloads U1-U6, R1-R4, T2, copy bandwidth, thread scaling,
and the forward operators on the same shapes (U1-fwd: the upsample whose backward U1 is; R1-fwd:
aclnnRoiAlignV2 on R1's feature map and boxes).

Method (issue 16): ours and the peer (PyTorch CPU / torchvision, imported as
users run it, same thread count) in one process, alternating for --rounds
rounds; in each, the median of --repeat calls of each side after a warm-up.
Reported: medians over the rounds, the median of the per-round ratios
(peer / ours), the copy bandwidth measured in each round, and both of our
paths: phase one + phase two + synchronize with the tensors already in
emulated device memory, and the array API with a fresh result per call
(with its minor page faults per call).

    python bench/bench_ops.py                 # everything, all cores
    python bench/bench_ops.py U1 R1 --threads 1
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

import numpy as np

import aclnn_emu
from aclnn_emu import ffi, lib

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from reference import random_boxes  # noqa: E402

try:
    import torch
except ImportError:  # pragma: no cover
    torch = None  # type: ignore[assignment]
try:
    import torchvision  # noqa: F401  (registers torch.ops.torchvision)
except ImportError:  # pragma: no cover
    torchvision = None


class UpsampleCase(NamedTuple):
    """An upsample workload: N, C, input H x W, output oh x ow, alignCorners, layout, dtype."""

    n: int
    c: int
    h: int
    w: int
    oh: int
    ow: int
    align: bool
    fmt: str
    dtype: str


class RoiCase(NamedTuple):
    """A RoIAlign workload: batch, channels, feature H x W, boxes, pooled ph x pw, samplingRatio, aligned,
    spatialScale."""

    b: int
    c: int
    h: int
    w: int
    k: int
    ph: int
    pw: int
    ratio: int
    aligned: bool
    scale: float


UPSAMPLE = {
    "U1": UpsampleCase(n=8, c=64, h=128, w=128, oh=256, ow=256, align=False, fmt="NCHW", dtype="float32"),
    "U2": UpsampleCase(n=8, c=64, h=128, w=128, oh=256, ow=256, align=True, fmt="NCHW", dtype="float32"),
    "U3": UpsampleCase(n=4, c=32, h=64, w=64, oh=512, ow=512, align=False, fmt="NCHW", dtype="float32"),
    "U4": UpsampleCase(n=2, c=256, h=100, w=152, oh=200, ow=304, align=False, fmt="NHWC", dtype="float32"),
    "U5-fp16": UpsampleCase(n=8, c=64, h=128, w=128, oh=256, ow=256, align=False, fmt="NCHW", dtype="float16"),
    "U5-bf16": UpsampleCase(n=8, c=64, h=128, w=128, oh=256, ow=256, align=False, fmt="NCHW", dtype="bfloat16"),
    "U6": UpsampleCase(n=8, c=64, h=256, w=256, oh=128, ow=128, align=False, fmt="NCHW", dtype="float32"),
}
ROI = {
    "R1": RoiCase(b=2, c=256, h=200, w=304, k=512, ph=7, pw=7, ratio=2, aligned=True, scale=0.25),
    "R2": RoiCase(b=2, c=256, h=200, w=304, k=512, ph=7, pw=7, ratio=0, aligned=True, scale=0.25),
    "R3": RoiCase(b=2, c=256, h=50, w=76, k=512, ph=14, pw=14, ratio=2, aligned=False, scale=0.0625),
    "R4": RoiCase(b=8, c=64, h=64, w=64, k=4096, ph=7, pw=7, ratio=2, aligned=True, scale=0.125),
}


# Each side runs for at least this long before it is timed. On these VMs a core left idle (a single-threaded
# numpy copy, the other side's one-thread peer, a pause) comes back slowly: two-thread calls just after one
# took up to 2x their time (S1-linear 4.5-8 ms against 3.5-4 ms), back after 0.1-0.2 s of calls.
WARM_SECONDS = 0.2


def warm(fn, calls: int = 1) -> None:
    """At least `calls` calls of fn, and more until WARM_SECONDS have passed."""
    start = time.perf_counter()
    done = 0
    while done < calls or time.perf_counter() - start < WARM_SECONDS:
        fn()
        done += 1


def median_time(fn, repeat: int, warmup: int = 1) -> float:
    if warmup:
        warm(fn, warmup)
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def array_api(fn, repeat: int) -> tuple[float, float]:
    """(median seconds, minor page faults per call) of an array-level call that allocates its result."""
    import resource

    warm(fn)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    t = median_time(fn, repeat, warmup=0)
    return t, (resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before) / repeat


def np_dtype(name: str):
    if name == "bfloat16":
        import ml_dtypes

        return np.dtype(ml_dtypes.bfloat16)
    return np.dtype(name)


def device_tensor(array: np.ndarray, fmt: str, keep: list):
    """Copy ``array`` into emulated device memory and describe it with a tensor."""
    buf = aclnn_emu.DeviceBuffer(max(array.nbytes, 1))
    buf.copy_from_host(array.view(np.uint8).reshape(-1) if array.dtype.itemsize else array)
    t = aclnn_emu.Tensor(buf, shape=array.shape, dtype=array.dtype, format=fmt)
    keep += [buf, t]
    return t


_WORKSPACE: dict = {"buf": None}


def workspace(nbytes: int):
    """A device workspace of at least nbytes, allocated once and reused (as a program keeps it)."""
    buf = _WORKSPACE["buf"]
    if nbytes and (buf is None or buf.nbytes < nbytes):
        buf = _WORKSPACE["buf"] = aclnn_emu.DeviceBuffer(nbytes)
    return buf.handle if nbytes else ffi.NULL


def run_two_phase(get_ws, launch, args):
    ws, ex = ffi.new("uint64_t *"), ffi.new("aclOpExecutor **")
    aclnn_emu.check(get_ws(*args, ws, ex), "phase one")
    aclnn_emu.check(launch(workspace(ws[0]), ws[0], ex[0], ffi.NULL), "phase two")
    aclnn_emu.check(lib.aclrtSynchronizeStream(ffi.NULL), "synchronize")


@dataclass
class Workload:
    """What one workload runs: our device-memory path, our array API, the peer."""

    ours: Callable[[], object]
    array: Callable[[], object] | None = None
    peer: Callable[[], object] | None = None
    peer_name: str = ""
    moved: int = 0  # bytes a pass must move (0: not a bandwidth workload)
    keep: list = field(default_factory=list)  # handles to close afterwards
    array_input: np.ndarray | None = None  # the array API's largest input (its page size is reported)

    def close(self) -> None:
        for x in self.keep[::-1]:
            x.close()


def upsample(name: str) -> Workload:
    p = UPSAMPLE[name]
    dt = np_dtype(p.dtype)
    rng = np.random.default_rng(0)
    n, c, h, w, oh, ow = p.n, p.c, p.h, p.w, p.oh, p.ow
    nhwc = p.fmt == "NHWC"
    g = rng.standard_normal((n, oh, ow, c) if nhwc else (n, c, oh, ow), dtype=np.float32).astype(dt)
    keep: list = []
    tg = device_tensor(g, p.fmt, keep)
    out_shape = (n, h, w, c) if nhwc else (n, c, h, w)
    to = device_tensor(np.zeros(out_shape, dt), p.fmt, keep)
    osz, isz = aclnn_emu.IntArray((oh, ow)), aclnn_emu.IntArray(out_shape)
    keep += [osz, isz]
    args = [tg.handle, osz.handle, isz.handle, p.align, 0.0, 0.0, to.handle]
    fmt = p.fmt
    wl = Workload(
        ours=lambda: run_two_phase(
            lib.aclnnUpsampleBilinear2dBackwardV2GetWorkspaceSize, lib.aclnnUpsampleBilinear2dBackwardV2, args
        ),
        array=lambda: aclnn_emu.upsample_bilinear2d_backward_v2(g, (oh, ow), out_shape, p.align, format=fmt),
        moved=g.nbytes + int(np.prod(out_shape)) * dt.itemsize,
        keep=keep,
        array_input=g,
    )
    if torch is not None:
        tdt = {"float32": torch.float32, "float16": torch.float16, "bfloat16": torch.bfloat16}[p.dtype]
        tg_t = torch.from_numpy(g.astype(np.float32)).to(tdt)
        if nhwc:  # same memory layout as ours: channels_last
            tg_t = tg_t.permute(0, 3, 1, 2)
        wl.peer = lambda: torch.ops.aten.upsample_bilinear2d_backward(tg_t, [oh, ow], [n, c, h, w], p.align, None, None)
        wl.peer_name = "torch " + ("channels_last" if nhwc else "NCHW")
    return wl


def roi(name: str) -> Workload:
    p = ROI[name]
    rng = np.random.default_rng(1)
    boxes = random_boxes(rng, p.k, p.b, p.h, p.w, p.scale)
    g = rng.standard_normal((p.k, p.c, p.ph, p.pw), dtype=np.float32)
    keep: list = []
    tg = device_tensor(g, "NCHW", keep)
    tb = device_tensor(boxes, "ND", keep)
    shape = (p.b, p.c, p.h, p.w)
    ti = device_tensor(np.zeros(shape, np.float32), "NCHW", keep)
    shp = aclnn_emu.IntArray(shape)
    keep.append(shp)
    args = [tg.handle, tb.handle, shp.handle, p.ph, p.pw, p.scale, p.ratio, p.aligned, ti.handle]
    wl = Workload(
        ours=lambda: run_two_phase(lib.aclnnRoiAlignV2BackwardGetWorkspaceSize, lib.aclnnRoiAlignV2Backward, args),
        array=lambda: aclnn_emu.roi_align_v2_backward(g, boxes, shape, None, None, p.scale, p.ratio, p.aligned),
        keep=keep,
    )
    if torch is not None and torchvision is not None:
        tg_t, tb_t = torch.from_numpy(g), torch.from_numpy(boxes)
        wl.peer = lambda: torch.ops.torchvision._roi_align_backward(
            tg_t, tb_t, p.scale, p.ph, p.pw, *shape, p.ratio, p.aligned
        )
        wl.peer_name = "torchvision"
    return wl


def upsample_forward(name: str) -> Workload:
    """The forward of upsample workload `name`: input (N, C, H, W) -> (outH, outW)."""
    p = UPSAMPLE[name.removesuffix("-fwd")]
    dt = np_dtype(p.dtype)
    n, c, h, w, oh, ow = p.n, p.c, p.h, p.w, p.oh, p.ow
    nhwc = p.fmt == "NHWC"
    x = np.random.default_rng(0).standard_normal((n, h, w, c) if nhwc else (n, c, h, w), dtype=np.float32).astype(dt)
    out_shape = (n, oh, ow, c) if nhwc else (n, c, oh, ow)
    keep: list = []
    tx, to = device_tensor(x, p.fmt, keep), device_tensor(np.zeros(out_shape, dt), p.fmt, keep)
    osz = aclnn_emu.IntArray((oh, ow))
    keep.append(osz)
    args = [tx.handle, osz.handle, p.align, 0.0, 0.0, to.handle]
    fmt = p.fmt
    wl = Workload(
        ours=lambda: run_two_phase(lib.aclnnUpsampleBilinear2dGetWorkspaceSize, lib.aclnnUpsampleBilinear2d, args),
        array=lambda: aclnn_emu.upsample_bilinear2d(x, (oh, ow), p.align, format=fmt),
        moved=x.nbytes + int(np.prod(out_shape)) * dt.itemsize,
        keep=keep,
    )
    if torch is not None and p.dtype == "float32":
        xt = torch.from_numpy(x)
        if nhwc:
            xt = xt.permute(0, 3, 1, 2)  # channels_last, as ours
        wl.peer = lambda: torch.nn.functional.interpolate(xt, size=(oh, ow), mode="bilinear", align_corners=p.align)
        wl.peer_name = "torch " + ("channels_last" if nhwc else "NCHW")
    return wl


def roi_forward(name: str) -> Workload:
    """aclnnRoiAlignV2 on the feature map and boxes of RoIAlign workload `name`."""
    p = ROI[name.removesuffix("-fwd")]
    rng = np.random.default_rng(1)
    boxes = random_boxes(rng, p.k, p.b, p.h, p.w, p.scale)
    x = rng.standard_normal((p.b, p.c, p.h, p.w), dtype=np.float32)
    keep: list = []
    tx, tb = device_tensor(x, "NCHW", keep), device_tensor(boxes, "ND", keep)
    to = device_tensor(np.zeros((p.k, p.c, p.ph, p.pw), np.float32), "NCHW", keep)
    args = [tx.handle, tb.handle, p.ph, p.pw, p.scale, p.ratio, p.aligned, to.handle]
    wl = Workload(
        ours=lambda: run_two_phase(lib.aclnnRoiAlignV2GetWorkspaceSize, lib.aclnnRoiAlignV2, args),
        array=lambda: aclnn_emu.roi_align_v2(x, boxes, p.ph, p.pw, p.scale, p.ratio, p.aligned),
        keep=keep,
    )
    if torch is not None and torchvision is not None:
        xt, bt = torch.from_numpy(x), torch.from_numpy(boxes)
        wl.peer = lambda: torchvision.ops.roi_align(xt, bt, (p.ph, p.pw), p.scale, p.ratio, p.aligned)
        wl.peer_name = "torchvision"
    return wl


def python_overhead() -> Workload:
    """T2: the full Python call on a 1x1x2x2 upsample (array in, array out), 200 calls per sample."""
    g = np.ones((1, 1, 2, 2), np.float32)

    def calls() -> None:
        for _ in range(200):
            aclnn_emu.upsample_bilinear2d_backward_v2(g, (2, 2), (1, 1, 1, 1))

    wl = Workload(ours=calls)
    if torch is not None:
        gt = torch.ones((1, 1, 2, 2))

        def peer_calls() -> None:
            for _ in range(200):
                torch.ops.aten.upsample_bilinear2d_backward(gt, [2, 2], [1, 1, 1, 1], False, None, None)

        wl.peer, wl.peer_name = peer_calls, "torch"
    return wl


# The upsample/resize family's other entry points, through the array API against torch's interpolate (and
# its autograd backward), same threads: (function, input shape, sizes, torch mode, channels_last, backward).
FAMILY = {
    "U1-nearest-fwd": ("upsample_nearest2d", (8, 64, 128, 128), (256, 256), "nearest", False, False),
    "U1-nearest": ("upsample_nearest2d_backward", (8, 64, 128, 128), (256, 256), "nearest", False, True),
    "U4-nearest-fwd": ("upsample_nearest2d", (2, 256, 100, 152), (200, 304), "nearest", True, False),
    "U6-nearest-fwd": ("upsample_nearest2d", (8, 64, 256, 256), (128, 128), "nearest", False, False),
    "U1-exact-fwd": ("upsample_nearest_exact2d", (8, 64, 128, 128), (256, 256), "nearest-exact", False, False),
    "U1-exact": ("upsample_nearest_exact2d_backward", (8, 64, 128, 128), (256, 256), "nearest-exact", False, True),
    "U1-resize-bilinear": ("resize", (8, 64, 128, 128), (256, 256), "bilinear", False, False),
    "U4-resize-bilinear": ("resize", (2, 256, 100, 152), (200, 304), "bilinear", True, False),
    "V1-nearest-fwd": ("upsample_nearest3d", (2, 32, 16, 64, 64), (32, 128, 128), "nearest", False, False),
    "V1-nearest": ("upsample_nearest3d_backward", (2, 32, 16, 64, 64), (32, 128, 128), "nearest", False, True),
    "V1-trilinear-fwd": ("upsample_trilinear3d", (2, 32, 16, 64, 64), (32, 128, 128), "trilinear", False, False),
    "V1-trilinear": ("upsample_trilinear3d_backward", (2, 32, 16, 64, 64), (32, 128, 128), "trilinear", False, True),
    "S1-linear-fwd": ("upsample_linear1d", (8, 256, 4096), (8192,), "linear", False, False),
    "S1-linear": ("upsample_linear1d_backward", (8, 256, 4096), (8192,), "linear", False, True),
    "S1-nearest-fwd": ("upsample_nearest1d", (8, 256, 4096), (8192,), "nearest", False, False),
    "S1-nearest": ("upsample_nearest1d_backward", (8, 256, 4096), (8192,), "nearest", False, True),
}


def family(name: str) -> Workload:
    """A FAMILY workload: the array API (host arrays in and out) and torch on the same layout."""
    fn_name, shape, sizes, mode, last, backward = FAMILY[name]
    fn = getattr(aclnn_emu, fn_name)
    rng = np.random.default_rng(0)
    out_shape = (*shape[:2], *sizes)
    src = rng.standard_normal(out_shape if backward else shape, dtype=np.float32)
    perm = (0, *range(2, len(shape)), 1)
    fmt = {4: "NHWC"}.get(len(shape), "") if last else None
    data = np.ascontiguousarray(src.transpose(perm)) if last else src
    kw = {"format": fmt} if fmt else {}
    if fn_name == "resize":
        hw = (sizes[0] / shape[2], sizes[1] / shape[3])
        scales = (1.0, *hw, 1.0) if last else (1.0, 1.0, *hw)
        call = lambda: fn(data, scales, "bilinear", **kw)  # noqa: E731
    elif backward:
        call = lambda: fn(data, sizes, shape, **kw)  # noqa: E731
    else:
        call = lambda: fn(data, sizes, **kw)  # noqa: E731
    moved = (int(np.prod(shape)) + int(np.prod(out_shape))) * 4
    wl = Workload(ours=call, moved=moved)
    if torch is not None:
        t = (
            torch.from_numpy(data).permute(0, len(shape) - 1, *range(1, len(shape) - 1))
            if last
            else torch.from_numpy(data)
        )
        align = {"align_corners": False} if mode in ("linear", "bilinear", "trilinear") else {}
        if backward:
            x = torch.zeros(shape, requires_grad=True)

            def peer() -> None:
                x.grad = None
                torch.nn.functional.interpolate(x, size=sizes, mode=mode, **align).backward(t)

            wl.peer = peer
        else:
            wl.peer = lambda: torch.nn.functional.interpolate(t, size=sizes, mode=mode, **align)
        wl.peer_name = "torch " + ("channels_last" if last else "contiguous")
    return wl


# The binary family through the array API against torch.add / torch.mul, same threads: (function, shapes,
# dtype, alpha). E1: two (8, 64, 128, 128) tensors (8.4 M elements, 32 MiB each in float32); E2: a row
# broadcast against them.
BINARY = {
    "E1-add": ("add", (8, 64, 128, 128), (8, 64, 128, 128), np.float32, 1.0),
    "E1-add-alpha": ("add", (8, 64, 128, 128), (8, 64, 128, 128), np.float32, 0.5),
    "E1-mul": ("mul", (8, 64, 128, 128), (8, 64, 128, 128), np.float32, None),
    "E1-add-f16": ("add", (8, 64, 128, 128), (8, 64, 128, 128), np.float16, 1.0),
    "E2-mul": ("mul", (8, 64, 128, 128), (128,), np.float32, None),
}


def binary(name: str) -> Workload:
    """A BINARY workload: the array API (host arrays in, a fresh result out) and torch on the same arrays."""
    fn_name, sa, sb, dtype, alpha = BINARY[name]
    fn = getattr(aclnn_emu, fn_name)
    rng = np.random.default_rng(0)
    a = rng.standard_normal(sa, dtype=np.float32).astype(dtype)
    b = rng.standard_normal(sb, dtype=np.float32).astype(dtype)
    extra = () if alpha is None else (alpha,)
    moved = a.nbytes + b.nbytes + a.nbytes  # both inputs read, the result written
    wl = Workload(ours=lambda: fn(a, b, *extra), moved=moved)
    if torch is not None:
        ta, tb = torch.from_numpy(a), torch.from_numpy(b)
        kw = {} if alpha is None else {"alpha": alpha}
        wl.peer = lambda: getattr(torch, fn_name)(ta, tb, **kw)
        wl.peer_name = f"torch.{fn_name}"
    return wl


SETUP: dict[str, Callable[[str], Workload]] = {
    **dict.fromkeys(FAMILY, family),
    **dict.fromkeys(BINARY, binary),
    **dict.fromkeys(UPSAMPLE, upsample),
    **dict.fromkeys(ROI, roi),
    **dict.fromkeys(("U1-fwd", "U4-fwd", "U6-fwd"), upsample_forward),
    **dict.fromkeys(("R1-fwd", "R2-fwd"), roi_forward),
    "T2": lambda name: python_overhead(),
}


def measure(name: str, repeat: int, rounds: int) -> dict:
    """The issue's method: ours and the peer alternating for `rounds` rounds in this process, each
    time the median of `repeat` calls (after one warm-up); per-round ratios, and their median."""
    wl = SETUP[name](name)
    per_call = 200 if name == "T2" else 1
    runs: dict[str, list[float]] = {"ours": [], "array": [], "peer": [], "copy": [], "faults": []}
    try:
        for _ in range(rounds):
            runs["copy"].append(copy_bandwidth(3))
            runs["ours"].append(median_time(wl.ours, repeat) / per_call)
            if wl.array is not None:
                t, faults = array_api(wl.array, repeat)
                runs["array"].append(t)
                runs["faults"].append(faults)
            if wl.peer is not None:
                runs["peer"].append(median_time(wl.peer, max(3, repeat // 2) if name.startswith("R") else repeat)
                                    / per_call)  # fmt: skip
    finally:
        wl.close()
    med = statistics.median
    row: dict = dict(workload=name, rounds=rounds, ours_s=med(runs["ours"]), copy_GBps=med(runs["copy"]),
                     ours_rounds_s=runs["ours"], copy_rounds_GBps=runs["copy"])  # fmt: skip
    if runs["array"]:
        row.update(ours_array_s=med(runs["array"]), faults_per_call=med(runs["faults"]))
        if wl.array_input is not None:
            row["array_input_huge_fraction"] = huge_page_fraction(wl.array_input)
    if wl.moved:
        fractions = [wl.moved / t / 1e9 / bw for t, bw in zip(runs["ours"], runs["copy"])]
        row.update(bandwidth_GBps=wl.moved / row["ours_s"] / 1e9, copy_fraction=med(fractions))
        if runs["array"]:
            row["array_copy_fraction"] = med([wl.moved / t / 1e9 / bw for t, bw in zip(runs["array"], runs["copy"])])
    if runs["peer"]:
        row.update(peer=wl.peer_name, peer_s=med(runs["peer"]),
                   ratio=med([pt / ot for pt, ot in zip(runs["peer"], runs["ours"])]))  # fmt: skip
        if runs["array"]:
            row["array_ratio"] = med([pt / at for pt, at in zip(runs["peer"], runs["array"])])
    return row


def huge_page_fraction(a: np.ndarray) -> float | None:
    """The share of a's bytes the kernel backs with transparent huge pages (None: not Linux).

    The device path's tensors are on huge pages (aclrtMalloc asks for them); a numpy array gets them or not
    by the system's state when it was made. (numpy's madvise splits an array's mapping: its first page is a
    mapping of its own, so every mapping the array overlaps is counted.)"""
    try:
        lines = Path("/proc/self/smaps").read_text().splitlines()
    except OSError:
        return None
    start = a.__array_interface__["data"][0]
    end, huge, overlap = start + a.nbytes, 0, 0
    for line in lines:
        head = line.split(maxsplit=1)[0] if line else ""
        if "-" in head and not head.endswith(":"):
            lo, hi = (int(v, 16) for v in head.split("-"))
            overlap = max(0, min(hi, end) - max(lo, start))
        elif overlap and head == "AnonHugePages:":
            huge += min(overlap, int(line.split()[1]) * 1024)
    return huge / a.nbytes if a.nbytes else None


_COPY_ARRAYS: list[np.ndarray] = []


def copy_bandwidth(repeat: int) -> float:
    """GB/s of a numpy copy of 256 MiB (2 x bytes / time), on arrays made once per process. Made and freed
    every round, their 512 MiB of pages were faulted in and released just before our calls (S1-linear read
    4.7-6.7 ms right after such a copy against 3.6-4.1 ms without, in one process; the AMD VM also swings
    that much on its own)."""
    if not _COPY_ARRAYS:
        a = np.ones(256 * 2**20 // 8)
        _COPY_ARRAYS.extend((a, np.empty_like(a)))
    a, b = _COPY_ARRAYS
    t = median_time(lambda: np.copyto(b, a), repeat)
    return 2 * a.nbytes / t / 1e9


def machine() -> dict:
    """What makes two runs comparable: the CPU model, cores and cache sizes the machine reports."""
    info = dict(cpu=platform.processor() or platform.machine(), cores=os.cpu_count())
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                info["cpu"] = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    for index in range(4):
        d = Path(f"/sys/devices/system/cpu/cpu0/cache/index{index}")
        try:
            info[f"L{(d / 'level').read_text().strip()}{(d / 'type').read_text().strip()[0]}"] = (
                (d / "size").read_text().strip()
            )
        except OSError:
            pass
    return info


def normalised(row: dict) -> list[float]:
    """Per-round times scaled by that round's copy bandwidth: a VM that is slower for a while moves both."""
    return [t * bw for t, bw in zip(row["ours_rounds_s"], row["copy_rounds_GBps"])]


def spread(values: list[float]) -> float:
    """Relative run-to-run spread: (max - min) / median."""
    return (max(values) - min(values)) / statistics.median(values) if len(values) > 1 else 0.0


def compare(rows: list[dict], baseline_path: Path) -> int:
    """Prints each workload against the baseline; returns how many dropped beyond the measured spread."""
    base = json.loads(baseline_path.read_text())
    if base.get("machine", {}).get("cpu") != machine()["cpu"]:
        print(f"# note: the baseline is of {base.get('machine', {}).get('cpu')!r}, this is {machine()['cpu']!r}")
    by_name = {r["workload"]: r for r in base["rows"] if "ours_rounds_s" in r}
    drops = 0
    for row in rows:
        old = by_name.get(row["workload"])
        if old is None:
            print(f"{row['workload']:8s} (not in the baseline)")
            continue
        now, then = normalised(row), normalised(old)
        speed = statistics.median(then) / statistics.median(now)  # > 1: faster than the baseline
        noise = max(spread(now), spread(then), 0.05)
        flag = speed < 1 - noise
        drops += flag
        print(f"{row['workload']:8s} {speed:5.2f}x the baseline (copy {row['copy_GBps']:.1f} GB/s now, "
              f"{old['copy_GBps']:.1f} then; spread {100 * noise:.0f}%){'  DROP' if flag else ''}")  # fmt: skip
    return drops


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("workloads", nargs="*", help="ids (default: all)")
    ap.add_argument("--threads", type=int, default=os.cpu_count())
    ap.add_argument("--repeat", type=int, default=7, help="calls timed per side and round (median)")
    ap.add_argument("--rounds", type=int, default=3, help="alternations of ours and the peer (median ratio)")
    ap.add_argument("--json", type=Path, help="also write the rows here (a baseline for --compare)")
    ap.add_argument("--compare", type=Path, metavar="BASELINE.json",
                    help="print each workload's speed against a baseline of the same machine kind (copy-bandwidth "
                    "normalised) and exit 1 if one dropped beyond the run-to-run spread")  # fmt: skip
    args = ap.parse_args()

    aclnn_emu.set_option("ACLNN_EMU_THREADS", args.threads)
    if torch is not None:
        torch.set_num_threads(args.threads)
    wanted = args.workloads or list(SETUP)
    copy_bw = copy_bandwidth(args.repeat)
    print(f"# {platform.processor() or platform.machine()}, {os.cpu_count()} cores, threads={args.threads}, "
          f"torch {getattr(torch, '__version__', '-')}, copy bandwidth {copy_bw:.1f} GB/s")  # fmt: skip
    rows = []
    for name in wanted:
        if name not in SETUP:
            ap.error(f"unknown workload {name}")
        row = measure(name, args.repeat, args.rounds)
        row["threads"] = args.threads
        rows.append(row)
        unit = (1e6, "us") if name == "T2" else (1e3, "ms")
        line = f"{name:8s} ours {unit[0] * row['ours_s']:8.2f} {unit[1]}"
        if "copy_fraction" in row:
            line += f" ({100 * row['copy_fraction']:.0f}% of copy)"
        if "ours_array_s" in row:
            line += f"  array API {unit[0] * row['ours_array_s']:.2f} {unit[1]}"
            if "array_copy_fraction" in row:
                line += f" ({100 * row['array_copy_fraction']:.0f}%)"
            line += f", {row['faults_per_call']:.0f} faults/call"
            huge = row.get("array_input_huge_fraction")
            if huge is not None and huge < 0.5:
                line += f", input {100 * huge:.0f}% on huge pages"
        if "peer_s" in row:
            line += f"  | {row['peer']} {unit[0] * row['peer_s']:.1f} {unit[1]}  ratio {row['ratio']:.1f}x"
            if "array_ratio" in row:
                line += f" (array API {row['array_ratio']:.1f}x)"
        print(line + f"  [copy {row['copy_GBps']:.1f} GB/s]", flush=True)
    if args.json:
        args.json.write_text(json.dumps(dict(machine=machine(), copy_GBps=copy_bw, rows=rows), indent=1))
    if args.compare:
        return 1 if compare(rows, args.compare) else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
