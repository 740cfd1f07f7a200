/*
 * Misuse that must never corrupt memory (issue 21), one scenario per argv[1]:
 *   launch_race   two threads released together launch one single-use executor
 *   destroy_race  one thread launches an executor while another destroys it
 *   repeat_race   two threads launch one repeatable executor, then one destroys it while the other launches
 *   freed_memory  copies, memsets and operators on memory aclrtFree/aclrtFreeHost released
 *   host_overrun  a tensor over malloc'd memory whose view reaches past the allocation
 *   cache_blocks  aclnnEmuCacheAlloc sizes that overflow, and a double aclnnEmuCacheFree
 * Each race runs ITERATIONS times; the sanitized builds (ASan+UBSan, TSan) run
 * every scenario (meson suite "concurrency").
 */
#include <malloc.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnn_emu/aclnn_emu.h"
#include "aclnnop/aclnn_upsample_bilinear_2d_backward_v2.h"
#include "expect.h"

#define ITERATIONS 1000

static void *dev_alloc(size_t bytes)
{
    void *p = NULL;
    if (aclrtMalloc(&p, bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS || aclrtMemset(p, bytes, 0, bytes))
        exit(90);
    return p;
}

/* A 1x1x4x4 -> 1x1x2x2 upsample backward over grad and out (64 and 16 bytes); workspace in *ws. */
static aclOpExecutor *plan(void *grad, void *out, uint64_t *ws)
{
    int64_t gs[4] = {1, 1, 4, 4}, os[4] = {1, 1, 2, 2}, osize[2] = {4, 4};
    aclTensor *g = aclCreateTensor(gs, 4, ACL_FLOAT, NULL, 0, ACL_FORMAT_NCHW, gs, 4, grad);
    aclTensor *o = aclCreateTensor(os, 4, ACL_FLOAT, NULL, 0, ACL_FORMAT_NCHW, os, 4, out);
    aclIntArray *out_size = aclCreateIntArray(osize, 2), *in_size = aclCreateIntArray(os, 4);
    aclOpExecutor *ex = NULL;
    int st = aclnnUpsampleBilinear2dBackwardV2GetWorkspaceSize(g, out_size, in_size, false, 0.0, 0.0, o, ws, &ex);
    aclDestroyTensor(g);
    aclDestroyTensor(o);
    aclDestroyIntArray(out_size);
    aclDestroyIntArray(in_size);
    if (st)
        exit(91);
    return ex;
}

typedef struct racer {
    pthread_barrier_t *start;
    aclOpExecutor *ex;
    void *ws;
    uint64_t ws_size;
    bool destroy; /* destroy instead of launching */
    int status;
    char msg[512];
} racer;

static void *race(void *arg)
{
    racer *r = arg;
    pthread_barrier_wait(r->start);
    r->status = r->destroy ? aclDestroyAclOpExecutor(r->ex)
                           : aclnnUpsampleBilinear2dBackwardV2(r->ws, r->ws_size, r->ex, NULL);
    snprintf(r->msg, sizeof r->msg, "%s", aclGetRecentErrMsg());
    return NULL;
}

/* Runs a and b released together; both threads bind the device first. */
static void *bound(void *arg)
{
    aclrtSetDevice(0);
    return race(arg);
}

static void run_pair(racer *a, racer *b)
{
    pthread_t ta, tb;
    pthread_create(&ta, NULL, bound, a);
    pthread_create(&tb, NULL, bound, b);
    pthread_join(ta, NULL);
    pthread_join(tb, NULL);
}

/* Exactly one of two racers on a single-use executor succeeds; the other is told it was used up or destroyed. */
static void one_winner(const racer *a, const racer *b, const char *what)
{
    const racer *loser = a->status == 0 ? b : a;
    if ((a->status == 0) == (b->status == 0) || loser->status != ACLNN_ERR_PARAM_INVALID ||
        !strstr(loser->msg, "used up or destroyed")) {
        printf("FAIL %s: statuses %d and %d, loser's message \"%s\"\n", what, a->status, b->status, loser->msg);
        fails++;
    }
}

/* The memory every race iteration's executor uses, and the barrier that releases two racers together. */
typedef struct arena {
    void *grad, *out, *ws;
    uint64_t ws_size;
    pthread_barrier_t start;
} arena;

static void arena_open(arena *m)
{
    *m = (arena){.grad = dev_alloc(64), .out = dev_alloc(16)};
    aclDestroyAclOpExecutor(plan(m->grad, m->out, &m->ws_size));
    if (m->ws_size && aclrtMalloc(&m->ws, m->ws_size, ACL_MEM_MALLOC_HUGE_FIRST))
        exit(92);
    pthread_barrier_init(&m->start, NULL, 2);
}

static void arena_close(arena *m)
{
    pthread_barrier_destroy(&m->start);
    expect(aclrtSynchronizeDevice(), ACL_SUCCESS, NULL, "synchronise");
    aclrtFree(m->grad);
    aclrtFree(m->out);
    if (m->ws)
        aclrtFree(m->ws);
}

static racer racer_of(arena *m, aclOpExecutor *ex)
{
    return (racer){.start = &m->start, .ex = ex, .ws = m->ws, .ws_size = m->ws_size};
}

static void races(bool destroy)
{
    arena m;
    arena_open(&m);
    for (int i = 0; i < ITERATIONS && !fails; i++) {
        uint64_t size = 0;
        aclOpExecutor *ex = plan(m.grad, m.out, &size);
        racer a = racer_of(&m, ex), b = a;
        b.destroy = destroy;
        run_pair(&a, &b);
        one_winner(&a, &b, destroy ? "launch racing destroy" : "two launches");
        /* Whoever won, the executor is gone now: any later use is reported. */
        expect(aclDestroyAclOpExecutor(ex), ACLNN_ERR_PARAM_INVALID, "used up or destroyed", "destroy after race");
    }
    arena_close(&m);
}

static void repeat_race(void)
{
    arena m;
    arena_open(&m);
    for (int i = 0; i < ITERATIONS && !fails; i++) {
        uint64_t size = 0;
        aclOpExecutor *ex = plan(m.grad, m.out, &size);
        expect(aclSetAclOpExecutorRepeatable(ex), ACLNN_SUCCESS, NULL, "repeatable");
        racer a = racer_of(&m, ex), b = a;
        run_pair(&a, &b);
        ok(a.status == 0 && b.status == 0, "two launches of a repeatable executor both run");
        b.destroy = true;
        run_pair(&a, &b);
        ok(b.status == 0, "destroy of a repeatable executor racing a launch succeeds");
        ok(a.status == 0 || (a.status == ACLNN_ERR_PARAM_INVALID && strstr(a.msg, "used up or destroyed")),
           "a launch racing the destroy runs before it or is told the executor is gone");
    }
    arena_close(&m);
}

static void freed_memory(void)
{
    const int freed = ACL_ERROR_RT_PARAM_INVALID; /* CANN's driver: an invalid value */
    float host[16] = {0};
    void *p = dev_alloc(64), *q = dev_alloc(64);
    expect(aclrtFree(p), ACL_SUCCESS, NULL, "free");
    expect(aclrtMemcpy(p, 64, host, 64, ACL_MEMCPY_HOST_TO_DEVICE), freed, "device memory that was freed", "H2D to freed");
    expect(aclrtMemcpy(host, 64, p, 64, ACL_MEMCPY_DEVICE_TO_HOST), freed, "use after free", "D2H from freed");
    expect(aclrtMemcpy((char *)p + 16, 8, host, 8, ACL_MEMCPY_HOST_TO_DEVICE), freed, "freed", "inside freed");
    expect(aclrtMemset(p, 64, 0, 64), freed, "freed", "memset of freed");
    expect(aclrtMemsetAsync(p, 64, 0, 64, NULL), freed, "freed", "async memset of freed");
    expect(aclrtMemcpyAsync(p, 64, q, 64, ACL_MEMCPY_DEVICE_TO_DEVICE, NULL), freed, "freed", "async copy to freed");
    expect(aclrtMemcpy2d(p, 16, host, 16, 16, 4, ACL_MEMCPY_HOST_TO_DEVICE), freed, "freed", "2-D copy to freed");
    expect(aclrtFree(p), freed, "already freed (double free)", "double free");
    /* An operator whose output lies in the freed block (planned while it was live). */
    uint64_t ws_size = 0;
    void *out = dev_alloc(16);
    aclOpExecutor *ex = plan(q, out, &ws_size);
    void *ws = ws_size ? dev_alloc(ws_size) : NULL;
    expect(aclrtFree(out), ACL_SUCCESS, NULL, "free the output");
    expect(aclnnUpsampleBilinear2dBackwardV2(ws, ws_size, ex, NULL), ACLNN_ERR_PARAM_INVALID,
           "lies in device memory that was freed", "operator on freed output");
    /* aclrtMallocHost memory, freed. */
    void *h = NULL;
    expect(aclrtMallocHost(&h, 256), ACL_SUCCESS, NULL, "host malloc");
    expect(aclrtFreeHost(h), ACL_SUCCESS, NULL, "host free");
    expect(aclrtMemcpy(h, 64, host, 64, ACL_MEMCPY_HOST_TO_HOST), freed, "host memory that was freed", "freed host");
    expect(aclrtFreeHost(h), freed, "already freed", "double host free");
    /* A new allocation may take the freed block again: then it is live memory. */
    void *again = dev_alloc(64);
    expect(aclrtMemcpy(again, 64, host, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS, NULL, "copy to a new block");
    aclrtFree(again);
    aclrtFree(q);
    if (ws)
        aclrtFree(ws);
}

static void host_overrun(void)
{
    int64_t gs[4] = {1, 1, 8, 8}, os[4] = {1, 1, 4, 4}, osize[2] = {8, 8};
    aclIntArray *out_size = aclCreateIntArray(osize, 2), *in_size = aclCreateIntArray(os, 4);
    float *grad = calloc(64, sizeof *grad);
    char *out = malloc(24); /* out needs 64 bytes */
    ok(grad && out && malloc_usable_size(out) < 64, "a host allocation smaller than the view");
    aclTensor *g = aclCreateTensor(gs, 4, ACL_FLOAT, NULL, 0, ACL_FORMAT_NCHW, gs, 4, grad);
    aclTensor *o = aclCreateTensor(os, 4, ACL_FLOAT, NULL, 0, ACL_FORMAT_NCHW, os, 4, out);
    uint64_t ws = 0;
    aclOpExecutor *ex = NULL;
    expect(aclnnUpsampleBilinear2dBackwardV2GetWorkspaceSize(g, out_size, in_size, false, 0.0, 0.0, o, &ws, &ex),
           ACLNN_SUCCESS, NULL, "plan over host memory");
    void *wsp = ws ? dev_alloc(ws) : NULL;
    expect(aclnnUpsampleBilinear2dBackwardV2(wsp, ws, ex, NULL), ACLNN_ERR_PARAM_INVALID,
           "out view reaches 40 bytes past the end of its 24-byte host allocation", "view past its malloc block");
    expect(aclrtSynchronizeDevice(), ACL_SUCCESS, NULL, "nothing ran");
    aclDestroyTensor(o);
    /* The same view over enough host memory runs (normal mode: a warning only). */
    float *big = malloc(64);
    o = aclCreateTensor(os, 4, ACL_FLOAT, NULL, 0, ACL_FORMAT_NCHW, os, 4, big);
    ex = NULL;
    expect(aclnnUpsampleBilinear2dBackwardV2GetWorkspaceSize(g, out_size, in_size, false, 0.0, 0.0, o, &ws, &ex),
           ACLNN_SUCCESS, NULL, "plan over enough host memory");
    const char *strict = getenv("ACLNN_EMU_STRICT");
    int want = strict && strcmp(strict, "1") == 0 ? ACLNN_ERR_PARAM_INVALID : ACLNN_SUCCESS;
    expect(aclnnUpsampleBilinear2dBackwardV2(wsp, ws, ex, NULL), want, NULL, "view inside its malloc block");
    expect(aclrtSynchronizeDevice(), ACL_SUCCESS, NULL, "synchronise");
    aclDestroyTensor(g);
    aclDestroyTensor(o);
    aclDestroyIntArray(out_size);
    aclDestroyIntArray(in_size);
    free(grad);
    free(out);
    free(big);
    if (wsp)
        aclrtFree(wsp);
}

static void cache_blocks(void)
{
    ok(aclnnEmuCacheAlloc(SIZE_MAX) == NULL, "SIZE_MAX is refused");
    ok(aclnnEmuCacheAlloc(SIZE_MAX - 63) == NULL, "SIZE_MAX - 63 (wraps with the header) is refused");
    ok(aclnnEmuCacheAlloc((size_t)PTRDIFF_MAX) == NULL, "PTRDIFF_MAX is refused");
    void *a = aclnnEmuCacheAlloc(1000);
    ok(a != NULL, "a small block");
    expect(aclnnEmuCacheFree(a), ACL_SUCCESS, NULL, "free");
    expect(aclnnEmuCacheFree(a), ACL_ERROR_INVALID_PARAM, "not a live block of aclnnEmuCacheAlloc", "double free");
    void *b = aclnnEmuCacheAlloc(1000), *c = aclnnEmuCacheAlloc(1000);
    ok(b && c && b != c, "after a double free, two allocations get two blocks");
    int local;
    expect(aclnnEmuCacheFree(&local), ACL_ERROR_INVALID_PARAM, "not a live block", "foreign pointer");
    aclnnEmuCacheFree(b);
    aclnnEmuCacheFree(c);
}

int main(int argc, char **argv)
{
    if (argc != 2)
        return 2;
    const char *s = argv[1];
    if (aclInit(NULL) || aclrtSetDevice(0))
        return 3;
    if (!strcmp(s, "launch_race"))
        races(false);
    else if (!strcmp(s, "destroy_race"))
        races(true);
    else if (!strcmp(s, "repeat_race"))
        repeat_race();
    else if (!strcmp(s, "freed_memory"))
        freed_memory();
    else if (!strcmp(s, "host_overrun"))
        host_overrun();
    else if (!strcmp(s, "cache_blocks"))
        cache_blocks();
    else
        return 2;
    aclrtResetDevice(0);
    aclFinalize();
    printf("%s: %s\n", s, fails ? "FAILED" : "ok");
    return fails != 0;
}
