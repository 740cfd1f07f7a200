/*
 * libFuzzer target: aclnnRoiAlignV2Backward through the public API, with
 * boxes full of NaN, infinities, huge and negative coordinates and image ids,
 * and sampling ratios from 0 to 2^62. Bugs as in the upsample fuzzer; the
 * time bound (-timeout) must hold whatever the box values are.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include "aclnnop/aclnn_roi_align_v2_backward.h"
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    init_runtime_once();
    uint64_t live = aclnnEmuLiveHandles();
    reader r = {data, size};
    static const aclDataType dtypes[] = {ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE};
    static const aclFormat formats[] = {ACL_FORMAT_NCHW, ACL_FORMAT_NCHW, ACL_FORMAT_ND, ACL_FORMAT_NHWC};
    static const float scales[] = {1.0f, 0.5f, 0.25f, 0.0625f, 0.0f, -1.0f, NAN, 1e-39f, 4.0f, 1e20f};
    static const int64_t ratios[] = {0, 0, 1, 2, 3, -1, 1000, (int64_t)1 << 40, (int64_t)1 << 62, 7};
    const aclDataType dt = dtypes[take(&r, 1) % 5];
    int64_t b = take_range(&r, 0, 3), c = take_range(&r, 0, 4), h = take_range(&r, 0, 24), w = take_range(&r, 0, 24);
    int64_t k = take_range(&r, 0, 8), ph = take_range(&r, 0, 7), pw = take_range(&r, 0, 7);
    const float scale = scales[take(&r, 1) % 10];
    const int64_t ratio = ratios[take(&r, 1) % 10];
    const bool aligned = take(&r, 1) & 1;
    int64_t gdims[4] = {k, c, ph, pw}, bdims[2] = {k, 5}, idims[4] = {b, c, h, w}, shape[5] = {b, c, h, w, 1};
    if (take(&r, 1) % 10 == 0)
        gdims[take(&r, 1) % 4] += 1;
    if (take(&r, 1) % 10 == 0)
        bdims[take(&r, 1) % 2] += 1;
    if (take(&r, 1) % 10 == 0)
        idims[take(&r, 1) % 4] += 1;
    uint64_t shape_n = take(&r, 1) % 10 == 0 ? (uint64_t)take_range(&r, 3, 5) : 4;

    ftensor g, bx, gi;
    make_tensor(&r, &g, gdims, 4, dt, formats[take(&r, 1) % 8 == 0 ? take(&r, 1) % 4 : 0], 0, 0.01f);
    /* Box values: image ids around [0, B), coordinates around the image, plus the specials. */
    make_tensor(&r, &bx, bdims, 2, take(&r, 1) % 10 == 0 ? ACL_FLOAT16 : dt,
                take(&r, 1) % 10 == 0 ? ACL_FORMAT_NCHW : ACL_FORMAT_ND, 0, 0.05f);
    make_tensor(&r, &gi, idims, 4, take(&r, 1) % 12 == 0 ? ACL_FLOAT16 : dt,
                formats[take(&r, 1) % 8 == 0 ? take(&r, 1) % 4 : 0], 1, 0);
    aclIntArray *shp = aclCreateIntArray(shape, shape_n);
    uint64_t ws = 0;
    aclOpExecutor *ex = NULL;
    aclnnStatus st = aclnnRoiAlignV2BackwardGetWorkspaceSize(g.t, bx.t, shp, ph, pw, scale, ratio, aligned, gi.t, &ws,
                                                             &ex);
    if (st == ACLNN_SUCCESS) {
        void *own;
        st = aclnnRoiAlignV2Backward(fuzz_workspace(ws, &own), ws, ex, NULL);
        aclrtSynchronizeStream(NULL);
        if (own)
            aclrtFree(own);
    }
    if (!guard_intact(&gi))
        abort();
    aclGetRecentErrMsg();
    free_tensor(&g);
    free_tensor(&bx);
    free_tensor(&gi);
    aclDestroyIntArray(shp);
    if (aclnnEmuLiveHandles() != live)
        abort();
    return 0;
}
