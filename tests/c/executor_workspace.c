/*
 * The executor framework's workspace checks, through a test-only operator
 * that asks for a workspace (neither public operator needs one). Linked
 * against the library's objects, so it stays out of the public API.
 */
#include <stdio.h>
#include <string.h>

#include "expect.h"
#include "meta/meta.h"

static const char *const NAMES[] = {"x", "y"};

static int run_fill(const emu_launch *l, char *msg, size_t cap)
{
    (void)msg;
    (void)cap;
    /* Uses the workspace, then writes 7 into y. */
    memset(l->workspace, 0xab, l->workspace_size);
    float *y = (float *)l->tensors[1].data + l->tensors[1].offset;
    y[0] = 7.0f;
    return 0;
}

static const emu_op_def OP = {.name = "aclnnEmuTestFill", .tensor_names = NAMES, .n_inputs = 1, .n_outputs = 1,
                              .run = run_fill};


static aclOpExecutor *plan(aclTensor *x, aclTensor *y)
{
    const aclTensor *t[] = {x, y};
    uint64_t ws = 0;
    aclOpExecutor *ex = NULL;
    expect(emu_executor_create(&OP, t, NULL, 0, 256, "", &ws, &ex), 0, NULL, "create");
    expect((int)ws, 256, NULL, "workspace size");
    return ex;
}

int main(void)
{
    aclInit(NULL);
    aclrtSetDevice(0);
    void *xd, *yd, *ws;
    aclrtMalloc(&xd, 64, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&yd, 64, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&ws, 256, ACL_MEM_MALLOC_HUGE_FIRST);
    int64_t d[1] = {4};
    aclTensor *x = aclCreateTensor(d, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, d, 1, xd);
    aclTensor *y = aclCreateTensor(d, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, d, 1, yd);

    expect(emu_executor_launch(&OP, NULL, 256, plan(x, y), NULL), ACLNN_ERR_PARAM_NULLPTR,
           "workspace is NULL but phase one asked for 256 bytes", "NULL workspace");
    expect(emu_executor_launch(&OP, ws, 255, plan(x, y), NULL), ACLNN_ERR_PARAM_INVALID,
           "workspaceSize 255 is smaller than the 256 bytes phase one asked for", "small workspace");
    aclOpExecutor *ex = plan(x, y);
    expect(aclSetAclOpExecutorRepeatable(ex), 0, NULL, "repeatable");
    expect(emu_executor_launch(&OP, ws, 255, ex, NULL), ACLNN_ERR_PARAM_INVALID, "smaller", "small (repeatable)");
    expect(emu_executor_launch(&OP, ws, 512, ex, NULL), 0, NULL, "a larger claim is fine (the op uses 256)");
    char *inner = (char *)ws + 128;
    expect(emu_executor_launch(&OP, inner, 256, ex, NULL), ACLNN_ERR_PARAM_INVALID,
           "runs past the end of its 256-byte block", "workspace past its block");
    expect(aclrtSynchronizeStream(NULL), 0, NULL, "sync");
    float y0 = 0;
    aclrtMemcpy(&y0, sizeof y0, yd, sizeof y0, ACL_MEMCPY_DEVICE_TO_HOST);
    if (y0 != 7.0f) {
        printf("FAIL run: y[0] = %g\n", (double)y0);
        fails++;
    }
    expect(aclDestroyAclOpExecutor(ex), 0, NULL, "destroy");

    aclDestroyTensor(x);
    aclDestroyTensor(y);
    aclrtFree(xd);
    aclrtFree(yd);
    aclrtFree(ws);
    aclrtResetDevice(0);
    expect(aclFinalize(), 0, NULL, "finalize without leaks");
    printf("%s\n", fails ? "FAILED" : "all OK");
    return fails ? 1 : 0;
}
