/*
 * Tensor data transfer: CANN's channels (acl/acl_tdt.h) and shared queues
 * (acl/acl_tdt_queue.h), as queues of messages in this process.
 *
 * CANN backs a capacity channel with a driver queue and routes with a
 * queue-schedule daemon on the device; here one table holds every queue (a
 * channel is a queue of serialised datasets), routes forward at enqueue
 * time, and one lock and condition serve every blocking send and receive.
 * Checks and statuses follow tensor_data_transfer.cpp and queue.cpp, in
 * their order; where the closed driver decides (ids, depth limits), the
 * documented ranges hold.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl_tdt.h"
#include "acl/acl_tdt_queue.h"
#include "runtime.h"

#define TDT_NAME_MAX 128   /* RT_MQ_MAX_NAME_LEN, the terminating NUL included */
#define TDT_MAX_QUEUES 8192 /* queue ids are below this; so is a depth */
#define TDT_MIN_DEPTH 2
#define TDT_DEFAULT_DEPTH 8
#define TDT_MAX_DIMS 128

/* ---- handles ----------------------------------------------------------------- */

struct acltdtDataItem {
    acltdtTensorType type;
    aclDataType dtype;
    size_t ndims;
    int64_t dims[TDT_MAX_DIMS];
    void *data;          /* the caller's bytes, or (received) the item's own copy */
    size_t size;
    acltdtDataset *owner; /* the received dataset that owns it, else NULL */
};

struct acltdtDataset {
    acltdtDataItem **items;
    size_t n, cap;
    bool received; /* a receive filled it: it owns its items */
    int memory;    /* where its items' data lives: 0 unknown, 1 host, 2 device */
};

struct acltdtChannelHandle {
    uint32_t qid;
};

struct tagMemQueueAttr {
    char name[TDT_NAME_MAX];
    const char *name_view; /* what acltdtGetQueueAttr hands out: name */
    uint32_t depth;
};

struct acltdtQueueRoute {
    uint32_t src, dst;
    int32_t status;
};

struct acltdtQueueRouteList {
    acltdtQueueRoute *routes;
    size_t n, cap;
};

struct acltdtQueueRouteQueryInfo {
    int32_t mode;
    uint32_t src, dst;
    bool has_mode, has_src, has_dst;
};


/* A handle argument of kind: 0, or ACL_ERROR_INVALID_PARAM naming it (NULL, stale, another kind). */
static int check(const void *p, emu_kind kind, const char *api, const char *param)
{
    return emu_check_handle_arg(p, kind, ACL_ERROR_INVALID_PARAM, api, param);
}

/* ---- the queues ------------------------------------------------------------------ */

typedef struct tdt_msg {
    struct tdt_msg *next;
    size_t size, user_size; /* bytes[0 .. user_size) the user data, then size bytes of data */
    unsigned char bytes[];
} tdt_msg;

typedef struct tdt_queue {
    char name[TDT_NAME_MAX];
    uint32_t depth, count;
    tdt_msg *head, *tail;
} tdt_queue;

typedef struct tdt_route {
    uint32_t src, dst;
} tdt_route;

/* Every queue and route, under tdt_mu; tdt_cv is broadcast whenever a queue gains or loses a message or
 * goes away. A leaf lock: nothing else is locked while it is held. */
static pthread_mutex_t tdt_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t tdt_cv = PTHREAD_COND_INITIALIZER;
static tdt_queue *queues[TDT_MAX_QUEUES];
static tdt_route *routes;
static size_t n_routes, cap_routes;

EMU_FORK_SAFE_MUTEX_COND(tdt_mu, tdt_cv, EMU_ATFORK_TDT)

static tdt_queue *queue_locked(uint32_t qid)
{
    return qid < TDT_MAX_QUEUES ? queues[qid] : NULL;
}

static void queue_push_locked(tdt_queue *q, tdt_msg *m)
{
    m->next = NULL;
    if (q->tail)
        q->tail->next = m;
    else
        q->head = m;
    q->tail = m;
    q->count++;
}

static tdt_msg *queue_pop_locked(tdt_queue *q)
{
    tdt_msg *m = q->head;
    q->head = m->next;
    if (!q->head)
        q->tail = NULL;
    q->count--;
    return m;
}

static void queue_clear_locked(tdt_queue *q)
{
    while (q->head)
        free(queue_pop_locked(q));
}

static int check_timeout(const char *api, int32_t timeout)
{
    if (timeout < -1)
        return emu_error(ACL_ERROR_RT_PARAM_INVALID, api, "timeout %d ms: it must be -1 (forever), 0 or more",
                         (int)timeout);
    return 0;
}

/* Waits (tdt_mu held) until ready(q) or timeout ms pass (-1: forever); 0, the status on timeout, or
 * ACL_ERROR_RT_PARAM_INVALID when the queue is (or goes) away. */
static int wait_locked(uint32_t qid, bool (*ready)(const tdt_queue *), int32_t timeout, int timeout_status,
                       tdt_queue **out)
{
    struct timespec deadline = emu_deadline_after_ms(timeout < 0 ? 0 : timeout);
    for (;;) {
        tdt_queue *q = queue_locked(qid);
        if (!q)
            return ACL_ERROR_RT_PARAM_INVALID;
        if (ready(q)) {
            *out = q;
            return 0;
        }
        if (timeout == 0)
            return timeout_status;
        if (timeout < 0)
            pthread_cond_wait(&tdt_cv, &tdt_mu);
        else if (pthread_cond_timedwait(&tdt_cv, &tdt_mu, &deadline) != 0 && !ready(q))
            return timeout_status;
    }
}

static bool has_room(const tdt_queue *q)
{
    return q->count < q->depth;
}

static bool has_message(const tdt_queue *q)
{
    return q->count > 0;
}

/* Whether a message enqueued on qid has room (tdt_mu held): in each destination of qid's bound routes
 * (CANN's queue scheduler moves it there), or in qid itself when it routes nowhere. */
static bool room_locked(uint32_t qid)
{
    bool routed = false;
    for (size_t i = 0; i < n_routes; i++) {
        if (routes[i].src != qid)
            continue;
        routed = true;
        tdt_queue *q = queue_locked(routes[i].dst);
        if (q && !has_room(q))
            return false;
    }
    return routed || has_room(queue_locked(qid));
}

/* Delivers m (tdt_mu held, room_locked true): a copy to each live destination, or m to qid. Takes m. */
static int deliver_locked(uint32_t qid, tdt_msg *m)
{
    size_t bytes = sizeof *m + m->user_size + m->size;
    bool routed = false;
    for (size_t i = 0; i < n_routes; i++) {
        tdt_queue *q = routes[i].src == qid ? queue_locked(routes[i].dst) : NULL;
        if (!q)
            continue;
        routed = true;
        tdt_msg *copy = malloc(bytes);
        if (!copy) {
            free(m);
            return ACL_ERROR_BAD_ALLOC;
        }
        memcpy(copy, m, bytes);
        queue_push_locked(q, copy);
    }
    if (routed)
        free(m);
    else
        queue_push_locked(queue_locked(qid), m);
    return 0;
}

/* Enqueues m on qid, waiting up to timeout ms (-1: forever) for room. Takes m. */
static int enqueue(const char *api, uint32_t qid, tdt_msg *m, int32_t timeout)
{
    struct timespec deadline = emu_deadline_after_ms(timeout < 0 ? 0 : timeout);
    int st = 0;
    pthread_mutex_lock(&tdt_mu);
    for (;;) {
        if (!queue_locked(qid)) {
            st = ACL_ERROR_RT_PARAM_INVALID;
            break;
        }
        if (room_locked(qid)) {
            st = deliver_locked(qid, m);
            m = NULL;
            pthread_cond_broadcast(&tdt_cv);
            break;
        }
        if (timeout == 0 ||
            (timeout > 0 && pthread_cond_timedwait(&tdt_cv, &tdt_mu, &deadline) != 0 && !room_locked(qid))) {
            st = ACL_ERROR_RT_QUEUE_FULL;
            break;
        }
        if (timeout < 0)
            pthread_cond_wait(&tdt_cv, &tdt_mu);
    }
    pthread_mutex_unlock(&tdt_mu);
    free(m);
    if (st == ACL_ERROR_RT_QUEUE_FULL)
        return emu_error(st, api, "queue %u is full: no room within %d ms", qid, (int)timeout);
    if (st == ACL_ERROR_RT_PARAM_INVALID)
        return emu_error(st, api, "queue %u does not exist (never created, or destroyed)", qid);
    if (st)
        return emu_error(st, api, "out of memory");
    return 0;
}

/* Dequeues the oldest message of qid, waiting for one; accept(m, ctx) says whether the caller can take it
 * (else it stays queued and accept's status is returned). */
static int dequeue(const char *api, uint32_t qid, int32_t timeout, int (*accept)(const tdt_msg *, void *),
                   void *ctx, tdt_msg **out)
{
    pthread_mutex_lock(&tdt_mu);
    tdt_queue *q;
    int st = wait_locked(qid, has_message, timeout, ACL_ERROR_RT_QUEUE_EMPTY, &q);
    if (st == 0 && (st = accept(q->head, ctx)) == 0) {
        *out = queue_pop_locked(q);
        pthread_cond_broadcast(&tdt_cv);
    }
    pthread_mutex_unlock(&tdt_mu);
    if (st == ACL_ERROR_RT_QUEUE_EMPTY)
        return emu_error(st, api, "queue %u is empty: nothing arrived within %d ms", qid, (int)timeout);
    if (st == ACL_ERROR_RT_PARAM_INVALID)
        return emu_error(st, api, "queue %u does not exist (never created, or destroyed)", qid);
    return st; /* accept's own status carries its message */
}

/* Creates a queue; its id in *qid. name "" takes a name of the library's. */
static int create_queue(const char *api, const char *name, uint32_t depth, uint32_t *qid)
{
    if (depth < TDT_MIN_DEPTH || depth > TDT_MAX_QUEUES)
        return emu_error(ACL_ERROR_RT_PARAM_INVALID, api, "depth %u is outside [%d, %d]", depth, TDT_MIN_DEPTH,
                         TDT_MAX_QUEUES);
    tdt_queue *q = calloc(1, sizeof *q);
    if (!q)
        return emu_error(ACL_ERROR_BAD_ALLOC, api, "out of memory");
    q->depth = depth;
    pthread_mutex_lock(&tdt_mu);
    uint32_t id = TDT_MAX_QUEUES;
    bool taken = false;
    for (uint32_t i = 0; i < TDT_MAX_QUEUES; i++) {
        if (!queues[i]) {
            if (id == TDT_MAX_QUEUES)
                id = i;
        } else if (name[0] && strcmp(queues[i]->name, name) == 0) {
            taken = true;
        }
    }
    if (!taken && id < TDT_MAX_QUEUES) {
        if (name[0])
            snprintf(q->name, sizeof q->name, "%s", name);
        else
            snprintf(q->name, sizeof q->name, "aclnn_emu_queue_%u", id);
        queues[id] = q;
    }
    pthread_mutex_unlock(&tdt_mu);
    if (taken || id == TDT_MAX_QUEUES) {
        free(q);
        return taken ? emu_error(ACL_ERROR_INVALID_PARAM, api, "a live queue is already named \"%s\"", name)
                     : emu_error(ACL_ERROR_FAILURE, api, "%d queues are live: destroy one first", TDT_MAX_QUEUES);
    }
    *qid = id;
    return 0;
}

/* Destroys a queue; refused while a route names it when routes_block. */
static int destroy_queue(const char *api, uint32_t qid, bool routes_block)
{
    pthread_mutex_lock(&tdt_mu);
    tdt_queue *q = queue_locked(qid);
    size_t bound = 0;
    for (size_t i = 0; routes_block && i < n_routes; i++)
        bound += routes[i].src == qid || routes[i].dst == qid;
    if (q && !bound) {
        queues[qid] = NULL;
        queue_clear_locked(q);
        free(q);
        pthread_cond_broadcast(&tdt_cv);
    }
    pthread_mutex_unlock(&tdt_mu);
    if (!q)
        return emu_error(ACL_ERROR_RT_PARAM_INVALID, api, "queue %u does not exist (never created, or destroyed)",
                         qid);
    if (bound)
        return emu_error(ACL_ERROR_FAILURE, api,
                         "queue %u is in %zu bound route(s): it needs to be unbound first (acltdtUnbindQueueRoutes)",
                         qid, bound);
    return 0;
}

/* ---- data items and datasets --------------------------------------------------------- */

static void item_release(void *p)
{
    acltdtDataItem *item = p;
    if (item->owner)
        free(item->data);
    free(item);
}

ACL_FUNC_VISIBILITY acltdtDataItem *acltdtCreateDataItem(acltdtTensorType tdtType, const int64_t *dims,
                                                         size_t dimNum, aclDataType dataType, void *data,
                                                         size_t size)
{
    EMU_API_ENTRY();
    if (!dims != !dimNum) {
        emu_error(ACL_ERROR_INVALID_PARAM, api, "dims is %s but dimNum is %zu", dims ? "set" : "NULL", dimNum);
        return NULL;
    }
    if (dimNum > TDT_MAX_DIMS) {
        emu_error(ACL_ERROR_INVALID_PARAM, api, "dimNum %zu is over %d", dimNum, TDT_MAX_DIMS);
        return NULL;
    }
    if (tdtType != ACL_TENSOR_DATA_TENSOR && dims) {
        emu_error(ACL_ERROR_INVALID_PARAM, api, "tdtType %d is no tensor: it takes no dims", (int)tdtType);
        return NULL;
    }
    acltdtDataItem *item = emu_handle_alloc(sizeof *item, EMU_TDT_DATA_ITEM, api);
    if (item) {
        bool tensor = tdtType == ACL_TENSOR_DATA_TENSOR;
        item->type = tdtType;
        item->dtype = tensor ? dataType : ACL_DT_UNDEFINED;
        item->ndims = dimNum;
        if (dimNum)
            memcpy(item->dims, dims, dimNum * sizeof *dims);
        item->data = tensor ? data : NULL;
        item->size = tensor ? size : 0;
    }
    return item;
}

ACL_FUNC_VISIBILITY aclError acltdtDestroyDataItem(acltdtDataItem *dataItem)
{
    EMU_API_ENTRY();
    int st = check(dataItem, EMU_TDT_DATA_ITEM, api, "dataItem");
    if (st)
        return st;
    if (dataItem->owner)
        return emu_error(ACL_ERROR_INVALID_PARAM, api,
                         "dataItem %p belongs to a received dataset: acltdtDestroyDataset destroys it",
                         (void *)dataItem);
    emu_registry_release(dataItem, EMU_TDT_DATA_ITEM, sizeof *dataItem, item_release);
    return ACL_SUCCESS;
}

/* The item, when it is a live one; the getters below answer NULL/0 for anything else. */
static const acltdtDataItem *live_item(const acltdtDataItem *item, const char *api)
{
    return check(item, EMU_TDT_DATA_ITEM, api, "dataItem") == 0 ? item : NULL;
}

ACL_FUNC_VISIBILITY acltdtTensorType acltdtGetTensorTypeFromItem(const acltdtDataItem *dataItem)
{
    EMU_API_ENTRY();
    const acltdtDataItem *item = live_item(dataItem, api);
    return item ? item->type : ACL_TENSOR_DATA_UNDEFINED;
}

ACL_FUNC_VISIBILITY aclDataType acltdtGetDataTypeFromItem(const acltdtDataItem *dataItem)
{
    EMU_API_ENTRY();
    const acltdtDataItem *item = live_item(dataItem, api);
    return item ? item->dtype : ACL_DT_UNDEFINED;
}

ACL_FUNC_VISIBILITY void *acltdtGetDataAddrFromItem(const acltdtDataItem *dataItem)
{
    EMU_API_ENTRY();
    const acltdtDataItem *item = live_item(dataItem, api);
    return item ? item->data : NULL;
}

ACL_FUNC_VISIBILITY size_t acltdtGetDataSizeFromItem(const acltdtDataItem *dataItem)
{
    EMU_API_ENTRY();
    const acltdtDataItem *item = live_item(dataItem, api);
    return item ? item->size : 0;
}

ACL_FUNC_VISIBILITY size_t acltdtGetDimNumFromItem(const acltdtDataItem *dataItem)
{
    EMU_API_ENTRY();
    const acltdtDataItem *item = live_item(dataItem, api);
    return item ? item->ndims : 0;
}

ACL_FUNC_VISIBILITY aclError acltdtGetSliceInfoFromItem(const acltdtDataItem *dataItem, size_t *sliceNum,
                                                        size_t *sliceId)
{
    EMU_API_ENTRY();
    int st = check(dataItem, EMU_TDT_DATA_ITEM, api, "dataItem");
    if (st)
        return st;
    if (!sliceNum || !sliceId)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "%s is NULL", sliceNum ? "sliceId" : "sliceNum");
    *sliceNum = 0, *sliceId = 0; /* the emulator's sends never slice a tensor */
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError acltdtGetDimsFromItem(const acltdtDataItem *dataItem, int64_t *dims, size_t dimNum)
{
    EMU_API_ENTRY();
    int st = check(dataItem, EMU_TDT_DATA_ITEM, api, "dataItem");
    if (st)
        return st;
    if (!dims != !dimNum)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "dims is %s but dimNum is %zu", dims ? "set" : "NULL",
                         dimNum);
    if (dimNum < dataItem->ndims)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "dimNum %zu is less than the item's %zu dims", dimNum,
                         dataItem->ndims);
    if (dataItem->ndims)
        memcpy(dims, dataItem->dims, dataItem->ndims * sizeof *dims);
    return ACL_SUCCESS;
}

/* Destroys a received dataset's items (they are its own) and empties it. */
static void dataset_drop_items(acltdtDataset *ds)
{
    for (size_t i = 0; ds->received && i < ds->n; i++) {
        ds->items[i]->owner = ds; /* still: item_release frees its copy of the data */
        emu_registry_release(ds->items[i], EMU_TDT_DATA_ITEM, sizeof *ds->items[i], item_release);
    }
    ds->n = 0;
    ds->received = false;
}

static void dataset_release(void *p)
{
    acltdtDataset *ds = p;
    free(ds->items);
    free(ds);
}

ACL_FUNC_VISIBILITY acltdtDataset *acltdtCreateDataset(void)
{
    EMU_API_ENTRY();
    return emu_handle_alloc(sizeof(acltdtDataset), EMU_TDT_DATASET, api);
}

ACL_FUNC_VISIBILITY aclError acltdtDestroyDataset(acltdtDataset *dataset)
{
    EMU_API_ENTRY();
    int st = check(dataset, EMU_TDT_DATASET, api, "dataset");
    if (st)
        return st;
    dataset_drop_items(dataset);
    emu_registry_release(dataset, EMU_TDT_DATASET, sizeof *dataset, dataset_release);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY acltdtDataItem *acltdtGetDataItem(const acltdtDataset *dataset, size_t index)
{
    EMU_API_ENTRY();
    if (check(dataset, EMU_TDT_DATASET, api, "dataset"))
        return NULL;
    if (index >= dataset->n) {
        emu_error(ACL_ERROR_INVALID_PARAM, api, "index %zu is past the dataset's %zu items", index, dataset->n);
        return NULL;
    }
    return dataset->items[index];
}

ACL_FUNC_VISIBILITY aclError acltdtAddDataItem(acltdtDataset *dataset, acltdtDataItem *dataItem)
{
    EMU_API_ENTRY();
    int st = check(dataset, EMU_TDT_DATASET, api, "dataset");
    if (st || (st = check(dataItem, EMU_TDT_DATA_ITEM, api, "dataItem")))
        return st;
    if (dataset->received)
        return emu_error(ACL_ERROR_FEATURE_UNSUPPORTED, api,
                         "dataset %p holds received items: items cannot be added to it", (void *)dataset);
    if (dataItem->data) { /* CANN asks the driver where the data lives; one dataset keeps to one side */
        emu_block_info b;
        int memory = emu_mem_find(dataItem->data, 0, &b) && b.device ? 2 : 1;
        if (dataset->memory && dataset->memory != memory)
            return emu_error(ACL_ERROR_INVALID_PARAM, api,
                             "dataItem's data is in %s memory but the dataset's items are in %s memory",
                             memory == 2 ? "device" : "host", memory == 2 ? "host" : "device");
        dataset->memory = memory;
    }
    if (!emu_grow((void **)&dataset->items, &dataset->cap, dataset->n, sizeof *dataset->items))
        return emu_error(ACL_ERROR_BAD_ALLOC, api, "out of memory");
    dataset->items[dataset->n++] = dataItem;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY size_t acltdtGetDatasetSize(const acltdtDataset *dataset)
{
    EMU_API_ENTRY();
    return check(dataset, EMU_TDT_DATASET, api, "dataset") ? 0 : dataset->n;
}

ACL_FUNC_VISIBILITY const char *acltdtGetDatasetName(const acltdtDataset *dataset)
{
    EMU_API_ENTRY();
    return check(dataset, EMU_TDT_DATASET, api, "dataset") ? NULL : ""; /* no sender here names a dataset */
}

/* ---- channels ----------------------------------------------------------------------------- */

/* A dataset as one message: per item its kind, type, dims and bytes. */
typedef struct tdt_item_header {
    int32_t type, dtype;
    uint64_t ndims, size;
} tdt_item_header;

static int serialize(const char *api, const acltdtDataset *ds, tdt_msg **out)
{
    size_t bytes = sizeof(uint64_t);
    for (size_t i = 0; i < ds->n; i++) {
        const acltdtDataItem *it = ds->items[i];
        if (emu_registry_find(it, EMU_TDT_DATA_ITEM) != EMU_LIVE)
            return emu_error(ACL_ERROR_INVALID_PARAM, api, "the dataset's item %zu (%p) was destroyed", i,
                             (const void *)it);
        if (it->type != ACL_TENSOR_DATA_TENSOR && it->type != ACL_TENSOR_DATA_END_OF_SEQUENCE &&
            it->type != ACL_TENSOR_DATA_ABNORMAL)
            return emu_error(ACL_ERROR_INVALID_PARAM, api,
                             "item %zu has tdtType %d: a send takes TENSOR, END_OF_SEQUENCE or ABNORMAL items", i,
                             (int)it->type);
        if (it->size && !it->data)
            return emu_error(ACL_ERROR_INVALID_PARAM, api, "item %zu has %zu bytes but no data", i, it->size);
        size_t add = sizeof(tdt_item_header) + it->ndims * sizeof(int64_t);
        if (it->size > SIZE_MAX - add || bytes > SIZE_MAX - add - it->size - sizeof(tdt_msg))
            return emu_error(ACL_ERROR_INVALID_PARAM, api, "item %zu's %zu bytes overflow a message", i, it->size);
        bytes += add + it->size;
    }
    tdt_msg *m = malloc(sizeof *m + bytes);
    if (!m)
        return emu_error(ACL_ERROR_BAD_ALLOC, api, "out of memory for a %zu-byte message", bytes);
    m->size = bytes, m->user_size = 0;
    unsigned char *p = m->bytes;
    uint64_t n = ds->n;
    memcpy(p, &n, sizeof n), p += sizeof n;
    for (size_t i = 0; i < ds->n; i++) {
        const acltdtDataItem *it = ds->items[i];
        tdt_item_header h = {it->type, it->dtype, it->ndims, it->size};
        memcpy(p, &h, sizeof h), p += sizeof h;
        memcpy(p, it->dims, it->ndims * sizeof(int64_t)), p += it->ndims * sizeof(int64_t);
        if (it->size)
            memcpy(p, it->data, it->size), p += it->size;
    }
    *out = m;
    return 0;
}

/* Fills a received dataset from a message the library wrote (so its layout is trusted). */
static int deserialize(const char *api, const tdt_msg *m, acltdtDataset *ds)
{
    const unsigned char *p = m->bytes;
    uint64_t n;
    memcpy(&n, p, sizeof n), p += sizeof n;
    ds->received = true;
    for (uint64_t i = 0; i < n; i++) {
        tdt_item_header h;
        memcpy(&h, p, sizeof h), p += sizeof h;
        acltdtDataItem *it = calloc(1, sizeof *it);
        void *data = h.size ? malloc(h.size) : NULL;
        if (!it || (h.size && !data) ||
            !emu_grow((void **)&ds->items, &ds->cap, ds->n, sizeof *ds->items) ||
            emu_registry_add(it, EMU_TDT_DATA_ITEM, api) != 0) {
            free(it), free(data);
            return emu_error(ACL_ERROR_BAD_ALLOC, api, "out of memory");
        }
        *it = (acltdtDataItem){.type = h.type, .dtype = h.dtype, .ndims = h.ndims, .size = h.size, .owner = ds};
        memcpy(it->dims, p, h.ndims * sizeof(int64_t)), p += h.ndims * sizeof(int64_t);
        if (h.size)
            memcpy(data, p, h.size), p += h.size;
        it->data = data;
        ds->items[ds->n++] = it;
    }
    return 0;
}

static int channel_queue(const acltdtChannelHandle *handle, const char *api, uint32_t *qid)
{
    int st = check(handle, EMU_TDT_CHANNEL, api, "handle");
    if (!st)
        *qid = handle->qid;
    return st;
}

ACL_FUNC_VISIBILITY acltdtChannelHandle *acltdtCreateChannel(uint32_t deviceId, const char *name)
{
    EMU_API_ENTRY();
    emu_error(ACL_ERROR_API_NOT_SUPPORT, api,
              "the TDT-process channel (device %u, \"%s\") is not emulated: use acltdtCreateChannelWithCapacity",
              deviceId, name ? name : "(null)");
    return NULL;
}

ACL_FUNC_VISIBILITY acltdtChannelHandle *acltdtCreateChannelWithCapacity(uint32_t deviceId, const char *name,
                                                                       size_t capacity)
{
    EMU_API_ENTRY();
    if (!name) {
        emu_error(ACL_ERROR_INVALID_PARAM, api, "name is NULL");
        return NULL;
    }
    if (strnlen(name, TDT_NAME_MAX) + 1 > TDT_NAME_MAX) {
        emu_error(ACL_ERROR_INVALID_PARAM, api, "name is %d bytes or longer: the limit is %d with its NUL",
                  TDT_NAME_MAX, TDT_NAME_MAX);
        return NULL;
    }
    if (deviceId >= (uint32_t)emu_device_count()) {
        emu_error(ACL_ERROR_RT_INVALID_DEVICEID, api, "deviceId %u is out of range [0, %d)", deviceId,
                  emu_device_count());
        return NULL;
    }
    /* The channel's queue is its own: CANN keeps channel names out of the queue namespace. */
    uint32_t qid;
    if (create_queue(api, "", capacity > TDT_MAX_QUEUES ? 0 : (uint32_t)capacity, &qid) != 0)
        return NULL;
    acltdtChannelHandle *h = emu_handle_alloc(sizeof *h, EMU_TDT_CHANNEL, api);
    if (h)
        h->qid = qid;
    else
        destroy_queue(api, qid, false);
    return h;
}

ACL_FUNC_VISIBILITY aclError acltdtDestroyChannel(acltdtChannelHandle *handle)
{
    EMU_API_ENTRY();
    uint32_t qid;
    int st = channel_queue(handle, api, &qid);
    if (st || (st = destroy_queue(api, qid, false)))
        return st;
    emu_registry_release(handle, EMU_TDT_CHANNEL, sizeof *handle, free);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError acltdtStopChannel(acltdtChannelHandle *handle)
{
    EMU_API_ENTRY();
    uint32_t qid;
    return channel_queue(handle, api, &qid); /* CANN: nothing to stop on a queue-backed channel */
}

ACL_FUNC_VISIBILITY aclError acltdtCleanChannel(acltdtChannelHandle *handle)
{
    EMU_API_ENTRY();
    uint32_t qid;
    int st = channel_queue(handle, api, &qid);
    if (st)
        return st;
    pthread_mutex_lock(&tdt_mu);
    tdt_queue *q = queue_locked(qid);
    if (q) {
        queue_clear_locked(q);
        pthread_cond_broadcast(&tdt_cv);
    }
    pthread_mutex_unlock(&tdt_mu);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError acltdtSendTensor(const acltdtChannelHandle *handle, const acltdtDataset *dataset,
                                              int32_t timeout)
{
    EMU_API_ENTRY();
    uint32_t qid;
    tdt_msg *m = NULL;
    int st = channel_queue(handle, api, &qid);
    if (st || (st = check(dataset, EMU_TDT_DATASET, api, "dataset")) || (st = check_timeout(api, timeout)) ||
        (st = serialize(api, dataset, &m)))
        return st;
    return enqueue(api, qid, m, timeout);
}

static int accept_any(const tdt_msg *m, void *ctx)
{
    (void)m, (void)ctx;
    return 0;
}

ACL_FUNC_VISIBILITY aclError acltdtReceiveTensor(const acltdtChannelHandle *handle, acltdtDataset *dataset,
                                                 int32_t timeout)
{
    EMU_API_ENTRY();
    uint32_t qid;
    int st = channel_queue(handle, api, &qid);
    if (st || (st = check(dataset, EMU_TDT_DATASET, api, "dataset")) || (st = check_timeout(api, timeout)))
        return st;
    if (dataset->n && !dataset->received)
        return emu_error(ACL_ERROR_INVALID_PARAM, api,
                         "dataset %p holds %zu items the caller added: receive into an empty dataset",
                         (void *)dataset, dataset->n);
    tdt_msg *m = NULL;
    if ((st = dequeue(api, qid, timeout, accept_any, NULL, &m)))
        return st;
    dataset_drop_items(dataset);
    st = deserialize(api, m, dataset);
    free(m);
    return st;
}

ACL_FUNC_VISIBILITY aclError acltdtQueryChannelSize(const acltdtChannelHandle *handle, size_t *size)
{
    EMU_API_ENTRY();
    uint32_t qid;
    int st = channel_queue(handle, api, &qid);
    if (st)
        return st;
    if (!size)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "size is NULL");
    pthread_mutex_lock(&tdt_mu);
    tdt_queue *q = queue_locked(qid);
    *size = q ? q->count : 0;
    pthread_mutex_unlock(&tdt_mu);
    return ACL_SUCCESS;
}

/* ---- queues -------------------------------------------------------------------------------- */

ACL_FUNC_VISIBILITY aclError acltdtCreateQueue(const acltdtQueueAttr *attr, uint32_t *qid)
{
    EMU_API_ENTRY();
    if (!qid)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "qid is NULL");
    int32_t device;
    int st = emu_current_device(api, &device);
    if (st || (attr && (st = check(attr, EMU_TDT_QUEUE_ATTR, api, "attr"))))
        return st;
    return create_queue(api, attr ? attr->name : "", attr ? attr->depth : TDT_DEFAULT_DEPTH, qid);
}

ACL_FUNC_VISIBILITY aclError acltdtDestroyQueue(uint32_t qid)
{
    EMU_API_ENTRY();
    int32_t device;
    int st = emu_current_device(api, &device);
    return st ? st : destroy_queue(api, qid, true);
}

ACL_FUNC_VISIBILITY aclError acltdtEnqueueData(uint32_t qid, const void *data, size_t dataSize, const void *userData,
                                               size_t userDataSize, int32_t timeout, uint32_t rsv)
{
    EMU_API_ENTRY();
    (void)rsv;
    if ((!data && dataSize) || (!userData && userDataSize))
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "%s is NULL but its size is %zu", data ? "userData" : "data",
                         data ? userDataSize : dataSize);
    int st = check_timeout(api, timeout);
    if (st)
        return st;
    if (dataSize > SIZE_MAX - sizeof(tdt_msg) - userDataSize)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "dataSize %zu is too large", dataSize);
    tdt_msg *m = malloc(sizeof *m + userDataSize + dataSize);
    if (!m)
        return emu_error(ACL_ERROR_BAD_ALLOC, api, "out of memory");
    m->size = dataSize, m->user_size = userDataSize;
    if (userDataSize)
        memcpy(m->bytes, userData, userDataSize);
    if (dataSize)
        memcpy(m->bytes + userDataSize, data, dataSize);
    return enqueue(api, qid, m, timeout);
}

typedef struct dequeue_room {
    const char *api;
    size_t data_size;
} dequeue_room;

static int accept_if_fits(const tdt_msg *m, void *ctx)
{
    const dequeue_room *room = ctx;
    if (m->size > room->data_size)
        return emu_error(ACL_ERROR_INVALID_PARAM, room->api,
                         "the message's %zu bytes do not fit in dataSize %zu: it stays queued", m->size,
                         room->data_size);
    return 0;
}

ACL_FUNC_VISIBILITY aclError acltdtDequeueData(uint32_t qid, void *data, size_t dataSize, size_t *retDataSize,
                                               void *userData, size_t userDataSize, int32_t timeout)
{
    EMU_API_ENTRY();
    if (!data || !retDataSize)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "%s is NULL", data ? "retDataSize" : "data");
    if (!userData && userDataSize)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "userData is NULL but userDataSize is %zu", userDataSize);
    int st = check_timeout(api, timeout);
    dequeue_room room = {api, dataSize};
    tdt_msg *m = NULL;
    if (st || (st = dequeue(api, qid, timeout, accept_if_fits, &room, &m)))
        return st;
    size_t user = m->user_size < userDataSize ? m->user_size : userDataSize;
    if (user)
        memcpy(userData, m->bytes, user);
    if (m->size)
        memcpy(data, m->bytes + m->user_size, m->size);
    *retDataSize = m->size;
    free(m);
    return ACL_SUCCESS;
}

/* The buffer (mbuf) calls, grant and attach: what CANN's host run mode refuses too. */
static aclError host_mode_unsupported(const char *api)
{
    return emu_error(ACL_ERROR_FEATURE_UNSUPPORTED, api,
                     "queue buffers (mbuf), grant and attach are not supported in the host run mode (CANN's, and "
                     "the emulator's): use acltdtEnqueueData/acltdtDequeueData");
}

/* Their arguments are not looked at: the call is refused whatever they are. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#define TDT_UNSUPPORTED(name, params)                                                                        \
    ACL_FUNC_VISIBILITY aclError name params                                                                 \
    {                                                                                                        \
        EMU_API_ENTRY();                                                                                     \
        return host_mode_unsupported(api);                                                                   \
    }

TDT_UNSUPPORTED(acltdtEnqueue, (uint32_t qid, acltdtBuf buf, int32_t timeout))
TDT_UNSUPPORTED(acltdtDequeue, (uint32_t qid, acltdtBuf *buf, int32_t timeout))
TDT_UNSUPPORTED(acltdtGrantQueue, (uint32_t qid, int32_t pid, uint32_t permission, int32_t timeout))
TDT_UNSUPPORTED(acltdtAttachQueue, (uint32_t qid, int32_t timeout, uint32_t *permission))
TDT_UNSUPPORTED(acltdtAllocBuf, (size_t size, uint32_t type, acltdtBuf *buf))
TDT_UNSUPPORTED(acltdtFreeBuf, (acltdtBuf buf))
TDT_UNSUPPORTED(acltdtGetBufData, (const acltdtBuf buf, void **dataPtr, size_t *size))
TDT_UNSUPPORTED(acltdtSetBufDataLen, (acltdtBuf buf, size_t len))
TDT_UNSUPPORTED(acltdtGetBufDataLen, (acltdtBuf buf, size_t *len))
TDT_UNSUPPORTED(acltdtAppendBufChain, (acltdtBuf headBuf, acltdtBuf buf))
TDT_UNSUPPORTED(acltdtGetBufChainNum, (acltdtBuf headBuf, uint32_t *num))
TDT_UNSUPPORTED(acltdtGetBufFromChain, (acltdtBuf headBuf, uint32_t index, acltdtBuf *buf))
TDT_UNSUPPORTED(acltdtGetBufUserData, (const acltdtBuf buf, void *dataPtr, size_t size, size_t offset))
TDT_UNSUPPORTED(acltdtSetBufUserData, (acltdtBuf buf, const void *dataPtr, size_t size, size_t offset))
TDT_UNSUPPORTED(acltdtCopyBufRef, (const acltdtBuf buf, acltdtBuf *newBuf))
#pragma GCC diagnostic pop

/* ---- attributes: CANN's CopyParam (a NULL pointer or a source longer than the destination is refused) -- */

static int copy_param(const char *api, const void *src, size_t src_len, void *dst, size_t dst_len,
                      size_t *ret_size)
{
    if (src_len > dst_len)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "len %zu is over the %zu bytes of the value", src_len,
                         dst_len);
    memcpy(dst, src, src_len);
    if (ret_size)
        *ret_size = src_len;
    return 0;
}

ACL_FUNC_VISIBILITY acltdtQueueAttr *acltdtCreateQueueAttr(void)
{
    EMU_API_ENTRY();
    acltdtQueueAttr *attr = emu_handle_alloc(sizeof *attr, EMU_TDT_QUEUE_ATTR, api);
    if (attr) {
        attr->depth = TDT_DEFAULT_DEPTH;
        attr->name_view = attr->name;
    }
    return attr;
}

ACL_FUNC_VISIBILITY aclError acltdtDestroyQueueAttr(const acltdtQueueAttr *attr)
{
    EMU_API_ENTRY();
    int st = check(attr, EMU_TDT_QUEUE_ATTR, api, "attr");
    if (!st)
        emu_registry_release((void *)attr, EMU_TDT_QUEUE_ATTR, sizeof *attr, free);
    return st;
}

ACL_FUNC_VISIBILITY aclError acltdtSetQueueAttr(acltdtQueueAttr *attr, acltdtQueueAttrType type, size_t len,
                                                const void *param)
{
    EMU_API_ENTRY();
    int st = check(attr, EMU_TDT_QUEUE_ATTR, api, "attr");
    if (st)
        return st;
    if (!param)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "param is NULL");
    if (type == ACL_TDT_QUEUE_DEPTH_UINT32) {
        uint32_t depth = 0;
        if ((st = copy_param(api, param, len, &depth, sizeof depth, NULL)))
            return st;
        attr->depth = depth; /* its range is checked by acltdtCreateQueue, as in CANN */
        return ACL_SUCCESS;
    }
    if (type != ACL_TDT_QUEUE_NAME_PTR)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "type %d is not an acltdtQueueAttrType", (int)type);
    const char *name = NULL;
    if ((st = copy_param(api, param, len, &name, sizeof name, NULL)))
        return st;
    if (!name)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "the name param points to is NULL");
    if (strnlen(name, TDT_NAME_MAX) + 1 > TDT_NAME_MAX)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "the name is %d bytes or longer: the limit is %d with its NUL",
                         TDT_NAME_MAX, TDT_NAME_MAX);
    snprintf(attr->name, sizeof attr->name, "%s", name);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError acltdtGetQueueAttr(const acltdtQueueAttr *attr, acltdtQueueAttrType type, size_t len,
                                                size_t *paramRetSize, void *param)
{
    EMU_API_ENTRY();
    int st = check(attr, EMU_TDT_QUEUE_ATTR, api, "attr");
    if (st)
        return st;
    if (!param || !paramRetSize)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "%s is NULL", param ? "paramRetSize" : "param");
    if (type == ACL_TDT_QUEUE_NAME_PTR)
        return copy_param(api, &attr->name_view, sizeof attr->name_view, param, len, paramRetSize);
    if (type == ACL_TDT_QUEUE_DEPTH_UINT32)
        return copy_param(api, &attr->depth, sizeof attr->depth, param, len, paramRetSize);
    return emu_error(ACL_ERROR_INVALID_PARAM, api, "type %d is not an acltdtQueueAttrType", (int)type);
}

/* ---- routes ------------------------------------------------------------------------------------- */

ACL_FUNC_VISIBILITY acltdtQueueRoute *acltdtCreateQueueRoute(uint32_t srcId, uint32_t dstId)
{
    EMU_API_ENTRY();
    acltdtQueueRoute *r = emu_handle_alloc(sizeof *r, EMU_TDT_ROUTE, api);
    if (r)
        *r = (acltdtQueueRoute){srcId, dstId, ACL_TDT_QUEUE_ROUTE_UNBIND};
    return r;
}

ACL_FUNC_VISIBILITY aclError acltdtDestroyQueueRoute(const acltdtQueueRoute *route)
{
    EMU_API_ENTRY();
    int st = check(route, EMU_TDT_ROUTE, api, "route");
    if (!st)
        emu_registry_release((void *)route, EMU_TDT_ROUTE, sizeof *route, free);
    return st;
}

ACL_FUNC_VISIBILITY aclError acltdtGetQueueRouteParam(const acltdtQueueRoute *route, acltdtQueueRouteParamType type,
                                                      size_t len, size_t *paramRetSize, void *param)
{
    EMU_API_ENTRY();
    int st = check(route, EMU_TDT_ROUTE, api, "route");
    if (st)
        return st;
    if (!param || !paramRetSize)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "%s is NULL", param ? "paramRetSize" : "param");
    switch (type) {
    case ACL_TDT_QUEUE_ROUTE_SRC_UINT32:
        return copy_param(api, &route->src, sizeof route->src, param, len, paramRetSize);
    case ACL_TDT_QUEUE_ROUTE_DST_UINT32:
        return copy_param(api, &route->dst, sizeof route->dst, param, len, paramRetSize);
    case ACL_TDT_QUEUE_ROUTE_STATUS_INT32:
        return copy_param(api, &route->status, sizeof route->status, param, len, paramRetSize);
    default:
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "type %d is not an acltdtQueueRouteParamType", (int)type);
    }
}

static void route_list_release(void *p)
{
    acltdtQueueRouteList *list = p;
    free(list->routes);
    free(list);
}

ACL_FUNC_VISIBILITY acltdtQueueRouteList *acltdtCreateQueueRouteList(void)
{
    EMU_API_ENTRY();
    return emu_handle_alloc(sizeof(acltdtQueueRouteList), EMU_TDT_ROUTE_LIST, api);
}

ACL_FUNC_VISIBILITY aclError acltdtDestroyQueueRouteList(const acltdtQueueRouteList *routeList)
{
    EMU_API_ENTRY();
    int st = check(routeList, EMU_TDT_ROUTE_LIST, api, "routeList");
    if (!st)
        emu_registry_release((void *)routeList, EMU_TDT_ROUTE_LIST, sizeof *routeList, route_list_release);
    return st;
}

static bool route_list_append(acltdtQueueRouteList *list, acltdtQueueRoute r)
{
    if (!emu_grow((void **)&list->routes, &list->cap, list->n, sizeof *list->routes))
        return false;
    list->routes[list->n++] = r;
    return true;
}

ACL_FUNC_VISIBILITY aclError acltdtAddQueueRoute(acltdtQueueRouteList *routeList, const acltdtQueueRoute *route)
{
    EMU_API_ENTRY();
    int st = check(routeList, EMU_TDT_ROUTE_LIST, api, "routeList");
    if (st || (st = check(route, EMU_TDT_ROUTE, api, "route")))
        return st;
    return route_list_append(routeList, *route) ? ACL_SUCCESS : emu_error(ACL_ERROR_BAD_ALLOC, api, "out of memory");
}

ACL_FUNC_VISIBILITY aclError acltdtGetQueueRoute(const acltdtQueueRouteList *routeList, size_t index,
                                                 acltdtQueueRoute *route)
{
    EMU_API_ENTRY();
    int st = check(routeList, EMU_TDT_ROUTE_LIST, api, "routeList");
    if (st || (st = check(route, EMU_TDT_ROUTE, api, "route")))
        return st;
    if (index >= routeList->n)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "index %zu is past the list's %zu routes", index,
                         routeList->n);
    *route = routeList->routes[index];
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY size_t acltdtGetQueueRouteNum(const acltdtQueueRouteList *routeList)
{
    EMU_API_ENTRY();
    return check(routeList, EMU_TDT_ROUTE_LIST, api, "routeList") ? 0 : routeList->n;
}

ACL_FUNC_VISIBILITY acltdtQueueRouteQueryInfo *acltdtCreateQueueRouteQueryInfo(void)
{
    EMU_API_ENTRY();
    return emu_handle_alloc(sizeof(acltdtQueueRouteQueryInfo), EMU_TDT_ROUTE_QUERY, api);
}

ACL_FUNC_VISIBILITY aclError acltdtDestroyQueueRouteQueryInfo(const acltdtQueueRouteQueryInfo *info)
{
    EMU_API_ENTRY();
    int st = check(info, EMU_TDT_ROUTE_QUERY, api, "info");
    if (!st)
        emu_registry_release((void *)info, EMU_TDT_ROUTE_QUERY, sizeof *info, free);
    return st;
}

ACL_FUNC_VISIBILITY aclError acltdtSetQueueRouteQueryInfo(acltdtQueueRouteQueryInfo *param,
                                                          acltdtQueueRouteQueryInfoParamType type, size_t len,
                                                          const void *value)
{
    EMU_API_ENTRY();
    int st = check(param, EMU_TDT_ROUTE_QUERY, api, "param");
    if (st)
        return st;
    if (!value)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "value is NULL");
    switch (type) {
    case ACL_TDT_QUEUE_ROUTE_QUERY_MODE_ENUM:
        st = copy_param(api, value, len, &param->mode, sizeof param->mode, NULL);
        param->has_mode |= !st;
        return st;
    case ACL_TDT_QUEUE_ROUTE_QUERY_SRC_ID_UINT32:
        st = copy_param(api, value, len, &param->src, sizeof param->src, NULL);
        param->has_src |= !st;
        return st;
    case ACL_TDT_QUEUE_ROUTE_QUERY_DST_ID_UINT32:
        st = copy_param(api, value, len, &param->dst, sizeof param->dst, NULL);
        param->has_dst |= !st;
        return st;
    default:
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "type %d is not an acltdtQueueRouteQueryInfoParamType",
                         (int)type);
    }
}

/* Binds (or unbinds) one route, tdt_mu held: whether it worked. */
static bool bind_locked(const acltdtQueueRoute *r, bool bind)
{
    size_t at = n_routes;
    for (size_t i = 0; i < n_routes; i++)
        if (routes[i].src == r->src && routes[i].dst == r->dst)
            at = i;
    if (!bind) {
        if (at < n_routes)
            routes[at] = routes[--n_routes];
        return true; /* unbinding what is not bound succeeds, as in CANN's queue scheduler */
    }
    if (r->src == r->dst || !queue_locked(r->src) || !queue_locked(r->dst))
        return false;
    if (at < n_routes)
        return true;
    if (!emu_grow((void **)&routes, &cap_routes, n_routes, sizeof *routes))
        return false;
    routes[n_routes++] = (tdt_route){r->src, r->dst};
    return true;
}

static aclError bind_routes(const char *api, acltdtQueueRouteList *list, bool bind)
{
    int st = check(list, EMU_TDT_ROUTE_LIST, api, "qRouteList");
    if (st)
        return st;
    size_t failed = 0, first = 0;
    pthread_mutex_lock(&tdt_mu);
    for (size_t i = 0; i < list->n; i++) {
        bool ok = bind_locked(&list->routes[i], bind);
        list->routes[i].status = ok == bind ? ACL_TDT_QUEUE_ROUTE_BIND : ACL_TDT_QUEUE_ROUTE_UNBIND;
        if (!ok && failed++ == 0)
            first = i;
    }
    pthread_cond_broadcast(&tdt_cv); /* a sender waiting on a destination's room may now go elsewhere */
    pthread_mutex_unlock(&tdt_mu);
    if (failed)
        return emu_error(ACL_ERROR_FAILURE, api,
                         "%zu of %zu routes failed, the first %u -> %u (an unknown queue, or source and destination "
                         "the same queue)",
                         failed, list->n, list->routes[first].src, list->routes[first].dst);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError acltdtBindQueueRoutes(acltdtQueueRouteList *qRouteList)
{
    EMU_API_ENTRY();
    return bind_routes(api, qRouteList, true);
}

ACL_FUNC_VISIBILITY aclError acltdtUnbindQueueRoutes(acltdtQueueRouteList *qRouteList)
{
    EMU_API_ENTRY();
    return bind_routes(api, qRouteList, false);
}

ACL_FUNC_VISIBILITY aclError acltdtQueryQueueRoutes(const acltdtQueueRouteQueryInfo *queryInfo,
                                                    acltdtQueueRouteList *qRouteList)
{
    EMU_API_ENTRY();
    int st = check(qRouteList, EMU_TDT_ROUTE_LIST, api, "qRouteList");
    if (st || (st = check(queryInfo, EMU_TDT_ROUTE_QUERY, api, "queryInfo")))
        return st;
    qRouteList->n = 0; /* CANN clears the list before it checks the query */
    const acltdtQueueRouteQueryInfo *q = queryInfo;
    bool by_src = q->mode == ACL_TDT_QUEUE_ROUTE_QUERY_SRC || q->mode == ACL_TDT_QUEUE_ROUTE_QUERY_SRC_AND_DST;
    bool by_dst = q->mode == ACL_TDT_QUEUE_ROUTE_QUERY_DST || q->mode == ACL_TDT_QUEUE_ROUTE_QUERY_SRC_AND_DST;
    if (!q->has_mode)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "queryInfo has no mode (ACL_TDT_QUEUE_ROUTE_QUERY_MODE_ENUM)");
    if (!by_src && !by_dst && q->mode != ACL_TDT_QUEUE_ROUTE_QUERY_ABNORMAL)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "mode %d is not an acltdtQueueRouteQueryMode", (int)q->mode);
    if ((by_src && !q->has_src) || (by_dst && !q->has_dst))
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "mode %d needs the %s id, which queryInfo does not set",
                         (int)q->mode, by_src && !q->has_src ? "source" : "destination");
    if (q->mode == ACL_TDT_QUEUE_ROUTE_QUERY_ABNORMAL)
        return ACL_SUCCESS; /* no route here goes abnormal: there is no device to fail */
    pthread_mutex_lock(&tdt_mu);
    bool ok = true;
    for (size_t i = 0; i < n_routes && ok; i++)
        if ((!by_src || routes[i].src == q->src) && (!by_dst || routes[i].dst == q->dst))
            ok = route_list_append(qRouteList,
                                   (acltdtQueueRoute){routes[i].src, routes[i].dst, ACL_TDT_QUEUE_ROUTE_BIND});
    pthread_mutex_unlock(&tdt_mu);
    return ok ? ACL_SUCCESS : emu_error(ACL_ERROR_BAD_ALLOC, api, "out of memory");
}
