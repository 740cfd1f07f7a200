/*
 * aclnn-emu: CANN's shared queues (acl/acl_tdt_queue.h).
 *
 * Queues of messages with a name and a depth, and routes that forward what
 * is enqueued on one queue to others (CANN's queue-schedule daemon). On the
 * emulator they live in this process and the routes forward at enqueue time.
 * The buffer (mbuf) calls, grant and attach are what CANN's host run mode
 * refuses too: they return ACL_ERROR_FEATURE_UNSUPPORTED. Declared with
 * CANN's signatures; checks and statuses follow CANN's queue.cpp.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#ifndef ACL_ACL_TDT_QUEUE_H_
#define ACL_ACL_TDT_QUEUE_H_

#include "acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ACL_TDT_QUEUE_PERMISSION_MANAGE 1
#define ACL_TDT_QUEUE_PERMISSION_DEQUEUE 2
#define ACL_TDT_QUEUE_PERMISSION_ENQUEUE 4

#define ACL_TDT_QUEUE_ROUTE_UNBIND 0
#define ACL_TDT_QUEUE_ROUTE_BIND 1
#define ACL_TDT_QUEUE_ROUTE_BIND_ABNORMAL 2

typedef void *acltdtBuf;
typedef struct tagMemQueueAttr acltdtQueueAttr;
typedef struct acltdtQueueRouteList acltdtQueueRouteList;
typedef struct acltdtQueueRouteQueryInfo acltdtQueueRouteQueryInfo;
typedef struct acltdtQueueRoute acltdtQueueRoute;

typedef enum { ACL_TDT_QUEUE_NAME_PTR = 0, ACL_TDT_QUEUE_DEPTH_UINT32 } acltdtQueueAttrType;

typedef enum {
    ACL_TDT_QUEUE_ROUTE_SRC_UINT32 = 0,
    ACL_TDT_QUEUE_ROUTE_DST_UINT32,
    ACL_TDT_QUEUE_ROUTE_STATUS_INT32
} acltdtQueueRouteParamType;

typedef enum {
    ACL_TDT_QUEUE_ROUTE_QUERY_SRC = 0,
    ACL_TDT_QUEUE_ROUTE_QUERY_DST = 1,
    ACL_TDT_QUEUE_ROUTE_QUERY_SRC_AND_DST = 2,
    ACL_TDT_QUEUE_ROUTE_QUERY_ABNORMAL = 100
} acltdtQueueRouteQueryMode;

typedef enum {
    ACL_TDT_QUEUE_ROUTE_QUERY_MODE_ENUM = 0,
    ACL_TDT_QUEUE_ROUTE_QUERY_SRC_ID_UINT32,
    ACL_TDT_QUEUE_ROUTE_QUERY_DST_ID_UINT32
} acltdtQueueRouteQueryInfoParamType;

typedef enum { ACL_TDT_NORMAL_MEM = 0, ACL_TDT_DVPP_MEM } acltdtAllocBufType;

/* ---- queues ------------------------------------------------------------------ */

/**
 * Creates a queue (attr NULL: depth 8, a name of the library's choosing) on the current device.
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for a NULL qid, a stale attr or a name another live queue
 *          has; ACL_ERROR_RT_PARAM_INVALID for a depth outside [2, 8192]; ACL_ERROR_RT_CONTEXT_NULL
 *          when the thread has no device; ACL_ERROR_FAILURE when 8192 queues are live.
 */
ACL_FUNC_VISIBILITY aclError acltdtCreateQueue(const acltdtQueueAttr *attr, uint32_t *qid);
/**
 * Destroys a queue and the messages it holds.
 * @returns ACL_SUCCESS; ACL_ERROR_FAILURE while a route still names the queue (unbind it first);
 *          ACL_ERROR_RT_PARAM_INVALID for a qid that is no live queue.
 */
ACL_FUNC_VISIBILITY aclError acltdtDestroyQueue(uint32_t qid);
/** Buffer (mbuf) enqueue: ACL_ERROR_FEATURE_UNSUPPORTED, as in CANN's host run mode. */
ACL_FUNC_VISIBILITY aclError acltdtEnqueue(uint32_t qid, acltdtBuf buf, int32_t timeout);
/** Buffer (mbuf) dequeue: ACL_ERROR_FEATURE_UNSUPPORTED, as in CANN's host run mode. */
ACL_FUNC_VISIBILITY aclError acltdtDequeue(uint32_t qid, acltdtBuf *buf, int32_t timeout);
/**
 * Enqueues one message of userData (userDataSize bytes) and data (dataSize bytes). A queue that is
 * the source of bound routes hands the message to each destination instead.
 * @param timeout ms to wait for room: -1 forever, 0 not at all.
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for NULL data with dataSize != 0, NULL userData with
 *          userDataSize != 0; ACL_ERROR_RT_QUEUE_FULL when it stays full;
 *          ACL_ERROR_RT_PARAM_INVALID for an unknown qid or a timeout below -1.
 */
ACL_FUNC_VISIBILITY aclError acltdtEnqueueData(uint32_t qid, const void *data, size_t dataSize, const void *userData,
                                               size_t userDataSize, int32_t timeout, uint32_t rsv);
/**
 * Dequeues the oldest message: its data into data (retDataSize: its size), its user data into userData.
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for NULL data or retDataSize, or a buffer smaller than the
 *          message (which stays queued); ACL_ERROR_RT_QUEUE_EMPTY when it stays empty;
 *          ACL_ERROR_RT_PARAM_INVALID for an unknown qid or a timeout below -1.
 */
ACL_FUNC_VISIBILITY aclError acltdtDequeueData(uint32_t qid, void *data, size_t dataSize, size_t *retDataSize,
                                               void *userData, size_t userDataSize, int32_t timeout);
/** Granting a queue to another process: ACL_ERROR_FEATURE_UNSUPPORTED (CANN's host run mode). */
ACL_FUNC_VISIBILITY aclError acltdtGrantQueue(uint32_t qid, int32_t pid, uint32_t permission, int32_t timeout);
/** Attaching a granted queue: ACL_ERROR_FEATURE_UNSUPPORTED (CANN's host run mode). */
ACL_FUNC_VISIBILITY aclError acltdtAttachQueue(uint32_t qid, int32_t timeout, uint32_t *permission);

/* ---- routes ---------------------------------------------------------------- */

/**
 * Binds each route of the list (its status becomes ACL_TDT_QUEUE_ROUTE_BIND, or UNBIND where it fails:
 * an unknown queue, or source and destination the same queue). Binding a bound route again succeeds.
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for NULL or stale; ACL_ERROR_FAILURE if any route failed.
 */
ACL_FUNC_VISIBILITY aclError acltdtBindQueueRoutes(acltdtQueueRouteList *qRouteList);
/** Unbinds each route of the list (status UNBIND). @returns as acltdtBindQueueRoutes. */
ACL_FUNC_VISIBILITY aclError acltdtUnbindQueueRoutes(acltdtQueueRouteList *qRouteList);
/**
 * Replaces the list's routes with the bound routes queryInfo selects (by source, destination or both).
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for NULL or stale arguments, a query without a mode or
 *          without the ids its mode needs, or an unknown mode.
 */
ACL_FUNC_VISIBILITY aclError acltdtQueryQueueRoutes(const acltdtQueueRouteQueryInfo *queryInfo,
                                                    acltdtQueueRouteList *qRouteList);

/* ---- buffers: not in CANN's host run mode --------------------------------------- */

/** ACL_ERROR_FEATURE_UNSUPPORTED, as each of the buffer calls below (CANN's host run mode). */
ACL_FUNC_VISIBILITY aclError acltdtAllocBuf(size_t size, uint32_t type, acltdtBuf *buf);
ACL_FUNC_VISIBILITY aclError acltdtFreeBuf(acltdtBuf buf);
ACL_FUNC_VISIBILITY aclError acltdtGetBufData(const acltdtBuf buf, void **dataPtr, size_t *size);
ACL_FUNC_VISIBILITY aclError acltdtSetBufDataLen(acltdtBuf buf, size_t len);
ACL_FUNC_VISIBILITY aclError acltdtGetBufDataLen(acltdtBuf buf, size_t *len);
ACL_FUNC_VISIBILITY aclError acltdtAppendBufChain(acltdtBuf headBuf, acltdtBuf buf);
ACL_FUNC_VISIBILITY aclError acltdtGetBufChainNum(acltdtBuf headBuf, uint32_t *num);
ACL_FUNC_VISIBILITY aclError acltdtGetBufFromChain(acltdtBuf headBuf, uint32_t index, acltdtBuf *buf);
ACL_FUNC_VISIBILITY aclError acltdtGetBufUserData(const acltdtBuf buf, void *dataPtr, size_t size, size_t offset);
ACL_FUNC_VISIBILITY aclError acltdtSetBufUserData(acltdtBuf buf, const void *dataPtr, size_t size, size_t offset);
ACL_FUNC_VISIBILITY aclError acltdtCopyBufRef(const acltdtBuf buf, acltdtBuf *newBuf);

/* ---- attributes, routes and queries as values -------------------------------------- */

/** Queue attributes: depth 8 and no name. NULL when out of memory. */
ACL_FUNC_VISIBILITY acltdtQueueAttr *acltdtCreateQueueAttr(void);
/** @returns ACL_ERROR_INVALID_PARAM for NULL or stale. */
ACL_FUNC_VISIBILITY aclError acltdtDestroyQueueAttr(const acltdtQueueAttr *attr);
/**
 * Sets the name (param points to a const char *, len <= 8) or the depth (a uint32_t, len <= 4).
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for NULL or stale arguments, len larger than the value,
 *          a NULL name or one of 128 bytes or more, or an unknown type.
 */
ACL_FUNC_VISIBILITY aclError acltdtSetQueueAttr(acltdtQueueAttr *attr, acltdtQueueAttrType type, size_t len,
                                                const void *param);
/**
 * Reads the name (a const char * into attr, len >= 8) or the depth (len >= 4); *paramRetSize: its size.
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for NULL or stale arguments, len too small or an unknown type.
 */
ACL_FUNC_VISIBILITY aclError acltdtGetQueueAttr(const acltdtQueueAttr *attr, acltdtQueueAttrType type, size_t len,
                                                size_t *paramRetSize, void *param);
/** A route from srcId to dstId (status UNBIND). NULL when out of memory. */
ACL_FUNC_VISIBILITY acltdtQueueRoute *acltdtCreateQueueRoute(uint32_t srcId, uint32_t dstId);
/** @returns ACL_ERROR_INVALID_PARAM for NULL or stale. */
ACL_FUNC_VISIBILITY aclError acltdtDestroyQueueRoute(const acltdtQueueRoute *route);
/**
 * Reads a route's source, destination (uint32_t) or status (int32_t); len >= 4.
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for NULL or stale arguments, len < 4 or an unknown type.
 */
ACL_FUNC_VISIBILITY aclError acltdtGetQueueRouteParam(const acltdtQueueRoute *route, acltdtQueueRouteParamType type,
                                                      size_t len, size_t *paramRetSize, void *param);
/** An empty route list. NULL when out of memory. */
ACL_FUNC_VISIBILITY acltdtQueueRouteList *acltdtCreateQueueRouteList(void);
/** @returns ACL_ERROR_INVALID_PARAM for NULL or stale. */
ACL_FUNC_VISIBILITY aclError acltdtDestroyQueueRouteList(const acltdtQueueRouteList *routeList);
/** Appends a copy of route. @returns ACL_ERROR_INVALID_PARAM for NULL or stale arguments. */
ACL_FUNC_VISIBILITY aclError acltdtAddQueueRoute(acltdtQueueRouteList *routeList, const acltdtQueueRoute *route);
/** Copies the index-th route into route. @returns ACL_ERROR_INVALID_PARAM for NULL, stale or index past the end. */
ACL_FUNC_VISIBILITY aclError acltdtGetQueueRoute(const acltdtQueueRouteList *routeList, size_t index,
                                                 acltdtQueueRoute *route);
/** The number of routes; 0 for NULL. */
ACL_FUNC_VISIBILITY size_t acltdtGetQueueRouteNum(const acltdtQueueRouteList *routeList);
/** An empty route query. NULL when out of memory. */
ACL_FUNC_VISIBILITY acltdtQueueRouteQueryInfo *acltdtCreateQueueRouteQueryInfo(void);
/** @returns ACL_ERROR_INVALID_PARAM for NULL or stale. */
ACL_FUNC_VISIBILITY aclError acltdtDestroyQueueRouteQueryInfo(const acltdtQueueRouteQueryInfo *info);
/**
 * Sets a query's mode (acltdtQueueRouteQueryMode as int32_t), source or destination id (uint32_t); len <= 4.
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for NULL or stale arguments, len > 4 or an unknown type.
 */
ACL_FUNC_VISIBILITY aclError acltdtSetQueueRouteQueryInfo(acltdtQueueRouteQueryInfo *param,
                                                          acltdtQueueRouteQueryInfoParamType type, size_t len,
                                                          const void *value);

#ifdef __cplusplus
}
#endif

#endif /* ACL_ACL_TDT_QUEUE_H_ */
