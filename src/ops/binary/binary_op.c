/*
 * The binary family's op-side steps (binary_op.h): what aclnnAdd and
 * aclnnMul check and plan alike, from ops-math's op_api (math/add and
 * math/mul, op_host/op_api): the promotion and cast rules CANN's opdev
 * library applies (PyTorch's, as ops-math's docs state), the broadcast,
 * alpha, the executor and the run step.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../../kernel/half.h"
#include "binary_op.h"

#define MAX_DIM_LEN 8 /* CANN's MAX_DIM_LEN / MAX_SUPPORT_DIMS_NUMS */

const aclDataType BINARY_DTYPES[12] = {ACL_FLOAT, ACL_INT32, ACL_INT64, ACL_FLOAT16, ACL_INT16, ACL_INT8,
                                       ACL_UINT8, ACL_DOUBLE, ACL_BOOL, ACL_COMPLEX64, ACL_COMPLEX128, ACL_BF16};

bool binary_is_integral(aclDataType dt)
{
    return dt == ACL_BOOL || dt == ACL_INT8 || dt == ACL_UINT8 || dt == ACL_INT16 || dt == ACL_INT32 ||
           dt == ACL_INT64;
}

bool binary_is_float(aclDataType dt)
{
    return dt == ACL_FLOAT16 || dt == ACL_BF16 || dt == ACL_FLOAT || dt == ACL_DOUBLE;
}

static bool is_complex(aclDataType dt)
{
    return dt == ACL_COMPLEX64 || dt == ACL_COMPLEX128;
}

/* PyTorch's categories: BOOL < integers < floats < complex (-1: no promotion with any other dtype). */
static int category(aclDataType dt)
{
    return dt == ACL_BOOL ? 0 : binary_is_integral(dt) ? 1 : binary_is_float(dt) ? 2 : is_complex(dt) ? 3 : -1;
}

aclDataType binary_promote(aclDataType a, aclDataType b)
{
    if (a == b)
        return a;
    const int ca = category(a), cb = category(b);
    if (ca < 0 || cb < 0) /* e.g. UINT16, UINT32, UINT64: with themselves only */
        return ACL_DT_UNDEFINED;
    if (ca != cb) {
        const aclDataType hi = ca > cb ? a : b, lo = ca > cb ? b : a;
        if (hi == ACL_COMPLEX64 && lo == ACL_DOUBLE)
            return ACL_COMPLEX128; /* a complex holding the float's precision */
        return hi;
    }
    if (ca == 1) { /* integers: UINT8 with a signed one needs the next signed width */
        const aclDataType u = a == ACL_UINT8 ? a : b == ACL_UINT8 ? b : ACL_DT_UNDEFINED;
        const aclDataType s = u == a ? b : a;
        if (u == ACL_UINT8)
            return s == ACL_INT8 ? ACL_INT16 : s;
        return emu_dtype_size(a) > emu_dtype_size(b) ? a : b;
    }
    if (ca == 2 && (a == ACL_FLOAT16 || a == ACL_BF16) && (b == ACL_FLOAT16 || b == ACL_BF16))
        return ACL_FLOAT;
    return emu_dtype_size(a) > emu_dtype_size(b) ? a : b;
}

bool binary_can_cast(aclDataType from, aclDataType to)
{
    if (is_complex(from) && !is_complex(to))
        return false;
    if (binary_is_float(from) && binary_is_integral(to))
        return false;
    return !(from != ACL_BOOL && to == ACL_BOOL);
}

/* "[2, 3]" */
static const char *shape_text(const int64_t *dims, uint64_t n, char *buf, size_t cap)
{
    size_t k = (size_t)snprintf(buf, cap, "[");
    for (uint64_t i = 0; i < n && k < cap; i++)
        k += (size_t)snprintf(buf + k, cap - k, "%s%lld", i ? ", " : "", (long long)dims[i]);
    if (k < cap)
        snprintf(buf + k, cap - k, "]");
    return buf;
}

int binary_check_shapes(const char *api, const aclTensor *self, const aclTensor *other, const aclTensor *out)
{
    const aclTensor *inputs[2] = {self, other};
    const char *names[2] = {"self", "other"};
    for (int i = 0; i < 2; i++)
        if (inputs[i]->ndim > MAX_DIM_LEN)
            return emu_error(ACLNN_ERR_PARAM_INVALID, api, "The %s tensor cannot be larger than %d dimensions.",
                             names[i], MAX_DIM_LEN);
    const uint64_t rank = self->ndim > other->ndim ? self->ndim : other->ndim;
    int64_t want[MAX_DIM_LEN];
    char a[200], b[200];
    for (uint64_t d = 0; d < rank; d++) { /* right-aligned: numpy's rule */
        const int64_t x = d + self->ndim >= rank ? self->dims[d + self->ndim - rank] : 1;
        const int64_t y = d + other->ndim >= rank ? other->dims[d + other->ndim - rank] : 1;
        if (x != y && x != 1 && y != 1)
            return emu_error(ACLNN_ERR_PARAM_INVALID, api, "The size of tensor self %s must match the size of tensor "
                             "other %s.", shape_text(self->dims, self->ndim, a, sizeof a),
                             shape_text(other->dims, other->ndim, b, sizeof b));
        want[d] = x == 1 ? y : x;
    }
    bool same = out->ndim == rank;
    for (uint64_t d = 0; same && d < rank; d++)
        same = out->dims[d] == want[d];
    if (!same)
        return emu_error(ACLNN_ERR_PARAM_INVALID, api, "Shape of out should be %s, but current is %s.",
                         shape_text(want, rank, a, sizeof a), shape_text(out->dims, out->ndim, b, sizeof b));
    return 0;
}

/* A scalar's value: as an integer (integers, BOOL; floats truncated) and as a complex double. */
static void scalar_value(const aclScalar *s, int64_t *i, double *re, double *im)
{
    const void *v = emu_scalar_data(s);
    *im = 0.0;
    switch (emu_scalar_dtype(s)) {
    case ACL_BOOL: *i = *(const uint8_t *)v != 0; break;
    case ACL_INT8: *i = *(const int8_t *)v; break;
    case ACL_UINT8: *i = *(const uint8_t *)v; break;
    case ACL_INT16: *i = *(const int16_t *)v; break;
    case ACL_INT32: *i = *(const int32_t *)v; break;
    case ACL_INT64: *i = *(const int64_t *)v; break;
    case ACL_UINT16: *i = *(const uint16_t *)v; break;
    case ACL_UINT32: *i = *(const uint32_t *)v; break;
    case ACL_UINT64: *i = (int64_t)*(const uint64_t *)v; break;
    case ACL_FLOAT16: *re = emu_f16_to_f32(*(const uint16_t *)v); goto real;
    case ACL_BF16: *re = emu_bf16_to_f32(*(const uint16_t *)v); goto real;
    case ACL_FLOAT: *re = *(const float *)v; goto real;
    case ACL_DOUBLE: *re = *(const double *)v; goto real;
    case ACL_COMPLEX64:
        *re = ((const float *)v)[0];
        *im = ((const float *)v)[1];
        goto real;
    case ACL_COMPLEX128:
        *re = ((const double *)v)[0];
        *im = ((const double *)v)[1];
        goto real;
    default: *i = 0; break;
    }
    *re = (double)*i;
    return;
real: /* truncated toward zero, saturating (x86's cvttsd2si gives INT64_MIN out of range) */
    *i = *re == *re && *re > -9.2e18 && *re < 9.2e18 ? (int64_t)*re : INT64_MIN;
}

bool binary_alpha_is_one(const aclScalar *alpha)
{
    int64_t i;
    double re, im;
    scalar_value(alpha, &i, &re, &im);
    return (float)re == 1.0f;
}

void binary_set_alpha(binary_plan *p, const aclScalar *alpha)
{
    int64_t i;
    double re, im;
    scalar_value(alpha, &i, &re, &im);
    p->alpha_f = (float)re;
    p->alpha_i = i;
    /* alpha as a tensor of the promoted dtype: rounded to it */
    switch (p->compute) {
    case ACL_FLOAT16: p->alpha_re = emu_f16_to_f32(emu_f32_to_f16((float)re)); break;
    case ACL_BF16: p->alpha_re = emu_bf16_to_f32(emu_f32_to_bf16((float)re)); break;
    case ACL_FLOAT: p->alpha_re = (float)re; break;
    case ACL_COMPLEX64:
        p->alpha_re = (float)re;
        p->alpha_im = (float)im;
        break;
    default: p->alpha_re = re, p->alpha_im = im; break;
    }
}

int binary_create(const emu_op_def *op, const aclTensor *self, const aclTensor *other, const aclTensor *out,
                  const binary_plan *p, const char *attrs, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    const bool empty = emu_tensor_numel(self) == 0 || emu_tensor_numel(other) == 0;
    if (!empty && emu_tensor_numel(out) > 0)
        EMU_TRY(emu_check_output_writable(op->name, out, "out"));
    /* CANN's workspace: a Contiguous or Cast copy of each input that needs one, the result before its Cast
     * to out's dtype (none for empty inputs: CANN returns before planning). */
    uint64_t ws = 0;
    const size_t item = emu_dtype_size(p->compute);
    const aclTensor *inputs[2] = {self, other};
    for (int i = 0; !empty && i < 2; i++)
        if (inputs[i]->dtype != p->compute || !emu_tensor_contiguous(inputs[i]))
            ws += emu_ws_bytes(emu_tensor_numel(inputs[i]), item);
    if (!empty && (out->dtype != p->compute || !emu_tensor_contiguous(out)))
        ws += emu_ws_bytes(emu_tensor_numel(out), item);
    const aclTensor *tensors[] = {[BINARY_SELF] = self, [BINARY_OTHER] = other, [BINARY_OUT] = out};
    return emu_executor_create(op, tensors, p, sizeof *p, ws, attrs, workspaceSize, executor);
}

int binary_run(const emu_launch *l, char *msg, size_t cap)
{
    binary_plan p = *(const binary_plan *)l->params;
    p.threads = emu_kernel_threads();
    p.reference = emu_reference_kernels();
    const emu_view self = emu_launch_view(l, BINARY_SELF), other = emu_launch_view(l, BINARY_OTHER);
    const emu_view out = emu_launch_view(l, BINARY_OUT);
    if (emu_view_numel(&self) == 0 || emu_view_numel(&other) == 0) { /* CANN returns before any kernel */
        emu_launch_leave_unwritten(l, BINARY_OUT);
        return 0;
    }
    if (!p.reference && binary_fast(&self, &other, &out, &p))
        return 0;
    return binary_reference(&self, &other, &out, &p, msg, cap);
}
