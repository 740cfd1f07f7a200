"""The runtime's built-in stream tasks: value write and wait, the reduce copy, random numbers.

Results are compared with independent models: numpy arithmetic in the element type for the reduce, and
reference.PhiloxStream (checked here against Random123's known-answer vectors) for random numbers.
"""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest

import aclnn_emu
from aclnn_emu import errors as E
from aclnn_emu import ffi, lib

from reference import PhiloxStream, philox4x32_10

ACL_FLOAT, ACL_FLOAT16, ACL_INT8, ACL_INT32, ACL_UINT8, ACL_INT16, ACL_UINT16, ACL_UINT32 = 0, 1, 2, 3, 4, 6, 7, 8
ACL_INT64, ACL_UINT64, ACL_BOOL, ACL_BF16, ACL_INT4 = 9, 10, 12, 27, 29
SUM = 10
DROPOUT, UNIFORM, NORMAL, TRUNCATED = 0, 1, 2, 3


def msg() -> str:
    return E.recent_error_message()


@pytest.fixture(autouse=True)
def device():
    aclnn_emu.ensure_device(0)


def bf16_bits(x: np.ndarray) -> np.ndarray:
    """float32 -> bfloat16 bits, round to nearest even."""
    b = np.asarray(x, np.float32).view(np.uint32).astype(np.uint64)
    return ((b + 0x7FFF + ((b >> 16) & 1)) >> 16).astype(np.uint16)


def bf16_value(bits) -> np.ndarray:
    return (np.asarray(bits, np.uint32) << 16).view(np.float32)


# ---- value write and wait -----------------------------------------------------


def test_value_wait_holds_its_stream_until_a_write_on_another_stream():
    with aclnn_emu.Stream() as a, aclnn_emu.Stream() as b, aclnn_emu.DeviceBuffer(16) as flag:
        flag.copy_from_host(np.zeros(2, np.uint64))
        out = aclnn_emu.DeviceBuffer(8)
        assert lib.aclrtValueWait(flag.handle, 5, 0, a.handle) == 0  # GEQ 5
        marker = np.array([7], np.uint64)
        assert lib.aclrtMemcpyAsync(out.handle, 8, ffi.from_buffer(marker), 8, 1, a.handle) == 0
        time.sleep(0.05)
        status = ffi.new("aclrtStreamStatus *")
        assert lib.aclrtStreamQuery(a.handle, status) == 0
        assert status[0] != 0  # ACL_STREAM_STATUS_COMPLETE is 0: the wait still blocks the stream
        assert lib.aclrtValueWrite(flag.handle, 4, 0, b.handle) == 0  # 4 < 5: still waiting
        b.synchronize()
        lib.aclrtStreamQuery(a.handle, status)
        assert status[0] != 0
        assert lib.aclrtValueWrite(flag.handle, 5, 0, b.handle) == 0
        b.synchronize()
        a.synchronize()
        assert out.copy_to_host(np.uint64)[0] == 7
        assert flag.copy_to_host(np.uint64)[0] == 5
        out.close()


@pytest.mark.parametrize(
    "flag, word, value, met",
    [
        (0, 9, 9, True), (0, 8, 9, False),  # GEQ
        (1, 9, 9, True), (1, 10, 9, False),  # EQ
        (2, 0b0110, 0b0100, True), (2, 0b0110, 0b1001, False),  # AND
        (3, 0, 0, True), (3, 2**64 - 1, 0, False),  # NOR: ~(word | value) != 0
    ],
)  # fmt: skip
def test_value_wait_conditions(flag, word, value, met):
    with aclnn_emu.Stream() as s, aclnn_emu.DeviceBuffer(8) as buf:
        buf.copy_from_host(np.array([word], np.uint64))
        assert lib.aclrtValueWait(buf.handle, value, flag, s.handle) == 0
        if met:
            s.synchronize()
        else:
            assert lib.aclrtSynchronizeStreamWithTimeout(s.handle, 30) == E.ACL_ERROR_RT_STREAM_SYNC_TIMEOUT
            # Release it with a value write (which wakes it at once) meeting the condition tested here.
            target = {0: value, 1: value, 2: value, 3: 0}[flag]
            with aclnn_emu.Stream() as other:
                assert lib.aclrtValueWrite(buf.handle, target, 0, other.handle) == 0
                other.synchronize()
            s.synchronize()


def test_value_errors():
    with aclnn_emu.Stream() as s, aclnn_emu.DeviceBuffer(12) as buf:
        host = np.zeros(2, np.uint64)
        assert lib.aclrtValueWrite(ffi.NULL, 1, 0, s.handle) == E.ACL_ERROR_INVALID_PARAM
        assert msg() == "aclrtValueWrite: devAddr is NULL"
        assert lib.aclrtValueWrite(buf.handle, 1, 1, s.handle) == E.ACL_ERROR_RT_PARAM_INVALID
        assert msg() == "aclrtValueWrite: flag 1 is reserved and must be 0"
        assert lib.aclrtValueWait(buf.handle, 1, 4, s.handle) == E.ACL_ERROR_RT_PARAM_INVALID
        assert "flag 4 is not an ACL_STREAM_WAIT_VALUE_* mode" in msg()
        assert lib.aclrtValueWrite(ffi.from_buffer(host), 1, 0, s.handle) == E.ACL_ERROR_RT_PARAM_INVALID
        assert "is not device memory (aclrtMalloc)" in msg()
        assert lib.aclrtValueWait(buf.handle + 8, 1, 0, s.handle) == E.ACL_ERROR_RT_PARAM_INVALID
        assert "its 8 bytes run past the end of the 12-byte device block" in msg()
        bad = ffi.cast("aclrtStream", 0x1234)
        assert lib.aclrtValueWrite(buf.handle, 1, 0, bad) == E.ACL_ERROR_RT_INVALID_HANDLE


# ---- reduce -------------------------------------------------------------------


def _reduce(dst_host: np.ndarray, src_host: np.ndarray, type_: int) -> np.ndarray:
    n = dst_host.nbytes
    with aclnn_emu.DeviceBuffer(n) as d, aclnn_emu.DeviceBuffer(n) as s, aclnn_emu.Stream() as st:
        d.copy_from_host(dst_host)
        s.copy_from_host(src_host)
        assert lib.aclrtReduceAsync(d.handle, s.handle, n, SUM, type_, st.handle, ffi.NULL) == 0, msg()
        st.synchronize()
        return d.copy_to_host(dst_host.dtype)


def test_reduce_sum_float_types(rng):
    a, b = rng.standard_normal(1000).astype(np.float32), rng.standard_normal(1000).astype(np.float32)
    np.testing.assert_array_equal(_reduce(a, b, ACL_FLOAT), a + b)
    h, g = a.astype(np.float16), b.astype(np.float16)
    # float16 sums rounded once from the exact float32 sum of two halves
    want = (h.astype(np.float32) + g.astype(np.float32)).astype(np.float16)
    np.testing.assert_array_equal(_reduce(h.view(np.uint16), g.view(np.uint16), ACL_FLOAT16), want.view(np.uint16))
    x, y = bf16_bits(a), bf16_bits(b)
    want_bf = bf16_bits(bf16_value(x) + bf16_value(y))
    np.testing.assert_array_equal(_reduce(x, y, ACL_BF16), want_bf)


@pytest.mark.parametrize(
    "dtype, type_",
    [(np.int8, ACL_INT8), (np.uint8, ACL_UINT8), (np.int16, ACL_INT16), (np.uint16, ACL_UINT16),
     (np.int32, ACL_INT32), (np.uint32, ACL_UINT32)],
)  # fmt: skip
def test_reduce_sum_integers_wrap(rng, dtype, type_):
    info = np.iinfo(dtype)
    a = rng.integers(info.min, info.max, 500, dtype=dtype, endpoint=True)
    b = rng.integers(info.min, info.max, 500, dtype=dtype, endpoint=True)
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(_reduce(a, b, type_), a + b)


def test_reduce_sum_int4_adds_each_nibble(rng):
    a, b = rng.integers(0, 256, 64, dtype=np.uint8), rng.integers(0, 256, 64, dtype=np.uint8)
    lo = ((a & 15) + (b & 15)) & 15
    hi = ((a >> 4) + (b >> 4)) & 15
    np.testing.assert_array_equal(_reduce(a, b, ACL_INT4), (lo | hi << 4).astype(np.uint8))


def test_reduce_errors():
    with aclnn_emu.DeviceBuffer(16) as d, aclnn_emu.DeviceBuffer(8) as s, aclnn_emu.Stream() as st:
        h = st.handle
        assert lib.aclrtReduceAsync(ffi.NULL, s.handle, 8, SUM, ACL_FLOAT, h, ffi.NULL) == E.ACL_ERROR_INVALID_PARAM
        assert msg() == "aclrtReduceAsync: dst is NULL"
        assert lib.aclrtReduceAsync(d.handle, ffi.NULL, 8, SUM, ACL_FLOAT, h, ffi.NULL) == E.ACL_ERROR_INVALID_PARAM
        assert msg() == "aclrtReduceAsync: src is NULL"
        assert lib.aclrtReduceAsync(d.handle, s.handle, 8, SUM, ACL_FLOAT, h, d.handle) == E.ACL_ERROR_INVALID_PARAM
        assert "reserve is a reserved parameter and must be NULL" in msg()
        assert lib.aclrtReduceAsync(d.handle, s.handle, 8, SUM, ACL_INT64, h, ffi.NULL) == E.ACL_ERROR_INVALID_PARAM
        assert "type 9 is not supported" in msg()
        rt = E.ACL_ERROR_RT_PARAM_INVALID
        assert lib.aclrtReduceAsync(d.handle, s.handle, 0, SUM, ACL_FLOAT, h, ffi.NULL) == rt
        assert "count is 0" in msg()
        assert lib.aclrtReduceAsync(d.handle, s.handle, 8, 11, ACL_FLOAT, h, ffi.NULL) == rt
        assert "kind 11 is not supported: CANN's runtime takes only ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM" in msg()
        assert lib.aclrtReduceAsync(d.handle, s.handle, 2**32 + 4, SUM, ACL_FLOAT, h, ffi.NULL) == rt
        assert "is over 4294967296 bytes" in msg()
        assert lib.aclrtReduceAsync(d.handle, s.handle, 6, SUM, ACL_FLOAT, h, ffi.NULL) == rt
        assert "count 6 bytes is not a whole number of 4-byte elements" in msg()
        assert lib.aclrtReduceAsync(d.handle, s.handle, 16, SUM, ACL_FLOAT, h, ffi.NULL) == rt
        assert "src 0x" in (m := msg()) and "run past the end of the 8-byte device block" in m
        host = np.zeros(4, np.float32)
        assert lib.aclrtReduceAsync(ffi.from_buffer(host), s.handle, 8, SUM, ACL_FLOAT, h, ffi.NULL) == rt
        assert "dst 0x" in (m := msg()) and "is not device memory" in m
        st.synchronize()


# ---- random numbers ---------------------------------------------------------------


def test_philox_model_known_answers():
    # Random123's kat_vectors for philox4x32 with 10 rounds: (counter, key) -> output.
    assert philox4x32_10((0, 0), (0, 0, 0, 0)) == (0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8)
    full = 0xFFFFFFFF
    assert philox4x32_10((full, full), (full,) * 4) == (0x408F276D, 0x41C83B0E, 0xA20BC7C6, 0x6D5451FD)
    ctr = (0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344)
    assert philox4x32_10((0xA4093822, 0x299F31D0), ctr) == (0xD16CFE09, 0x94FDCCEB, 0x5001E420, 0x24126EA1)


def _param(p, value: bytes):
    p.isAddr = 0
    p.size = len(value)
    ffi.memmove(p.valueOrAddr, value, len(value))


class RandomTask:
    """One aclrtRandomNumAsync call's task info, device result and counter."""

    def __init__(self, func: int, dtype: int, num: int, seed: int, counter: int = 0, out_bytes: int | None = None):
        self.info = ffi.new("aclrtRandomNumTaskInfo *")
        self.info.dataType = dtype
        self.info.randomNumFuncParaInfo.funcType = func
        self.out = aclnn_emu.DeviceBuffer(out_bytes if out_bytes is not None else max(num * 8, 8))
        self.ctr = aclnn_emu.DeviceBuffer(16)
        self.ctr.copy_from_host(np.frombuffer(counter.to_bytes(16, "little"), np.uint8).copy())
        self.info.randomResultAddr = self.out.handle
        self.info.randomCounterAddr = self.ctr.handle
        _param(self.info.randomSeed, seed.to_bytes(8, "little"))
        _param(self.info.randomNum, num.to_bytes(8, "little"))

    @property
    def params(self):
        return self.info.randomNumFuncParaInfo.paramInfo

    def run(self, stream=None) -> None:
        with aclnn_emu.Stream() as s:
            assert lib.aclrtRandomNumAsync(self.info, s.handle, ffi.NULL) == 0, msg()
            s.synchronize()

    def result(self, dtype, n: int) -> np.ndarray:
        return self.out.copy_to_host(np.uint8)[: n * np.dtype(dtype).itemsize].view(dtype)

    def counter(self) -> int:
        return int.from_bytes(self.ctr.copy_to_host(np.uint8).tobytes(), "little")

    def close(self) -> None:
        self.out.close()
        self.ctr.close()


def test_random_uniform_float32_and_counter():
    t = RandomTask(UNIFORM, ACL_FLOAT, 10, seed=2026, counter=5)
    _param(t.params.uniformDisInfo.min, np.float32(-1.5).tobytes())
    _param(t.params.uniformDisInfo.max, np.float32(4.0).tobytes())
    t.run()
    model = PhiloxStream(2026, 5)
    lo, hi = np.float32(-1.5), np.float32(4.0)
    want = np.array([lo + model.unit() * (hi - lo) for _ in range(10)], np.float32)
    np.testing.assert_array_equal(t.result(np.float32, 10), want)
    assert t.counter() == 5 + 3  # 10 draws take three blocks of four
    t.close()


@pytest.mark.parametrize("dtype, type_", [(np.int32, ACL_INT32), (np.uint32, ACL_UINT32)])
def test_random_uniform_32bit_integers(dtype, type_):
    t = RandomTask(UNIFORM, type_, 64, seed=7)
    lo, hi = (-20, 100) if dtype is np.int32 else (3, 3000000000)
    _param(t.params.uniformDisInfo.min, np.array(lo, dtype).tobytes())
    _param(t.params.uniformDisInfo.max, np.array(hi, dtype).tobytes())
    t.run()
    model = PhiloxStream(7, 0)
    want = np.array([lo + model.next() % (hi - lo) for _ in range(64)], dtype)
    got = t.result(dtype, 64)
    np.testing.assert_array_equal(got, want)
    assert got.min() >= lo and got.max() < hi
    t.close()


def test_random_uniform_64bit_integers():
    t = RandomTask(UNIFORM, ACL_INT64, 20, seed=2**40 + 3)
    lo, hi = -(2**40), 2**50
    _param(t.params.uniformDisInfo.min, np.int64(lo).tobytes())
    _param(t.params.uniformDisInfo.max, np.int64(hi).tobytes())
    t.run()
    model = PhiloxStream(2**40 + 3, 0)
    want = []
    for _ in range(20):
        draw = model.next() | model.next() << 32
        want.append(lo + draw % (hi - lo))
    np.testing.assert_array_equal(t.result(np.int64, 20), np.array(want, np.int64))
    t.close()


@pytest.mark.parametrize("type_", [ACL_FLOAT16, ACL_BF16])
def test_random_uniform_half_types(type_):
    def bits(v: np.ndarray) -> np.ndarray:
        return v.astype(np.float16).view(np.uint16) if type_ == ACL_FLOAT16 else bf16_bits(v)

    t = RandomTask(UNIFORM, type_, 32, seed=11)
    _param(t.params.uniformDisInfo.min, bits(np.array([1.0], np.float32)).tobytes())
    _param(t.params.uniformDisInfo.max, bits(np.array([2.0], np.float32)).tobytes())
    t.run()
    model = PhiloxStream(11, 0)
    vals = np.array([np.float32(1.0) + model.unit() * np.float32(1.0) for _ in range(32)], np.float32)
    np.testing.assert_array_equal(t.result(np.uint16, 32), bits(vals))
    t.close()


@pytest.mark.parametrize("func", [NORMAL, TRUNCATED])
def test_random_normal_float32(func):
    n = 400
    t = RandomTask(func, ACL_FLOAT, n, seed=99)
    _param(t.params.normalDisInfo.mean, np.float32(3.0).tobytes())
    _param(t.params.normalDisInfo.stddev, np.float32(2.0).tobytes())
    t.run()
    model = PhiloxStream(99, 0)
    want = []
    for _ in range(n):
        z = model.normal()
        while func == TRUNCATED and abs(z) > 2.0:
            z = model.normal()
        want.append(3.0 + 2.0 * z)
    got = t.result(np.float32, n)
    # libm's logf/cosf against Python's double math: a few float32 ulps
    np.testing.assert_allclose(got, np.array(want), rtol=2e-6, atol=2e-6)
    if func == TRUNCATED:
        assert np.all(np.abs(got - 3.0) <= 4.0 + 1e-5)
    assert abs(got.mean() - 3.0) < 0.3
    t.close()


def test_random_dropout_bitmask():
    n = 77
    t = RandomTask(DROPOUT, ACL_FLOAT, n, seed=5, out_bytes=16)
    _param(t.params.dropoutBitmaskInfo.dropoutRation, np.float32(0.25).tobytes())
    t.out.copy_from_host(np.full(16, 0xAA, np.uint8))
    t.run()
    model = PhiloxStream(5, 0)
    bits = np.array([model.unit() >= np.float32(0.25) for _ in range(n)], np.uint8)
    want = np.packbits(bits, bitorder="little")
    got = t.out.copy_to_host(np.uint8)
    np.testing.assert_array_equal(got[: len(want)], want)
    assert np.all(got[len(want) :] == 0xAA)  # nothing past ceil(num / 8) bytes is written
    t.close()


def test_random_parameters_from_device_memory():
    t = RandomTask(UNIFORM, ACL_INT32, 16, seed=1)
    with aclnn_emu.DeviceBuffer(8) as lo, aclnn_emu.DeviceBuffer(8) as num:
        lo.copy_from_host(np.array([10, 0], np.int32))
        num.copy_from_host(np.array([16], np.uint64))
        p = t.params.uniformDisInfo.min
        p.isAddr, p.size = 1, 8
        ffi.memmove(p.valueOrAddr, np.array([int(ffi.cast("uintptr_t", lo.handle))], np.uint64).tobytes(), 8)
        _param(t.params.uniformDisInfo.max, np.int32(20).tobytes())
        t.info.randomNum.isAddr = 1
        ffi.memmove(t.info.randomNum.valueOrAddr, np.array([int(ffi.cast("uintptr_t", num.handle))], np.uint64), 8)
        t.run()
        model = PhiloxStream(1, 0)
        np.testing.assert_array_equal(t.result(np.int32, 16), [10 + model.next() % 10 for _ in range(16)])
    t.close()


def test_random_errors():
    t = RandomTask(UNIFORM, ACL_FLOAT, 4, seed=1, out_bytes=16)
    _param(t.params.uniformDisInfo.min, np.float32(0).tobytes())
    _param(t.params.uniformDisInfo.max, np.float32(1).tobytes())
    rt = E.ACL_ERROR_RT_PARAM_INVALID

    def call():
        return lib.aclrtRandomNumAsync(t.info, ffi.NULL, ffi.NULL)

    assert lib.aclrtRandomNumAsync(ffi.NULL, ffi.NULL, ffi.NULL) == E.ACL_ERROR_INVALID_PARAM
    assert msg() == "aclrtRandomNumAsync: taskInfo is NULL"
    t.info.dataType = ACL_BOOL
    assert call() == E.ACL_ERROR_INVALID_PARAM and "taskInfo->dataType 12 is not supported" in msg()
    t.info.dataType = ACL_FLOAT
    assert lib.aclrtRandomNumAsync(t.info, ffi.NULL, t.out.handle) == rt
    assert "reserve is a reserved parameter" in msg()
    t.info.randomNumFuncParaInfo.funcType = NORMAL
    t.info.dataType = ACL_INT32
    assert call() == rt and "dataType 3 is not one funcType 2 takes: bf16, fp16, fp32" in msg()
    t.info.randomNumFuncParaInfo.funcType, t.info.dataType = UNIFORM, ACL_FLOAT
    t.info.randomNumFuncParaInfo.funcType = 4
    assert call() == rt and "funcType 4 is not in [0, 4)" in msg()
    t.info.randomNumFuncParaInfo.funcType = UNIFORM
    t.info.randomCounterAddr = ffi.NULL
    assert call() == rt and msg() == "aclrtRandomNumAsync: taskInfo->randomCounterAddr is NULL"
    t.info.randomCounterAddr = t.ctr.handle
    t.info.randomSeed.isAddr = 2
    assert call() == rt and "randomSeed.isAddr is 2: it must be 0 (a value) or 1 (an address)" in msg()
    t.info.randomSeed.isAddr = 0
    t.info.randomNum.size = 9
    assert call() == rt and "randomNum.size is 9: it must be in [1, 8]" in msg()
    t.info.randomNum.size = 8
    t.params.uniformDisInfo.max.size = 8  # a float32 value is at most 4 bytes
    assert call() == rt and "max.size is 8: it must be in [1, 4]" in msg()
    t.params.uniformDisInfo.max.size = 4
    _param(t.info.randomNum, (5).to_bytes(8, "little"))  # 5 floats = 20 bytes > 16
    assert call() == rt and "randomResultAddr 0x" in (m := msg()) and "past the end of the 16-byte device block" in m
    _param(t.info.randomNum, (4).to_bytes(8, "little"))
    assert call() == 0
    assert lib.aclrtSynchronizeStream(ffi.NULL) == 0
    t.close()


def test_random_tasks_from_threads_on_one_stream_keep_their_order():
    """Tasks on one stream share the counter in stream order: the counter ends past every block drawn."""
    with aclnn_emu.Stream() as s:
        t = RandomTask(UNIFORM, ACL_UINT32, 4, seed=3)
        _param(t.params.uniformDisInfo.min, np.uint32(0).tobytes())
        _param(t.params.uniformDisInfo.max, np.uint32(2**31).tobytes())
        errors = []

        def launch():
            assert lib.aclrtSetDevice(0) == 0  # a thread's own context
            for _ in range(25):
                st = lib.aclrtRandomNumAsync(t.info, s.handle, ffi.NULL)
                if st:
                    errors.append(st)

        threads = [threading.Thread(target=launch) for _ in range(4)]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        s.synchronize()
        assert not errors
        assert t.counter() == 100  # four draws a task, one block each
        t.close()
