/*
 * Process-wide teardown and reports: aclFinalize with its leak report, and
 * the diagnostics report behind `aclnn-emu run` (also written at exit).
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include <signal.h>
#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "runtime.h"

size_t emu_leak_report(char *report, size_t cap, char *summary, size_t sum_cap)
{
    size_t used = 0, leaks = 0, sum_used = 0;
    summary[0] = '\0';
    for (int kind = EMU_TENSOR; kind <= EMU_KIND_COUNT; kind++) {
        /* The last round counts device memory blocks. */
        size_t n = kind < EMU_KIND_COUNT ? emu_registry_report((emu_kind)kind, report, cap, &used)
                                         : emu_mem_live_blocks(report, cap, &used);
        if (n)
            emu_append(summary, sum_cap, &sum_used, "%s%zu %s", leaks ? ", " : "", n,
                       kind < EMU_KIND_COUNT ? emu_kind_name((emu_kind)kind) : "memory block(s)");
        leaks += n;
    }
    report[used < cap ? used : cap - 1] = '\0';
    return leaks;
}

ACL_FUNC_VISIBILITY aclError aclFinalize(void)
{
    EMU_API_ENTRY();
    if (!emu_initialized())
        return emu_error(ACL_ERROR_REPEAT_FINALIZE, api, "aclFinalize without a matching aclInit");
    /* Taken first: user streams are listed before aclFinalize destroys them. */
    char report[8192], summary[512];
    size_t leaks = emu_leak_report(report, sizeof report, summary, sizeof summary);
    emu_stream **streams = NULL;
    size_t n = 0, n_user = 0;
    int st = emu_devices_shutdown(api, &streams, &n, &n_user);
    if (st)
        return st;
    /* Leftover streams finish their work and go (default streams last). */
    for (size_t i = 0; i < n; i++)
        emu_stream_destroy(streams[i]);
    free(streams);
    emu_mem_release_all();
    if (leaks) {
        emu_diag_leaks(report);
        size_t len = strlen(report);
        if (len > 0 && report[len - 1] == '\n')
            report[len - 1] = '\0';
        return emu_misuse(ACL_ERROR_FAILURE, api, "%zu resource(s) still alive at aclFinalize (%s):\n%s", leaks, summary,
                          report);
    }
    emu_log(EMU_LOG_INFO, "aclFinalize -> 0");
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY size_t aclnnEmuReport(char *buf, size_t cap)
{
    size_t used = 0;
    if (!buf)
        cap = 0;
    emu_append(buf, cap, &used, "aclnn-emu report\n");
    emu_diag_format(buf, cap, &used);
    emu_append(buf, cap, &used, "live resources:\n");
    size_t live = 0;
    for (int k = EMU_TENSOR; k < EMU_KIND_COUNT; k++)
        live += emu_registry_report((emu_kind)k, buf, cap, &used);
    live += emu_mem_live_blocks(buf, cap, &used);
    if (!live)
        emu_append(buf, cap, &used, "  none\n");
    if (cap)
        buf[used < cap ? used : cap - 1] = '\0';
    return used;
}

ACL_FUNC_VISIBILITY uint64_t aclnnEmuLiveHandles(void)
{
    uint64_t n = 0;
    for (int k = EMU_TENSOR; k < EMU_KIND_COUNT; k++)
        n += emu_registry_count((emu_kind)k);
    size_t used = 0;
    n += emu_mem_live_blocks(NULL, 0, &used);
    return n;
}

/* `aclnn-emu run` asks for the report through the environment: written when
 * the program exits normally (also when it never called aclFinalize), and
 * when a fatal signal ends it (what is known so far, then the signal). */
static void write_report(const char *path)
{
    size_t need = aclnnEmuReport(NULL, 0) + 1;
    char *buf = malloc(need);
    FILE *f = buf ? fopen(path, "w") : NULL;
    if (f) {
        aclnnEmuReport(buf, need);
        fputs(buf, f);
        fclose(f);
    }
    free(buf);
}

static volatile sig_atomic_t report_written;

__attribute__((destructor)) static void write_report_at_exit(void)
{
    const char *path = getenv("ACLNN_EMU_REPORT_FILE");
    if (path && *path && !report_written)
        write_report(path);
}

static const int fatal_signals[] = {SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL, SIGTERM};

/* Best effort: the report takes the library's locks and allocates, which a
 * signal that arrived inside the library may make impossible; a watchdog
 * alarm ends a report stuck that way, and the signal is raised again with
 * its default action either way, so the program dies as it would have. */
static void report_on_signal(int sig)
{
    const char *path = getenv("ACLNN_EMU_REPORT_FILE");
    if (!report_written) {
        report_written = 1;
        signal(SIGALRM, SIG_DFL);
        alarm(2);
        if (path && *path)
            write_report(path);
        emu_trace_write();
        alarm(0);
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

__attribute__((constructor)) static void install_report_handlers(void)
{
    const char *path = getenv("ACLNN_EMU_REPORT_FILE");
    if ((!path || !*path) && !emu_trace_on())
        return;
    for (size_t i = 0; i < sizeof fatal_signals / sizeof *fatal_signals; i++) {
        struct sigaction old;
        /* A program's own handler stays: it is the program's business. */
        if (sigaction(fatal_signals[i], NULL, &old) == 0 && old.sa_handler == SIG_DFL)
            signal(fatal_signals[i], report_on_signal);
    }
}
