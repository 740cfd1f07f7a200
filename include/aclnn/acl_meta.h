/*
 * aclnn-emu: the aclnn meta API (tensors, host arrays, executors).
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 *
 * Tensor model (CANN's): a view shape, strides in elements per view dim and an
 * offset in elements from the data pointer select the elements an operator
 * reads or writes; storage dims describe the allocation. Element
 * (i0..ik) lives at data + (offset + sum(i_j * stride_j)) * itemsize.
 * All handles are checked against a registry: a destroyed or foreign pointer
 * gets an error status, never a dereference.
 */
#ifndef ACLNN_ACL_META_H_
#define ACLNN_ACL_META_H_

#include "../acl/acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct aclOpExecutor aclOpExecutor;
typedef struct aclTensor aclTensor;
typedef struct aclScalar aclScalar;
typedef struct aclIntArray aclIntArray;
typedef struct aclFloatArray aclFloatArray;
typedef struct aclBoolArray aclBoolArray;
typedef struct aclTensorList aclTensorList;
typedef struct aclScalarList aclScalarList;

/** Status of every aclnn call: ACLNN_SUCCESS (0) or an ACLNN_ERR_* code (aclnn_base.h). */
typedef int32_t aclnnStatus;

/** Most dims a tensor's view or storage may have. */
#define ACLNN_EMU_MAX_DIMS 8

/**
 * Creates a tensor descriptor. Nothing is copied: the tensor refers to tensorData.
 * @param viewDims       view shape (may be NULL only when viewDimsNum is 0)
 * @param stride         strides in elements, one per view dim; NULL means contiguous row-major
 * @param offset         offset in elements from tensorData
 * @param storageDims    shape of the allocation (may be NULL only when storageDimsNum is 0)
 * @returns the tensor, or NULL (message in aclGetRecentErrMsg) for negative dims, strides or offset,
 *          more than ACLNN_EMU_MAX_DIMS dims, NULL dims with a non-zero count, an unknown data type,
 *          or byte sizes that overflow int64.
 */
ACL_FUNC_VISIBILITY aclTensor *aclCreateTensor(const int64_t *viewDims, uint64_t viewDimsNum,
                                               aclDataType dataType, const int64_t *stride, int64_t offset,
                                               aclFormat format, const int64_t *storageDims,
                                               uint64_t storageDimsNum, void *tensorData);
/** Destroys a tensor. @returns ACLNN_SUCCESS; ACLNN_ERR_PARAM_NULLPTR; ACLNN_ERR_PARAM_INVALID for a stale handle. */
ACL_FUNC_VISIBILITY aclnnStatus aclDestroyTensor(const aclTensor *tensor);

/**
 * Creates a host int64 array; the values are copied.
 * @param value the values (NULL only with size 0)
 * @returns the array, or NULL (message in aclGetRecentErrMsg) for NULL value with size > 0,
 *          a size above 2^40 / 8, or out of memory.
 */
/**
 * Creates a host scalar; the value (aclDataTypeSize(dataType) bytes at value) is copied.
 * @returns the scalar, or NULL (message in aclGetRecentErrMsg) for a NULL value or a
 *          data type without a whole-byte size.
 */
ACL_FUNC_VISIBILITY aclScalar *aclCreateScalar(void *value, aclDataType dataType);
/** Destroys a scalar (NULL is accepted). @returns ACLNN_SUCCESS; ACLNN_ERR_PARAM_INVALID for a stale handle. */
ACL_FUNC_VISIBILITY aclnnStatus aclDestroyScalar(const aclScalar *scalar);

/**
 * Creates a list of tensors; the pointers are copied and the list owns the
 * tensors: aclDestroyTensorList destroys them (as CANN does).
 * @param value size live tensors (NULL entries allowed; value NULL only with size 0)
 * @returns the list, or NULL (message in aclGetRecentErrMsg) for a stale entry or NULL value.
 */
ACL_FUNC_VISIBILITY aclTensorList *aclCreateTensorList(const aclTensor *const *value, uint64_t size);
/** Destroys a tensor list and its tensors (NULL is accepted). @returns ACLNN_SUCCESS; ACLNN_ERR_PARAM_INVALID
 *  for a stale list or an entry destroyed already (the others are still destroyed). */
ACL_FUNC_VISIBILITY aclnnStatus aclDestroyTensorList(const aclTensorList *array);
/** Number of tensors in a list. @returns ACLNN_SUCCESS; ACLNN_ERR_PARAM_NULLPTR; ACLNN_ERR_PARAM_INVALID. */
ACL_FUNC_VISIBILITY aclnnStatus aclGetTensorListSize(const aclTensorList *tensorList, uint64_t *size);

/** Creates a list of scalars, which it owns (see aclCreateTensorList). */
ACL_FUNC_VISIBILITY aclScalarList *aclCreateScalarList(const aclScalar *const *value, uint64_t size);
/** Destroys a scalar list and its scalars (NULL is accepted). */
ACL_FUNC_VISIBILITY aclnnStatus aclDestroyScalarList(const aclScalarList *array);
/** Number of scalars in a list. @returns ACLNN_SUCCESS; ACLNN_ERR_PARAM_NULLPTR; ACLNN_ERR_PARAM_INVALID. */
ACL_FUNC_VISIBILITY aclnnStatus aclGetScalarListSize(const aclScalarList *scalarList, uint64_t *size);
/** Number of values in a float array. @returns ACLNN_SUCCESS; ACLNN_ERR_PARAM_NULLPTR; ACLNN_ERR_PARAM_INVALID. */
ACL_FUNC_VISIBILITY aclnnStatus aclGetFloatArraySize(const aclFloatArray *array, uint64_t *size);
/** Number of values in a bool array. @returns ACLNN_SUCCESS; ACLNN_ERR_PARAM_NULLPTR; ACLNN_ERR_PARAM_INVALID. */
ACL_FUNC_VISIBILITY aclnnStatus aclGetBoolArraySize(const aclBoolArray *array, uint64_t *size);

ACL_FUNC_VISIBILITY aclIntArray *aclCreateIntArray(const int64_t *value, uint64_t size);
/** Destroys an int array. @returns ACLNN_SUCCESS (also for NULL); ACLNN_ERR_PARAM_INVALID for a stale handle. */
ACL_FUNC_VISIBILITY aclnnStatus aclDestroyIntArray(const aclIntArray *array);
/** Creates a host float array; the values are copied. Errors as aclCreateIntArray. */
ACL_FUNC_VISIBILITY aclFloatArray *aclCreateFloatArray(const float *value, uint64_t size);
/** Destroys a float array. Errors as aclDestroyIntArray. */
ACL_FUNC_VISIBILITY aclnnStatus aclDestroyFloatArray(const aclFloatArray *array);
/** Creates a host bool array; the values are copied. Errors as aclCreateIntArray. */
ACL_FUNC_VISIBILITY aclBoolArray *aclCreateBoolArray(const bool *value, uint64_t size);
/** Destroys a bool array. Errors as aclDestroyIntArray. */
ACL_FUNC_VISIBILITY aclnnStatus aclDestroyBoolArray(const aclBoolArray *array);

/**
 * Queries. The arrays returned through viewDims, storageDims and stridesValue
 * are allocated with malloc(); release them with free(). (CANN C++ code that
 * uses delete[] works with glibc's allocator; AddressSanitizer reports it.)
 * @returns ACLNN_SUCCESS; ACLNN_ERR_PARAM_NULLPTR for NULL arguments;
 *          ACLNN_ERR_PARAM_INVALID for a stale handle; ACLNN_ERR_INNER on allocation failure.
 */
/** The view shape: *viewDims (malloc'd, free() it) and *viewDimsNum. */
ACL_FUNC_VISIBILITY aclnnStatus aclGetViewShape(const aclTensor *tensor, int64_t **viewDims, uint64_t *viewDimsNum);
/** The storage shape: *storageDims (malloc'd, free() it) and *storageDimsNum. */
ACL_FUNC_VISIBILITY aclnnStatus aclGetStorageShape(const aclTensor *tensor, int64_t **storageDims,
                                                   uint64_t *storageDimsNum);
/** The view strides in elements: *stridesValue (malloc'd, free() it) and *stridesNum. */
ACL_FUNC_VISIBILITY aclnnStatus aclGetViewStrides(const aclTensor *tensor, int64_t **stridesValue, uint64_t *stridesNum);
/** The view offset in elements. */
ACL_FUNC_VISIBILITY aclnnStatus aclGetViewOffset(const aclTensor *tensor, int64_t *offset);
/** The format label. */
ACL_FUNC_VISIBILITY aclnnStatus aclGetFormat(const aclTensor *tensor, aclFormat *format);
/** The element type. */
ACL_FUNC_VISIBILITY aclnnStatus aclGetDataType(const aclTensor *tensor, aclDataType *dataType);
/** The number of values of an int array. */
ACL_FUNC_VISIBILITY aclnnStatus aclGetIntArraySize(const aclIntArray *array, uint64_t *size);

/**
 * Makes an executor reusable: phase two no longer releases it, and it lives
 * until aclDestroyAclOpExecutor. @returns ACLNN_SUCCESS or ACLNN_ERR_PARAM_* for NULL/stale handles.
 */
ACL_FUNC_VISIBILITY aclnnStatus aclSetAclOpExecutorRepeatable(aclOpExecutor *executor);
/**
 * Destroys an executor: a repeatable one, or one phase two never ran (runs
 * already enqueued are unaffected). @returns ACLNN_SUCCESS; ACLNN_ERR_PARAM_NULLPTR;
 * ACLNN_ERR_PARAM_INVALID for a stale or already executed executor.
 */
ACL_FUNC_VISIBILITY aclnnStatus aclDestroyAclOpExecutor(aclOpExecutor *executor);
/**
 * Rebinds the data address of the index-th input (or output) tensor of a
 * repeatable executor; tensors are numbered in the operator's signature order.
 * tensor may be NULL or the tensor that was passed at phase one.
 * @returns ACLNN_SUCCESS; ACLNN_ERR_PARAM_NULLPTR; ACLNN_ERR_PARAM_INVALID for an index out of range.
 */
ACL_FUNC_VISIBILITY aclnnStatus aclSetInputTensorAddr(aclOpExecutor *executor, size_t index, aclTensor *tensor,
                                                      void *addr);
ACL_FUNC_VISIBILITY aclnnStatus aclSetOutputTensorAddr(aclOpExecutor *executor, size_t index, aclTensor *tensor,
                                                       void *addr);
/** Sets the data pointer of a tensor (executors created earlier keep their own copy). */
ACL_FUNC_VISIBILITY aclnnStatus aclSetRawTensorAddr(aclTensor *tensor, void *addr);
/** Reads the data pointer of a tensor. */
ACL_FUNC_VISIBILITY aclnnStatus aclGetRawTensorAddr(const aclTensor *tensor, void **addr);

#ifdef __cplusplus
}
#endif

#endif /* ACLNN_ACL_META_H_ */
