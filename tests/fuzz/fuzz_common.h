/*
 * Helpers shared by the operator fuzzers: a byte reader, tensors over
 * guard-banded device blocks, and the guard-band check.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#ifndef ACLNN_EMU_FUZZ_COMMON_H_
#define ACLNN_EMU_FUZZ_COMMON_H_

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnn_emu/aclnn_emu.h"

#define GUARD 0xA5

typedef struct reader {
    const uint8_t *p;
    size_t n;
} reader;

static uint64_t take(reader *r, int bytes)
{
    uint64_t v = 0;
    for (int i = 0; i < bytes; i++) {
        v = v << 8 | (r->n ? *r->p : 0);
        if (r->n) {
            r->p++;
            r->n--;
        }
    }
    return v;
}

static int64_t take_range(reader *r, int64_t lo, int64_t hi)
{
    return lo + (int64_t)(take(r, 1) % (uint64_t)(hi - lo + 1));
}

/* Floats that matter: ordinary values, and now and then zeros, NaN, infinities and huge ones. */
static float take_float(reader *r, float scale)
{
    static const float special[] = {0.0f, -0.0f, NAN, INFINITY, -INFINITY, 1e30f, -1e30f, 1e-40f, 3e38f, 0.5f};
    uint64_t k = take(r, 1);
    if (k < 24)
        return special[k % 10];
    return ((float)(int64_t)(take(r, 2) % 4001) - 2000.0f) * scale;
}

/* A workspace allocated once (so each input's handle count is unchanged);
 * larger requests get their own block for one input. */
#define FUZZ_WS_CAP ((uint64_t)64 << 20)
static void *fuzz_ws_pool;

static void init_runtime_once(void)
{
    static int done;
    if (!done) {
        aclnnEmuSetOption("ASCEND_GLOBAL_LOG_LEVEL", 4); /* silence: errors are expected */
        aclnnEmuSetOption("ACLNN_EMU_THREADS", 2);
        aclInit(NULL);
        aclrtSetDevice(0);
        aclrtMalloc(&fuzz_ws_pool, FUZZ_WS_CAP, ACL_MEM_MALLOC_HUGE_FIRST);
        done = 1;
    }
}

/* The workspace for ws bytes: the pool, or *own (to aclrtFree after synchronising). */
static void *fuzz_workspace(uint64_t ws, void **own)
{
    *own = NULL;
    if (ws <= FUZZ_WS_CAP)
        return ws ? fuzz_ws_pool : NULL;
    return aclrtMalloc(own, ws, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS ? *own : NULL;
}

/* A fuzzed tensor: view shape, strides, offset and an allocation that may be too small. */
typedef struct ftensor {
    aclTensor *t;
    void *block;
    size_t bytes;
    int64_t dims[8], strides[8], offset;
    uint64_t ndim;
    size_t item;
} ftensor;

static size_t item_size(aclDataType dt)
{
    switch (dt) {
    case ACL_UINT8: case ACL_INT8: case ACL_BOOL: return 1;
    case ACL_FLOAT16: case ACL_BF16: case ACL_INT16: case ACL_UINT16: return 2;
    case ACL_DOUBLE: case ACL_INT64: case ACL_UINT64: case ACL_COMPLEX64: return 8;
    case ACL_COMPLEX128: return 16;
    default: return 4;
    }
}

/* An aclScalar of dtype dt holding v (converted as C converts; complex: v + 0i). */
static aclScalar *make_scalar(aclDataType dt, double v)
{
    unsigned char buf[16] = {0};
    const int64_t i = v == v && v > -9.2e18 && v < 9.2e18 ? (int64_t)v : 0;
    switch (dt) {
    case ACL_BOOL: case ACL_UINT8: case ACL_INT8: buf[0] = (unsigned char)i; break;
    case ACL_INT16: { int16_t x = (int16_t)i; memcpy(buf, &x, 2); break; }
    case ACL_INT32: { int32_t x = (int32_t)i; memcpy(buf, &x, 4); break; }
    case ACL_INT64: memcpy(buf, &i, 8); break;
    case ACL_FLOAT16: case ACL_BF16: { float f = (float)v; uint32_t bits; memcpy(&bits, &f, 4);
        uint16_t h = (uint16_t)(bits >> 16); memcpy(buf, &h, 2); break; }
    case ACL_DOUBLE: case ACL_COMPLEX128: memcpy(buf, &v, 8); break;
    default: { float f = (float)v; memcpy(buf, &f, 4); break; } /* FLOAT, COMPLEX64 */
    }
    return aclCreateScalar(buf, dt);
}

/* Builds a tensor over a fresh block filled with data from the reader (or the guard byte). */
static void make_tensor(reader *r, ftensor *f, const int64_t *dims, uint64_t ndim, aclDataType dt, aclFormat fmt,
                        int fill_guard, float scale)
{
    memset(f, 0, sizeof *f);
    f->ndim = ndim;
    f->item = item_size(dt);
    memcpy(f->dims, dims, ndim * sizeof *dims);
    /* Strides: contiguous, padded, permuted, or broadcast (0). */
    int mode = (int)take_range(r, 0, 7);
    int64_t acc = 1;
    for (uint64_t i = ndim; i-- > 0;) {
        int64_t pad = mode == 1 ? take_range(r, 0, 3) : 0;
        f->strides[i] = mode == 7 && i == 0 ? 0 : acc + pad;
        acc = (acc + pad) * (dims[i] > 0 ? dims[i] : 1);
    }
    if (mode == 2 && ndim >= 2) { /* swap two strides: a transposed view */
        uint64_t a = (uint64_t)take_range(r, 0, (int64_t)ndim - 1), b = (uint64_t)take_range(r, 0, (int64_t)ndim - 1);
        int64_t t = f->strides[a];
        f->strides[a] = f->strides[b];
        f->strides[b] = t;
    }
    f->offset = take_range(r, 0, 5);
    int64_t reach = f->offset + 1, numel = 1;
    for (uint64_t i = 0; i < ndim; i++) {
        numel *= dims[i];
        reach += (dims[i] > 0 ? dims[i] - 1 : 0) * f->strides[i];
    }
    if (numel == 0)
        reach = 0;
    int64_t slack = take_range(r, -3, 6); /* sometimes too small: must be refused, never overrun */
    int64_t elems = reach + slack > 0 ? reach + slack : 1;
    f->bytes = (size_t)elems * f->item;
    if (aclrtMalloc(&f->block, f->bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
        f->block = NULL;
        return;
    }
    uint8_t *b = f->block;
    for (size_t i = 0; i < f->bytes; i++)
        b[i] = GUARD;
    if (!fill_guard) {
        for (int64_t e = 0; e < elems; e++) {
            float v = take_float(r, scale);
            if (f->item == 1) {
                b[e] = (uint8_t)(int)(v == v && v > -1e9f && v < 1e9f ? v : 0.0f);
            } else if (f->item == 4) {
                memcpy(b + e * 4, &v, 4);
            } else if (f->item == 2) {
                uint32_t bits;
                memcpy(&bits, &v, 4);
                uint16_t h = (uint16_t)(bits >> 16); /* bfloat16-ish bits; any pattern is a valid input */
                memcpy(b + e * 2, &h, 2);
            } else {
                double d = v;
                memcpy(b + e * 8, &d, 8);
            }
        }
    }
    int64_t storage[1] = {elems};
    f->t = aclCreateTensor(dims, ndim, dt, f->strides, f->offset, fmt, storage, 1, f->block);
}

/* True when every byte of the block outside the view's elements still holds the guard byte. */
static int guard_intact(const ftensor *f)
{
    if (!f->block)
        return 1;
    uint8_t *mark = calloc(f->bytes, 1);
    if (!mark)
        return 1;
    int64_t numel = 1;
    for (uint64_t i = 0; i < f->ndim; i++)
        numel *= f->dims[i];
    for (int64_t e = 0; e < numel; e++) {
        int64_t rem = e, off = f->offset;
        for (uint64_t i = f->ndim; i-- > 0;) {
            off += (rem % f->dims[i]) * f->strides[i];
            rem /= f->dims[i];
        }
        if ((size_t)(off + 1) * f->item <= f->bytes)
            memset(mark + (size_t)off * f->item, 1, f->item);
    }
    int ok = 1;
    const uint8_t *b = f->block;
    for (size_t i = 0; i < f->bytes && ok; i++)
        ok = mark[i] || b[i] == GUARD;
    free(mark);
    return ok;
}

static void free_tensor(ftensor *f)
{
    if (f->t)
        aclDestroyTensor(f->t);
    if (f->block)
        aclrtFree(f->block);
}

#endif
