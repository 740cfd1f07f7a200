/*
 * The executor framework. An operator file supplies its checks (phase one),
 * an emu_op_def with a run function, and calls emu_executor_create /
 * emu_executor_launch; everything common to all operators lives here:
 * capturing tensors, workspace and stream checks, single-use and repeatable
 * executors, address rebinding, validation-mode pointer checks, logging.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "meta.h"

struct aclOpExecutor {
    bool repeatable;
    emu_launch *plan; /* tensors and attributes as captured at phase one (workspace unset) */
};

static size_t launch_bytes(size_t params_size)
{
    return sizeof(emu_launch) + params_size;
}

static void executor_free(void *p)
{
    aclOpExecutor *ex = p;
    free(ex->plan);
    free(ex);
}

/* Destroys a live executor (its memory is quarantined: see emu_registry_release). */
static void executor_release(aclOpExecutor *ex)
{
    emu_registry_release(ex, EMU_EXECUTOR, sizeof *ex + launch_bytes(ex->plan->params_size), executor_free);
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
    ex->repeatable = false;
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

/* Validation-mode checks on the data pointers of one launch (they may have been rebound). */
static int check_tensor_memory(const char *api, const emu_launch *l)
{
    size_t n = l->op->n_inputs + l->op->n_outputs;
    for (size_t i = 0; i < n; i++) {
        const aclTensor *t = &l->tensors[i];
        const char *name = l->op->tensor_names[i];
        int64_t extent = emu_tensor_extent(t);
        if (extent == 0)
            continue;
        if (!t->data)
            return emu_error(ACLNN_ERR_PARAM_NULLPTR, api, "%s has no data (NULL address)", name);
        size_t item = emu_dtype_size(t->dtype);
        const char *first = (const char *)t->data + (size_t)t->offset * item;
        size_t span = ((size_t)extent - (size_t)t->offset) * item;
        emu_block_info b;
        if (emu_mem_find(first, span, &b))
            continue;
        if (emu_mem_find(first, 0, &b)) {
            /* Inside a block but reaching past it: running it would read or write out of bounds. */
            return emu_error(ACLNN_ERR_PARAM_INVALID, api,
                             "%s view reaches %zu bytes past the end of its %zu-byte block at %p (offset %lld, "
                             "furthest element %lld)",
                             name, (size_t)(first + span - (const char *)(b.base + b.size)), b.size, (void *)b.base,
                             (long long)t->offset, (long long)extent - 1);
        }
        int st = emu_misuse(ACLNN_ERR_PARAM_INVALID, api,
                            "%s data %p is not inside memory from aclrtMalloc (host memory passed as device memory?)",
                            name, t->data);
        if (st)
            return st;
    }
    emu_block_info wb;
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
                return emu_error(ACLNN_ERR_PARAM_INVALID, api, "%s memory overlaps %s's (the operator is not in-place)",
                                 l->op->tensor_names[o], l->op->tensor_names[i]);
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
    if (st)
        emu_log(EMU_LOG_ERROR, "%s kernel failed -> %d: %s", l->op->name, st, msg);
    else
        emu_log(EMU_LOG_INFO, "%s kernel done in %.3f ms", l->op->name, 1e3 * dt);
    return st;
}

/* Phase two releases a single-use executor whatever happens (as CANN's
 * framework does), so a failed launch leaks nothing; a second use is then
 * reported as such. Repeatable executors stay until aclDestroyAclOpExecutor. */
static void consume(aclOpExecutor *executor)
{
    if (!executor->repeatable)
        executor_release(executor);
}

emu_view emu_launch_view(const emu_launch *l, size_t index)
{
    const aclTensor *t = &l->tensors[index];
    emu_view v = {.data = t->data, .offset = t->offset, .ndim = t->ndim, .dtype = t->dtype};
    memcpy(v.dims, t->dims, sizeof v.dims);
    memcpy(v.strides, t->strides, sizeof v.strides);
    return v;
}

int emu_executor_launch(const emu_op_def *op, void *workspace, uint64_t workspace_size, aclOpExecutor *executor,
                        aclrtStream stream)
{
    const char *api = op->name;
    emu_diag_api(api);
    if (!executor)
        return emu_error(ACLNN_ERR_PARAM_NULLPTR, api, "executor is NULL");
    int st = emu_check_handle(executor, EMU_EXECUTOR, ACLNN_ERR_PARAM_INVALID, api, "executor");
    if (st)
        return st;
    const emu_launch *plan = executor->plan;
    if (plan->op != op)
        return emu_error(ACLNN_ERR_PARAM_INVALID, api, "executor %p was created by %sGetWorkspaceSize, not %sGetWorkspaceSize",
                         (void *)executor, plan->op->name, op->name);
    if (plan->workspace_size > 0 && !workspace)
        st = emu_error(ACLNN_ERR_PARAM_NULLPTR, api, "workspace is NULL but phase one asked for %llu bytes",
                       (unsigned long long)plan->workspace_size);
    else if (workspace_size < plan->workspace_size)
        st = emu_error(ACLNN_ERR_PARAM_INVALID, api,
                       "workspaceSize %llu is smaller than the %llu bytes phase one asked for",
                       (unsigned long long)workspace_size, (unsigned long long)plan->workspace_size);
    emu_stream *s = NULL;
    if (!st && emu_stream_resolve(stream, api, ACLNN_ERR_PARAM_INVALID, &s) != 0)
        st = ACLNN_ERR_RUNTIME_ERROR;
    if (st) {
        consume(executor);
        return st;
    }

    /* Each run gets its own snapshot, so rebinding addresses or destroying a
     * repeatable executor never disturbs runs already enqueued. */
    emu_launch *l = malloc(launch_bytes(plan->params_size));
    if (!l) {
        consume(executor); /* every failure of phase two releases a single-use executor */
        return emu_error(ACLNN_ERR_INNER, api, "out of memory");
    }
    memcpy(l, plan, launch_bytes(plan->params_size));
    l->workspace = workspace;
    /* The operator sees what it asked for, never the caller's (larger) claim. */
    l->workspace_size = plan->workspace_size;
    if ((st = check_tensor_memory(api, l)) != 0) {
        free(l);
        consume(executor);
        return st;
    }
    void *data[EMU_MAX_IO] = {0};
    for (size_t i = 0; i < op->n_inputs + op->n_outputs; i++)
        if (emu_tensor_extent(&l->tensors[i]) > 0)
            data[i] = l->tensors[i].data;
    const uint64_t used_workspace = l->workspace_size;
    consume(executor);
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

/* Shared prologue of the executor functions below. */
static int check_executor(const char *api, const aclOpExecutor *executor)
{
    emu_diag_api(api);
    if (!executor)
        return emu_error(ACLNN_ERR_PARAM_NULLPTR, api, "executor is NULL");
    return emu_check_handle(executor, EMU_EXECUTOR, ACLNN_ERR_PARAM_INVALID, api, "executor");
}

ACL_FUNC_VISIBILITY aclnnStatus aclSetAclOpExecutorRepeatable(aclOpExecutor *executor)
{
    int st = check_executor("aclSetAclOpExecutorRepeatable", executor);
    if (!st)
        executor->repeatable = true;
    return st;
}

ACL_FUNC_VISIBILITY aclnnStatus aclDestroyAclOpExecutor(aclOpExecutor *executor)
{
    int st = check_executor("aclDestroyAclOpExecutor", executor);
    if (st)
        return st;
    executor_release(executor);
    return ACLNN_SUCCESS;
}

static aclnnStatus set_addr(const char *api, aclOpExecutor *executor, size_t index, bool output, void *addr)
{
    int st = check_executor(api, executor);
    if (st)
        return st;
    const emu_op_def *op = executor->plan->op;
    size_t count = output ? op->n_outputs : op->n_inputs;
    if (index >= count)
        return emu_error(ACLNN_ERR_PARAM_INVALID, api, "index %zu is out of range: %s has %zu %s tensor(s)", index,
                         op->name, count, output ? "output" : "input");
    executor->plan->tensors[(output ? op->n_inputs : 0) + index].data = addr;
    return ACLNN_SUCCESS;
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
