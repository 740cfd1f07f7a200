/*
 * The executor framework. An operator file supplies its checks (phase one),
 * an emu_op_def with a run function, and calls emu_executor_create /
 * emu_executor_launch; everything common to all operators lives here:
 * capturing tensors, workspace and stream checks, single-use and repeatable
 * executors, address rebinding, validation-mode pointer checks, logging.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "meta.h"

/* Callers on other threads may launch, rebind, mark or destroy one executor
 * at once: every use pins it in the registry (its memory outlives a racing
 * destroy), and mu orders the reads and writes of its fields. */
struct aclOpExecutor {
    pthread_mutex_t mu;
    bool repeatable;
    uint64_t generation; /* emu_config_generation() at phase one */
    emu_launch *plan; /* tensors and attributes as captured at phase one (workspace unset) */
};

static size_t launch_bytes(size_t params_size)
{
    return sizeof(emu_launch) + params_size;
}

static void executor_free(void *p)
{
    aclOpExecutor *ex = p;
    pthread_mutex_destroy(&ex->mu);
    free(ex->plan);
    free(ex);
}

/* Destroys an executor the caller has pinned: exactly one caller retires it
 * (its memory is quarantined when the last pin goes); the others learn that
 * it was already used up or destroyed. */
static int executor_retire(const char *api, aclOpExecutor *ex)
{
    emu_found f = emu_registry_release(ex, EMU_EXECUTOR, sizeof *ex + launch_bytes(ex->plan->params_size),
                                       executor_free);
    return emu_handle_error(f, ex, EMU_EXECUTOR, ACLNN_ERR_PARAM_INVALID, api, "executor");
}

/* Pins a live executor for the caller's use (0), or reports it (NULL, stale, foreign). */
static int executor_pin(const char *api, const aclOpExecutor *executor)
{
    emu_diag_api(api);
    if (!executor)
        return emu_error(ACLNN_ERR_PARAM_NULLPTR, api, "executor is NULL");
    return emu_handle_error(emu_registry_pin(executor, EMU_EXECUTOR), executor, EMU_EXECUTOR,
                            ACLNN_ERR_PARAM_INVALID, api, "executor");
}

int emu_executor_create(const emu_op_def *op, const aclTensor *const *tensors, const void *params,
                        size_t params_size, uint64_t workspace_size, const char *attrs, uint64_t *workspace_size_out,
                        aclOpExecutor **executor_out)
{
    char api[128];
    snprintf(api, sizeof api, "%sGetWorkspaceSize", op->name);
    size_t n = op->n_inputs + op->n_outputs;
    aclOpExecutor *ex = malloc(sizeof *ex);
    emu_launch *plan = calloc(1, launch_bytes(params_size));
    if (!ex || !plan) {
        free(ex);
        free(plan);
        return emu_error(ACLNN_ERR_INNER_CREATE_EXECUTOR, api, "out of memory creating the executor");
    }
    if (pthread_mutex_init(&ex->mu, NULL) != 0) {
        free(ex);
        free(plan);
        return emu_error(ACLNN_ERR_INNER_CREATE_EXECUTOR, api, "cannot create the executor's lock");
    }
    ex->repeatable = false;
    ex->generation = emu_config_generation();
    ex->plan = plan;
    plan->op = op;
    plan->workspace_size = workspace_size;
    plan->params_size = params_size;
    for (size_t i = 0; i < n; i++)
        plan->tensors[i] = *tensors[i];
    if (params_size)
        memcpy(plan->params, params, params_size);
    if (emu_registry_add(ex, EMU_EXECUTOR, op->name) != 0) {
        executor_free(ex);
        return emu_error(ACLNN_ERR_INNER_CREATE_EXECUTOR, api, "out of memory registering the executor");
    }
    *workspace_size_out = workspace_size;
    *executor_out = ex;
    if (emu_log_enabled(EMU_LOG_INFO)) {
        char line[1024], desc[192];
        size_t used = 0;
        for (size_t i = 0; i < n && used < sizeof line; i++) {
            emu_tensor_describe(tensors[i], false, desc, sizeof desc);
            int w = snprintf(line + used, sizeof line - used, " %s=%s", op->tensor_names[i], desc);
            used += w > 0 ? (size_t)w : 0;
        }
        emu_log(EMU_LOG_INFO, "%s%s %s -> 0 (ws=%llu)", api, line, attrs ? attrs : "",
                (unsigned long long)workspace_size);
    }
    return ACLNN_SUCCESS;
}

/* [lo, hi) bytes from a view's first to one past its last element; false when empty. */
static bool byte_span(const aclTensor *t, uintptr_t *lo, uintptr_t *hi)
{
    int64_t extent = emu_tensor_extent(t);
    if (extent == 0 || !t->data)
        return false;
    size_t item = emu_dtype_size(t->dtype);
    *lo = (uintptr_t)t->data + (size_t)t->offset * item;
    *hi = (uintptr_t)t->data + (size_t)extent * item;
    return true;
}

/* Where a tensor's bytes lie: an error (NULL, freed memory, past the end of
 * its block or of a host allocation the allocator can measure: running it
 * would touch memory that is not its own), or 0 with *unrecorded set when the
 * memory is in no recorded block (a validation-mode matter, checked later). */
static int check_one_tensor(const char *api, const aclTensor *t, const char *name, bool *unrecorded)
{
    *unrecorded = false;
    int64_t extent = emu_tensor_extent(t);
    if (extent == 0)
        return 0;
    if (!t->data)
        return emu_error(ACLNN_ERR_PARAM_NULLPTR, api, "%s has no data (NULL address)", name);
    size_t item = emu_dtype_size(t->dtype);
    const char *first = (const char *)t->data + (size_t)t->offset * item;
    size_t span = ((size_t)extent - (size_t)t->offset) * item;
    emu_block_info b;
    if (emu_mem_freed(first, span, &b))
        return emu_error(ACLNN_ERR_PARAM_INVALID, api,
                         "%s data [%p, +%zu) lies in %s memory that was freed (the %zu-byte block at %p; use after "
                         "free)",
                         name, (const void *)first, span, b.device ? "device" : "host", b.size, (void *)b.base);
    if (emu_mem_find(first, span, &b))
        return 0;
    if (emu_mem_find(first, 0, &b))
        return emu_error(ACLNN_ERR_PARAM_INVALID, api,
                         "%s view reaches %zu bytes past the end of its %zu-byte block at %p (offset %lld, "
                         "furthest element %lld)",
                         name, (size_t)(first + span - (const char *)(b.base + b.size)), b.size, (void *)b.base,
                         (long long)t->offset, (long long)extent - 1);
    size_t host_size;
    const size_t reach = (size_t)extent * item;
    if (emu_host_alloc_size(t->data, &host_size) && reach > host_size)
        return emu_error(ACLNN_ERR_PARAM_INVALID, api,
                         "%s view reaches %zu bytes past the end of its %zu-byte host allocation at %p (offset %lld, "
                         "furthest element %lld)",
                         name, reach - host_size, host_size, t->data, (long long)t->offset, (long long)extent - 1);
    *unrecorded = true;
    return 0;
}

/* The checks on the data pointers of one launch (they may have been rebound):
 * first what would touch memory out of bounds, in every mode, then the
 * validation-mode warnings. */
static int check_tensor_memory(const char *api, const emu_launch *l)
{
    size_t n = l->op->n_inputs + l->op->n_outputs;
    bool unrecorded[EMU_MAX_IO] = {0};
    for (size_t i = 0; i < n; i++) {
        int st = check_one_tensor(api, &l->tensors[i], l->op->tensor_names[i], &unrecorded[i]);
        if (st)
            return st;
    }
    for (size_t i = 0; i < n; i++) {
        int st = !unrecorded[i] ? 0
                                : emu_misuse(ACLNN_ERR_PARAM_INVALID, api,
                                             "%s data %p is not inside memory from aclrtMalloc (host memory passed "
                                             "as device memory?)",
                                             l->op->tensor_names[i], l->tensors[i].data);
        if (st)
            return st;
    }
    emu_block_info wb;
    if (l->workspace_size && emu_mem_freed(l->workspace, (size_t)l->workspace_size, &wb))
        return emu_error(ACLNN_ERR_PARAM_INVALID, api,
                         "workspace %p lies in memory that was freed (the %zu-byte block at %p; use after free)",
                         l->workspace, wb.size, (void *)wb.base);
    if (l->workspace_size && !emu_mem_find(l->workspace, (size_t)l->workspace_size, &wb) &&
        emu_mem_find(l->workspace, 0, &wb))
        return emu_error(ACLNN_ERR_PARAM_INVALID, api, "workspace %p + %llu bytes runs past the end of its %zu-byte block",
                         l->workspace, (unsigned long long)l->workspace_size, wb.size);
    /* These operators are not in-place: an output whose bytes overlap an
     * input's would be read while written, with results depending on timing. */
    for (size_t o = l->op->n_inputs; o < n; o++) {
        uintptr_t olo, ohi;
        if (!byte_span(&l->tensors[o], &olo, &ohi))
            continue;
        for (size_t i = 0; i < l->op->n_inputs; i++) {
            uintptr_t ilo, ihi;
            if (byte_span(&l->tensors[i], &ilo, &ihi) && ilo < ohi && olo < ihi)
                return emu_error(ACLNN_ERR_PARAM_INVALID, api,
                                 "%s memory overlaps %s's: their byte ranges [%p, %p) and [%p, %p) intersect (the "
                                 "operator is not in-place; views are compared by range, so interleaved views "
                                 "that share no element are refused too)",
                                 l->op->tensor_names[o], l->op->tensor_names[i], (void *)olo, (void *)ohi,
                                 (void *)ilo, (void *)ihi);
        }
    }
    /* Alignment is a rule for device addresses (aclrtMalloc), not for registered host memory. */
    for (size_t i = 0; i < n; i++) {
        const aclTensor *t = &l->tensors[i];
        emu_block_info b;
        if (t->data && ((uintptr_t)t->data % 32) != 0 && emu_mem_find(t->data, 0, &b) && b.device && !b.registered) {
            int st = emu_misuse(ACLNN_ERR_PARAM_INVALID, api, "%s address %p is not 32-byte aligned (CANN requires it)",
                                l->op->tensor_names[i], t->data);
            if (st)
                return st;
        }
    }
    return 0;
}

static int run_launch(void *ctx, char *msg, size_t cap)
{
    const emu_launch *l = ctx;
    double t0 = emu_now();
    int st = l->op->run(l, msg, cap);
    double dt = emu_now() - t0;
    emu_diag_op(l->op->name, dt);
    emu_trace_event('X', l->op->name, "operator", t0 * 1e6, dt * 1e6, 0);
    if (st)
        emu_log(EMU_LOG_ERROR, "%s kernel failed -> %d: %s", l->op->name, st, msg);
    else
        emu_log(EMU_LOG_INFO, "%s kernel done in %.3f ms", l->op->name, 1e3 * dt);
    return st;
}

/* Task groups of model runtime instances take only operator launches: tell the runtime which task that is. */
__attribute__((constructor)) static void register_kernel_task(void)
{
    emu_stream_on_kernel_task(run_launch);
}

/* aclnnEmuSetFillUnwritten: this thread's launches fill outputs CANN leaves unwritten. */
static _Thread_local bool fill_unwritten;

ACL_FUNC_VISIBILITY aclError aclnnEmuSetFillUnwritten(int32_t fill)
{
    fill_unwritten = fill != 0;
    return ACL_SUCCESS;
}

/* ACLNN_EMU_LAUNCH_ONCE: the switches the thread's next launch puts back. */
static _Thread_local struct {
    bool pending, blocking, fill;
} launch_once;

ACL_FUNC_VISIBILITY aclError aclnnEmuSetLaunchMode(uint32_t flags)
{
    if (flags & ~(ACLNN_EMU_LAUNCH_BLOCKING | ACLNN_EMU_LAUNCH_FILL_UNWRITTEN | ACLNN_EMU_LAUNCH_ONCE))
        return emu_error(ACL_ERROR_INVALID_PARAM, "aclnnEmuSetLaunchMode", "flags 0x%x has unknown bits",
                         (unsigned)flags);
    if ((flags & ACLNN_EMU_LAUNCH_ONCE) && !launch_once.pending) /* a second ONCE keeps the first's saved state */
        launch_once.blocking = emu_launch_blocking(), launch_once.fill = fill_unwritten, launch_once.pending = true;
    else if (!(flags & ACLNN_EMU_LAUNCH_ONCE))
        launch_once.pending = false;
    fill_unwritten = (flags & ACLNN_EMU_LAUNCH_FILL_UNWRITTEN) != 0;
    return aclnnEmuSetLaunchBlocking((flags & ACLNN_EMU_LAUNCH_BLOCKING) != 0);
}

void emu_launch_leave_unwritten(const emu_launch *l, size_t index)
{
    if (!l->fill_unwritten && !emu_strict())
        return;
    const emu_view v = emu_launch_view(l, index);
    emu_view_fill_bytes(&v, 0xff);
}

emu_view emu_launch_view(const emu_launch *l, size_t index)
{
    const aclTensor *t = &l->tensors[index];
    emu_view v = {.data = t->data, .offset = t->offset, .ndim = t->ndim, .dtype = t->dtype};
    memcpy(v.dims, t->dims, sizeof v.dims);
    memcpy(v.strides, t->strides, sizeof v.strides);
    return v;
}

/* Phase two's claim on the executor: checks that it is live and was made for
 * op, takes a snapshot of its plan into *out, and retires a single-use
 * executor whatever happens next (as CANN's framework releases it on every
 * outcome, so a failed launch leaks nothing). Of two threads launching one
 * single-use executor exactly one gets it; the other is told it was used up. */
static int executor_claim(const emu_op_def *op, aclOpExecutor *executor, void *const *addrs, emu_launch **out)
{
    const char *api = op->name;
    int st = executor_pin(api, executor);
    if (st)
        return st;
    pthread_mutex_lock(&executor->mu);
    const emu_launch *plan = executor->plan;
    if (plan->op != op)
        st = emu_error(ACLNN_ERR_PARAM_INVALID, api,
                       "executor %p was created by %sGetWorkspaceSize, not %sGetWorkspaceSize", (void *)executor,
                       plan->op->name, op->name);
    else if (!executor->repeatable)
        st = executor_retire(api, executor);
    /* Each run gets its own snapshot, so rebinding addresses or destroying a
     * repeatable executor never disturbs runs already enqueued. */
    emu_launch *l = st ? NULL : malloc(launch_bytes(plan->params_size));
    if (l) {
        memcpy(l, plan, launch_bytes(plan->params_size));
        for (size_t i = 0; addrs && i < op->n_inputs + op->n_outputs; i++)
            l->tensors[i].data = addrs[i];
    } else if (!st)
        st = emu_error(ACLNN_ERR_INNER, api, "out of memory");
    pthread_mutex_unlock(&executor->mu);
    emu_registry_unpin(executor);
    *out = l;
    return st;
}

static int launch(const emu_op_def *op, void *workspace, uint64_t workspace_size, aclOpExecutor *executor,
                  void *const *addrs, aclrtStream stream);

int emu_executor_launch(const emu_op_def *op, void *workspace, uint64_t workspace_size, aclOpExecutor *executor,
                        aclrtStream stream)
{
    return emu_executor_launch_at(op, workspace, workspace_size, executor, NULL, stream);
}

int emu_executor_launch_at(const emu_op_def *op, void *workspace, uint64_t workspace_size, aclOpExecutor *executor,
                           void *const *addrs, aclrtStream stream)
{
    const int st = launch(op, workspace, workspace_size, executor, addrs, stream);
    if (launch_once.pending) {
        launch_once.pending = false;
        fill_unwritten = launch_once.fill;
        aclnnEmuSetLaunchBlocking(launch_once.blocking);
    }
    return st;
}

static int launch(const emu_op_def *op, void *workspace, uint64_t workspace_size, aclOpExecutor *executor,
                  void *const *addrs, aclrtStream stream)
{
    const char *api = op->name;
    emu_launch *l = NULL;
    int st = executor_claim(op, executor, addrs, &l);
    if (st)
        return st;
    /* From here on the executor is not touched: a single-use one is gone. */
    if (l->workspace_size > 0 && !workspace)
        st = emu_error(ACLNN_ERR_PARAM_NULLPTR, api, "workspace is NULL but phase one asked for %llu bytes",
                       (unsigned long long)l->workspace_size);
    else if (workspace_size < l->workspace_size)
        st = emu_error(ACLNN_ERR_PARAM_INVALID, api,
                       "workspaceSize %llu is smaller than the %llu bytes phase one asked for",
                       (unsigned long long)workspace_size, (unsigned long long)l->workspace_size);
    emu_stream *s = NULL;
    if (!st && emu_stream_resolve(stream, api, ACLNN_ERR_PARAM_INVALID, &s) != 0)
        st = ACLNN_ERR_RUNTIME_ERROR;
    /* The operator sees what it asked for, never the caller's (larger) claim. */
    l->workspace = workspace;
    l->fill_unwritten = fill_unwritten;
    if (!st)
        st = check_tensor_memory(api, l);
    if (st) {
        free(l);
        return st;
    }
    void *data[EMU_MAX_IO] = {0};
    for (size_t i = 0; i < op->n_inputs + op->n_outputs; i++)
        if (emu_tensor_extent(&l->tensors[i]) > 0)
            data[i] = l->tensors[i].data;
    const uint64_t used_workspace = l->workspace_size;
    uint64_t seq;
    if (emu_stream_enqueue(s, run_launch, free, l, &seq) != 0)
        return emu_error(ACLNN_ERR_INNER, api, "out of memory enqueuing the operator");
    /* The launch owns nothing now (the stream frees it): use our own copies. */
    for (size_t i = 0; i < op->n_inputs + op->n_outputs; i++)
        if (data[i])
            emu_mem_note_use(data[i], s, seq, op->name, i >= op->n_inputs);
    /* The NPU writes the workspace while the operator runs: freeing it first is the same misuse. */
    if (workspace && used_workspace)
        emu_mem_note_use(workspace, s, seq, op->name, true);
    emu_log(EMU_LOG_INFO, "%s workspaceSize=%llu stream=%p -> 0 (enqueued)", api, (unsigned long long)workspace_size,
            stream);
    return ACLNN_SUCCESS;
}

ACL_FUNC_VISIBILITY aclnnStatus aclnnEmuRunArrays(aclOpExecutor *executor, void *const *addrs, size_t n,
                                                  void *workspace, uint64_t workspaceSize, aclrtStream stream,
                                                  uint32_t flags, uint64_t *pendingWarnings)
{
    const char *api = "aclnnEmuRunArrays";
    emu_diag_api(api);
    if (!executor || !addrs)
        return emu_error(ACLNN_ERR_PARAM_NULLPTR, api, "%s is NULL", executor ? "addrs" : "executor");
    if (flags & ~(uint32_t)(ACLNN_EMU_LAUNCH_BLOCKING | ACLNN_EMU_LAUNCH_FILL_UNWRITTEN))
        return emu_error(ACLNN_ERR_PARAM_INVALID, api, "flags 0x%x has bits other than ACLNN_EMU_LAUNCH_BLOCKING "
                         "and ACLNN_EMU_LAUNCH_FILL_UNWRITTEN", (unsigned)flags);
    if (emu_registry_pin(executor, EMU_EXECUTOR) != EMU_LIVE)
        return emu_error(ACLNN_EMU_PLAN_STALE, api, "executor %p is gone: plan again", (void *)executor);
    pthread_mutex_lock(&executor->mu);
    const emu_op_def *op = executor->plan->op;
    const size_t count = op->n_inputs + op->n_outputs;
    const bool repeatable = executor->repeatable, stale = executor->generation != emu_config_generation();
    size_t bytes[EMU_MAX_IO] = {0};
    for (size_t i = 0; i < count && i < n; i++)
        bytes[i] = (size_t)emu_tensor_extent(&executor->plan->tensors[i]) * /* fits: phase one checked it */
                   emu_dtype_size(executor->plan->tensors[i].dtype);
    pthread_mutex_unlock(&executor->mu);
    emu_registry_unpin(executor);
    emu_block_info wb;
    if (!repeatable)
        return emu_error(ACLNN_ERR_PARAM_INVALID, api, "executor %p is not repeatable (aclSetAclOpExecutorRepeatable)",
                         (void *)executor);
    if (n != count)
        return emu_error(ACLNN_ERR_PARAM_INVALID, api, "n is %zu but %s has %zu tensors", n, op->name, count);
    if (stale || (workspaceSize && !emu_mem_find(workspace, (size_t)workspaceSize, &wb)))
        return emu_error(ACLNN_EMU_PLAN_STALE, api, "executor %p was planned under other settings: plan again",
                         (void *)executor);
    /* Tensors may be views of one buffer: overlapping spans are registered as their union, so that each
     * tensor lies inside one registration. */
    uintptr_t lo[EMU_MAX_IO], hi[EMU_MAX_IO];
    size_t spans = 0;
    for (size_t i = 0; i < count; i++) {
        const uintptr_t a = (uintptr_t)addrs[i], b = a + bytes[i];
        if (!bytes[i] || !addrs[i] || b < a) /* nothing to register, or no range (the launch reports it) */
            continue;
        size_t j = spans++;
        for (; j > 0 && lo[j - 1] > a; j--) /* insertion by start */
            lo[j] = lo[j - 1], hi[j] = hi[j - 1];
        lo[j] = a, hi[j] = b;
    }
    size_t merged = 0;
    for (size_t i = 0; i < spans; i++) {
        if (merged && lo[i] < hi[merged - 1]) {
            hi[merged - 1] = hi[i] > hi[merged - 1] ? hi[i] : hi[merged - 1];
            continue;
        }
        lo[merged] = lo[i], hi[merged] = hi[i], merged++;
    }
    bool registered[EMU_MAX_IO] = {false};
    for (size_t i = 0; i < merged; i++)
        registered[i] = emu_mem_register_host((const void *)lo[i], hi[i] - lo[i]);
    aclnnEmuSetLaunchMode(flags | ACLNN_EMU_LAUNCH_ONCE);
    int st = emu_executor_launch_at(op, workspace, workspaceSize, executor, addrs, stream);
    if (!st)
        st = aclrtSynchronizeStream(stream);
    for (size_t i = 0; i < merged; i++)
        if (registered[i])
            emu_mem_unregister_host((const void *)lo[i]);
    if (pendingWarnings)
        *pendingWarnings = aclnnEmuPendingWarnings();
    return st;
}

ACL_FUNC_VISIBILITY aclnnStatus aclSetAclOpExecutorRepeatable(aclOpExecutor *executor)
{
    const char *api = "aclSetAclOpExecutorRepeatable";
    int st = executor_pin(api, executor);
    if (st)
        return st;
    pthread_mutex_lock(&executor->mu);
    executor->repeatable = true;
    pthread_mutex_unlock(&executor->mu);
    emu_registry_unpin(executor);
    return ACLNN_SUCCESS;
}

ACL_FUNC_VISIBILITY aclnnStatus aclDestroyAclOpExecutor(aclOpExecutor *executor)
{
    const char *api = "aclDestroyAclOpExecutor";
    int st = executor_pin(api, executor);
    if (st)
        return st;
    /* A launch racing this destroy either claimed the executor first (then
     * this reports it used up) or comes after (and reports it destroyed). */
    st = executor_retire(api, executor);
    emu_registry_unpin(executor);
    return st;
}

static aclnnStatus set_addr(const char *api, aclOpExecutor *executor, size_t index, bool output, void *addr)
{
    int st = executor_pin(api, executor);
    if (st)
        return st;
    pthread_mutex_lock(&executor->mu);
    const emu_op_def *op = executor->plan->op;
    size_t count = output ? op->n_outputs : op->n_inputs;
    if (index >= count)
        st = emu_error(ACLNN_ERR_PARAM_INVALID, api, "index %zu is out of range: %s has %zu %s tensor(s)", index,
                       op->name, count, output ? "output" : "input");
    else
        executor->plan->tensors[(output ? op->n_inputs : 0) + index].data = addr;
    pthread_mutex_unlock(&executor->mu);
    emu_registry_unpin(executor);
    return st;
}

ACL_FUNC_VISIBILITY aclnnStatus aclSetInputTensorAddr(aclOpExecutor *executor, size_t index, aclTensor *tensor,
                                                      void *addr)
{
    (void)tensor; /* CANN passes the tensor for bookkeeping; the index decides here */
    return set_addr("aclSetInputTensorAddr", executor, index, false, addr);
}

ACL_FUNC_VISIBILITY aclnnStatus aclSetOutputTensorAddr(aclOpExecutor *executor, size_t index, aclTensor *tensor,
                                                       void *addr)
{
    (void)tensor;
    return set_addr("aclSetOutputTensorAddr", executor, index, true, addr);
}

int emu_run_misuse(const char *op, char *msg, size_t cap, const char *fmt, ...)
{
    char what[EMU_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (!emu_strict()) {
        emu_warning(op, "%s", what);
        return 0;
    }
    emu_diag_warning();
    snprintf(msg, cap, "%s: %s (strict mode)", op, what);
    return ACLNN_ERR_PARAM_INVALID;
}

/* A thread's last scratch block, kept for its next run (runs repeat: a page-aligned allocation costs a
 * good part of a tiny operator's run, and a large block's pages fault in again on every run: U3's 1.06 MB
 * took 13 faults a call when blocks over 1 MiB were freed); freed when the thread exits. Up to 16 MiB: V1's
 * 8.7 MB block, at most one block a thread that runs operators. */
#define SPARE_MAX ((size_t)16 << 20)
static _Thread_local struct {
    void *block;
    size_t size;
} spare;
static pthread_key_t spare_key;
static pthread_once_t spare_once = PTHREAD_ONCE_INIT;

static void spare_free(void *block)
{
    free(block);
}

static void spare_key_create(void)
{
    (void)pthread_key_create(&spare_key, spare_free);
}

int emu_scratch_grant(emu_scratch *s, int threads, const char *op, char *msg, size_t cap)
{
    s->base = NULL;
    const size_t total = emu_scratch_layout(s, threads);
    void *block = NULL;
    if (total == 0)
        return 0;
    if (spare.block && spare.size >= total) {
        s->base = spare.block;
        s->block_bytes = spare.size;
        spare.block = NULL;
        pthread_setspecific(spare_key, NULL);
        return 0;
    }
    if (total != SIZE_MAX && posix_memalign(&block, 4096, total) == 0) {
        s->base = block;
        s->block_bytes = total;
        return 0;
    }
    if (total == SIZE_MAX)
        snprintf(msg, cap, "%s: the kernel's scratch size overflows size_t", op);
    else
        snprintf(msg, cap, "%s: cannot allocate %zu bytes of kernel scratch", op, total);
    return EMU_KERNEL_ERR_INNER;
}

void emu_scratch_release(emu_scratch *s)
{
    if (s->base && !spare.block && s->block_bytes <= SPARE_MAX && pthread_once(&spare_once, spare_key_create) == 0 &&
        pthread_setspecific(spare_key, s->base) == 0) {
        spare.block = s->base, spare.size = s->block_bytes;
    } else {
        free(s->base);
    }
    s->base = NULL;
}
