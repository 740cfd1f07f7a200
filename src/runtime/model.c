/*
 * Model runtime instances (aclmdlRI): a list of stream work, captured from a
 * stream (aclmdlRICaptureBegin/End) or built from persistent streams bound to
 * it (aclmdlRIBuildBegin, aclmdlRIBindStream), replayed by
 * aclmdlRIExecuteAsync as one task of the executing stream. The stream layer
 * sends a capturing or bound stream's work here (emu_stream_set_sink); each
 * entry keeps its task and context until the model is destroyed, so a replay
 * runs the same work on the same addresses. Entries may be labels and index
 * switches (a built model's control flow) and task groups of kernels that
 * aclmdlRICaptureTaskUpdate* replaces. Checks and statuses follow CANN's
 * model_ri.cpp, label.cpp and the runtime's aclgraph feature, in their order.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime.h"

#define MODEL_STREAM_FLAG_HEAD 0x0U
#define MODEL_STREAM_FLAG_DEFAULT 0x7FFFFFFFU
#define MAX_LABELS 65535

typedef enum entry_kind { ENTRY_TASK, ENTRY_LABEL, ENTRY_SWITCH, ENTRY_END } entry_kind;

typedef struct label_list label_list;

typedef struct entry {
    entry_kind kind;
    emu_task_fn fn; /* ENTRY_TASK: the stream task, run at every replay */
    emu_release_fn release;
    void *ctx;
    emu_bind_fn bind;      /* run on the host at every launch */
    const void *index_ptr; /* ENTRY_SWITCH: the uint32_t index in device memory */
    label_list *list;
} entry;

typedef struct model model;

typedef struct task_group {
    model *m;
    size_t *at; /* the group's kernels: indices into m->entries */
    size_t n, cap;
    bool updating;
} task_group;

struct model {
    pthread_mutex_t mu; /* entries, groups, retired; refs */
    int refs;           /* the handle and each launch not yet run */
    entry *entries;
    size_t n, cap;
    entry *retired; /* tasks an update replaced: released with the model (a replay may be running one) */
    size_t n_retired, cap_retired;
    task_group **groups;
    size_t n_groups, cap_groups;
    bool captured; /* from a capture, else built */
    bool ready;    /* captured to its end, or built to aclmdlRIBuildEnd */
    bool invalid;  /* captured work failed: aclmdlRICaptureEnd destroys it */
    size_t ends;   /* aclmdlRIEndTask calls */
};

/* What a capturing, bound or updating stream's work goes to (its sink context). */
typedef struct sink_state {
    model *m;           /* capture or bound model; NULL for an update */
    task_group *group;  /* the group being sampled (capture) or updated */
    size_t next;        /* an update's next kernel */
    emu_stream *stream;
} sink_state;

typedef struct label {
    model *m;
    size_t at; /* its entry */
    bool set;
    label_list *list;
} label;

struct label_list {
    label **labels;
    size_t n;
};


/* ---- the model's life --------------------------------------------------------------- */

static void release_entry(entry *e)
{
    if (e->kind == ENTRY_TASK && e->release)
        e->release(e->ctx);
}

static void model_unref(model *m)
{
    pthread_mutex_lock(&m->mu);
    bool last = --m->refs == 0;
    pthread_mutex_unlock(&m->mu);
    if (!last)
        return;
    for (size_t i = 0; i < m->n; i++)
        release_entry(&m->entries[i]);
    for (size_t i = 0; i < m->n_retired; i++)
        release_entry(&m->retired[i]);
    for (size_t i = 0; i < m->n_groups; i++) { /* forgotten by model_retire */
        free(m->groups[i]->at);
        free(m->groups[i]);
    }
    free(m->groups);
    free(m->entries);
    free(m->retired);
    pthread_mutex_destroy(&m->mu);
    free(m);
}

static void model_release(void *p)
{
    model_unref(p);
}

/* Destroys the model's handle and those of its task groups (runs under way keep the model itself). The
 * groups are forgotten here, not in model_unref: the registry calls that from its own lock. */
static void model_retire(model *m)
{
    pthread_mutex_lock(&m->mu);
    for (size_t i = 0; i < m->n_groups; i++)
        emu_registry_forget(m->groups[i], EMU_TASK_GROUP);
    pthread_mutex_unlock(&m->mu);
    emu_registry_release(m, EMU_MODEL, sizeof *m, model_release);
}

static model *model_new(const char *api, bool captured)
{
    model *m = emu_handle_alloc(sizeof *m, EMU_MODEL, api);
    if (m) {
        pthread_mutex_init(&m->mu, NULL);
        m->refs = 1;
        m->captured = captured;
    }
    return m;
}

static int append_locked(model *m, entry e)
{
    if (!emu_grow((void **)&m->entries, &m->cap, m->n, sizeof *m->entries))
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    m->entries[m->n++] = e;
    return 0;
}

/* The sink of a capturing or bound stream: the work becomes the model's next entry. */
static int model_sink(void *sink_ctx, emu_task_fn fn, emu_release_fn release, void *ctx, emu_bind_fn bind)
{
    sink_state *st = sink_ctx;
    model *m = st->m;
    int rc = 0;
    pthread_mutex_lock(&m->mu);
    if (st->group && !emu_task_is_kernel(fn))
        rc = ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT; /* a task group holds kernels only */
    else if (st->group && !emu_grow((void **)&st->group->at, &st->group->cap, st->group->n, sizeof *st->group->at))
        rc = ACL_ERROR_RT_MEMORY_ALLOCATION;
    else if ((rc = append_locked(m, (entry){.kind = ENTRY_TASK, .fn = fn, .release = release, .ctx = ctx,
                                            .bind = bind})) == 0 &&
             st->group)
        st->group->at[st->group->n++] = m->n - 1;
    if (rc == ACL_ERROR_RT_MEMORY_ALLOCATION)
        m->invalid = true;
    pthread_mutex_unlock(&m->mu);
    if (rc && release)
        release(ctx);
    return rc;
}

/* The sink of a stream updating a task group: each kernel replaces the group's next one. */
static int update_sink(void *sink_ctx, emu_task_fn fn, emu_release_fn release, void *ctx, emu_bind_fn bind)
{
    sink_state *st = sink_ctx;
    task_group *g = st->group;
    model *m = g->m;
    int rc = 0;
    pthread_mutex_lock(&m->mu);
    if (!emu_task_is_kernel(fn))
        rc = ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT;
    else if (st->next >= g->n)
        rc = ACL_ERROR_RT_INTERNAL_ERROR; /* more kernels than the group holds */
    else if (!emu_grow((void **)&m->retired, &m->cap_retired, m->n_retired, sizeof *m->retired))
        rc = ACL_ERROR_RT_MEMORY_ALLOCATION;
    if (!rc) {
        entry *e = &m->entries[g->at[st->next++]];
        m->retired[m->n_retired++] = *e;
        *e = (entry){.kind = ENTRY_TASK, .fn = fn, .release = release, .ctx = ctx, .bind = bind};
    }
    pthread_mutex_unlock(&m->mu);
    if (rc && release)
        release(ctx);
    return rc;
}

/* ---- running ------------------------------------------------------------------------ */

typedef struct launch {
    model *m;
    size_t cursor; /* the next entry: a run that steps aside for fork() resumes here */
} launch;

static int launch_steps(launch *l, char *msg, size_t cap);

static int launch_run(void *ctx, char *msg, size_t cap)
{
    launch *l = ctx;
    double t0 = emu_trace_now_us();
    int st = launch_steps(l, msg, cap);
    char name[64];
    snprintf(name, sizeof name, "aclmdlRI %p", (void *)l->m);
    if (st != EMU_TASK_AGAIN)
        emu_trace_event('X', name, "model", t0, emu_trace_now_us() - t0, 0);
    return st;
}

static int launch_steps(launch *l, char *msg, size_t cap)
{
    model *m = l->m;
    for (;;) {
        pthread_mutex_lock(&m->mu);
        entry e = l->cursor < m->n ? m->entries[l->cursor] : (entry){.kind = ENTRY_END};
        pthread_mutex_unlock(&m->mu);
        if (e.kind == ENTRY_END)
            return 0;
        if (e.kind == ENTRY_TASK) {
            int st = e.fn(e.ctx, msg, cap);
            if (st)
                return st; /* EMU_TASK_AGAIN resumes at this entry */
        } else if (e.kind == ENTRY_SWITCH) {
            if (emu_registry_find(e.list, EMU_LABEL_LIST) != EMU_LIVE) {
                snprintf(msg, cap, "aclrtSwitchLabelByIndex: its label list %p was destroyed", (void *)e.list);
                return ACL_ERROR_RT_INTERNAL_ERROR;
            }
            uint32_t index;
            memcpy(&index, e.index_ptr, sizeof index);
            const label *target = e.list->labels[index < e.list->n ? index : e.list->n - 1];
            if (!target->set || target->m != m) {
                snprintf(msg, cap, "aclrtSwitchLabelByIndex: index %u's label %p is not set in this model",
                         (unsigned)index, (const void *)target);
                return ACL_ERROR_RT_INTERNAL_ERROR;
            }
            l->cursor = target->at;
            continue;
        }
        l->cursor++;
    }
}

static void launch_release(void *ctx)
{
    launch *l = ctx;
    model_unref(l->m);
    free(l);
}

/* ---- API: checks shared by the calls -------------------------------------------------- */

static int check_model(const char *api, aclmdlRI m, const char *param)
{
    return emu_check_handle_arg(m, EMU_MODEL, ACL_ERROR_INVALID_PARAM, api, param);
}

/* A stream argument of this API: the stream, its sink state (NULL: neither captured nor bound) and its
 * capture mode (negative: bound to a model or updating a task group, not captured). */
typedef struct stream_use {
    emu_stream *s;
    sink_state *state;
    int capture;
} stream_use;

/* The stream argument (NULL refused), resolved, with its sink state and capture mode. */
static int stream_arg(const char *api, aclrtStream stream, stream_use *u)
{
    *u = (stream_use){.s = NULL, .state = NULL, .capture = -1};
    if (!stream)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "stream is NULL");
    int st = emu_require_init(api);
    if (st || (st = emu_stream_resolve(stream, api, ACL_ERROR_RT_INVALID_HANDLE, &u->s)))
        return st;
    u->state = emu_stream_sink(u->s, &u->capture, NULL);
    return 0;
}

/* ---- capture ------------------------------------------------------------------------- */

ACL_FUNC_VISIBILITY aclError aclmdlRICaptureBegin(aclrtStream stream, aclmdlRICaptureMode mode)
{
    EMU_API_ENTRY();
    stream_use u;
    int st = stream_arg(api, stream, &u);
    if (st)
        return st;
    if ((unsigned)mode > ACL_MODEL_RI_CAPTURE_MODE_RELAXED)
        return emu_error(ACL_ERROR_RT_PARAM_INVALID, api, "mode %d is not an aclmdlRICaptureMode", (int)mode);
    if (u.state && u.capture < 0)
        return emu_error(ACL_ERROR_RT_STREAM_MODEL, api, "stream %p is bound to a model or updating a task group",
                         stream);
    if (emu_stream_is_default(u.s))
        return emu_error(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, api, "a default stream cannot be captured");
    if (u.state)
        return emu_error(ACL_ERROR_RT_STREAM_CAPTURED, api, "stream %p is being captured already", stream);
    sink_state *ns = calloc(1, sizeof *ns);
    model *m = ns ? model_new(api, true) : NULL;
    if (!m) {
        free(ns);
        return ns ? ACL_ERROR_BAD_ALLOC : emu_error(ACL_ERROR_BAD_ALLOC, api, "out of memory");
    }
    *ns = (sink_state){.m = m, .stream = u.s};
    if ((st = emu_stream_set_sink(u.s, model_sink, ns, (int)mode)) != 0) {
        emu_registry_forget(m, EMU_MODEL);
        model_unref(m);
        free(ns);
        return emu_error(st, api, "too many captures under way");
    }
    emu_log(EMU_LOG_INFO, "%s stream=%p mode=%d -> 0 (model %p)", api, stream, (int)mode, (void *)m);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclmdlRICaptureGetInfo(aclrtStream stream, aclmdlRICaptureStatus *status,
                                                    aclmdlRI *modelRI)
{
    EMU_API_ENTRY();
    stream_use u;
    int st = stream_arg(api, stream, &u);
    if (st)
        return st;
    if (!status)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "status is NULL");
    bool active = u.state && u.capture >= 0;
    const bool invalid = active && u.state->m->invalid;
    *status = !active ? ACL_MODEL_RI_CAPTURE_STATUS_NONE
              : invalid ? ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED : ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE;
    if (modelRI)
        *modelRI = active ? u.state->m : NULL;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclmdlRICaptureEnd(aclrtStream stream, aclmdlRI *modelRI)
{
    EMU_API_ENTRY();
    stream_use u;
    int st = stream_arg(api, stream, &u);
    if (st)
        return st;
    if (!modelRI)
        return emu_error(ACL_ERROR_RT_PARAM_INVALID, api, "modelRI is NULL");
    *modelRI = NULL;
    if (u.state && u.capture < 0)
        return emu_error(ACL_ERROR_RT_STREAM_MODEL, api, "stream %p is bound to a model, not captured", stream);
    if (!u.state)
        return emu_error(ACL_ERROR_RT_STREAM_NOT_CAPTURED, api, "stream %p is not being captured", stream);
    uint64_t thread;
    emu_stream_sink(u.s, NULL, &thread);
    model *m = u.state->m;
    bool wrong_thread = u.capture != ACL_MODEL_RI_CAPTURE_MODE_RELAXED && thread != (uint64_t)pthread_self();
    bool open_group = u.state->group != NULL;
    emu_stream_set_sink(u.s, NULL, NULL, -1);
    free(u.state);
    pthread_mutex_lock(&m->mu);
    bool invalid = m->invalid;
    int rc = wrong_thread || invalid || open_group ? 0 : append_locked(m, (entry){.kind = ENTRY_END});
    m->ready = !rc && !wrong_thread && !invalid && !open_group;
    pthread_mutex_unlock(&m->mu);
    if (!m->ready) {
        model_retire(m);
        if (wrong_thread)
            return emu_error(ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD, api,
                             "a mode %d capture must end on the thread that began it", u.capture);
        if (open_group)
            return emu_error(ACL_ERROR_STREAM_TASK_GROUP_STATUS, api,
                             "a task group is still open (aclmdlRICaptureTaskGrpEnd)");
        return emu_error(ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED, api,
                         "captured work failed (out of memory): the capture is invalidated and its model destroyed");
    }
    *modelRI = m;
    emu_log(EMU_LOG_INFO, "%s stream=%p -> 0 (model %p, %zu entries)", api, stream, (void *)m, m->n);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclmdlRICaptureThreadExchangeMode(aclmdlRICaptureMode *mode)
{
    EMU_API_ENTRY();
    if (!mode)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "mode is NULL");
    if ((unsigned)*mode > ACL_MODEL_RI_CAPTURE_MODE_RELAXED)
        return emu_error(ACL_ERROR_RT_PARAM_INVALID, api, "mode %d is not an aclmdlRICaptureMode", (int)*mode);
    *mode = (aclmdlRICaptureMode)emu_capture_exchange_mode((int)*mode);
    return ACL_SUCCESS;
}

/* ---- task groups and their update ---------------------------------------------------------- */

/* A capturing stream's state, or ACL_ERROR_RT_STREAM_NOT_CAPTURED. */
static int capturing(const char *api, aclrtStream stream, sink_state **state)
{
    stream_use u;
    int st = stream_arg(api, stream, &u);
    if (!st && (!u.state || u.capture < 0))
        st = emu_error(ACL_ERROR_RT_STREAM_NOT_CAPTURED, api, "stream %p is not being captured", stream);
    *state = u.state;
    return st;
}

ACL_FUNC_VISIBILITY aclError aclmdlRICaptureTaskGrpBegin(aclrtStream stream)
{
    EMU_API_ENTRY();
    sink_state *state = NULL;
    int st = capturing(api, stream, &state);
    if (st)
        return st;
    if (state->group)
        return emu_error(ACL_ERROR_STREAM_TASK_GROUP_STATUS, api, "stream %p has a task group open already", stream);
    task_group *g = calloc(1, sizeof *g);
    model *m = state->m;
    pthread_mutex_lock(&m->mu);
    bool ok = g && emu_grow((void **)&m->groups, &m->cap_groups, m->n_groups, sizeof *m->groups) &&
              emu_registry_add(g, EMU_TASK_GROUP, api) == 0;
    if (ok) {
        g->m = m;
        m->groups[m->n_groups++] = g;
    }
    pthread_mutex_unlock(&m->mu);
    if (!ok) {
        free(g);
        return emu_error(ACL_ERROR_BAD_ALLOC, api, "out of memory");
    }
    state->group = g;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclmdlRICaptureTaskGrpEnd(aclrtStream stream, aclrtTaskGrp *handle)
{
    EMU_API_ENTRY();
    if (!handle)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "handle is NULL");
    sink_state *state = NULL;
    int st = capturing(api, stream, &state);
    if (st)
        return st;
    if (!state->group)
        return emu_error(ACL_ERROR_STREAM_TASK_GROUP_STATUS, api, "stream %p has no task group open", stream);
    *handle = state->group;
    state->group = NULL;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclmdlRICaptureTaskUpdateBegin(aclrtStream stream, aclrtTaskGrp handle)
{
    EMU_API_ENTRY();
    if (!handle)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "handle is NULL");
    stream_use u;
    int st = stream_arg(api, stream, &u);
    if (st)
        return st;
    if (u.state && u.capture >= 0)
        return emu_error(ACL_ERROR_RT_STREAM_CAPTURED, api, "stream %p is being captured", stream);
    if (u.state && u.state->m)
        return emu_error(ACL_ERROR_RT_STREAM_MODEL, api, "stream %p is bound to a model", stream);
    if ((st = emu_check_handle(handle, EMU_TASK_GROUP, ACL_ERROR_INVALID_PARAM, api, "handle")))
        return st;
    task_group *g = handle;
    pthread_mutex_lock(&g->m->mu);
    bool busy = u.state || g->updating;
    g->updating = true;
    pthread_mutex_unlock(&g->m->mu);
    if (busy) {
        if (!u.state) /* it was the group that is busy: leave its flag as it was */
            return emu_error(ACL_ERROR_STREAM_TASK_GROUP_STATUS, api, "task group %p is being updated already",
                             handle);
        pthread_mutex_lock(&g->m->mu);
        g->updating = false;
        pthread_mutex_unlock(&g->m->mu);
        return emu_error(ACL_ERROR_STREAM_TASK_GROUP_STATUS, api, "stream %p is updating a task group already",
                         stream);
    }
    sink_state *ns = calloc(1, sizeof *ns);
    if (!ns || emu_stream_set_sink(u.s, update_sink, ns, -1) != 0) {
        free(ns);
        pthread_mutex_lock(&g->m->mu);
        g->updating = false;
        pthread_mutex_unlock(&g->m->mu);
        return emu_error(ACL_ERROR_BAD_ALLOC, api, "out of memory");
    }
    *ns = (sink_state){.group = g, .stream = u.s};
    pthread_mutex_lock(&g->m->mu);
    g->m->refs++; /* the update: the group lives as long as its model */
    pthread_mutex_unlock(&g->m->mu);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclmdlRICaptureTaskUpdateEnd(aclrtStream stream)
{
    EMU_API_ENTRY();
    stream_use u;
    int st = stream_arg(api, stream, &u);
    if (st)
        return st;
    if (u.state && u.capture >= 0)
        return emu_error(ACL_ERROR_RT_STREAM_CAPTURED, api, "stream %p is being captured", stream);
    if (!u.state || u.state->m)
        return emu_error(u.state ? ACL_ERROR_RT_STREAM_MODEL : ACL_ERROR_STREAM_TASK_GROUP_STATUS, api,
                         "stream %p is not updating a task group (aclmdlRICaptureTaskUpdateBegin)", stream);
    task_group *g = u.state->group;
    size_t done = u.state->next;
    emu_stream_set_sink(u.s, NULL, NULL, -1);
    free(u.state);
    model *m = g->m;
    pthread_mutex_lock(&m->mu);
    g->updating = false;
    size_t n = g->n;
    pthread_mutex_unlock(&m->mu);
    model_unref(m);
    if (done != n)
        return emu_error(ACL_ERROR_RT_INTERNAL_ERROR, api,
                         "%zu of the task group's %zu kernels were replaced: the others are unupdated", done, n);
    return ACL_SUCCESS;
}

/* ---- building ---------------------------------------------------------------------------- */

ACL_FUNC_VISIBILITY aclError aclmdlRIBuildBegin(aclmdlRI *modelRI, uint32_t flag)
{
    EMU_API_ENTRY();
    if (!modelRI)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "modelRI is NULL");
    if (flag != 0)
        return emu_error(ACL_ERROR_RT_PARAM_INVALID, api, "flag %u is reserved and must be 0", (unsigned)flag);
    int st = emu_require_init(api);
    if (st)
        return st;
    model *m = model_new(api, false);
    if (!m)
        return ACL_ERROR_BAD_ALLOC;
    *modelRI = m;
    return ACL_SUCCESS;
}

/* A built model (not a captured one): 0 or a status. */
static int built_model(const char *api, aclmdlRI modelRI)
{
    int st = check_model(api, modelRI, "modelRI");
    if (!st && ((model *)modelRI)->captured)
        st = emu_error(ACL_ERROR_RT_PARAM_INVALID, api, "model %p was captured, not built", modelRI);
    return st;
}

ACL_FUNC_VISIBILITY aclError aclmdlRIBindStream(aclmdlRI modelRI, aclrtStream stream, uint32_t flag)
{
    EMU_API_ENTRY();
    int st = check_model(api, modelRI, "modelRI");
    if (st)
        return st;
    if (flag != MODEL_STREAM_FLAG_HEAD && flag != MODEL_STREAM_FLAG_DEFAULT)
        return emu_error(ACL_ERROR_RT_PARAM_INVALID, api,
                         "flag 0x%x is not ACL_MODEL_STREAM_FLAG_HEAD (0) or _DEFAULT (0x7FFFFFFF)", (unsigned)flag);
    stream_use u;
    if ((st = stream_arg(api, stream, &u)))
        return st;
    uint32_t priority, flags, id;
    emu_stream_get_config(u.s, &priority, &flags, &id);
    if (!(flags & ACL_STREAM_PERSISTENT))
        return emu_error(ACL_ERROR_RT_PARAM_INVALID, api,
                         "stream %p is not persistent: create it with ACL_STREAM_PERSISTENT", stream);
    if (u.state && u.capture < 0)
        return emu_error(ACL_ERROR_RT_STREAM_MODEL, api, "stream %p is bound to a model already", stream);
    if (((model *)modelRI)->captured)
        return emu_error(ACL_ERROR_RT_PARAM_INVALID, api, "model %p was captured, not built", modelRI);
    if (u.state)
        return emu_error(ACL_ERROR_RT_STREAM_CAPTURED, api, "stream %p is being captured", stream);
    sink_state *ns = calloc(1, sizeof *ns);
    if (!ns || emu_stream_set_sink(u.s, model_sink, ns, -1) != 0) {
        free(ns);
        return emu_error(ACL_ERROR_BAD_ALLOC, api, "out of memory");
    }
    *ns = (sink_state){.m = modelRI, .stream = u.s};
    model *m = modelRI;
    pthread_mutex_lock(&m->mu);
    m->refs++; /* the binding: the stream's work may still come after aclmdlRIDestroy */
    pthread_mutex_unlock(&m->mu);
    return ACL_SUCCESS;
}

/* stream's sink state when it is bound to modelRI, else a status. */
static int bound_to(const char *api, aclmdlRI modelRI, aclrtStream stream, sink_state **state, emu_stream **s)
{
    stream_use u;
    int st = stream_arg(api, stream, &u);
    if (!st && u.state && u.capture >= 0)
        st = emu_error(ACL_ERROR_RT_STREAM_CAPTURED, api, "stream %p is being captured", stream);
    else if (!st && (!u.state || !u.state->m || (modelRI && u.state->m != modelRI)))
        st = emu_error(modelRI ? ACL_ERROR_RT_INTERNAL_ERROR : ACL_ERROR_RT_STREAM_MODEL, api,
                       "stream %p is not bound to %s (aclmdlRIBindStream)", stream, modelRI ? "this model" : "a model");
    *state = u.state, *s = u.s;
    return st;
}

ACL_FUNC_VISIBILITY aclError aclmdlRIEndTask(aclmdlRI modelRI, aclrtStream stream)
{
    EMU_API_ENTRY();
    int st = built_model(api, modelRI);
    sink_state *state = NULL;
    emu_stream *s;
    if (st || (st = bound_to(api, modelRI, stream, &state, &s)))
        return st;
    model *m = modelRI;
    pthread_mutex_lock(&m->mu);
    bool again = m->ends > 0;
    if (!again && (st = append_locked(m, (entry){.kind = ENTRY_END})) == 0)
        m->ends++;
    pthread_mutex_unlock(&m->mu);
    if (again)
        return emu_error(ACL_ERROR_RT_INTERNAL_ERROR, api, "model %p has its end task already", modelRI);
    return st ? emu_error(st, api, "out of memory") : ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclmdlRIBuildEnd(aclmdlRI modelRI, void *reserve)
{
    EMU_API_ENTRY();
    if (!modelRI || reserve)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "%s", modelRI ? "reserve must be NULL" : "modelRI is NULL");
    int st = built_model(api, modelRI);
    if (st)
        return st;
    model *m = modelRI;
    pthread_mutex_lock(&m->mu);
    m->ready = m->ends > 0;
    bool ready = m->ready;
    pthread_mutex_unlock(&m->mu);
    return ready ? ACL_SUCCESS
                 : emu_error(ACL_ERROR_RT_MODEL_EXECUTE, api, "model %p has no end task (aclmdlRIEndTask)", modelRI);
}

ACL_FUNC_VISIBILITY aclError aclmdlRIUnbindStream(aclmdlRI modelRI, aclrtStream stream)
{
    EMU_API_ENTRY();
    int st = built_model(api, modelRI);
    sink_state *state = NULL;
    emu_stream *s;
    if (st || (st = bound_to(api, modelRI, stream, &state, &s)))
        return st;
    emu_stream_set_sink(s, NULL, NULL, -1);
    free(state);
    model_unref(modelRI);
    return ACL_SUCCESS;
}

/* ---- execution ------------------------------------------------------------------------------ */

ACL_FUNC_VISIBILITY aclError aclmdlRIExecuteAsync(aclmdlRI modelRI, aclrtStream stream)
{
    EMU_API_ENTRY();
    int st = check_model(api, modelRI, "modelRI");
    emu_stream *s;
    if (st || (st = emu_require_init(api)) || (st = emu_stream_resolve(stream, api, ACL_ERROR_RT_INVALID_HANDLE, &s)))
        return st;
    int capture;
    sink_state *state = emu_stream_sink(s, &capture, NULL);
    if (state && capture < 0)
        return emu_error(ACL_ERROR_RT_PARAM_INVALID, api, "stream %p is bound to a model", stream);
    if (state)
        return emu_error(ACL_ERROR_RT_STREAM_CAPTURED, api, "stream %p is being captured", stream);
    model *m = modelRI;
    launch *l = malloc(sizeof *l);
    if (!l)
        return emu_error(ACL_ERROR_BAD_ALLOC, api, "out of memory");
    pthread_mutex_lock(&m->mu);
    bool ready = m->ready;
    if (ready) {
        m->refs++;
        for (size_t i = 0; i < m->n; i++) /* bind every event record and wait of this run, now */
            if (m->entries[i].kind == ENTRY_TASK && m->entries[i].bind)
                m->entries[i].bind(m->entries[i].ctx, s);
    }
    pthread_mutex_unlock(&m->mu);
    if (!ready) {
        free(l);
        return emu_error(ACL_ERROR_RT_MODEL_EXECUTE, api, "model %p is not ready: %s", modelRI,
                         m->captured ? "its capture has not ended" : "aclmdlRIBuildEnd was not called");
    }
    *l = (launch){.m = m};
    if ((st = emu_stream_enqueue(s, launch_run, launch_release, l, NULL)) != 0)
        return emu_error(st, api, "out of memory");
    emu_log(EMU_LOG_INFO, "%s model=%p stream=%p -> 0", api, modelRI, stream);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclmdlRIExecute(aclmdlRI modelRI, int32_t timeout)
{
    EMU_API_ENTRY();
    int st = emu_check_timeout(api, timeout);
    emu_stream *s;
    if (st || (st = aclmdlRIExecuteAsync(modelRI, NULL)) ||
        (st = emu_stream_resolve(NULL, api, ACL_ERROR_RT_INVALID_HANDLE, &s)))
        return st;
    return emu_stream_sync(s, api, timeout);
}

ACL_FUNC_VISIBILITY aclError aclmdlRIDestroy(aclmdlRI modelRI)
{
    EMU_API_ENTRY();
    int st = check_model(api, modelRI, "modelRI");
    if (!st) /* runs under way hold their own reference */
        model_retire(modelRI);
    return st;
}

ACL_FUNC_VISIBILITY aclError aclmdlRIDebugJsonPrint(aclmdlRI modelRI, const char *path, uint32_t flags)
{
    EMU_API_ENTRY();
    (void)flags;
    if (!path)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "path is NULL");
    int st = check_model(api, modelRI, "modelRI");
    if (st)
        return st;
    FILE *f = fopen(path, "w");
    if (!f)
        return emu_error(ACL_ERROR_RT_PARAM_INVALID, api, "cannot write \"%s\"", path);
    static const char *const names[] = {"TASK", "LABEL_SET", "LABEL_SWITCH_BY_INDEX", "MODEL_END_GRAPH"};
    model *m = modelRI;
    pthread_mutex_lock(&m->mu);
    fputc('[', f);
    for (size_t i = 0; i < m->n; i++) {
        const entry *e = &m->entries[i];
        const char *type = e->kind != ENTRY_TASK         ? names[e->kind]
                           : emu_task_is_kernel(e->fn) ? "KERNEL_AICORE"
                                                        : "STREAM_TASK";
        fprintf(f,
                "%s{\"name\":\"%s\",\"ph\":\"X\",\"pid\":\"%ld aclGraph\",\"tid\":\"model %p\",\"ts\":%zu,\"dur\":1,"
                "\"args\":{\"Task Id\":%zu,\"Task Type\":\"%s\"}}",
                i ? "," : "", type, (long)getpid(), (void *)m, i, i, type);
    }
    fputs("]\n", f);
    pthread_mutex_unlock(&m->mu);
    return fclose(f) == 0 ? ACL_SUCCESS : emu_error(ACL_ERROR_RT_PARAM_INVALID, api, "writing \"%s\" failed", path);
}

/* ---- labels --------------------------------------------------------------------------------- */

ACL_FUNC_VISIBILITY aclError aclrtCreateLabel(aclrtLabel *lbl)
{
    EMU_API_ENTRY();
    if (!lbl)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "label is NULL");
    int st = emu_require_init(api);
    if (st)
        return st;
    label *l = emu_handle_alloc(sizeof *l, EMU_LABEL, api);
    if (!l)
        return ACL_ERROR_BAD_ALLOC;
    *lbl = l;
    return ACL_SUCCESS;
}

static int check_label(const char *api, aclrtLabel l)
{
    return emu_check_handle_arg(l, EMU_LABEL, ACL_ERROR_INVALID_PARAM, api, "label");
}

ACL_FUNC_VISIBILITY aclError aclrtDestroyLabel(aclrtLabel lbl)
{
    EMU_API_ENTRY();
    int st = check_label(api, lbl);
    if (!st && ((label *)lbl)->list)
        st = emu_error(ACL_ERROR_RT_INTERNAL_ERROR, api,
                       "label %p is in a label list: destroy the list first (aclrtDestroyLabelList)", lbl);
    if (!st)
        emu_registry_release(lbl, EMU_LABEL, sizeof(label), free);
    return st;
}

ACL_FUNC_VISIBILITY aclError aclrtCreateLabelList(aclrtLabel *labels, size_t num, aclrtLabelList *labelList)
{
    EMU_API_ENTRY();
    if (!labels || !labelList)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "%s is NULL", labels ? "labelList" : "labels");
    if (num == 0 || num > MAX_LABELS)
        return emu_error(ACL_ERROR_RT_PARAM_INVALID, api, "num %zu is out of range [1, %d]", num, MAX_LABELS);
    for (size_t i = 0; i < num; i++) {
        int st = check_label(api, labels[i]);
        if (st)
            return st;
        if (((label *)labels[i])->list)
            return emu_error(ACL_ERROR_RT_INTERNAL_ERROR, api, "labels[%zu] is in another label list already", i);
    }
    label_list *list = emu_handle_alloc(sizeof *list, EMU_LABEL_LIST, api);
    label **members = list ? malloc(num * sizeof *members) : NULL;
    if (!members) {
        if (list)
            emu_registry_release(list, EMU_LABEL_LIST, sizeof *list, free);
        return emu_error(ACL_ERROR_BAD_ALLOC, api, "out of memory");
    }
    for (size_t i = 0; i < num; i++) {
        members[i] = labels[i];
        members[i]->list = list;
    }
    *list = (label_list){members, num};
    *labelList = list;
    return ACL_SUCCESS;
}

static void label_list_release(void *p)
{
    label_list *list = p;
    free(list->labels);
    free(list);
}

ACL_FUNC_VISIBILITY aclError aclrtDestroyLabelList(aclrtLabelList labelList)
{
    EMU_API_ENTRY();
    int st = emu_check_handle_arg(labelList, EMU_LABEL_LIST, ACL_ERROR_INVALID_PARAM, api, "labelList");
    if (st)
        return st;
    label_list *list = labelList;
    for (size_t i = 0; i < list->n; i++)
        if (emu_registry_find(list->labels[i], EMU_LABEL) == EMU_LIVE)
            list->labels[i]->list = NULL;
    emu_registry_release(list, EMU_LABEL_LIST, sizeof *list, label_list_release);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtSetLabel(aclrtLabel lbl, aclrtStream stream)
{
    EMU_API_ENTRY();
    int st = check_label(api, lbl);
    emu_stream *s;
    sink_state *state = NULL;
    if (st || (st = bound_to(api, NULL, stream, &state, &s)))
        return st;
    label *l = lbl;
    if (l->set)
        return emu_error(ACL_ERROR_RT_INTERNAL_ERROR, api, "label %p is set already", lbl);
    if (!l->list)
        return emu_error(ACL_ERROR_RT_INTERNAL_ERROR, api, "label %p is in no label list (aclrtCreateLabelList)",
                         lbl);
    model *m = state->m;
    pthread_mutex_lock(&m->mu);
    if ((st = append_locked(m, (entry){.kind = ENTRY_LABEL})) == 0)
        *l = (label){.m = m, .at = m->n - 1, .set = true, .list = l->list};
    pthread_mutex_unlock(&m->mu);
    return st ? emu_error(st, api, "out of memory") : ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtSwitchLabelByIndex(void *ptr, uint32_t maxValue, aclrtLabelList labelList,
                                                     aclrtStream stream)
{
    EMU_API_ENTRY();
    if (!ptr || !labelList || !stream)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "%s is NULL", !ptr ? "ptr" : !labelList ? "labelList" : "stream");
    int st = emu_check_handle(labelList, EMU_LABEL_LIST, ACL_ERROR_INVALID_PARAM, api, "labelList");
    emu_stream *s;
    sink_state *state = NULL;
    if (st || (st = bound_to(api, NULL, stream, &state, &s)))
        return st;
    emu_block_info b;
    if (!emu_mem_find(ptr, sizeof(uint32_t), &b) || !b.device)
        return emu_error(ACL_ERROR_RT_PARAM_INVALID, api, "ptr %p is not 4 bytes of device memory (aclrtMalloc)", ptr);
    (void)maxValue; /* CANN's switch takes the last label for any index past the list */
    model *m = state->m;
    pthread_mutex_lock(&m->mu);
    st = append_locked(m, (entry){.kind = ENTRY_SWITCH, .index_ptr = ptr, .list = labelList});
    pthread_mutex_unlock(&m->mu);
    return st ? emu_error(st, api, "out of memory") : ACL_SUCCESS;
}
