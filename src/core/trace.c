/*
 * The timeline `aclnn-emu run --trace` writes: when ACLNN_EMU_TRACE_FILE
 * names a file, operators (on the track of the stream thread that ran
 * them), model runs, msproftx marks and ranges, mstx marks and ranges by
 * domain, and profiling steps are recorded, and written at exit as a JSON
 * object in the Chrome trace event format, which Perfetto and
 * chrome://tracing open. Recording is off (one branch) otherwise.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core.h"

#define TRACE_MAX_EVENTS (1u << 20) /* past this, events are counted and dropped */
#define TRACE_NAME_MAX 128
#define TRACE_MAX_OPEN_RANGES 1024

typedef struct trace_event {
    char ph;
    char name[TRACE_NAME_MAX];
    char cat[64];
    double ts, dur; /* microseconds */
    uint64_t id;
    int tid;
} trace_event;

typedef struct open_range {
    uint64_t id;
    char name[TRACE_NAME_MAX];
    char cat[64];
} open_range;

static pthread_mutex_t trace_mu = PTHREAD_MUTEX_INITIALIZER;
static trace_event *events;
static size_t n_events, cap_events, dropped;
static open_range ranges[TRACE_MAX_OPEN_RANGES];
static size_t n_ranges;
static char (*thread_names)[96]; /* by track id */
static size_t n_thread_names;
static atomic_uint next_tid = 1;
static atomic_uint_fast64_t next_range_id = 1;
static _Thread_local int my_tid, track;
static const char *trace_path;
static pthread_once_t trace_once = PTHREAD_ONCE_INIT;
EMU_FORK_SAFE_MUTEX(trace_mu, EMU_ATFORK_TRACE)

static void read_path(void)
{
    const char *p = getenv("ACLNN_EMU_TRACE_FILE");
    trace_path = p && *p ? p : NULL;
}

bool emu_trace_on(void)
{
    pthread_once(&trace_once, read_path);
    return trace_path != NULL;
}

double emu_trace_now_us(void)
{
    return emu_now() * 1e6;
}

/* The calling thread's track: the one it entered, else its own (numbered in the order threads first record). */
static int tid_locked(void)
{
    if (track)
        return track;
    if (!my_tid)
        my_tid = (int)atomic_fetch_add(&next_tid, 1);
    return my_tid;
}

static void copy_text(char *dst, size_t cap, const char *src)
{
    snprintf(dst, cap, "%s", src ? src : "");
}

void emu_trace_event(char ph, const char *name, const char *cat, double ts_us, double dur_us, uint64_t id)
{
    if (!emu_trace_on())
        return;
    pthread_mutex_lock(&trace_mu);
    if (n_events == cap_events) {
        size_t want = cap_events ? 2 * cap_events : 1024;
        trace_event *grown = want <= TRACE_MAX_EVENTS ? realloc(events, want * sizeof *events) : NULL;
        if (grown)
            events = grown, cap_events = want;
    }
    if (n_events < cap_events) {
        trace_event *e = &events[n_events++];
        e->ph = ph, e->ts = ts_us, e->dur = dur_us, e->id = id, e->tid = tid_locked();
        copy_text(e->name, sizeof e->name, name);
        copy_text(e->cat, sizeof e->cat, cat);
    } else {
        dropped++;
    }
    pthread_mutex_unlock(&trace_mu);
}

/* Names track tid (trace_mu held) unless named already and keep is set. */
static void name_track_locked(size_t tid, bool keep, const char *fmt, va_list ap);

void emu_trace_thread_name(const char *fmt, ...)
{
    if (!emu_trace_on())
        return;
    va_list ap;
    va_start(ap, fmt);
    pthread_mutex_lock(&trace_mu);
    name_track_locked((size_t)tid_locked(), false, fmt, ap);
    pthread_mutex_unlock(&trace_mu);
    va_end(ap);
}

void emu_trace_track_enter(int key, const char *fmt, ...)
{
    if (!emu_trace_on())
        return;
    va_list ap;
    va_start(ap, fmt);
    pthread_mutex_lock(&trace_mu);
    name_track_locked((size_t)key, true, fmt, ap);
    pthread_mutex_unlock(&trace_mu);
    va_end(ap);
    track = key;
}

void emu_trace_track_leave(void)
{
    track = 0;
}

static void name_track_locked(size_t tid, bool keep, const char *fmt, va_list ap)
{
    if (tid >= n_thread_names) {
        size_t want = tid + 64;
        char(*grown)[96] = realloc(thread_names, want * sizeof *thread_names);
        if (grown) {
            memset(grown + n_thread_names, 0, (want - n_thread_names) * sizeof *grown);
            thread_names = grown, n_thread_names = want;
        }
    }
    if (tid < n_thread_names && !(keep && thread_names[tid][0]))
        vsnprintf(thread_names[tid], sizeof thread_names[tid], fmt, ap);
}

uint64_t emu_trace_range_begin(const char *name, const char *cat)
{
    if (!emu_trace_on())
        return 0;
    uint64_t id = atomic_fetch_add(&next_range_id, 1);
    pthread_mutex_lock(&trace_mu);
    bool kept = n_ranges < TRACE_MAX_OPEN_RANGES;
    if (kept) {
        ranges[n_ranges].id = id;
        copy_text(ranges[n_ranges].name, sizeof ranges[n_ranges].name, name);
        copy_text(ranges[n_ranges].cat, sizeof ranges[n_ranges].cat, cat);
        n_ranges++;
    }
    pthread_mutex_unlock(&trace_mu);
    if (kept)
        emu_trace_event('b', name, cat, emu_trace_now_us(), 0, id);
    return kept ? id : 0;
}

bool emu_trace_range_end(uint64_t id)
{
    if (!emu_trace_on() || id == 0)
        return false;
    open_range r = {0};
    pthread_mutex_lock(&trace_mu);
    for (size_t i = 0; i < n_ranges; i++)
        if (ranges[i].id == id) {
            r = ranges[i];
            ranges[i] = ranges[--n_ranges];
            break;
        }
    pthread_mutex_unlock(&trace_mu);
    if (r.id)
        emu_trace_event('e', r.name, r.cat, emu_trace_now_us(), 0, id);
    return r.id != 0;
}

/* A JSON string: quotes, backslashes and control characters escaped. */
static void put_json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p < 0x20)
            fprintf(f, "\\u%04x", *p);
        else
            fputc(*p, f);
    }
    fputc('"', f);
}

void emu_trace_write(void)
{
    if (!emu_trace_on())
        return;
    FILE *f = fopen(trace_path, "w");
    if (!f)
        return;
    long pid = (long)getpid();
    pthread_mutex_lock(&trace_mu);
    fputs("{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n", f);
    fprintf(f, "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%ld,\"tid\":0,\"args\":{\"name\":\"aclnn-emu\"}}",
            pid);
    for (size_t t = 0; t < n_thread_names; t++)
        if (thread_names[t][0]) {
            fprintf(f, ",\n{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%ld,\"tid\":%zu,\"args\":{\"name\":", pid, t);
            put_json_string(f, thread_names[t]);
            fputs("}}", f);
        }
    for (size_t i = 0; i < n_events; i++) {
        const trace_event *e = &events[i];
        fprintf(f, ",\n{\"ph\":\"%c\",\"name\":", e->ph);
        put_json_string(f, e->name);
        fputs(",\"cat\":", f);
        put_json_string(f, e->cat[0] ? e->cat : "aclnn-emu");
        fprintf(f, ",\"pid\":%ld,\"tid\":%d,\"ts\":%.3f", pid, e->tid, e->ts);
        if (e->ph == 'X')
            fprintf(f, ",\"dur\":%.3f", e->dur);
        if (e->ph == 'i')
            fputs(",\"s\":\"t\"", f);
        if (e->ph == 'b' || e->ph == 'e')
            fprintf(f, ",\"id\":\"0x%llx\"", (unsigned long long)e->id);
        fputc('}', f);
    }
    fprintf(f, "\n],\"otherData\":{\"dropped_events\":%zu}}\n", dropped);
    pthread_mutex_unlock(&trace_mu);
    fclose(f);
}

__attribute__((destructor)) static void write_trace_at_exit(void)
{
    emu_trace_write();
}
