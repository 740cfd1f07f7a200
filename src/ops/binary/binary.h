/*
 * The binary arithmetic family (aclnnAdd, aclnnMul): one plan, the numpy
 * broadcast of two inputs into out, and one reference kernel that computes
 * each element as CANN's kernels do in the promoted dtype, then casts it to
 * out's dtype.
 *
 * Kernel level: includes kernel support only. The op files fill the plan
 * in phase one (binary_op.h: promotion, the casts CANN allows, broadcast).
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#ifndef ACLNN_EMU_BINARY_H_
#define ACLNN_EMU_BINARY_H_

#include "../../kernel/kernel.h"

/* The tensors of every binary API, by slot. */
enum { BINARY_SELF, BINARY_OTHER, BINARY_OUT };

typedef enum binary_op { BINARY_ADD, BINARY_MUL } binary_op;

/* How CANN's kernel computes in the promoted dtype (the op file picks it per SoC and dtype). */
typedef enum binary_arith {
    BINARY_EXACT,        /* integers wrap in their width; BOOL adds as or, multiplies as and; DOUBLE and
                            complex in their own precision (other * alpha rounded, then added) */
    BINARY_FLOAT,        /* FLOAT16, BF16, FLOAT: in FLOAT, self + alpha * other (self * other), rounded once */
    BINARY_FLOAT_TRUNC,  /* INT32 through Axpy: converted to FLOAT, self + alpha * other in FLOAT, truncated */
    BINARY_MUL_THEN_ADD, /* BF16 on Atlas A2: other * alpha rounded to BF16, then self + that, rounded again */
    BINARY_BOOL_CLAMP,   /* BOOL through Ascend950's AxpyV2: min(self + alpha * other, 1), nonzero is true */
} binary_arith;

typedef struct binary_plan {
    binary_op op;
    binary_arith arith;
    aclDataType compute; /* the promoted dtype */
    /* alpha as each path takes it: FLOAT (Axpy's attribute), the promoted dtype's value (a tensor of it) */
    float alpha_f;
    int64_t alpha_i;
    double alpha_re, alpha_im;
    int threads;    /* set by the run step */
    bool reference; /* run the reference kernel (ACLNN_EMU_REFERENCE_KERNELS=1), set by the run step */
} binary_plan;

/* out = self (op) other, broadcast: self's and other's views are right-aligned to out's dims, a dim of 1
 * repeating. 0 or a status plus message. */
int binary_reference(const emu_view *self, const emu_view *other, const emu_view *out, const binary_plan *p,
                     char *msg, size_t cap);

/* The fast path (fast.c): one dtype throughout (FLOAT, FLOAT16, BF16, DOUBLE, INT32, INT64), innermost axes
 * contiguous or broadcast; bit for bit the reference. False (nothing done) for what it does not cover. */
bool binary_fast(const emu_view *self, const emu_view *other, const emu_view *out, const binary_plan *p);

#endif /* ACLNN_EMU_BINARY_H_ */
