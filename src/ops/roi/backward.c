/*
 * RoIAlign backward kernel.
 *
 * The bilinear weight of a sample factorises into a y part and an x part,
 * and so does the "sample lands on the map" rule; so a bin's whole update is
 * g * outer(wy, wx), where wy (wx) is the sum over the bin's samples of their
 * y (x) weights. We compute those per-axis weights once per box (shared by
 * all channels), in closed form per pixel cell -- bilinear interpolation is
 * linear inside a cell, so c samples in one cell weigh as c samples at their
 * mean -- which makes the cost O(pixels touched), not O(samples): a box of
 * 1e9 pixels or samplingRatio = 1e12 costs no more than the map it covers.
 *
 * Each thread owns whole (image, channel) planes of gradInput, builds each
 * in a cache-resident band of rows and writes it out once, applying the
 * boxes of that image in a fixed order (by position: see box_key): no
 * atomics, bitwise identical results for any thread count. Per box we pick
 * the cheaper of two ways to apply the outer products: per bin (sum over
 * bins of |wy| * |wx|), or
 * separably, reducing each bin row along x first (T = G * Wx) and then
 * spreading T's rows along y.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "roi.h"

/* Box chunks keep the per-axis weights of a batch of boxes in memory. */
#define CHUNK_MAX_WEIGHTS ((int64_t)1 << 23)
#define CHUNK_MAX_BINS ((int64_t)1 << 20)

/* Samples of one bin along one axis: start + (m + 0.5) * step, m in [0, count). */
typedef struct axis_samples {
    double start, step, count, norm;
} axis_samples;

/* Where, along one axis of length extent, a bin's samples land. */
typedef struct axis_range {
    double m_lo, m_hi; /* samples inside [-1, extent], ascending positions */
    int64_t first, len; /* pixels touched */
} axis_range;

static double position(const axis_samples *s, double m)
{
    return s->start + (m + 0.5) * s->step;
}

/* Orders positions ascending (a negative step lists the same points backwards). */
static axis_samples ascending(axis_samples s)
{
    if (s.step < 0) {
        s.start += s.step * s.count;
        s.step = -s.step;
    }
    return s;
}

/* First sample index m in [r->m_lo, r->m_hi + 1] whose position is >= bound. */
static double first_at_or_above(const axis_samples *s, const axis_range *r, double bound)
{
    if (s->step == 0)
        return s->start >= bound ? r->m_lo : r->m_hi + 1;
    double m = ceil((bound - s->start) / s->step - 0.5);
    return m < r->m_lo ? r->m_lo : m > r->m_hi + 1 ? r->m_hi + 1 : m;
}

static int64_t pixel_of(double pos, int64_t extent)
{
    if (pos <= 0)
        return 0;
    if (pos >= (double)(extent - 1))
        return extent - 1;
    return (int64_t)floor(pos);
}

/* The samples inside [-1, extent] and the pixels they reach (spec: no
 * contribution beyond -1 or extent; clamped to [0, extent-1] otherwise). */
static axis_range range_of(const axis_samples *s, int64_t extent)
{
    axis_range r = {0, -1, 0, 0};
    double ext = (double)extent;
    if (s->step == 0) {
        if (s->start + 0 < -1.0 || s->start > ext)
            return r;
        r.m_hi = s->count - 1;
    } else {
        r.m_lo = fmax(0.0, ceil((-1.0 - s->start) / s->step - 0.5));
        r.m_hi = fmin(s->count - 1, floor((ext - s->start) / s->step - 0.5));
        /* Rounding in the division: settle the boundary samples by their positions. */
        if (r.m_lo <= r.m_hi && position(s, r.m_lo) < -1.0)
            r.m_lo += 1;
        if (r.m_lo <= r.m_hi && position(s, r.m_hi) > ext)
            r.m_hi -= 1;
        if (!(r.m_lo <= r.m_hi))
            return (axis_range){0, -1, 0, 0};
    }
    int64_t a = pixel_of(position(s, r.m_lo), extent);
    int64_t b = pixel_of(position(s, r.m_hi), extent);
    if (b + 1 < extent && position(s, r.m_hi) >= 0)
        b++; /* the upper neighbour of the last cell */
    r.first = a;
    r.len = b - a + 1;
    return r;
}

/* Adds v at pixel idx of a weight row covering [base, base + len). Rounding in
 * first_at_or_above can move a sample across a cell edge (harmlessly: the
 * weights are continuous there), so clamp rather than trust the index. */
static inline void add_weight(double *acc, int64_t base, int64_t len, int64_t idx, double v)
{
    idx -= base;
    acc[idx < 0 ? 0 : idx >= len ? len - 1 : idx] += v;
}

/* Writes the summed, normalised weights of pixels [r->first, r->first + r->len).
 * acc is scratch of at least r->len doubles (r->len <= extent). */
static void weights_of(const axis_samples *s, const axis_range *r, int64_t extent, float *w, double *acc)
{
    memset(acc, 0, (size_t)r->len * sizeof *acc);
    const int64_t base = r->first;
    /* Left of 0 (clamped to pixel 0, weight 1). */
    double m = first_at_or_above(s, r, 0.0);
    if (m > r->m_lo)
        add_weight(acc, base, r->len, 0, m - r->m_lo);
    /* Interior cells [k, k+1): linear, so c samples weigh as c samples at their mean. */
    if (m <= r->m_hi) {
        for (int64_t k = pixel_of(position(s, m), extent); k <= extent - 2; k++) {
            double mb = first_at_or_above(s, r, (double)(k + 1));
            if (mb > m) {
                double c = mb - m;
                double f = position(s, 0.5 * (m + mb) - 0.5) - (double)k;
                f = f < 0 ? 0 : f > 1 ? 1 : f;
                add_weight(acc, base, r->len, k, c * (1.0 - f));
                add_weight(acc, base, r->len, k + 1, c * f);
            }
            m = mb;
            if (m > r->m_hi)
                break;
        }
    }
    /* [extent-1, extent]: clamped to the last pixel, weight 1. */
    if (m <= r->m_hi)
        add_weight(acc, base, r->len, extent - 1, r->m_hi + 1 - m);
    for (int64_t i = 0; i < r->len; i++)
        w[i] = (float)(acc[i] * s->norm);
}

/* One axis of a box as CANN's kernel has it, in float32. */
/* A box's geometry (kernel/roi.h, shared with the forward): its image (-1:
 * the box contributes nothing) and its axes. */
typedef emu_roi_axis axis_geom;

typedef struct box_geom {
    int64_t image;
    axis_geom y, x;
} box_geom;

static box_geom box_geometry(const roi_plan *p, const float *row, int64_t col_stride, bool *no_sample)
{
    box_geom g = {.image = -1};
    *no_sample = false;
    const float r[5] = {row[0], row[col_stride], row[2 * col_stride], row[3 * col_stride], row[4 * col_stride]};
    const emu_roi_box b = emu_roi_box_of(p, r);
    if (b.image < 0 || !b.finite || !isfinite(b.y.bin) || !isfinite(b.x.bin))
        return g; /* outside the batch, or NaN/Inf coordinates (the op's run step warned) */
    if (b.y.count <= 0 || b.x.count <= 0) {
        *no_sample = true;
        return g;
    }
    return (box_geom){.image = b.image, .y = b.y, .x = b.x};
}

/* Sample i of bin b. */
static inline float sample_at(const axis_geom *a, int64_t b, int64_t i)
{
    return emu_roi_sample(a, b, i);
}

/* Samples per bin up to which weights are summed sample by sample in
 * float32, exactly as the NPU computes them; beyond, in closed form. */
#define ENUMERATE_MAX 4096

/* Pixels touched by bin b's samples (enumerated). */
static axis_range enum_range(const axis_geom *a, int64_t b, int64_t extent)
{
    int64_t first = INT64_MAX, last = -1;
    for (int64_t i = 0; i < a->count; i++) {
        int64_t lo, hi;
        float f;
        if (!emu_roi_pixels(sample_at(a, b, i), extent, &lo, &hi, &f))
            continue;
        first = lo < first ? lo : first;
        last = hi > last ? hi : last;
    }
    if (last < 0)
        return (axis_range){0, -1, 0, 0};
    return (axis_range){0, 0, first, last - first + 1};
}

/* Bin b's summed sample weights over pixels [r->first, r->first + r->len) (enumerated). */
static void enum_weights(const axis_geom *a, int64_t b, int64_t extent, const axis_range *r, float *w, double *acc)
{
    memset(acc, 0, (size_t)r->len * sizeof *acc);
    for (int64_t i = 0; i < a->count; i++) {
        int64_t lo, hi;
        float f;
        if (!emu_roi_pixels(sample_at(a, b, i), extent, &lo, &hi, &f))
            continue;
        acc[lo - r->first] += (double)((1.0f - f) * a->norm);
        acc[hi - r->first] += (double)(f * a->norm);
    }
    for (int64_t i = 0; i < r->len; i++)
        w[i] = (float)acc[i];
}

/* Bin b of an axis in closed form (huge sample counts: bounded time whatever the count). */
static axis_samples bin_samples(const axis_geom *a, int64_t b)
{
    double start, step;
    if (a->simt) {
        step = (double)a->bin / (double)a->count;
        start = (double)a->start + (double)b * (double)a->bin;
    } else {
        step = a->step;
        start = (double)a->start + (double)a->step * (double)b * (double)a->count;
    }
    return ascending((axis_samples){.start = start, .step = step, .count = (double)a->count, .norm = a->norm});
}

static axis_range bin_range(const axis_geom *a, int64_t b, int64_t extent)
{
    if (a->count <= ENUMERATE_MAX)
        return enum_range(a, b, extent);
    axis_samples s = bin_samples(a, b);
    return range_of(&s, extent);
}

static void bin_weights_of(const axis_geom *a, int64_t b, int64_t extent, const axis_range *r, float *w, double *acc)
{
    if (a->count <= ENUMERATE_MAX) {
        enum_weights(a, b, extent, r, w, acc);
        return;
    }
    axis_samples s = bin_samples(a, b);
    axis_range rr = range_of(&s, extent);
    weights_of(&s, &rr, extent, w, acc);
}

/* Weights of a bin are stored in whole 8-float vectors, zero-padded, so the
 * scatter adds them a vector at a time without tails (adding the products of
 * the padding's zeros, +-0.0, changes no value: a gradInput value is never
 * -0.0 there, see apply_box). */
static inline int64_t padded8(int64_t n)
{
    return (n + 7) & ~(int64_t)7;
}

/* Per-axis weights of every bin of a chunk of boxes. */
typedef struct bin_weights {
    int64_t first, len, off; /* pixels [first, first+len), weights at pool[off] */
} bin_weights;

typedef struct chunk {
    int64_t k0, k1;      /* boxes [k0, k1) */
    bin_weights *bins;   /* (k1 - k0) * roi_bins(p): y bins, then x bins */
    float *pool;
    bool *separable;     /* per box: apply separably (else per bin) */
    int64_t *order;      /* boxes of the chunk grouped by image, index order within */
    int64_t *img_first;  /* batch + 1 */
} chunk;

/* Boxes a chunk holds at most (chunk_plan's limit: the first box always fits). */
static int64_t chunk_boxes_most(const roi_plan *p)
{
    const int64_t nbins = roi_bins(p), fit = CHUNK_MAX_BINS / nbins;
    const int64_t most = fit > 1 ? fit : 1;
    return p->boxes < most ? p->boxes : most;
}

/* How many weights box k needs, and fills its bin ranges. */
static int64_t box_ranges(const roi_plan *p, const box_geom *g, bin_weights *bins)
{
    int64_t total = 0;
    for (int64_t i = 0; i < roi_bins(p); i++) {
        bool is_y = i < p->pooled_h;
        axis_range r = g->image < 0 ? (axis_range){0, -1, 0, 0}
                       : is_y       ? bin_range(&g->y, i, p->height)
                                    : bin_range(&g->x, i - p->pooled_h, p->width);
        bins[i] = (bin_weights){.first = r.first, .len = r.len, .off = total};
        total += padded8(r.len);
    }
    return total;
}

/* Cost of one row update of n elements: vector operations plus a fixed
 * overhead per row (loop set-up, tail), in units of 8-wide operations. */
static double row_cost(int64_t n)
{
    return (double)((n + 7) / 8) + 1.5;
}

/* Cost model of the two ways to apply a box (see the file comment). */
static bool prefer_separable(const roi_plan *p, const bin_weights *bins)
{
    double per_bin_x = 0, build_t = 0;
    int64_t sum_y = 0, rows = 0, lo = INT64_MAX, hi = 0;
    for (int64_t i = p->pooled_h; i < roi_bins(p); i++) {
        if (!bins[i].len)
            continue;
        per_bin_x += row_cost(bins[i].len);
        lo = bins[i].first < lo ? bins[i].first : lo;
        hi = bins[i].first + bins[i].len > hi ? bins[i].first + bins[i].len : hi;
    }
    for (int64_t i = 0; i < p->pooled_h; i++) {
        sum_y += bins[i].len;
        rows += bins[i].len > 0;
    }
    if (per_bin_x == 0 || sum_y == 0)
        return false;
    build_t = (double)rows * (per_bin_x + row_cost(hi - lo)); /* T rows: clear, then one update per bin */
    double per_bin = (double)sum_y * per_bin_x;
    double separable = build_t + (double)sum_y * row_cost(hi - lo);
    return separable < per_bin;
}

/* Rows [lo, hi) of a bin's rows [first, first + len) that fall in the band [y0, y1). */
EMU_HOT_INLINE bool band_rows(const bin_weights *b, int64_t y0, int64_t y1, int64_t *lo, int64_t *hi)
{
    *lo = b->first > y0 ? b->first : y0;
    *hi = b->first + b->len < y1 ? b->first + b->len : y1;
    return *lo < *hi;
}

/* dst += a * src over n floats; whole 8-float vectors (no tail) when n is a multiple of 8. */
EMU_HOT_INLINE void add_scaled(float *restrict dst, float a, const float *restrict src, int64_t n)
{
    if ((n & 7) == 0) {
        for (int64_t x = 0; x < n; x += 8)
            for (int j = 0; j < 8; j++)
                dst[x + j] += a * src[x + j];
    } else {
        for (int64_t x = 0; x < n; x++)
            dst[x] += a * src[x];
    }
}

/* Rows [y0, y1) of nc consecutive channel planes, built in a scratch buffer:
 * row y of channel c at data + c * plane + (y - y0) * w (contiguous rows, so
 * the inner loops vectorise), with a scratch row per channel in tmp. */
typedef struct band {
    float *data, *tmp;
    int64_t y0, y1, w, plane, nc, tmp_stride;
} band;

/* The update of one box to a band. g is the box's gradOutput for the band's
 * first channel (channel stride g_sc). The channels share the box's loops, so
 * the loop control and weight loads are paid once per channel block; each
 * element still receives the same products in the same order. */
EMU_HOT_INLINE void apply_box(const roi_plan *p, const chunk *ch, int64_t kk, const float *g, int64_t g_sc,
                             int64_t g_sh, int64_t g_sw, const band *bd)
{
    const bin_weights *by = ch->bins + kk * roi_bins(p), *bx = by + p->pooled_h;
    const int64_t w = bd->w, y0 = bd->y0, nc = bd->nc;
    int64_t r_lo, r_hi;
    if (!ch->separable[kk]) {
        for (int64_t ph = 0; ph < p->pooled_h; ph++) {
            if (!band_rows(&by[ph], y0, bd->y1, &r_lo, &r_hi))
                continue;
            const float *wy = ch->pool + by[ph].off; /* weight of row y at wy[y - by[ph].first] */
            for (int64_t pw = 0; pw < p->pooled_w; pw++) {
                if (!bx[pw].len)
                    continue;
                const float *wx = ch->pool + bx[pw].off;
                const int64_t nx = bx[pw].len, nx8 = padded8(nx);
                const int64_t n = bx[pw].first + nx8 <= w ? nx8 : nx; /* the padding must stay in the row */
                for (int64_t c = 0; c < nc; c++) {
                    const float gv = g[c * g_sc + ph * g_sh + pw * g_sw];
                    float *rows = bd->data + c * bd->plane + bx[pw].first;
                    for (int64_t y = r_lo; y < r_hi; y++)
                        add_scaled(rows + (y - y0) * w, gv * wy[y - by[ph].first], wx, n);
                }
            }
        }
        return;
    }
    int64_t lo = INT64_MAX, hi = 0;
    for (int64_t pw = 0; pw < p->pooled_w; pw++) {
        if (!bx[pw].len)
            continue;
        lo = bx[pw].first < lo ? bx[pw].first : lo;
        hi = bx[pw].first + bx[pw].len > hi ? bx[pw].first + bx[pw].len : hi;
    }
    /* The spread runs over whole 8-float vectors: the span widened to a
     * multiple of 8 (shifted left at the plane's right edge) with zeros in tmp.
     * Bit-neutral: a band value is never -0.0 (it starts at +0.0 and only
     * ever has products added), and adding +0.0 to anything else keeps it. */
    int64_t span = hi - lo;
    if (((span + 7) & ~(int64_t)7) <= w) {
        span = (span + 7) & ~(int64_t)7;
        lo = lo + span <= w ? lo : w - span;
    }
    for (int64_t ph = 0; ph < p->pooled_h; ph++) {
        if (!band_rows(&by[ph], y0, bd->y1, &r_lo, &r_hi))
            continue;
        for (int64_t c = 0; c < nc; c++) /* tmp[span..] takes the last bin's padding */
            memset(bd->tmp + c * bd->tmp_stride, 0, (size_t)(span + 8) * sizeof(float));
        for (int64_t pw = 0; pw < p->pooled_w; pw++) {
            if (!bx[pw].len)
                continue;
            const float *wx = ch->pool + bx[pw].off;
            const int64_t n = padded8(bx[pw].len);
            for (int64_t c = 0; c < nc; c++)
                add_scaled(bd->tmp + c * bd->tmp_stride + (bx[pw].first - lo), g[c * g_sc + ph * g_sh + pw * g_sw],
                           wx, n);
        }
        const float *wy = ch->pool + by[ph].off;
        for (int64_t y = r_lo; y < r_hi; y++)
            for (int64_t c = 0; c < nc; c++)
                add_scaled(bd->data + c * bd->plane + (y - y0) * w + lo, wy[y - by[ph].first],
                           bd->tmp + c * bd->tmp_stride, span);
    }
}

/* All boxes of a chunk that fall on image b, applied to a band in box order.
 * g_c is gradOutput at the band's first channel. */
EMU_HOT static void scatter_band(const roi_plan *p, const chunk *ch, int64_t b, const float *g_c, int64_t go_sk,
                                 int64_t go_sc, int64_t go_sh, int64_t go_sw, const band *bd)
{
    for (int64_t i = ch->img_first[b]; i < ch->img_first[b + 1]; i++) {
        const int64_t kk = ch->order[i];
        apply_box(p, ch, kk, g_c + (ch->k0 + kk) * go_sk, go_sc, go_sh, go_sw, bd);
    }
}

/* Moves rows between a plane of gradInput (strides sy, sx) and a contiguous band. */
static void band_load(float *band, const float *plane, int64_t rows, int64_t w, int64_t sy, int64_t sx)
{
    for (int64_t y = 0; y < rows; y++)
        for (int64_t x = 0; x < w; x++)
            band[y * w + x] = plane[y * sy + x * sx];
}

static void band_store(float *plane, const float *band, int64_t rows, int64_t w, int64_t sy, int64_t sx,
                       bool stream)
{
    if (sx == 1 && sy == w) {
        emu_copy_f32(plane, band, rows * w, stream);
        return;
    }
    for (int64_t y = 0; y < rows; y++) {
        if (sx == 1)
            emu_copy_f32(plane + y * sy, band + y * w, w, stream);
        else
            for (int64_t x = 0; x < w; x++)
                plane[y * sy + x * sx] = band[y * w + x];
    }
}

/* Step 1: every box's geometry (bad boxes get image -1 and are skipped). */
static void box_geometries(const roi_plan *p, const emu_view *boxes, int64_t nk, box_geom *geo,
                           roi_backward_report *report)
{
    const float *bx = nk ? (const float *)boxes->data + boxes->offset : NULL;
    for (int64_t k = 0; k < nk; k++) {
        bool no_sample;
        geo[k] = box_geometry(p, bx + k * boxes->strides[0], boxes->strides[1], &no_sample);
        if (no_sample && report->no_sample++ == 0)
            report->first_no_sample = k;
    }
}

/* Boxes of an image are applied in stripes of 32 rows, left to right within
 * a stripe (ties in index order): consecutive boxes then overlap, and their
 * rows are still in L1. A fixed order, whatever the thread count. */
typedef struct box_key {
    int64_t key, kk;
} box_key;

static int key_cmp(const void *a, const void *b)
{
    const box_key *x = a, *y = b;
    return x->key != y->key ? (x->key < y->key ? -1 : 1) : (x->kk < y->kk ? -1 : x->kk > y->kk);
}

typedef struct chunk_images {
    const box_geom *geo;
    int64_t k0;
} chunk_images;

static int64_t chunk_image_of(const void *ctx, int64_t kk)
{
    const chunk_images *c = ctx;
    return c->geo[c->k0 + kk].image;
}

/* Step 2: the next chunk of boxes from k0 whose weights fit the chunk limits;
 * its bin ranges, weight offsets, cost choice and image grouping (serial:
 * prefix sums), in the booked buffers. box_bins holds one box's bins. */
static bool chunk_plan(const roi_plan *p, const box_geom *geo, int64_t k0, int64_t nk, bin_weights *box_bins,
                       chunk *ch)
{
    const int64_t nbins = roi_bins(p), B = p->batch;
    int64_t weights = 0, k1 = k0;
    while (k1 < nk && (k1 == k0 || (k1 - k0 + 1) * nbins <= CHUNK_MAX_BINS)) {
        int64_t need = box_ranges(p, &geo[k1], box_bins);
        if (k1 > k0 && weights + need > CHUNK_MAX_WEIGHTS)
            break;
        weights += need;
        k1++;
    }
    *ch = (chunk){.k0 = k0, .k1 = k1};
    const int64_t nb = k1 - k0;
    const emu_scratch *s = &p->scratch;
    ch->bins = emu_scratch_get(s, ROI_SCRATCH_BINS, (size_t)(nb * nbins) * sizeof *ch->bins);
    ch->pool = emu_scratch_get(s, ROI_SCRATCH_WEIGHTS, (size_t)weights * sizeof *ch->pool);
    ch->separable = emu_scratch_get(s, ROI_SCRATCH_SEPARABLE, (size_t)nb * sizeof *ch->separable);
    ch->order = emu_scratch_get(s, ROI_SCRATCH_ORDER, (size_t)nb * sizeof *ch->order);
    ch->img_first = emu_scratch_get(s, ROI_SCRATCH_FIRST, (size_t)(B + 1) * sizeof *ch->img_first);
    box_key *keys = emu_scratch_get(s, ROI_SCRATCH_KEYS, (size_t)nb * sizeof *keys);
    if ((nb && (!ch->bins || !ch->separable || !ch->order || !keys)) || (weights && !ch->pool) || !ch->img_first)
        return false;
    int64_t off = 0;
    for (int64_t kk = 0; kk < nb; kk++) {
        bin_weights *b = ch->bins + kk * nbins;
        int64_t need = box_ranges(p, &geo[k0 + kk], b);
        for (int64_t i = 0; i < nbins; i++)
            b[i].off += off;
        off += need;
        ch->separable[kk] = prefer_separable(p, b);
    }
    roi_group_by_image(nb, B, chunk_image_of, &(chunk_images){geo, k0}, ch->img_first, ch->order);
    const int64_t placed = ch->img_first[B]; /* boxes on an image */
    for (int64_t i = 0; i < placed; i++) {
        const bin_weights *bw = ch->bins + ch->order[i] * nbins;
        keys[i] = (box_key){(bw[0].first >> 5) * ((int64_t)1 << 32) + bw[p->pooled_h].first, ch->order[i]};
    }
    for (int64_t b = 0; b < B; b++)
        if (ch->img_first[b + 1] - ch->img_first[b] > 1)
            qsort(keys + ch->img_first[b], (size_t)(ch->img_first[b + 1] - ch->img_first[b]), sizeof *keys, key_cmp);
    for (int64_t i = 0; i < placed; i++)
        ch->order[i] = keys[i].kk;
    return true;
}

/* Step 3: the per-axis weights of every bin of the chunk (parallel over boxes). */
static int chunk_weights(const roi_plan *p, const box_geom *geo, chunk *ch)
{
    const int64_t H = p->height, W = p->width, PH = p->pooled_h, nbins = PH + p->pooled_w;
    const int64_t nb = ch->k1 - ch->k0;
    int status = 0;
#pragma omp parallel num_threads(p->threads)
    {
        double *acc = emu_scratch_get(&p->scratch, ROI_SCRATCH_THREAD_A, (size_t)((H > W ? H : W) + 1) * sizeof *acc);
        if (!acc) {
#pragma omp atomic write
            status = EMU_KERNEL_ERR_INNER;
        }
#pragma omp for schedule(dynamic, 16)
        for (int64_t kk = 0; kk < nb; kk++) {
            const box_geom *g = &geo[ch->k0 + kk];
            if (g->image < 0 || !acc)
                continue;
            const bin_weights *b = ch->bins + kk * nbins;
            for (int64_t i = 0; i < nbins; i++) {
                if (!b[i].len)
                    continue;
                const axis_range r = {0, 0, b[i].first, b[i].len};
                float *w = ch->pool + b[i].off;
                if (i < PH)
                    bin_weights_of(&g->y, i, H, &r, w, acc);
                else
                    bin_weights_of(&g->x, i - PH, W, &r, w, acc);
                for (int64_t j = b[i].len; j < padded8(b[i].len); j++)
                    w[j] = 0.0f;
            }
        }
    }
    return status;
}

/* Channels a task updates together, and the bytes of the band of their rows
 * it keeps in its cache before writing them out once (R1: four whole
 * 200 x 304 planes). */
#define BAND_CHANNELS 4
#define BAND_BYTES ((int64_t)1 << 20)

/* Rows of gradInput a band holds, and the bytes of its scratch rows. */
static int64_t band_rows_of(const roi_plan *p)
{
    const int64_t row_bytes = BAND_CHANNELS * p->width * (int64_t)sizeof(float), fit = BAND_BYTES / row_bytes;
    return fit < 1 ? 1 : fit > p->height ? p->height : fit;
}

static size_t band_tmp_bytes(const roi_plan *p)
{
    return (size_t)(BAND_CHANNELS * (p->width + 16)) * sizeof(float);
}

/* Step 4: the chunk's boxes scattered into gradInput, one task per (image,
 * block of BAND_CHANNELS channels), a band of rows at a time: each band is
 * built in a scratch buffer (zeroed for the first chunk, loaded for later
 * ones) and stored once, streamed past the caches when gradInput is far
 * larger than them. */
static int chunk_scatter(const roi_plan *p, const chunk *ch, const emu_view *grad_output,
                         const emu_view *grad_input, bool first_chunk)
{
    const int64_t C = p->channels, H = p->height, W = p->width, B = p->batch;
    float *gi = (float *)grad_input->data + grad_input->offset;
    const int64_t gi_sb = grad_input->strides[0], gi_sc = grad_input->strides[1];
    const int64_t gi_sy = grad_input->strides[2], gi_sx = grad_input->strides[3];
    const bool any = ch->k1 > ch->k0;
    const float *go = any ? (const float *)grad_output->data + grad_output->offset : NULL;
    const int64_t go_sk = grad_output->strides[0], go_sc = grad_output->strides[1];
    const int64_t go_sh = grad_output->strides[2], go_sw = grad_output->strides[3];
    const int64_t band_h = band_rows_of(p);
    const int64_t blocks = (C + BAND_CHANNELS - 1) / BAND_CHANNELS;
    const bool stream = emu_view_numel(grad_input) * (int64_t)sizeof(float) >= emu_stream_bytes();
    int status = 0;
#pragma omp parallel num_threads(p->threads)
    {
        band bd = {.w = W, .plane = band_h * W, .tmp_stride = W + 16};
        bd.tmp = emu_scratch_get(&p->scratch, ROI_SCRATCH_THREAD_B, band_tmp_bytes(p));
        bd.data = emu_scratch_get(&p->scratch, ROI_SCRATCH_THREAD_C, (size_t)(BAND_CHANNELS * bd.plane) * sizeof(float));
        const bool block = bd.tmp && bd.data;
        if (!block) {
#pragma omp atomic write
            status = EMU_KERNEL_ERR_INNER;
        }
#pragma omp for schedule(dynamic, 1)
        for (int64_t t = 0; t < B * blocks; t++) {
            const int64_t b = t / blocks, c0 = t % blocks * BAND_CHANNELS;
            const bool boxes = ch->img_first[b + 1] > ch->img_first[b];
            if (!block || (!first_chunk && !boxes))
                continue;
            bd.nc = C - c0 < BAND_CHANNELS ? C - c0 : BAND_CHANNELS;
            for (bd.y0 = 0; bd.y0 < H; bd.y0 += band_h) {
                const int64_t rows = H - bd.y0 < band_h ? H - bd.y0 : band_h;
                bd.y1 = bd.y0 + rows;
                for (int64_t c = 0; c < bd.nc; c++) {
                    const float *plane = gi + b * gi_sb + (c0 + c) * gi_sc + bd.y0 * gi_sy;
                    if (first_chunk)
                        memset(bd.data + c * bd.plane, 0, (size_t)(rows * W) * sizeof(float));
                    else
                        band_load(bd.data + c * bd.plane, plane, rows, W, gi_sy, gi_sx);
                }
                if (boxes)
                    scatter_band(p, ch, b, go + c0 * go_sc, go_sk, go_sc, go_sh, go_sw, &bd);
                for (int64_t c = 0; c < bd.nc; c++)
                    band_store(gi + b * gi_sb + (c0 + c) * gi_sc + bd.y0 * gi_sy, bd.data + c * bd.plane, rows, W,
                               gi_sy, gi_sx, stream);
            }
        }
        emu_stream_fence();
    }
    return status;
}

int roi_align_v2_backward_kernel(const emu_view *grad_output, const emu_view *boxes, const emu_view *grad_input,
                                 const roi_plan *p, roi_backward_report *report, char *msg, size_t cap)
{
    if (p->reference)
        return roi_reference_backward(grad_output, boxes, grad_input, p, report, msg, cap);
    *report = (roi_backward_report){.first_no_sample = -1};
    if (emu_view_numel(grad_input) == 0)
        return 0;
    const bool any_boxes = emu_view_numel(grad_output) > 0 && emu_view_numel(boxes) > 0;
    const int64_t nk = any_boxes ? p->boxes : 0;
    if (nk == 0) { /* nothing to scatter: gradInput is zeros (its booking is empty) */
        emu_view_fill_bytes(grad_input, 0);
        return 0;
    }
    const emu_scratch *s = &p->scratch;
    box_geom *geo = emu_scratch_get(s, ROI_SCRATCH_GEOMETRY, (size_t)nk * sizeof *geo);
    bin_weights *box_bins = emu_scratch_get(s, ROI_SCRATCH_BOX_BINS,
                                            (size_t)roi_bins(p) * sizeof *box_bins);
    if ((nk && !geo) || !box_bins)
        return snprintf(msg, cap, "aclnnRoiAlignV2Backward: the box table was not booked"), EMU_KERNEL_ERR_INNER;
    box_geometries(p, boxes, nk, geo, report);
    /* The work bound (as the forward's), before gradInput is touched: each
     * box updates the pixels its bins cover, rows times columns, per channel. */
    emu_roi_budget budget = {.channel_units = (double)((p->channels + 15) / 16),
                             .unit_name = "channel blocks of 16",
                             .counted = "pixel updates",
                             .limit = EMU_ROI_MAX_PIXELS};
    for (int64_t k = 0; k < nk; k++) {
        if (geo[k].image < 0)
            continue;
        box_ranges(p, &geo[k], box_bins);
        int64_t rows = 0, cols = 0;
        for (int64_t i = 0; i < roi_bins(p); i++)
            *(i < p->pooled_h ? &rows : &cols) += box_bins[i].len;
        emu_roi_budget_add(&budget, k, rows, cols, 1, 1);
    }
    int status = emu_roi_budget_check(&budget, "aclnnRoiAlignV2Backward", msg, cap);
    if (status)
        return status;
    /* One pass per chunk of boxes; the first also zeroes gradInput (even with no boxes). */
    for (int64_t k0 = 0; !status && (k0 == 0 || k0 < nk);) {
        chunk ch;
        if (!chunk_plan(p, geo, k0, nk, box_bins, &ch)) {
            status = EMU_KERNEL_ERR_INNER;
            break;
        }
        status = chunk_weights(p, geo, &ch);
        if (!status)
            status = chunk_scatter(p, &ch, grad_output, grad_input, k0 == 0);
        k0 = ch.k1 > k0 ? ch.k1 : nk + 1;
    }
    if (status)
        snprintf(msg, cap, "aclnnRoiAlignV2Backward: the box weights were not booked");
    return status;
}

void roi_book_backward(roi_plan *p, bool any_boxes)
{
    emu_scratch *s = &p->scratch;
    *s = (emu_scratch){0};
    if (p->reference || !any_boxes)
        return; /* the reference kernel takes no scratch; without boxes the kernel only zeroes gradInput */
    const size_t nbins = (size_t)roi_bins(p), nb = (size_t)chunk_boxes_most(p);
    emu_scratch_book(s, ROI_SCRATCH_GEOMETRY, (size_t)p->boxes, sizeof(box_geom), false);
    emu_scratch_book(s, ROI_SCRATCH_BOX_BINS, nbins, sizeof(bin_weights), false);
    emu_scratch_book(s, ROI_SCRATCH_BINS, nb * nbins, sizeof(bin_weights), false);
    /* A chunk's weights: up to CHUNK_MAX_WEIGHTS, or one box's (each bin at most its axis, padded). */
    const double box = (double)p->pooled_h * (double)padded8(p->height) + (double)p->pooled_w * (double)padded8(p->width);
    double weights = (double)nb * box;
    weights = weights < (double)CHUNK_MAX_WEIGHTS ? weights : box > (double)CHUNK_MAX_WEIGHTS ? box : (double)CHUNK_MAX_WEIGHTS;
    emu_scratch_book(s, ROI_SCRATCH_WEIGHTS, weights < 0x1p60 ? (size_t)weights : SIZE_MAX, sizeof(float), false);
    emu_scratch_book(s, ROI_SCRATCH_SEPARABLE, nb, sizeof(bool), false);
    emu_scratch_book(s, ROI_SCRATCH_ORDER, nb, sizeof(int64_t), false);
    emu_scratch_book(s, ROI_SCRATCH_KEYS, nb, sizeof(box_key), false);
    emu_scratch_book(s, ROI_SCRATCH_FIRST, (size_t)p->batch + 1, sizeof(int64_t), false);
    const size_t longest = (size_t)(p->height > p->width ? p->height : p->width) + 1;
    emu_scratch_book(s, ROI_SCRATCH_THREAD_A, longest, sizeof(double), true);
    emu_scratch_book(s, ROI_SCRATCH_THREAD_B, band_tmp_bytes(p), 1, true);
    emu_scratch_book(s, ROI_SCRATCH_THREAD_C, (size_t)(BAND_CHANNELS * band_rows_of(p) * p->width), sizeof(float), true);
}
