/*
 * The meta API: tensors (view + strides + offset over storage) and host arrays.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../kernel/half.h"
#include "meta.h"

size_t emu_dtype_size(aclDataType dt)
{
    return emu_dtype_bytes(dt);
}

const char *emu_dtype_name(aclDataType dt)
{
    switch (dt) {
    case ACL_DT_UNDEFINED: return "UNDEFINED";
    case ACL_FLOAT: return "FLOAT";
    case ACL_FLOAT16: return "FLOAT16";
    case ACL_INT8: return "INT8";
    case ACL_INT32: return "INT32";
    case ACL_UINT8: return "UINT8";
    case ACL_INT16: return "INT16";
    case ACL_UINT16: return "UINT16";
    case ACL_UINT32: return "UINT32";
    case ACL_INT64: return "INT64";
    case ACL_UINT64: return "UINT64";
    case ACL_DOUBLE: return "DOUBLE";
    case ACL_BOOL: return "BOOL";
    case ACL_STRING: return "STRING";
    case ACL_COMPLEX64: return "COMPLEX64";
    case ACL_COMPLEX128: return "COMPLEX128";
    case ACL_BF16: return "BF16";
    case ACL_INT4: return "INT4";
    case ACL_UINT1: return "UINT1";
    case ACL_COMPLEX32: return "COMPLEX32";
    case ACL_HIFLOAT8: return "HIFLOAT8";
    case ACL_FLOAT8_E5M2: return "FLOAT8_E5M2";
    case ACL_FLOAT8_E4M3FN: return "FLOAT8_E4M3FN";
    case ACL_FLOAT8_E8M0: return "FLOAT8_E8M0";
    case ACL_FLOAT6_E3M2: return "FLOAT6_E3M2";
    case ACL_FLOAT6_E2M3: return "FLOAT6_E2M3";
    case ACL_FLOAT4_E2M1: return "FLOAT4_E2M1";
    case ACL_FLOAT4_E1M2: return "FLOAT4_E1M2";
    default: return NULL;
    }
}

const char *emu_format_name(aclFormat f)
{
    switch (f) {
    case ACL_FORMAT_UNDEFINED: return "UNDEFINED";
    case ACL_FORMAT_NCHW: return "NCHW";
    case ACL_FORMAT_NHWC: return "NHWC";
    case ACL_FORMAT_ND: return "ND";
    case ACL_FORMAT_NC1HWC0: return "NC1HWC0";
    case ACL_FORMAT_FRACTAL_Z: return "FRACTAL_Z";
    case ACL_FORMAT_NC1HWC0_C04: return "NC1HWC0_C04";
    case ACL_FORMAT_HWCN: return "HWCN";
    case ACL_FORMAT_NDHWC: return "NDHWC";
    case ACL_FORMAT_FRACTAL_NZ: return "FRACTAL_NZ";
    case ACL_FORMAT_NCDHW: return "NCDHW";
    case ACL_FORMAT_NDC1HWC0: return "NDC1HWC0";
    case ACL_FRACTAL_Z_3D: return "FRACTAL_Z_3D";
    case ACL_FORMAT_NC: return "NC";
    case ACL_FORMAT_NCL: return "NCL";
    case ACL_FORMAT_FRACTAL_NZ_C0_16: return "FRACTAL_NZ_C0_16";
    case ACL_FORMAT_FRACTAL_NZ_C0_32: return "FRACTAL_NZ_C0_32";
    case ACL_FORMAT_FRACTAL_NZ_C0_2: return "FRACTAL_NZ_C0_2";
    case ACL_FORMAT_FRACTAL_NZ_C0_4: return "FRACTAL_NZ_C0_4";
    case ACL_FORMAT_FRACTAL_NZ_C0_8: return "FRACTAL_NZ_C0_8";
    default: return NULL;
    }
}

int64_t emu_tensor_numel(const aclTensor *t)
{
    int64_t n = 1;
    for (uint64_t i = 0; i < t->ndim; i++)
        n *= t->dims[i]; /* cannot overflow: checked at creation */
    return n;
}

bool emu_tensor_contiguous(const aclTensor *t)
{
    int64_t expect = 1;
    for (uint64_t i = t->ndim; i-- > 0;) {
        if (t->dims[i] != 1 && t->strides[i] != expect)
            return false;
        expect *= t->dims[i];
    }
    return true;
}

uint64_t emu_ws_bytes(int64_t numel, size_t item)
{
    if (numel <= 0)
        return 0;
    uint64_t bytes = (uint64_t)numel * item; /* numel * item fits: tensors were checked at creation */
    return (bytes + 511) / 512 * 512;
}

int64_t emu_tensor_extent(const aclTensor *t)
{
    if (emu_tensor_numel(t) == 0)
        return 0;
    int64_t e = t->offset + 1;
    for (uint64_t i = 0; i < t->ndim; i++)
        e += (t->dims[i] - 1) * t->strides[i];
    return e;
}

bool emu_tensor_self_overlaps(const aclTensor *t)
{
    if (emu_tensor_numel(t) <= 1)
        return false;
    /* Sort the non-trivial dims by stride; each stride must clear the span of the smaller ones. */
    int64_t st[EMU_MAX_DIMS], dm[EMU_MAX_DIMS];
    size_t n = 0;
    for (uint64_t i = 0; i < t->ndim; i++) {
        if (t->dims[i] <= 1)
            continue;
        size_t j = n++;
        while (j > 0 && st[j - 1] > t->strides[i]) {
            st[j] = st[j - 1];
            dm[j] = dm[j - 1];
            j--;
        }
        st[j] = t->strides[i];
        dm[j] = t->dims[i];
    }
    int64_t span = 1; /* elements covered by the dims sorted so far */
    for (size_t i = 0; i < n; i++) {
        if (st[i] < span)
            return true;
        span = st[i] * (dm[i] - 1) + span;
    }
    return false;
}

void emu_dims_describe(const int64_t *dims, uint64_t n, char *buf, size_t cap)
{
    size_t used = 0;
    int w = snprintf(buf, cap, "(");
    used += w > 0 ? (size_t)w : 0;
    for (uint64_t i = 0; i < n && used < cap; i++) {
        w = snprintf(buf + used, cap - used, "%s%lld", i ? "," : "", (long long)dims[i]);
        used += w > 0 ? (size_t)w : 0;
    }
    if (used < cap)
        snprintf(buf + used, cap - used, ")");
}

void emu_tensor_describe(const aclTensor *t, bool with_format, char *buf, size_t cap)
{
    static const struct { aclDataType dt; const char *abbrev; } short_names[] = {
        {ACL_FLOAT, "f32"}, {ACL_FLOAT16, "f16"}, {ACL_BF16, "bf16"}, {ACL_DOUBLE, "f64"},
        {ACL_INT32, "i32"}, {ACL_INT64, "i64"}, {ACL_INT8, "i8"}, {ACL_UINT8, "u8"}, {ACL_BOOL, "bool"},
    };
    const char *dt = emu_dtype_name(t->dtype);
    for (size_t i = 0; i < sizeof short_names / sizeof short_names[0]; i++)
        if (short_names[i].dt == t->dtype)
            dt = short_names[i].abbrev;
    char dims[256];
    emu_dims_describe(t->dims, t->ndim, dims, sizeof dims);
    const char *fmt = emu_format_name(t->format);
    if (with_format)
        snprintf(buf, cap, "%s%s %s", dt ? dt : "?", dims, fmt ? fmt : "?");
    else
        snprintf(buf, cap, "%s%s", dt ? dt : "?", dims);
}

/* Validates one dims array; 0 or a message already recorded. */
static int check_dims(const char *api, const char *what, const int64_t *dims, uint64_t n)
{
    if (n > EMU_MAX_DIMS)
        return emu_error(ACLNN_ERR_PARAM_INVALID, api, "%sNum is %llu, above the limit of %d dims", what,
                         (unsigned long long)n, EMU_MAX_DIMS);
    if (n && !dims)
        return emu_error(ACLNN_ERR_PARAM_NULLPTR, api, "%s is NULL but %sNum is %llu", what, what,
                         (unsigned long long)n);
    for (uint64_t i = 0; i < n; i++)
        if (dims[i] < 0)
            return emu_error(ACLNN_ERR_PARAM_INVALID, api, "%s[%llu] is negative (%lld)", what, (unsigned long long)i,
                             (long long)dims[i]);
    return 0;
}

ACL_FUNC_VISIBILITY aclTensor *aclCreateTensor(const int64_t *viewDims, uint64_t viewDimsNum, aclDataType dataType,
                                               const int64_t *stride, int64_t offset, aclFormat format,
                                               const int64_t *storageDims, uint64_t storageDimsNum,
                                               void *tensorData)
{
    EMU_API_ENTRY();
    if (check_dims(api, "viewDims", viewDims, viewDimsNum))
        return NULL;
    /* Strides before the storage: a storage computed from negative strides is the symptom, not the cause. */
    for (uint64_t i = 0; stride && i < viewDimsNum; i++)
        if (stride[i] < 0) {
            emu_error(ACLNN_ERR_PARAM_INVALID, api, "stride[%llu] is negative (%lld)", (unsigned long long)i,
                      (long long)stride[i]);
            return NULL;
        }
    if (check_dims(api, "storageDims", storageDims, storageDimsNum))
        return NULL;
    size_t item = emu_dtype_size(dataType);
    if (!emu_dtype_name(dataType) || dataType == ACL_DT_UNDEFINED) {
        emu_error(ACLNN_ERR_PARAM_INVALID, api, "dataType %d is not an aclDataType", (int)dataType);
        return NULL;
    }
    if (!emu_format_name(format)) {
        emu_error(ACLNN_ERR_PARAM_INVALID, api, "format %d is not an aclFormat", (int)format);
        return NULL;
    }
    if (offset < 0) {
        emu_error(ACLNN_ERR_PARAM_INVALID, api, "offset is negative (%lld)", (long long)offset);
        return NULL;
    }
    aclTensor *t = calloc(1, sizeof *t);
    if (!t) {
        emu_error(ACLNN_ERR_INNER, api, "out of memory");
        return NULL;
    }
    t->ndim = viewDimsNum;
    t->storage_ndim = storageDimsNum;
    t->dtype = dataType;
    t->format = format;
    t->offset = offset;
    t->data = tensorData;
    if (viewDimsNum)
        memcpy(t->dims, viewDims, viewDimsNum * sizeof *viewDims);
    if (storageDimsNum)
        memcpy(t->storage, storageDims, storageDimsNum * sizeof *storageDims);
    int64_t acc = 1;
    for (uint64_t i = viewDimsNum; i-- > 0;) {
        t->strides[i] = stride ? stride[i] : acc;
        if (__builtin_mul_overflow(acc, viewDims[i] ? viewDims[i] : 1, &acc))
            acc = INT64_MAX; /* only matters if used as a stride; the checks below catch real overflow */
    }
    /* Byte sizes must fit int64: the element count, the view's reach and the storage. */
    int64_t numel = 1, reach = offset, storage = 1, bytes;
    bool overflow = false;
    for (uint64_t i = 0; i < viewDimsNum; i++) {
        int64_t step;
        overflow |= __builtin_mul_overflow(numel, viewDims[i], &numel);
        if (viewDims[i] > 0) {
            overflow |= __builtin_mul_overflow(viewDims[i] - 1, t->strides[i], &step);
            overflow |= __builtin_add_overflow(reach, step, &reach);
        }
    }
    for (uint64_t i = 0; i < storageDimsNum; i++)
        overflow |= __builtin_mul_overflow(storage, storageDims[i], &storage);
    int64_t isz = item ? (int64_t)item : 1;
    overflow |= __builtin_mul_overflow(numel, isz, &bytes) || __builtin_add_overflow(reach, 1, &reach) ||
                __builtin_mul_overflow(reach, isz, &bytes) || __builtin_mul_overflow(storage, isz, &bytes);
    if (overflow) {
        char d[256];
        emu_dims_describe(viewDims, viewDimsNum, d, sizeof d);
        emu_error(ACLNN_ERR_PARAM_INVALID, api, "the byte size of view %s (strides, offset, storage) overflows int64",
                  d);
        goto fail;
    }
    if (emu_registry_add(t, EMU_TENSOR, api) != 0) {
        emu_error(ACLNN_ERR_INNER, api, "out of memory");
        goto fail;
    }
    if (emu_log_enabled(EMU_LOG_INFO)) {
        char desc[256], st[256];
        emu_tensor_describe(t, true, desc, sizeof desc);
        emu_dims_describe(t->strides, t->ndim, st, sizeof st);
        emu_log(EMU_LOG_INFO, "%s %s strides=%s offset=%lld data=%p -> %p", api, desc, st, (long long)offset,
                tensorData, (void *)t);
    }
    return t;
fail:
    free(t);
    return NULL;
}

ACL_FUNC_VISIBILITY aclnnStatus aclDestroyTensor(const aclTensor *tensor)
{
    EMU_API_ENTRY();
    /* CANN accepts a NULL tensor here (cleanup paths call it unconditionally). */
    if (!tensor)
        return ACLNN_SUCCESS;
    int st = emu_check_handle(tensor, EMU_TENSOR, ACLNN_ERR_PARAM_INVALID, api, "tensor");
    if (st)
        return st;
    emu_registry_release((void *)tensor, EMU_TENSOR, sizeof *tensor, free);
    return ACLNN_SUCCESS;
}

/* Arrays share one layout: a size and the values. */
static void *create_array(const char *api, emu_kind kind, const void *value, uint64_t size, size_t item)
{
    emu_diag_api(api);
    if (!value && size) {
        emu_error(ACLNN_ERR_PARAM_NULLPTR, api, "value is NULL but size is %llu", (unsigned long long)size);
        return NULL;
    }
    if (size > ((uint64_t)1 << 40) / item) {
        emu_error(ACLNN_ERR_PARAM_INVALID, api, "size %llu is too large", (unsigned long long)size);
        return NULL;
    }
    uint64_t *a = malloc(sizeof(uint64_t) + (size_t)size * item + 1);
    if (!a) {
        emu_error(ACLNN_ERR_INNER, api, "out of memory");
        return NULL;
    }
    a[0] = size;
    if (size)
        memcpy(a + 1, value, (size_t)size * item);
    if (emu_registry_add(a, kind, api) != 0) {
        free(a);
        emu_error(ACLNN_ERR_INNER, api, "out of memory");
        return NULL;
    }
    return a;
}

static aclnnStatus destroy_array(const char *api, emu_kind kind, const void *array, size_t item)
{
    emu_diag_api(api);
    if (!array)
        return ACLNN_SUCCESS;
    int st = emu_check_handle(array, kind, ACLNN_ERR_PARAM_INVALID, api, "array");
    if (st)
        return st;
    emu_registry_release((void *)array, kind, sizeof(uint64_t) + (size_t)*(const uint64_t *)array * item, free);
    return ACLNN_SUCCESS;
}

ACL_FUNC_VISIBILITY aclIntArray *aclCreateIntArray(const int64_t *value, uint64_t size)
{
    return create_array("aclCreateIntArray", EMU_INT_ARRAY, value, size, sizeof(int64_t));
}

ACL_FUNC_VISIBILITY aclnnStatus aclDestroyIntArray(const aclIntArray *array)
{
    return destroy_array("aclDestroyIntArray", EMU_INT_ARRAY, array, sizeof(int64_t));
}

ACL_FUNC_VISIBILITY aclFloatArray *aclCreateFloatArray(const float *value, uint64_t size)
{
    return create_array("aclCreateFloatArray", EMU_FLOAT_ARRAY, value, size, sizeof(float));
}

ACL_FUNC_VISIBILITY aclnnStatus aclDestroyFloatArray(const aclFloatArray *array)
{
    return destroy_array("aclDestroyFloatArray", EMU_FLOAT_ARRAY, array, sizeof(float));
}

ACL_FUNC_VISIBILITY aclBoolArray *aclCreateBoolArray(const bool *value, uint64_t size)
{
    return create_array("aclCreateBoolArray", EMU_BOOL_ARRAY, value, size, sizeof(bool));
}

ACL_FUNC_VISIBILITY aclnnStatus aclDestroyBoolArray(const aclBoolArray *array)
{
    return destroy_array("aclDestroyBoolArray", EMU_BOOL_ARRAY, array, sizeof(bool));
}

/* Shared prologue of the query functions. */
static int check_query(const char *api, const aclTensor *t, const void *out1, const char *name1, const void *out2,
                       const char *name2)
{
    emu_diag_api(api);
    if (!t)
        return emu_error(ACLNN_ERR_PARAM_NULLPTR, api, "tensor is NULL");
    if (!out1)
        return emu_error(ACLNN_ERR_PARAM_NULLPTR, api, "%s is NULL", name1);
    if (name2 && !out2)
        return emu_error(ACLNN_ERR_PARAM_NULLPTR, api, "%s is NULL", name2);
    return emu_check_handle(t, EMU_TENSOR, ACLNN_ERR_PARAM_INVALID, api, "tensor");
}

static aclnnStatus copy_dims(const char *api, const int64_t *src, uint64_t n, int64_t **out, uint64_t *out_n)
{
    int64_t *d = malloc((n ? n : 1) * sizeof *d);
    if (!d)
        return emu_error(ACLNN_ERR_INNER, api, "out of memory");
    if (n)
        memcpy(d, src, n * sizeof *d);
    *out = d;
    *out_n = n;
    return ACLNN_SUCCESS;
}

ACL_FUNC_VISIBILITY aclnnStatus aclGetViewShape(const aclTensor *tensor, int64_t **viewDims, uint64_t *viewDimsNum)
{
    static const char api[] = "aclGetViewShape";
    int st = check_query(api, tensor, viewDims, "viewDims", viewDimsNum, "viewDimsNum");
    return st ? st : copy_dims(api, tensor->dims, tensor->ndim, viewDims, viewDimsNum);
}

ACL_FUNC_VISIBILITY aclnnStatus aclGetStorageShape(const aclTensor *tensor, int64_t **storageDims,
                                                   uint64_t *storageDimsNum)
{
    static const char api[] = "aclGetStorageShape";
    int st = check_query(api, tensor, storageDims, "storageDims", storageDimsNum, "storageDimsNum");
    return st ? st : copy_dims(api, tensor->storage, tensor->storage_ndim, storageDims, storageDimsNum);
}

ACL_FUNC_VISIBILITY aclnnStatus aclGetViewStrides(const aclTensor *tensor, int64_t **stridesValue, uint64_t *stridesNum)
{
    static const char api[] = "aclGetViewStrides";
    int st = check_query(api, tensor, stridesValue, "stridesValue", stridesNum, "stridesNum");
    return st ? st : copy_dims(api, tensor->strides, tensor->ndim, stridesValue, stridesNum);
}

ACL_FUNC_VISIBILITY aclnnStatus aclGetViewOffset(const aclTensor *tensor, int64_t *offset)
{
    int st = check_query("aclGetViewOffset", tensor, offset, "offset", NULL, NULL);
    if (!st)
        *offset = tensor->offset;
    return st;
}

ACL_FUNC_VISIBILITY aclnnStatus aclGetFormat(const aclTensor *tensor, aclFormat *format)
{
    int st = check_query("aclGetFormat", tensor, format, "format", NULL, NULL);
    if (!st)
        *format = tensor->format;
    return st;
}

ACL_FUNC_VISIBILITY aclnnStatus aclGetDataType(const aclTensor *tensor, aclDataType *dataType)
{
    int st = check_query("aclGetDataType", tensor, dataType, "dataType", NULL, NULL);
    if (!st)
        *dataType = tensor->dtype;
    return st;
}

/* The size of any array or list (they share the layout: a uint64 count first). */
static aclnnStatus array_size(const char *api, emu_kind kind, const void *array, const char *param, uint64_t *size)
{
    emu_diag_api(api);
    if (!array)
        return emu_error(ACLNN_ERR_PARAM_NULLPTR, api, "%s is NULL", param);
    if (!size)
        return emu_error(ACLNN_ERR_PARAM_NULLPTR, api, "size is NULL");
    int st = emu_check_handle(array, kind, ACLNN_ERR_PARAM_INVALID, api, param);
    if (!st)
        *size = *(const uint64_t *)array;
    return st;
}

ACL_FUNC_VISIBILITY aclnnStatus aclGetIntArraySize(const aclIntArray *array, uint64_t *size)
{
    return array_size(__func__, EMU_INT_ARRAY, array, "array", size);
}

ACL_FUNC_VISIBILITY aclnnStatus aclGetFloatArraySize(const aclFloatArray *array, uint64_t *size)
{
    return array_size(__func__, EMU_FLOAT_ARRAY, array, "array", size);
}

ACL_FUNC_VISIBILITY aclnnStatus aclGetBoolArraySize(const aclBoolArray *array, uint64_t *size)
{
    return array_size(__func__, EMU_BOOL_ARRAY, array, "array", size);
}

ACL_FUNC_VISIBILITY aclnnStatus aclGetTensorListSize(const aclTensorList *tensorList, uint64_t *size)
{
    return array_size(__func__, EMU_TENSOR_LIST, tensorList, "tensorList", size);
}

ACL_FUNC_VISIBILITY aclnnStatus aclGetScalarListSize(const aclScalarList *scalarList, uint64_t *size)
{
    return array_size(__func__, EMU_SCALAR_LIST, scalarList, "scalarList", size);
}

/* ---- scalars and lists ------------------------------------------------------ */

struct aclScalar {
    aclDataType dtype;
    _Alignas(16) unsigned char value[16]; /* the largest element: COMPLEX128 */
};

ACL_FUNC_VISIBILITY aclScalar *aclCreateScalar(void *value, aclDataType dataType)
{
    EMU_API_ENTRY();
    if (!value) {
        emu_error(ACLNN_ERR_PARAM_NULLPTR, api, "value is NULL");
        return NULL;
    }
    size_t item = emu_dtype_size(dataType);
    if (item == 0 || item > sizeof(((aclScalar *)0)->value)) {
        emu_error(ACLNN_ERR_PARAM_INVALID, api, "dataType %d (%s) has no whole-byte size", (int)dataType,
                  emu_dtype_name(dataType) ? emu_dtype_name(dataType) : "unknown");
        return NULL;
    }
    aclScalar *s = calloc(1, sizeof *s);
    if (!s) {
        emu_error(ACLNN_ERR_INNER, api, "out of memory");
        return NULL;
    }
    s->dtype = dataType;
    memcpy(s->value, value, item);
    if (emu_registry_add(s, EMU_SCALAR, api) != 0) {
        free(s);
        emu_error(ACLNN_ERR_INNER, api, "out of memory");
        return NULL;
    }
    return s;
}

aclDataType emu_scalar_dtype(const aclScalar *s)
{
    return s->dtype;
}

const void *emu_scalar_data(const aclScalar *s)
{
    return s->value;
}

ACL_FUNC_VISIBILITY aclnnStatus aclDestroyScalar(const aclScalar *scalar)
{
    EMU_API_ENTRY();
    if (!scalar)
        return ACLNN_SUCCESS; /* as CANN: cleanup paths call it unconditionally */
    int st = emu_check_handle(scalar, EMU_SCALAR, ACLNN_ERR_PARAM_INVALID, api, "scalar");
    if (!st)
        emu_registry_release((void *)scalar, EMU_SCALAR, sizeof *scalar, free);
    return st;
}

/* A list of handles of one kind (NULL entries allowed, as CANN's lists hold them). */
static void *create_list(const char *api, emu_kind list_kind, emu_kind item_kind, const void *const *value,
                         uint64_t size)
{
    for (uint64_t i = 0; value && i < size; i++) {
        if (value[i] && emu_registry_find(value[i], item_kind) != EMU_LIVE) {
            char param[32];
            snprintf(param, sizeof param, "value[%llu]", (unsigned long long)i);
            emu_check_handle(value[i], item_kind, ACLNN_ERR_PARAM_INVALID, api, param);
            return NULL;
        }
    }
    return create_array(api, list_kind, value, size, sizeof(void *));
}

/* Destroying a list destroys its members, as CANN's does. A member destroyed
 * already is reported (CANN would free it twice) and the rest still go. */
static aclnnStatus destroy_list(const char *api, emu_kind list_kind, const void *list,
                                aclnnStatus (*destroy_item)(const void *))
{
    if (!list) {
        emu_diag_api(api);
        return ACLNN_SUCCESS;
    }
    int st = emu_check_handle(list, list_kind, ACLNN_ERR_PARAM_INVALID, api, "list");
    if (st) {
        emu_diag_api(api);
        return st;
    }
    const uint64_t n = *(const uint64_t *)list;
    const void *const *items = (const void *const *)((const uint64_t *)list + 1);
    int first_bad = 0;
    for (uint64_t i = 0; i < n; i++) {
        int s = destroy_item(items[i]);
        if (s && !first_bad)
            first_bad = s;
    }
    int done = destroy_array(api, list_kind, list, sizeof(void *));
    return first_bad ? first_bad : done;
}

static aclnnStatus destroy_tensor_item(const void *t)
{
    return aclDestroyTensor(t);
}

static aclnnStatus destroy_scalar_item(const void *s)
{
    return aclDestroyScalar(s);
}

ACL_FUNC_VISIBILITY aclTensorList *aclCreateTensorList(const aclTensor *const *value, uint64_t size)
{
    return create_list(__func__, EMU_TENSOR_LIST, EMU_TENSOR, (const void *const *)value, size);
}

ACL_FUNC_VISIBILITY aclnnStatus aclDestroyTensorList(const aclTensorList *array)
{
    return destroy_list(__func__, EMU_TENSOR_LIST, array, destroy_tensor_item);
}

ACL_FUNC_VISIBILITY aclScalarList *aclCreateScalarList(const aclScalar *const *value, uint64_t size)
{
    return create_list(__func__, EMU_SCALAR_LIST, EMU_SCALAR, (const void *const *)value, size);
}

ACL_FUNC_VISIBILITY aclnnStatus aclDestroyScalarList(const aclScalarList *array)
{
    return destroy_list(__func__, EMU_SCALAR_LIST, array, destroy_scalar_item);
}

/* ---- acl_base.h helpers ------------------------------------------------------ */

ACL_FUNC_VISIBILITY size_t aclDataTypeSize(aclDataType dataType)
{
    return emu_dtype_size(dataType);
}

ACL_FUNC_VISIBILITY aclFloat16 aclFloatToFloat16(float value)
{
    return emu_f32_to_f16(value);
}

ACL_FUNC_VISIBILITY float aclFloat16ToFloat(aclFloat16 value)
{
    return emu_f16_to_f32(value);
}

ACL_FUNC_VISIBILITY aclnnStatus aclSetRawTensorAddr(aclTensor *tensor, void *addr)
{
    EMU_API_ENTRY();
    if (!tensor)
        return emu_error(ACLNN_ERR_PARAM_NULLPTR, api, "tensor is NULL");
    int st = emu_check_handle(tensor, EMU_TENSOR, ACLNN_ERR_PARAM_INVALID, api, "tensor");
    if (!st)
        tensor->data = addr;
    return st;
}

ACL_FUNC_VISIBILITY aclnnStatus aclGetRawTensorAddr(const aclTensor *tensor, void **addr)
{
    int st = check_query("aclGetRawTensorAddr", tensor, addr, "addr", NULL, NULL);
    if (!st)
        *addr = tensor->data;
    return st;
}
