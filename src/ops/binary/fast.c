/*
 * The binary family's fast path: self, other and out of one dtype (FLOAT,
 * FLOAT16, BF16, DOUBLE, INT32, INT64), the promoted one, each innermost
 * axis contiguous or broadcast. The same arithmetic as the reference
 * kernel, so the same bits, in vectorisable loops: the dims the three
 * views walk alike are merged, and the merged rows are cut into chunks the
 * threads share. Anything else (mixed dtypes, Axpy's INT32 truncation, the
 * two roundings of BF16 on Atlas A2, BOOL, complex, 8- and 16-bit
 * integers) runs on the reference kernel.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include <string.h>

#include "../../kernel/half.h"
#include "binary.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define HAVE_F16C_ROWS 1
#endif

#define CHUNK 4096 /* elements of a task: enough to hide a task's cost */
#define HALF_ROW_MAX 2048 /* elements of a FLOAT16/BF16 step at most (three FLOAT rows of it on the stack) */

typedef struct walk {
    int64_t rank, dims[EMU_VIEW_MAX_DIMS], sa[EMU_VIEW_MAX_DIMS], sb[EMU_VIEW_MAX_DIMS], so[EMU_VIEW_MAX_DIMS];
} walk;

/* out's dims with both inputs' strides right-aligned (0 where they broadcast), merged where all three
 * views step alike from one dim to the next. */
static void walk_of(const emu_view *a, const emu_view *b, const emu_view *o, walk *w)
{
    const emu_view *v[2] = {a, b};
    int64_t *s[2] = {w->sa, w->sb};
    int64_t r = 0;
    for (int64_t d = 0; d < (int64_t)o->ndim; d++) {
        if (o->dims[d] == 1)
            continue; /* a dim of 1 walks nowhere */
        for (int i = 0; i < 2; i++) {
            const int64_t k = d - ((int64_t)o->ndim - (int64_t)v[i]->ndim);
            s[i][r] = k < 0 || v[i]->dims[k] == 1 ? 0 : v[i]->strides[k];
        }
        w->so[r] = o->strides[d];
        w->dims[r] = o->dims[d];
        if (r > 0 && w->sa[r - 1] == w->sa[r] * w->dims[r] && w->sb[r - 1] == w->sb[r] * w->dims[r] &&
            w->so[r - 1] == w->so[r] * w->dims[r]) { /* merge into the previous dim */
            w->dims[r - 1] *= w->dims[r];
            w->sa[r - 1] = w->sa[r];
            w->sb[r - 1] = w->sb[r];
            w->so[r - 1] = w->so[r];
            continue;
        }
        r++;
    }
    if (r == 0) { /* one element */
        w->dims[0] = 1;
        w->sa[0] = w->sb[0] = w->so[0] = 0;
        r = 1;
    }
    w->rank = r;
}

/* One chunk: n elements, inputs stepping by la, lb (0 or 1), out by 1. The loops keep the reference
 * kernel's operations (binary.h) and their order. */
#define ROWS(T, EXPR)                                                                                     \
    static void rows_##T(T *restrict o, const T *restrict a, const T *restrict b, int64_t n, int64_t la,  \
                         int64_t lb, const binary_plan *p)                                                \
    {                                                                                                     \
        const T alpha_v = (T)ALPHA_##T(p);                                                                \
        (void)alpha_v;                                                                                    \
        if (la == 1 && lb == 1)                                                                           \
            for (int64_t j = 0; j < n; j++) {                                                             \
                const T x = a[j], y = b[j];                                                               \
                o[j] = EXPR;                                                                              \
            }                                                                                             \
        else if (la == 1)                                                                                 \
            for (int64_t j = 0; j < n; j++) {                                                             \
                const T x = a[j], y = b[0];                                                               \
                o[j] = EXPR;                                                                              \
            }                                                                                             \
        else                                                                                              \
            for (int64_t j = 0; j < n; j++) {                                                             \
                const T x = a[0], y = b[j * lb];                                                          \
                o[j] = EXPR;                                                                              \
            }                                                                                             \
    }

#define ALPHA_float(p) (p)->alpha_f
#define ALPHA_double(p) (p)->alpha_re
#define ALPHA_uint32_t(p) (uint32_t)(uint64_t)(p)->alpha_i
#define ALPHA_uint64_t(p) (uint64_t)(p)->alpha_i
/* FLOAT (and the halves' FLOAT rows): self + alpha * other in FLOAT; integers modulo 2^n. */
ROWS(float, p->op == BINARY_MUL ? x * y : x + alpha_v * y)
ROWS(double, p->op == BINARY_MUL ? x * y : x + alpha_v * y)
ROWS(uint32_t, p->op == BINARY_MUL ? x * y : x + y * alpha_v)
ROWS(uint64_t, p->op == BINARY_MUL ? x * y : x + y * alpha_v)

#ifdef HAVE_F16C_ROWS
/* FLOAT16 rows in one pass, 8 lanes at a time: widen, the FLOAT operation rows_float does (a product, or
 * self + alpha * other, never fused), round to nearest even: the bits of the FLOAT-row path without its
 * three L1 rows (E1-add in float16: 1.4 ms through them on the AMD VM, compute-bound on one thread). */
/* rows_f16c's elements [j0, j1) one by one (the same operation and rounding as its lanes). */
static void rows_f16c_scalar(uint16_t *restrict o, const uint16_t *restrict a, const uint16_t *restrict b, int64_t j0,
                             int64_t j1, int64_t la, int64_t lb, const binary_plan *p)
{
    for (int64_t j = j0; j < j1; j++) {
        const float x = emu_f16_to_f32(a[j * la]), y = emu_f16_to_f32(b[j * lb]);
        o[j] = emu_f32_to_f16(p->op == BINARY_MUL ? x * y : x + p->alpha_f * y);
    }
}

__attribute__((target("avx2,f16c"))) static void rows_f16c(uint16_t *restrict o, const uint16_t *restrict a,
                                                           const uint16_t *restrict b, int64_t n, int64_t la,
                                                           int64_t lb, const binary_plan *p, bool stream)
{
    const bool mul = p->op == BINARY_MUL;
    const __m256 va = _mm256_set1_ps(p->alpha_f), a0 = _mm256_set1_ps(emu_f16_to_f32(a[0]));
    const __m256 b0 = _mm256_set1_ps(emu_f16_to_f32(b[0]));
    /* Streaming stores need 16-byte aligned addresses: elements before the first one go one by one. */
    const int64_t head = stream ? (int64_t)((16 - ((uintptr_t)o & 15)) & 15) / 2 : 0;
    int64_t j = head < n ? head : n;
    rows_f16c_scalar(o, a, b, 0, j, la, lb, p);
    for (; j + 8 <= n; j += 8) {
        const __m256 x = la ? _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(a + j))) : a0;
        const __m256 y = lb ? _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(b + j))) : b0;
        const __m256 r = mul ? _mm256_mul_ps(x, y) : _mm256_add_ps(x, _mm256_mul_ps(va, y));
        const __m128i h = _mm256_cvtps_ph(r, _MM_FROUND_TO_NEAREST_INT);
        if (stream)
            _mm_stream_si128((__m128i *)(o + j), h);
        else
            _mm_storeu_si128((__m128i *)(o + j), h);
    }
    rows_f16c_scalar(o, a, b, j, n, la, lb, p);
}
#endif

static bool covered(const emu_view *a, const emu_view *b, const emu_view *o, const binary_plan *p, const walk *w)
{
    const aclDataType dt = p->compute;
    const bool typed = a->dtype == dt && b->dtype == dt && o->dtype == dt;
    const bool arith = dt == ACL_INT32 || dt == ACL_INT64 ? p->arith == BINARY_EXACT
                       : dt == ACL_DOUBLE                 ? p->arith == BINARY_EXACT
                                                          : p->arith == BINARY_FLOAT;
    const bool kind = dt == ACL_FLOAT || dt == ACL_FLOAT16 || dt == ACL_BF16 || dt == ACL_DOUBLE || dt == ACL_INT32 ||
                      dt == ACL_INT64;
    const int64_t last = w->rank - 1;
    const bool inner = (w->sa[last] == 0 || w->sa[last] == 1) && (w->sb[last] == 0 || w->sb[last] == 1) &&
                       w->so[last] == 1;
    return typed && arith && kind && inner;
}

/* A half row (FLOAT16 or BF16, n <= CHUNK elements, or one repeated when step is 0) as FLOAT. */
static const float *half_row(float *buf, const uint16_t *src, int64_t n, int64_t step, aclDataType dt)
{
    const int64_t m = step ? n : 1;
    if (dt == ACL_FLOAT16)
        emu_f16_row_to_f32(buf, src, m);
    else
        emu_bf16_row_to_f32(buf, src, m);
    return buf;
}

/* Elements of a FLOAT16/BF16 step: its three FLOAT rows in a quarter of L1, where they stay while the
 * inputs and the result stream past them. Rows of 4096 (48 KiB) overflowed the AMD VM's 32 KiB L1: E1-add
 * in float16 took 2.9 ms there; 1024 (12 KiB) 1.4 ms, 512 1.25 ms. */
static int64_t half_step(void)
{
    const size_t rows_bytes = emu_machine_caches()->l1d / 4;
    int64_t step = 64;
    while (step * 2 <= HALF_ROW_MAX && (size_t)(step * 2) * 3 * sizeof(float) <= rows_bytes)
        step *= 2;
    return step;
}

/* How chunks run: the half types' step, whether FLOAT16 rows take the fused F16C loop, and whether results
 * go out with streaming stores (emu_stream_rows: stored through the caches, a result past them would first
 * read every line, a third more traffic for E1). */
typedef struct chunk_mode {
    int64_t step;
    bool fused, stream;
} chunk_mode;

static chunk_mode mode_of(const emu_view *o, const binary_plan *p, const walk *w)
{
    chunk_mode m = {.step = half_step()};
#ifdef HAVE_F16C_ROWS
    m.fused = p->compute == ACL_FLOAT16 && emu_cpu_f16c();
#endif
    const int64_t len = w->dims[w->rank - 1], item = (int64_t)emu_view_item_size(o), line = 64 / item;
    bool tiled = ((uintptr_t)((const char *)o->data + o->offset * item) & 63) == 0 && len % line == 0;
    for (int64_t d = 0; d < w->rank - 1; d++)
        tiled = tiled && w->so[d] % line == 0;
    m.stream = (p->compute == ACL_FLOAT || m.fused) && emu_stream_rows(tiled, len * item, emu_view_numel(o) * item);
    return m;
}

EMU_HOT static void chunk(const emu_view *a, const emu_view *b, const emu_view *o, const binary_plan *p,
                          const walk *w, int64_t row, int64_t j0, int64_t n, chunk_mode m)
{
    const int64_t step = m.step;
    const int64_t last = w->rank - 1;
    int64_t oa = a->offset + j0 * w->sa[last], ob = b->offset + j0 * w->sb[last], oo = o->offset + j0;
    for (int64_t d = last - 1, rest = row; d >= 0; d--) {
        const int64_t k = rest % w->dims[d];
        rest /= w->dims[d];
        oa += k * w->sa[d];
        ob += k * w->sb[d];
        oo += k * w->so[d];
    }
    const int64_t la = w->sa[last], lb = w->sb[last];
    switch (p->compute) {
    case ACL_FLOAT:
        if (!m.stream) {
            rows_float((float *)o->data + oo, (const float *)a->data + oa, (const float *)b->data + ob, n, la, lb,
                       p);
            break;
        }
        for (int64_t j = 0; j < n; j += step) { /* made in L1, then streamed */
            const int64_t m = n - j < step ? n - j : step;
            float r[HALF_ROW_MAX];
            rows_float(r, (const float *)a->data + oa + j * la, (const float *)b->data + ob + j * lb, m, la, lb, p);
            emu_copy_f32((float *)o->data + oo + j, r, m, true);
        }
        break;
    case ACL_DOUBLE:
        rows_double((double *)o->data + oo, (const double *)a->data + oa, (const double *)b->data + ob, n, la, lb,
                    p);
        break;
    case ACL_INT32:
        rows_uint32_t((uint32_t *)o->data + oo, (const uint32_t *)a->data + oa, (const uint32_t *)b->data + ob, n,
                      la, lb, p);
        break;
    case ACL_INT64:
        rows_uint64_t((uint64_t *)o->data + oo, (const uint64_t *)a->data + oa, (const uint64_t *)b->data + ob, n,
                      la, lb, p);
        break;
    default: /* FLOAT16, BF16: through FLOAT rows of `step` (in L1), rounded once at the end */
#ifdef HAVE_F16C_ROWS
        if (m.fused) {
            rows_f16c((uint16_t *)o->data + oo, (const uint16_t *)a->data + oa, (const uint16_t *)b->data + ob, n, la,
                      lb, p, m.stream);
            break;
        }
#endif
        for (int64_t j = 0; j < n; j += step) {
            const int64_t m = n - j < step ? n - j : step;
            float xa[HALF_ROW_MAX], xb[HALF_ROW_MAX], r[HALF_ROW_MAX];
            const float *fa = half_row(xa, (const uint16_t *)a->data + oa + j * la, m, la, p->compute);
            const float *fb = half_row(xb, (const uint16_t *)b->data + ob + j * lb, m, lb, p->compute);
            rows_float(r, fa, fb, m, la, lb, p);
            uint16_t *dst = (uint16_t *)o->data + oo + j;
            if (p->compute == ACL_FLOAT16)
                emu_f32_row_to_f16(dst, r, m);
            else
                emu_f32_row_to_bf16(dst, r, m);
        }
        break;
    }
}

bool binary_fast(const emu_view *a, const emu_view *b, const emu_view *o, const binary_plan *p)
{
    walk w;
    walk_of(a, b, o, &w);
    if (!covered(a, b, o, p, &w))
        return false;
    const int64_t len = w.dims[w.rank - 1], rows = emu_view_numel(o) / len;
    const int64_t per_row = (len + CHUNK - 1) / CHUNK, tasks = rows * per_row;
    const int threads = emu_view_numel(o) < 65536 ? 1 : p->threads;
    const chunk_mode m = mode_of(o, p, &w);
    (void)threads; /* unused when built without OpenMP */
#pragma omp parallel num_threads(threads)
    {
#pragma omp for schedule(dynamic, emu_dynamic_chunk(tasks, threads))
        for (int64_t t = 0; t < tasks; t++) {
            const int64_t row = t / per_row, j0 = t % per_row * CHUNK;
            chunk(a, b, o, p, &w, row, j0, len - j0 < CHUNK ? len - j0 : CHUNK, m);
        }
        if (m.stream)
            emu_stream_fence(); /* order this thread's streaming stores before the stream reports completion */
    }
    return true;
}
