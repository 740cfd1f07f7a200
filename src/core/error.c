/*
 * Per-thread recent error message (aclGetRecentErrMsg) and error reporting.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include <stdio.h>
#include <string.h>

#include "core.h"

/* CANN keeps the message per host thread and clears it when read. */
static _Thread_local char tl_message[EMU_MSG_MAX];
static _Thread_local char tl_returned[EMU_MSG_MAX];
static _Thread_local int tl_last_status; /* aclrtGetLastError */

int emu_last_status(bool clear)
{
    int st = tl_last_status;
    if (clear)
        tl_last_status = 0;
    return st;
}

void emu_set_last_status(int status)
{
    tl_last_status = status;
}

void emu_error_set_raw(const char *msg)
{
    snprintf(tl_message, sizeof tl_message, "%s", msg);
}

int emu_error(int status, const char *api, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int st = emu_errorv(status, api, fmt, ap);
    va_end(ap);
    return st;
}

int emu_errorv(int status, const char *api, const char *fmt, va_list ap)
{
    char body[EMU_MSG_MAX];
    vsnprintf(body, sizeof body, fmt, ap);
    snprintf(tl_message, sizeof tl_message, "%s: %s", api, body);
    tl_last_status = status;
    emu_diag_error();
    emu_log(EMU_LOG_ERROR, "%s -> %d", tl_message, status);
    return status;
}

ACL_FUNC_VISIBILITY const char *aclGetRecentErrMsg(void)
{
    /* Hand out a copy so the caller's pointer stays valid after the clear. */
    memcpy(tl_returned, tl_message, sizeof tl_returned);
    tl_message[0] = '\0';
    return tl_returned;
}
