"""Tensor data transfer: channels (acl/acl_tdt.h) and shared queues with routes (acl/acl_tdt_queue.h).

The expectations are CANN's tensor_data_transfer.cpp and queue.cpp: a send copies the dataset, a received
dataset owns its items, capacity and timeouts give ACL_ERROR_RT_QUEUE_FULL/EMPTY, routes forward what is
enqueued on their source, a queue in a bound route cannot be destroyed.
"""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest

import aclnn_emu
from aclnn_emu import errors as E
from aclnn_emu import ffi, lib

TENSOR, END_OF_SEQUENCE, SLICE = 0, 1, 3
ACL_FLOAT, ACL_INT32 = 0, 3
QUEUE_FULL, QUEUE_EMPTY = E.ACL_ERROR_RT_QUEUE_FULL, E.ACL_ERROR_RT_QUEUE_EMPTY
NAME_PTR, DEPTH = 0, 1
ROUTE_SRC, ROUTE_DST, ROUTE_STATUS = 0, 1, 2
QUERY_MODE, QUERY_SRC, QUERY_DST = 0, 1, 2
MODE_SRC, MODE_DST, MODE_BOTH = 0, 1, 2


def msg() -> str:
    return E.recent_error_message()


@pytest.fixture(autouse=True)
def device():
    aclnn_emu.ensure_device(0)


@pytest.fixture
def channel():
    ch = lib.acltdtCreateChannelWithCapacity(0, b"test_channel", 2)
    assert ch != ffi.NULL, msg()
    yield ch
    assert lib.acltdtDestroyChannel(ch) == 0


def make_dataset(*arrays: np.ndarray):
    """A dataset of tensor items over the arrays (kept alive by the caller)."""
    ds = lib.acltdtCreateDataset()
    items = []
    for a in arrays:
        dims = ffi.new("int64_t[]", list(a.shape) or [1])
        dtype = {np.dtype(np.float32): ACL_FLOAT, np.dtype(np.int32): ACL_INT32}[a.dtype]
        item = lib.acltdtCreateDataItem(TENSOR, dims, a.ndim, dtype, ffi.from_buffer(a), a.nbytes)
        assert item != ffi.NULL and lib.acltdtAddDataItem(ds, item) == 0
        items.append(item)
    return ds, items


def destroy_dataset(ds, items) -> None:
    for item in items:
        assert lib.acltdtDestroyDataItem(item) == 0
    assert lib.acltdtDestroyDataset(ds) == 0


def item_array(item) -> np.ndarray:
    n = lib.acltdtGetDimNumFromItem(item)
    dims = ffi.new("int64_t[]", max(n, 1))
    assert lib.acltdtGetDimsFromItem(item, dims, n) == 0
    dtype = {ACL_FLOAT: np.float32, ACL_INT32: np.int32}[lib.acltdtGetDataTypeFromItem(item)]
    size = lib.acltdtGetDataSizeFromItem(item)
    raw = ffi.buffer(lib.acltdtGetDataAddrFromItem(item), size)
    return np.frombuffer(raw, dtype).reshape([dims[i] for i in range(n)]).copy()


def channel_size(ch) -> int:
    size = ffi.new("size_t *")
    assert lib.acltdtQueryChannelSize(ch, size) == 0
    return size[0]


def test_send_copies_and_receive_owns_its_items(channel):
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    b = np.array([7, 8], np.int32)
    ds, items = make_dataset(a, b)
    assert lib.acltdtSendTensor(channel, ds, 1000) == 0
    a[:] = -1  # the send copied the bytes: this does not reach the receiver
    assert channel_size(channel) == 1
    destroy_dataset(ds, items)
    recv = lib.acltdtCreateDataset()
    assert lib.acltdtReceiveTensor(channel, recv, 1000) == 0
    assert channel_size(channel) == 0
    assert lib.acltdtGetDatasetSize(recv) == 2
    assert ffi.string(lib.acltdtGetDatasetName(recv)) == b""
    got0 = lib.acltdtGetDataItem(recv, 0)
    np.testing.assert_array_equal(item_array(got0), np.arange(6, dtype=np.float32).reshape(2, 3))
    np.testing.assert_array_equal(item_array(lib.acltdtGetDataItem(recv, 1)), b)
    assert lib.acltdtGetTensorTypeFromItem(got0) == TENSOR
    # The received items are the dataset's: destroying one alone is refused, the dataset destroys them.
    assert lib.acltdtDestroyDataItem(got0) == E.ACL_ERROR_INVALID_PARAM
    assert "belongs to a received dataset" in msg()
    assert lib.acltdtAddDataItem(recv, got0) == E.ACL_ERROR_FEATURE_UNSUPPORTED
    assert lib.acltdtDestroyDataset(recv) == 0
    assert lib.acltdtGetDataSizeFromItem(got0) == 0  # a stale item answers 0
    assert "destroyed" in msg()


def test_capacity_and_timeouts(channel):
    ds, items = make_dataset(np.zeros(4, np.float32))
    assert lib.acltdtSendTensor(channel, ds, 0) == 0
    assert lib.acltdtSendTensor(channel, ds, 0) == 0
    assert lib.acltdtSendTensor(channel, ds, 0) == QUEUE_FULL
    assert "is full: no room within 0 ms" in msg()
    t0 = time.monotonic()
    assert lib.acltdtSendTensor(channel, ds, 50) == QUEUE_FULL
    assert time.monotonic() - t0 >= 0.045
    assert lib.acltdtCleanChannel(channel) == 0 and channel_size(channel) == 0
    recv = lib.acltdtCreateDataset()
    assert lib.acltdtReceiveTensor(channel, recv, 0) == QUEUE_EMPTY
    assert "is empty" in msg()
    assert lib.acltdtReceiveTensor(channel, recv, 20) == QUEUE_EMPTY
    assert lib.acltdtSendTensor(channel, ds, -2) == E.ACL_ERROR_RT_PARAM_INVALID
    assert "timeout -2 ms" in msg()
    assert lib.acltdtDestroyDataset(recv) == 0
    destroy_dataset(ds, items)


def test_blocking_receive_is_woken_by_a_send_from_another_thread(channel):
    got = {}

    def receiver():
        lib.aclrtSetDevice(0)
        recv = lib.acltdtCreateDataset()
        got["status"] = lib.acltdtReceiveTensor(channel, recv, -1)
        got["value"] = item_array(lib.acltdtGetDataItem(recv, 0))
        lib.acltdtDestroyDataset(recv)

    t = threading.Thread(target=receiver)
    t.start()
    time.sleep(0.05)
    assert t.is_alive()  # -1 waits
    ds, items = make_dataset(np.array([42], np.int32))
    assert lib.acltdtSendTensor(channel, ds, -1) == 0
    t.join(10)
    assert not t.is_alive() and got["status"] == 0 and got["value"].tolist() == [42]
    destroy_dataset(ds, items)


def test_items_and_datasets_errors():
    dims = ffi.new("int64_t[]", [2, 2])
    assert lib.acltdtCreateDataItem(TENSOR, ffi.NULL, 2, ACL_FLOAT, ffi.NULL, 0) == ffi.NULL
    assert "dims is NULL but dimNum is 2" in msg()
    assert lib.acltdtCreateDataItem(TENSOR, dims, 129, ACL_FLOAT, ffi.NULL, 0) == ffi.NULL
    assert "dimNum 129 is over 128" in msg()
    assert lib.acltdtCreateDataItem(END_OF_SEQUENCE, dims, 2, ACL_FLOAT, ffi.NULL, 0) == ffi.NULL
    assert "takes no dims" in msg()
    eos = lib.acltdtCreateDataItem(END_OF_SEQUENCE, ffi.NULL, 0, ACL_FLOAT, ffi.NULL, 16)
    assert lib.acltdtGetDataTypeFromItem(eos) == -1 and lib.acltdtGetDataSizeFromItem(eos) == 0
    item = lib.acltdtCreateDataItem(TENSOR, dims, 2, ACL_FLOAT, ffi.NULL, 0)
    out = ffi.new("int64_t[]", 4)
    assert lib.acltdtGetDimsFromItem(item, out, 1) == E.ACL_ERROR_INVALID_PARAM
    assert "dimNum 1 is less than the item's 2 dims" in msg()
    n, i = ffi.new("size_t *", 9), ffi.new("size_t *", 9)
    assert lib.acltdtGetSliceInfoFromItem(item, n, i) == 0 and (n[0], i[0]) == (0, 0)
    assert lib.acltdtGetSliceInfoFromItem(item, ffi.NULL, i) == E.ACL_ERROR_INVALID_PARAM
    ds = lib.acltdtCreateDataset()
    assert lib.acltdtGetDataItem(ds, 0) == ffi.NULL and "index 0 is past the dataset's 0 items" in msg()
    assert lib.acltdtAddDataItem(ds, ffi.NULL) == E.ACL_ERROR_INVALID_PARAM
    with aclnn_emu.DeviceBuffer(16) as dev:
        host = np.zeros(4, np.float32)
        on_host = lib.acltdtCreateDataItem(TENSOR, dims, 2, ACL_FLOAT, ffi.from_buffer(host), 16)
        on_dev = lib.acltdtCreateDataItem(TENSOR, dims, 2, ACL_FLOAT, dev.handle, 16)
        assert lib.acltdtAddDataItem(ds, on_host) == 0
        assert lib.acltdtAddDataItem(ds, on_dev) == E.ACL_ERROR_INVALID_PARAM
        assert "in device memory but the dataset's items are in host memory" in msg()
        for it in (on_host, on_dev, item, eos):
            assert lib.acltdtDestroyDataItem(it) == 0
    assert lib.acltdtDestroyDataItem(item) == E.ACL_ERROR_INVALID_PARAM
    assert "already destroyed (stale handle)" in msg()
    assert lib.acltdtDestroyDataset(ds) == 0
    assert lib.acltdtDestroyDataset(ds) == E.ACL_ERROR_INVALID_PARAM
    assert lib.acltdtGetDatasetName(ffi.NULL) == ffi.NULL


def test_send_refuses_destroyed_and_slice_items(channel):
    a = np.zeros(2, np.float32)
    ds, items = make_dataset(a)
    assert lib.acltdtDestroyDataItem(items[0]) == 0
    assert lib.acltdtSendTensor(channel, ds, 0) == E.ACL_ERROR_INVALID_PARAM
    assert "item 0" in (m := msg()) and "was destroyed" in m
    assert lib.acltdtDestroyDataset(ds) == 0
    ds = lib.acltdtCreateDataset()
    sl = lib.acltdtCreateDataItem(SLICE, ffi.NULL, 0, ACL_FLOAT, ffi.NULL, 0)
    assert lib.acltdtAddDataItem(ds, sl) == 0
    assert lib.acltdtSendTensor(channel, ds, 0) == E.ACL_ERROR_INVALID_PARAM
    assert "a send takes TENSOR, END_OF_SEQUENCE or ABNORMAL items" in msg()
    destroy_dataset(ds, [sl])
    # Receiving into a dataset the caller filled is refused; nothing is taken from the channel.
    mine, mine_items = make_dataset(a)
    assert lib.acltdtSendTensor(channel, mine, 0) == 0
    assert lib.acltdtReceiveTensor(channel, mine, 0) == E.ACL_ERROR_INVALID_PARAM
    assert "receive into an empty dataset" in msg()
    assert channel_size(channel) == 1
    destroy_dataset(mine, mine_items)


def test_channel_creation_errors():
    assert lib.acltdtCreateChannelWithCapacity(0, ffi.NULL, 2) == ffi.NULL
    assert "name is NULL" in msg()
    longest = lib.acltdtCreateChannelWithCapacity(0, b"x" * 127, 2)
    assert longest != ffi.NULL and lib.acltdtDestroyChannel(longest) == 0
    assert lib.acltdtCreateChannelWithCapacity(0, b"x" * 128, 2) == ffi.NULL
    assert "128 bytes or longer" in msg()
    assert lib.acltdtCreateChannelWithCapacity(0, b"c", 1) == ffi.NULL
    assert "depth 1 is outside [2, 8192]" in msg()
    assert lib.acltdtCreateChannelWithCapacity(5, b"c", 2) == ffi.NULL
    assert "deviceId 5 is out of range" in msg()
    assert lib.acltdtCreateChannel(0, b"c") == ffi.NULL
    assert "TDT-process channel" in (m := msg()) and "is not emulated" in m
    assert lib.acltdtSendTensor(ffi.NULL, ffi.NULL, 0) == E.ACL_ERROR_INVALID_PARAM


def create_queue(name: bytes | None, depth: int = 4) -> int:
    attr = lib.acltdtCreateQueueAttr()
    if name is not None:
        name_buf = ffi.new("char[]", name)
        ptr = ffi.new("const char **", name_buf)
        assert lib.acltdtSetQueueAttr(attr, NAME_PTR, 8, ptr) == 0
    assert lib.acltdtSetQueueAttr(attr, DEPTH, 4, ffi.new("uint32_t *", depth)) == 0
    qid = ffi.new("uint32_t *")
    st = lib.acltdtCreateQueue(attr, qid)
    assert lib.acltdtDestroyQueueAttr(attr) == 0
    assert st == 0, msg()
    return qid[0]


def test_queue_attributes():
    attr = lib.acltdtCreateQueueAttr()
    got, size = ffi.new("uint32_t *"), ffi.new("size_t *")
    assert lib.acltdtGetQueueAttr(attr, DEPTH, 4, size, got) == 0 and got[0] == 8 and size[0] == 4
    name = ffi.new("char[]", b"attr_queue")
    assert lib.acltdtSetQueueAttr(attr, NAME_PTR, 8, ffi.new("const char **", name)) == 0
    out = ffi.new("char **")
    assert lib.acltdtGetQueueAttr(attr, NAME_PTR, 8, size, out) == 0 and ffi.string(out[0]) == b"attr_queue"
    assert lib.acltdtGetQueueAttr(attr, DEPTH, 2, size, got) == E.ACL_ERROR_INVALID_PARAM
    assert "len 4 is over the 2 bytes" in msg()
    assert lib.acltdtSetQueueAttr(attr, DEPTH, 8, got) == E.ACL_ERROR_INVALID_PARAM
    assert lib.acltdtSetQueueAttr(attr, 7, 4, got) == E.ACL_ERROR_INVALID_PARAM
    assert "type 7 is not an acltdtQueueAttrType" in msg()
    assert lib.acltdtSetQueueAttr(attr, DEPTH, 4, ffi.new("uint32_t *", 1)) == 0  # checked at creation
    qid = ffi.new("uint32_t *")
    assert lib.acltdtCreateQueue(attr, qid) == E.ACL_ERROR_RT_PARAM_INVALID and "depth 1 is outside" in msg()
    assert lib.acltdtCreateQueue(attr, ffi.NULL) == E.ACL_ERROR_INVALID_PARAM
    assert lib.acltdtDestroyQueueAttr(attr) == 0


def test_queue_data_round_trip_and_names():
    q = create_queue(b"data_queue", depth=2)
    with pytest.raises(AssertionError):
        create_queue(b"data_queue")  # a live queue has that name
    payload, user = np.arange(5, dtype=np.int32), b"meta"
    assert lib.acltdtEnqueueData(q, ffi.from_buffer(payload), 20, user, 4, 0, 0) == 0
    out, n, ud = np.zeros(8, np.int32), ffi.new("size_t *"), ffi.new("char[4]")
    assert lib.acltdtDequeueData(q, ffi.from_buffer(out), 8, n, ud, 4, 0) == E.ACL_ERROR_INVALID_PARAM
    assert "do not fit in dataSize 8: it stays queued" in msg()
    assert lib.acltdtDequeueData(q, ffi.from_buffer(out), 32, n, ud, 4, 0) == 0
    assert n[0] == 20 and out[:5].tolist() == payload.tolist() and ffi.buffer(ud)[:] == b"meta"
    assert lib.acltdtDequeueData(q, ffi.from_buffer(out), 32, n, ud, 4, 0) == QUEUE_EMPTY
    assert lib.acltdtDestroyQueue(q) == 0
    assert lib.acltdtDestroyQueue(q) == E.ACL_ERROR_RT_PARAM_INVALID and "does not exist" in msg()
    assert lib.acltdtEnqueue(q, ffi.NULL, 0) == E.ACL_ERROR_FEATURE_UNSUPPORTED
    assert "not supported in the host run mode" in msg()


def test_routes_forward_and_block_destroy():
    src, dst1, dst2 = create_queue(b"r_src"), create_queue(b"r_dst1", depth=2), create_queue(b"r_dst2")
    routes = [lib.acltdtCreateQueueRoute(src, d) for d in (dst1, dst2)]
    bad = lib.acltdtCreateQueueRoute(src, src)
    lst = lib.acltdtCreateQueueRouteList()
    for r in routes:
        assert lib.acltdtAddQueueRoute(lst, r) == 0
    assert lib.acltdtBindQueueRoutes(lst) == 0
    view = lib.acltdtCreateQueueRoute(0, 0)
    status, size = ffi.new("int32_t *"), ffi.new("size_t *")
    assert lib.acltdtGetQueueRoute(lst, 1, view) == 0
    assert lib.acltdtGetQueueRouteParam(view, ROUTE_STATUS, 4, size, status) == 0 and status[0] == 1
    assert lib.acltdtGetQueueRoute(lst, 2, view) == E.ACL_ERROR_INVALID_PARAM
    # A message on the source lands in both destinations, not in the source.
    data, out, n = np.array([1.5], np.float32), np.zeros(1, np.float32), ffi.new("size_t *")
    assert lib.acltdtEnqueueData(src, ffi.from_buffer(data), 4, ffi.NULL, 0, 0, 0) == 0
    for q in (dst1, dst2):
        assert lib.acltdtDequeueData(q, ffi.from_buffer(out), 4, n, ffi.NULL, 0, 0) == 0 and out[0] == 1.5
    assert lib.acltdtDequeueData(src, ffi.from_buffer(out), 4, n, ffi.NULL, 0, 0) == QUEUE_EMPTY
    # A full destination holds the source's enqueue.
    for _ in range(2):
        assert lib.acltdtEnqueueData(src, ffi.from_buffer(data), 4, ffi.NULL, 0, 0, 0) == 0
    assert lib.acltdtEnqueueData(src, ffi.from_buffer(data), 4, ffi.NULL, 0, 0, 0) == QUEUE_FULL
    # Queries by source, destination and both.
    info = lib.acltdtCreateQueueRouteQueryInfo()
    found = lib.acltdtCreateQueueRouteList()
    assert lib.acltdtQueryQueueRoutes(info, found) == E.ACL_ERROR_INVALID_PARAM and "has no mode" in msg()
    assert lib.acltdtSetQueueRouteQueryInfo(info, QUERY_MODE, 4, ffi.new("int32_t *", MODE_SRC)) == 0
    assert lib.acltdtQueryQueueRoutes(info, found) == E.ACL_ERROR_INVALID_PARAM and "needs the source id" in msg()
    assert lib.acltdtSetQueueRouteQueryInfo(info, QUERY_SRC, 4, ffi.new("uint32_t *", src)) == 0
    assert lib.acltdtQueryQueueRoutes(info, found) == 0 and lib.acltdtGetQueueRouteNum(found) == 2
    assert lib.acltdtSetQueueRouteQueryInfo(info, QUERY_MODE, 4, ffi.new("int32_t *", MODE_BOTH)) == 0
    assert lib.acltdtSetQueueRouteQueryInfo(info, QUERY_DST, 4, ffi.new("uint32_t *", dst2)) == 0
    assert lib.acltdtQueryQueueRoutes(info, found) == 0 and lib.acltdtGetQueueRouteNum(found) == 1
    assert lib.acltdtGetQueueRoute(found, 0, view) == 0
    got = ffi.new("uint32_t *")
    assert lib.acltdtGetQueueRouteParam(view, ROUTE_DST, 4, size, got) == 0 and got[0] == dst2
    # Destroying a queue of a bound route is refused until it is unbound.
    assert lib.acltdtDestroyQueue(dst1) == E.ACL_ERROR_FAILURE and "needs to be unbound first" in msg()
    selfish = lib.acltdtCreateQueueRouteList()
    assert lib.acltdtAddQueueRoute(selfish, bad) == 0
    assert lib.acltdtBindQueueRoutes(selfish) == E.ACL_ERROR_FAILURE and "1 of 1 routes failed" in msg()
    assert lib.acltdtGetQueueRoute(selfish, 0, view) == 0
    assert lib.acltdtGetQueueRouteParam(view, ROUTE_STATUS, 4, size, status) == 0 and status[0] == 0
    assert lib.acltdtUnbindQueueRoutes(lst) == 0
    assert lib.acltdtQueryQueueRoutes(info, found) == 0 and lib.acltdtGetQueueRouteNum(found) == 0
    for q in (src, dst1, dst2):
        assert lib.acltdtDestroyQueue(q) == 0
    for lst_ in (lst, found, selfish):
        assert lib.acltdtDestroyQueueRouteList(lst_) == 0
    for r in (*routes, bad, view):
        assert lib.acltdtDestroyQueueRoute(r) == 0
    assert lib.acltdtDestroyQueueRouteQueryInfo(info) == 0
    assert lib.acltdtDestroyQueueRouteQueryInfo(info) == E.ACL_ERROR_INVALID_PARAM


def test_threads_racing_on_one_channel(channel):
    """Four senders and four receivers, 50 datasets each way, through a channel of capacity 2."""
    received, errors = [], []

    def sender(k):
        lib.aclrtSetDevice(0)
        for i in range(50):
            a = np.array([k * 1000 + i], np.int32)
            ds, items = make_dataset(a)
            st = lib.acltdtSendTensor(channel, ds, -1)
            if st:
                errors.append(st)
            destroy_dataset(ds, items)

    def receiver():
        lib.aclrtSetDevice(0)
        recv = lib.acltdtCreateDataset()
        for _ in range(50):
            st = lib.acltdtReceiveTensor(channel, recv, 10000)
            if st:
                errors.append(st)
                break
            received.append(int(item_array(lib.acltdtGetDataItem(recv, 0))[0]))
        lib.acltdtDestroyDataset(recv)

    threads = [threading.Thread(target=sender, args=(k,)) for k in range(4)]
    threads += [threading.Thread(target=receiver) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors
    assert sorted(received) == sorted(k * 1000 + i for k in range(4) for i in range(50))
