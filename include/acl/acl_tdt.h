/*
 * aclnn-emu: CANN's tensor data transfer channels (acl/acl_tdt.h).
 *
 * A channel is a bounded queue of datasets between a host program and the
 * device; a dataset is a list of data items (a tensor's type, dims and bytes).
 * On the emulator a channel is an in-process queue of the library's (the
 * queues of acl/acl_tdt_queue.h): a send copies the dataset into one message,
 * a receive hands back a dataset that owns its items. Declared with CANN's
 * signatures; checks and statuses follow CANN's tensor_data_transfer.cpp.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#ifndef ACL_ACL_TDT_H_
#define ACL_ACL_TDT_H_

#include "acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum acltdtTensorType {
    ACL_TENSOR_DATA_UNDEFINED = -1,
    ACL_TENSOR_DATA_TENSOR,
    ACL_TENSOR_DATA_END_OF_SEQUENCE,
    ACL_TENSOR_DATA_ABNORMAL,
    ACL_TENSOR_DATA_SLICE_TENSOR,
    ACL_TENSOR_DATA_END_TENSOR
} acltdtTensorType;

typedef struct acltdtDataItem acltdtDataItem;
typedef struct acltdtDataset acltdtDataset;
typedef struct acltdtChannelHandle acltdtChannelHandle;

/* ---- data items ---------------------------------------------------------- */

/** An item's kind; ACL_TENSOR_DATA_UNDEFINED for NULL or a stale handle. */
ACL_FUNC_VISIBILITY acltdtTensorType acltdtGetTensorTypeFromItem(const acltdtDataItem *dataItem);
/** An item's element type; ACL_DT_UNDEFINED for NULL or a stale handle. */
ACL_FUNC_VISIBILITY aclDataType acltdtGetDataTypeFromItem(const acltdtDataItem *dataItem);
/** An item's bytes: the caller's for an item it made, the dataset's for a received one; NULL for NULL. */
ACL_FUNC_VISIBILITY void *acltdtGetDataAddrFromItem(const acltdtDataItem *dataItem);
/** An item's byte count; 0 for NULL. */
ACL_FUNC_VISIBILITY size_t acltdtGetDataSizeFromItem(const acltdtDataItem *dataItem);
/** An item's number of dims; 0 for NULL. */
ACL_FUNC_VISIBILITY size_t acltdtGetDimNumFromItem(const acltdtDataItem *dataItem);
/**
 * An item's slice count and index (0 and 0 for items made by acltdtCreateDataItem).
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for NULL arguments.
 */
ACL_FUNC_VISIBILITY aclError acltdtGetSliceInfoFromItem(const acltdtDataItem *dataItem, size_t *sliceNum,
                                                        size_t *sliceId);
/**
 * Copies an item's dims into dims[0 .. dimNum).
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for a NULL item, dims NULL with dimNum != 0 (or the
 *          reverse) and dimNum below the item's number of dims.
 */
ACL_FUNC_VISIBILITY aclError acltdtGetDimsFromItem(const acltdtDataItem *dataItem, int64_t *dims, size_t dimNum);
/**
 * Makes an item. A tensor item keeps the data pointer (the bytes are copied when a dataset holding it
 * is sent); other kinds take no dims and no data.
 * @returns the item, or NULL (with a message) for dims NULL with dimNum != 0 or the reverse, more than
 *          128 dims, or dims on an item that is no tensor.
 */
ACL_FUNC_VISIBILITY acltdtDataItem *acltdtCreateDataItem(acltdtTensorType tdtType, const int64_t *dims,
                                                         size_t dimNum, aclDataType dataType, void *data,
                                                         size_t size);
/** @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for NULL or a stale handle. */
ACL_FUNC_VISIBILITY aclError acltdtDestroyDataItem(acltdtDataItem *dataItem);

/* ---- datasets -------------------------------------------------------------- */

/** An empty dataset (NULL when out of memory). */
ACL_FUNC_VISIBILITY acltdtDataset *acltdtCreateDataset(void);
/** Destroys a dataset, and its items if a receive made them. @returns ACL_ERROR_INVALID_PARAM for NULL. */
ACL_FUNC_VISIBILITY aclError acltdtDestroyDataset(acltdtDataset *dataset);
/** The index-th item, or NULL for NULL or an index past the end. */
ACL_FUNC_VISIBILITY acltdtDataItem *acltdtGetDataItem(const acltdtDataset *dataset, size_t index);
/**
 * Appends an item (the dataset does not own it).
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for NULL arguments or an item whose data is in device
 *          memory beside items in host memory (or the reverse); ACL_ERROR_FEATURE_UNSUPPORTED for a
 *          dataset a receive filled.
 */
ACL_FUNC_VISIBILITY aclError acltdtAddDataItem(acltdtDataset *dataset, acltdtDataItem *dataItem);
/** The number of items; 0 for NULL. */
ACL_FUNC_VISIBILITY size_t acltdtGetDatasetSize(const acltdtDataset *dataset);
/** The dataset's name: "" unless the sender named it; NULL for NULL. */
ACL_FUNC_VISIBILITY const char *acltdtGetDatasetName(const acltdtDataset *dataset);

/* ---- channels ---------------------------------------------------------------- */

/** Wakes nothing on a queue-backed channel (CANN's behaviour for them). @returns ACL_SUCCESS. */
ACL_FUNC_VISIBILITY aclError acltdtStopChannel(acltdtChannelHandle *handle);
/**
 * CANN's TDT-process channel (a daemon on the device). Not emulated: returns NULL with a message;
 * acltdtCreateChannelWithCapacity makes the queue-backed channel the emulator has.
 */
ACL_FUNC_VISIBILITY acltdtChannelHandle *acltdtCreateChannel(uint32_t deviceId, const char *name);
/**
 * A channel holding at most capacity datasets.
 * @returns the channel, or NULL (with a message) for a NULL name, a name of 128 bytes or more, a
 *          deviceId that is no device, or a capacity outside [2, 8192].
 */
ACL_FUNC_VISIBILITY acltdtChannelHandle *acltdtCreateChannelWithCapacity(uint32_t deviceId, const char *name,
                                                                       size_t capacity);
/** Destroys a channel and the datasets it holds. @returns ACL_ERROR_INVALID_PARAM for NULL or stale. */
ACL_FUNC_VISIBILITY aclError acltdtDestroyChannel(acltdtChannelHandle *handle);
/** Drops every dataset the channel holds. @returns ACL_ERROR_INVALID_PARAM for NULL or stale. */
ACL_FUNC_VISIBILITY aclError acltdtCleanChannel(acltdtChannelHandle *handle);
/**
 * Copies dataset into the channel as one message.
 * @param timeout ms to wait for room: -1 forever, 0 not at all.
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for NULL or stale arguments or an item that is a slice or
 *          end tensor; ACL_ERROR_RT_QUEUE_FULL when the channel stays full; ACL_ERROR_RT_PARAM_INVALID for a
 *          timeout below -1.
 */
ACL_FUNC_VISIBILITY aclError acltdtSendTensor(const acltdtChannelHandle *handle, const acltdtDataset *dataset,
                                              int32_t timeout);
/**
 * Takes the oldest message into dataset, which then owns its items (earlier received items are destroyed).
 * @param timeout ms to wait for a message: -1 forever, 0 not at all.
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for NULL or stale arguments or a dataset holding items the
 *          caller added; ACL_ERROR_RT_QUEUE_EMPTY when the channel stays empty.
 */
ACL_FUNC_VISIBILITY aclError acltdtReceiveTensor(const acltdtChannelHandle *handle, acltdtDataset *dataset,
                                                 int32_t timeout);
/** The number of datasets the channel holds. @returns ACL_ERROR_INVALID_PARAM for NULL arguments. */
ACL_FUNC_VISIBILITY aclError acltdtQueryChannelSize(const acltdtChannelHandle *handle, size_t *size);

#ifdef __cplusplus
}
#endif

#endif /* ACL_ACL_TDT_H_ */
