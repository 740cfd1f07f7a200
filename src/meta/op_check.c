/*
 * The op-check kit: one-line parameter checks with uniform messages
 * ("<api>: <param> must ..., got ..."), from which operator files write their
 * phase-one checks in CANN's order.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include <math.h>
#include <stdio.h>

#include "meta.h"

static int invalid(const char *api, const char *fmt, ...) EMU_PRINTF(2, 3);

static int invalid(const char *api, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int st = emu_errorv(ACLNN_ERR_PARAM_INVALID, api, fmt, ap);
    va_end(ap);
    return st;
}

static const char *dtype_name(aclDataType dt)
{
    const char *name = emu_dtype_name(dt);
    return name ? name : "?";
}

/* "A, B or C" */
static void describe_set(char *buf, size_t cap, const char *const *names, size_t n)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < n; i++)
        emu_append(buf, cap, &used, "%s%s", i == 0 ? "" : i + 1 == n ? " or " : ", ", names[i]);
}

int emu_check_not_null(const char *api, const void *p, const char *param)
{
    return p ? 0 : emu_error(ACLNN_ERR_PARAM_NULLPTR, api, "%s is NULL", param);
}

int emu_check_tensor_live(const char *api, const aclTensor *t, const char *param)
{
    return emu_check_handle(t, EMU_TENSOR, ACLNN_ERR_PARAM_INVALID, api, param);
}

int emu_check_int_array_live(const char *api, const aclIntArray *a, const char *param)
{
    return emu_check_handle(a, EMU_INT_ARRAY, ACLNN_ERR_PARAM_INVALID, api, param);
}

int emu_check_args(const char *api, const emu_arg *args, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!args[i].p)
            return emu_error(args[i].null_status ? args[i].null_status : ACLNN_ERR_PARAM_NULLPTR, api, "%s is NULL",
                             args[i].name);
    for (size_t i = 0; i < n; i++)
        if (args[i].kind != EMU_ARG_POINTER)
            EMU_TRY(emu_check_handle(args[i].p, args[i].kind == EMU_ARG_TENSOR      ? EMU_TENSOR
                                                : args[i].kind == EMU_ARG_INT_ARRAY ? EMU_INT_ARRAY
                                                : args[i].kind == EMU_ARG_SCALAR    ? EMU_SCALAR
                                                                                    : EMU_FLOAT_ARRAY,
                                     ACLNN_ERR_PARAM_INVALID, api, args[i].name));
    return 0;
}

int emu_check_rank(const char *api, const aclTensor *t, const char *param, uint64_t rank)
{
    if (t->ndim == rank)
        return 0;
    char d[256];
    emu_dims_describe(t->dims, t->ndim, d, sizeof d);
    return invalid(api, "%s must be %llu-D, got %llu-D %s", param, (unsigned long long)rank,
                   (unsigned long long)t->ndim, d);
}

int emu_check_dtype(const char *api, const aclTensor *t, const char *param, aclDataType want, const char *why)
{
    if (t->dtype == want)
        return 0;
    return invalid(api, "%s dtype must be %s%s, got %s", param, dtype_name(want), why, dtype_name(t->dtype));
}

/* "<param> <what> must be A, B or C, got D" unless got is in values. */
static int check_in(const char *api, const char *param, const char *what, int got, const int *values, size_t n,
                    const char *(*name)(int))
{
    const char *names[32];
    for (size_t i = 0; i < n; i++) {
        if (got == values[i])
            return 0;
        if (i < 32)
            names[i] = name(values[i]);
    }
    char list[512];
    describe_set(list, sizeof list, names, n < 32 ? n : 32);
    return invalid(api, "%s %s must be %s, got %s", param, what, list, name(got));
}

static const char *dtype_name_int(int v)
{
    return dtype_name((aclDataType)v);
}

static const char *format_name_int(int v)
{
    return emu_format_name((aclFormat)v);
}

int emu_check_dtype_in(const char *api, const aclTensor *t, const char *param, const aclDataType *set, size_t n)
{
    int values[32];
    for (size_t i = 0; i < n && i < 32; i++)
        values[i] = (int)set[i];
    return check_in(api, param, "dtype", (int)t->dtype, values, n < 32 ? n : 32, dtype_name_int);
}

int emu_check_format(const char *api, const aclTensor *t, const char *param, aclFormat want)
{
    return emu_check_format_in(api, t, param, &want, 1);
}

int emu_check_format_in(const char *api, const aclTensor *t, const char *param, const aclFormat *set, size_t n)
{
    int values[32];
    for (size_t i = 0; i < n && i < 32; i++)
        values[i] = (int)set[i];
    return check_in(api, param, "format", (int)t->format, values, n < 32 ? n : 32, format_name_int);
}

int emu_check_dim(const char *api, int64_t got, int64_t want, const char *what, const char *from)
{
    if (got == want)
        return 0;
    return invalid(api, "%s must equal %s (%lld), got %lld", what, from, (long long)want, (long long)got);
}

int emu_check_shape(const char *api, const aclTensor *t, const char *param, const int64_t *want, uint64_t n,
                    const char *why)
{
    bool same = t->ndim == n;
    for (uint64_t i = 0; same && i < n; i++)
        same = t->dims[i] == want[i];
    if (same)
        return 0;
    char a[256], b[256];
    emu_dims_describe(want, n, a, sizeof a);
    emu_dims_describe(t->dims, t->ndim, b, sizeof b);
    return invalid(api, "%s shape must be %s%s, got %s", param, a, why, b);
}

int emu_check_float_array_len(const char *api, const aclFloatArray *a, const char *param, uint64_t n)
{
    if (a->size == n)
        return 0;
    return invalid(api, "%s must have %llu values, got %llu", param, (unsigned long long)n,
                   (unsigned long long)a->size);
}

int emu_check_array_len(const char *api, const aclIntArray *a, const char *param, uint64_t n, const char *why)
{
    if (a->size == n)
        return 0;
    return invalid(api, "%s must have %llu values%s, got %llu", param, (unsigned long long)n, why,
                   (unsigned long long)a->size);
}

int emu_check_min(const char *api, int64_t v, int64_t min, const char *param)
{
    return v >= min ? 0 : invalid(api, "%s must be >= %lld, got %lld", param, (long long)min, (long long)v);
}

bool emu_shape_equals(const aclTensor *t, const aclIntArray *a)
{
    if (t->ndim != a->size)
        return false;
    for (uint64_t i = 0; i < t->ndim; i++)
        if (t->dims[i] != a->values[i])
            return false;
    return true;
}

int emu_check_output_writable(const char *api, const aclTensor *t, const char *param)
{
    if (emu_tensor_self_overlaps(t))
        return invalid(api, "%s has overlapping strides (two elements share memory); outputs must not overlap", param);
    return 0;
}

int emu_warn_roi_attributes(const char *api, float spatial_scale, int64_t sampling_ratio)
{
    if (!isfinite(spatial_scale))
        EMU_TRY(emu_misuse(ACLNN_ERR_PARAM_INVALID, api,
                           "spatialScale is %s; CANN accepts it, and every box's coordinates become non-finite",
                           spatial_scale != spatial_scale ? "NaN" : "infinite"));
    if (sampling_ratio > INT32_MAX) {
        const int32_t cast = (int32_t)(uint32_t)(uint64_t)sampling_ratio;
        EMU_TRY(emu_misuse(ACLNN_ERR_PARAM_INVALID, api,
                           "samplingRatio %lld is above INT32_MAX; CANN's tiling casts it to int32 (%d samples: %s)",
                           (long long)sampling_ratio, (int)cast, cast > 0 ? "the cast count" : "adaptive sampling"));
    }
    return 0;
}

int emu_check_each_format(const char *api, const emu_want *w, size_t n)
{
    for (size_t i = 0; i < n; i++)
        EMU_TRY(emu_check_format(api, w[i].t, w[i].name, (aclFormat)w[i].value));
    return 0;
}

int emu_check_each_rank(const char *api, const emu_want *w, size_t n)
{
    for (size_t i = 0; i < n; i++)
        EMU_TRY(emu_check_rank(api, w[i].t, w[i].name, (uint64_t)w[i].value));
    return 0;
}

int emu_check_each_dtype(const char *api, const emu_want *w, size_t n, const char *why)
{
    for (size_t i = 0; i < n; i++)
        EMU_TRY(emu_check_dtype(api, w[i].t, w[i].name, (aclDataType)w[i].value, why));
    return 0;
}
