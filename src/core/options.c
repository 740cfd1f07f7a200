/*
 * Warnings, misuse reports and the public option API (aclnnEmuSetOption,
 * aclnnEmuSetSoc, ...): the part of the core layer that reports through
 * error.c. The settings themselves live in config.c, below error.c.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include <stdio.h>
#include <string.h>

#include "core.h"

/* ---- warnings --------------------------------------------------------- */

/* Undelivered warnings of this host thread; while a thread runs stream work,
 * its warnings go to that stream's list instead and reach the thread that
 * synchronises with the stream (as a task's error does). */
static _Thread_local emu_warnings tl_warnings;
static _Thread_local emu_warnings *tl_capture;

static void warnings_push(emu_warnings *w, const char *msg)
{
    if (w->count == EMU_WARNINGS_KEPT) {
        w->head = (w->head + 1) % EMU_WARNINGS_KEPT;
        w->count--;
        w->dropped++;
    }
    snprintf(w->msg[(w->head + w->count) % EMU_WARNINGS_KEPT], sizeof w->msg[0], "%s", msg);
    w->count++;
}

emu_warnings *emu_warnings_capture(emu_warnings *sink)
{
    emu_warnings *old = tl_capture;
    tl_capture = sink;
    return old;
}

void emu_warnings_merge(emu_warnings *to, emu_warnings *from)
{
    for (unsigned i = 0; i < from->count; i++)
        warnings_push(to, from->msg[(from->head + i) % EMU_WARNINGS_KEPT]);
    to->dropped += from->dropped;
    from->head = from->count = 0;
    from->dropped = 0;
}

void emu_warnings_deliver(emu_warnings *from)
{
    emu_warnings_merge(&tl_warnings, from);
}

void emu_warning(const char *api, const char *fmt, ...)
{
    char body[EMU_MSG_MAX], line[EMU_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(body, sizeof body, fmt, ap);
    va_end(ap);
    snprintf(line, sizeof line, "%s: %s", api, body);
    emu_diag_warning();
    emu_log(EMU_LOG_WARNING, "%s", line);
    warnings_push(tl_capture ? tl_capture : &tl_warnings, line);
}

int emu_misuse(int status, const char *api, const char *fmt, ...)
{
    char body[EMU_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(body, sizeof body, fmt, ap); /* once: the strict and the normal message share it */
    va_end(ap);
    if (emu_strict()) {
        emu_diag_warning();
        return emu_error(status, api, "%s (strict mode)", body);
    }
    emu_warning(api, "%s", body);
    return 0;
}

ACL_FUNC_VISIBILITY uint64_t aclnnEmuPendingWarnings(void)
{
    return tl_warnings.count + (tl_warnings.dropped ? 1 : 0);
}

ACL_FUNC_VISIBILITY size_t aclnnEmuTakeWarning(char *buf, size_t cap)
{
    emu_warnings *w = &tl_warnings;
    char one[sizeof w->msg[0] + 64];
    if (w->count) {
        snprintf(one, sizeof one, "%s", w->msg[w->head]);
        w->head = (w->head + 1) % EMU_WARNINGS_KEPT;
        w->count--;
    } else if (w->dropped) {
        snprintf(one, sizeof one, "%llu more warning(s) were not kept (see the log)", (unsigned long long)w->dropped);
        w->dropped = 0;
    } else {
        one[0] = '\0';
    }
    if (buf && cap)
        snprintf(buf, cap, "%s", one);
    return strlen(one);
}

ACL_FUNC_VISIBILITY aclError aclnnEmuSetOption(const char *name, int64_t value)
{
    static const char api[] = "aclnnEmuSetOption";
    int lo = 0, hi = 0;
    switch (emu_config_set(name, value, &lo, &hi)) {
    case EMU_CONFIG_OK:
        return ACL_SUCCESS;
    case EMU_CONFIG_UNKNOWN:
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "unknown option \"%s\"", name ? name : "(null)");
    case EMU_CONFIG_RANGE:
        if (hi == INT32_MAX && lo == 0) /* the byte count */
            return emu_error(ACL_ERROR_INVALID_PARAM, api, "%s must be >= 0, got %lld", name, (long long)value);
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "%s must be in [%d, %d], got %lld", name, lo, hi,
                         (long long)value);
    default:
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "%s can only be set before aclInit", name);
    }
}

ACL_FUNC_VISIBILITY aclError aclnnEmuGetOption(const char *name, int64_t *value)
{
    static const char api[] = "aclnnEmuGetOption";
    if (!value)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "value is NULL");
    if (emu_config_get(name, value) != EMU_CONFIG_OK)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "unknown option \"%s\"", name ? name : "(null)");
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclnnEmuSetSoc(const char *name)
{
    static const char api[] = "aclnnEmuSetSoc";
    const emu_config_result r = emu_config_set_soc(name);
    if (r == EMU_CONFIG_UNKNOWN) {
        char names[512];
        size_t used = 0;
        names[0] = '\0';
        for (size_t k = 0; emu_soc_name_at(k); k++)
            emu_append(names, sizeof names, &used, "%s%s", k ? ", " : "", emu_soc_name_at(k));
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "name \"%s\" is not an emulated SoC (%s)", name ? name : "(null)",
                         names);
    }
    if (r == EMU_CONFIG_LOCKED)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "the SoC can only be chosen before aclInit");
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY const char *aclrtGetSocName(void)
{
    return emu_soc_current()->name;
}

ACL_FUNC_VISIBILITY const char *aclnnEmuVersion(void)
{
    return ACLNN_EMU_VERSION;
}
