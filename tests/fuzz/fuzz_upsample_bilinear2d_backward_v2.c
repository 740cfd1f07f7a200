/*
 * libFuzzer target: aclnnUpsampleBilinear2dBackwardV2 through the public API.
 * Any status is fine; a crash, a sanitizer report, a hang (-timeout), a
 * write outside out's view (guard band) or a leaked handle is a bug.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#ifndef PHASE_ONE /* fuzz_upsample_bilinear2d_backward.c reuses this target for V1 */
#include "aclnnop/aclnn_upsample_bilinear_2d_backward_v2.h"
#define PHASE_ONE aclnnUpsampleBilinear2dBackwardV2GetWorkspaceSize
#define PHASE_TWO aclnnUpsampleBilinear2dBackwardV2
#endif
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    init_runtime_once();
    uint64_t live = aclnnEmuLiveHandles();
    reader r = {data, size};
    static const aclDataType dtypes[] = {ACL_FLOAT, ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT32};
    static const aclFormat formats[] = {ACL_FORMAT_NCHW, ACL_FORMAT_NHWC, ACL_FORMAT_NCHW, ACL_FORMAT_ND};
    static const double scales[] = {0.0, 0.0, 2.0, 0.5, 1.0, -1.0, 1e-10, 1e12, NAN, INFINITY, 3.0, 1.5};
    const aclDataType dt = dtypes[take(&r, 1) % 6];
    const aclDataType out_dt = take(&r, 1) % 8 == 0 ? dtypes[take(&r, 1) % 6] : dt;
    const aclFormat fmt = formats[take(&r, 1) % 4];
    const int nhwc = fmt == ACL_FORMAT_NHWC;
    int64_t n = take_range(&r, 0, 3), c = take_range(&r, 0, 4), h = take_range(&r, 0, 20), w = take_range(&r, 0, 20);
    int64_t oh = take_range(&r, 0, 24), ow = take_range(&r, 0, 24);
    const bool align = take(&r, 1) & 1;
    const double sh = scales[take(&r, 1) % 12], sw = scales[take(&r, 1) % 12];
    int64_t in_size[5] = {n, nhwc ? h : c, nhwc ? w : h, nhwc ? c : w, 1};
    int64_t out_size[3] = {oh, ow, 1};
    uint64_t in_n = take(&r, 1) % 10 == 0 ? (uint64_t)take_range(&r, 3, 5) : 4;
    uint64_t out_n = take(&r, 1) % 10 == 0 ? (uint64_t)take_range(&r, 1, 3) : 2;
    /* gradOut's view: usually consistent with the sizes, sometimes not. */
    int64_t gdims[5] = {n, nhwc ? oh : c, nhwc ? ow : oh, nhwc ? c : ow, 2};
    uint64_t g_rank = take(&r, 1) % 12 == 0 ? (uint64_t)take_range(&r, 3, 5) : 4;
    if (take(&r, 1) % 8 == 0)
        gdims[take(&r, 1) % 4] += 1;
    int64_t odims[5] = {in_size[0], in_size[1], in_size[2], in_size[3], 1};
    if (take(&r, 1) % 8 == 0)
        odims[take(&r, 1) % 4] += 1;

    ftensor g, o;
    make_tensor(&r, &g, gdims, g_rank, dt, fmt, 0, 0.01f);
    make_tensor(&r, &o, odims, 4, out_dt, formats[take(&r, 1) % 8 == 0 ? take(&r, 1) % 4 : (nhwc ? 1 : 0)], 1, 0);
    aclIntArray *isz = aclCreateIntArray(in_size, in_n), *osz = aclCreateIntArray(out_size, out_n);
    uint64_t ws = 0;
    aclOpExecutor *ex = NULL;
    aclnnStatus st = PHASE_ONE(g.t, osz, isz, align, sh, sw, o.t, &ws, &ex);
    if (st == ACLNN_SUCCESS) {
        void *own;
        st = PHASE_TWO(fuzz_workspace(ws, &own), ws, ex, NULL);
        aclrtSynchronizeStream(NULL);
        if (own)
            aclrtFree(own);
    }
    if (!guard_intact(&o))
        abort(); /* a write outside out's view */
    aclGetRecentErrMsg();
    free_tensor(&g);
    free_tensor(&o);
    aclDestroyIntArray(isz);
    aclDestroyIntArray(osz);
    if (aclnnEmuLiveHandles() != live)
        abort(); /* a leaked handle */
    return 0;
}
