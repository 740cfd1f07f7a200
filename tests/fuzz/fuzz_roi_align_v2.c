/*
 * libFuzzer target: aclnnRoiAlignV2 (and, built from fuzz_roi_align.c with
 * ROI_ALIGN_ONNX, aclnnRoiAlign) through the public API, with boxes full of
 * NaN, infinities, huge and negative coordinates and image ids, and sampling
 * ratios from 0 to 2^62. Any status is fine; a crash, a sanitizer report, a
 * hang (-timeout), a write outside out's view or a leaked handle is a bug.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#ifdef ROI_ALIGN_ONNX
#include "aclnnop/aclnn_roi_align.h"
#define BOX_COLS 4
#else
#include "aclnnop/aclnn_roi_align_v2.h"
#define BOX_COLS 5
#endif
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    init_runtime_once();
    uint64_t live = aclnnEmuLiveHandles();
    reader r = {data, size};
    static const aclDataType dtypes[] = {ACL_FLOAT, ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_INT32};
    static const aclFormat formats[] = {ACL_FORMAT_NCHW, ACL_FORMAT_NCHW, ACL_FORMAT_ND, ACL_FORMAT_NHWC};
    static const float scales[] = {1.0f, 0.5f, 0.25f, 0.0625f, 0.0f, -1.0f, NAN, 1e-39f, 4.0f, 1e20f};
    /* Fixed counts up to 100 (1,000 would be legitimate work beyond -timeout in the instrumented build:
     * 8 boxes of a million samples; the library bounds work, not time). */
    static const int64_t ratios[] = {0, 0, 1, 2, 3, -1, 100, (int64_t)1 << 40, (int64_t)1 << 62, 7};
    const aclDataType dt = dtypes[take(&r, 1) % 5];
    int64_t b = take_range(&r, 0, 3), c = take_range(&r, 0, 4), h = take_range(&r, 0, 24), w = take_range(&r, 0, 24);
    int64_t k = take_range(&r, 0, 8), ph = take_range(&r, 0, 7), pw = take_range(&r, 0, 7);
    const float scale = scales[take(&r, 1) % 10];
    const int64_t ratio = ratios[take(&r, 1) % 10];
    const bool flag = take(&r, 1) & 1; /* aligned, or mode "max" */
    int64_t xdims[4] = {b, c, h, w}, bdims[2] = {k, BOX_COLS}, odims[4] = {k, c, ph, pw}, idims[1] = {k};
    if (take(&r, 1) % 10 == 0)
        odims[take(&r, 1) % 4] += 1;
    if (take(&r, 1) % 10 == 0)
        bdims[take(&r, 1) % 2] += 1;

    ftensor x, bx, o, ix;
    make_tensor(&r, &x, xdims, 4, dt, formats[take(&r, 1) % 8 == 0 ? take(&r, 1) % 4 : 0], 0, 1.0f);
    make_tensor(&r, &bx, bdims, 2, take(&r, 1) % 10 == 0 ? ACL_FLOAT16 : dt,
                take(&r, 1) % 10 == 0 ? ACL_FORMAT_NCHW : ACL_FORMAT_ND, 0, 0.05f);
    make_tensor(&r, &o, odims, 4, take(&r, 1) % 12 == 0 ? ACL_FLOAT16 : dt,
                formats[take(&r, 1) % 8 == 0 ? take(&r, 1) % 4 : 0], 1, 0);
    make_tensor(&r, &ix, idims, 1, take(&r, 1) % 10 == 0 ? ACL_FLOAT : ACL_INT32, ACL_FORMAT_ND, 0, 0.05f);
    uint64_t ws = 0;
    aclOpExecutor *ex = NULL;
#ifdef ROI_ALIGN_ONNX
    static const char *const modes[] = {"avg", "max", "avg", "sum", NULL};
    const char *mode = take(&r, 1) % 6 == 0 ? modes[2 + take(&r, 1) % 3] : modes[flag];
    aclnnStatus st = aclnnRoiAlignGetWorkspaceSize(x.t, bx.t, ix.t, mode, (int)ph, (int)pw, (int)ratio, scale, o.t,
                                                   &ws, &ex);
#else
    aclnnStatus st = aclnnRoiAlignV2GetWorkspaceSize(x.t, bx.t, ph, pw, scale, ratio, flag, o.t, &ws, &ex);
#endif
    if (st == ACLNN_SUCCESS) {
        void *own;
#ifdef ROI_ALIGN_ONNX
        st = aclnnRoiAlign(fuzz_workspace(ws, &own), ws, ex, NULL);
#else
        st = aclnnRoiAlignV2(fuzz_workspace(ws, &own), ws, ex, NULL);
#endif
        aclrtSynchronizeStream(NULL);
        if (own)
            aclrtFree(own);
    }
    if (!guard_intact(&o))
        abort();
    aclGetRecentErrMsg();
    free_tensor(&x);
    free_tensor(&bx);
    free_tensor(&o);
    free_tensor(&ix);
    if (aclnnEmuLiveHandles() != live)
        abort();
    return 0;
}
