/*
 * libc_sec's bounds-checked functions (include/securec.h), with
 * libboundscheck's checks and return codes, for the programs CANN's samples
 * are.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "securec.h"

#define EXPORT __attribute__((visibility("default")))

static bool overlap(const void *a, size_t na, const void *b, size_t nb)
{
    uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;
    return x < y + nb && y < x + na;
}

EXPORT errno_t memset_s(void *dest, size_t destMax, int c, size_t count)
{
    if (destMax == 0 || destMax > SECUREC_MEM_MAX_LEN)
        return SECUREC_ERANGE;
    if (!dest)
        return SECUREC_EINVAL;
    if (count > destMax) {
        memset(dest, c, destMax);
        return SECUREC_ERANGE_AND_RESET;
    }
    memset(dest, c, count);
    return EOK;
}

static errno_t copy_checked(void *dest, size_t destMax, const void *src, size_t count, bool may_overlap)
{
    if (destMax == 0 || destMax > SECUREC_MEM_MAX_LEN)
        return SECUREC_ERANGE;
    if (!dest)
        return SECUREC_EINVAL;
    if (!src) {
        memset(dest, 0, destMax);
        return SECUREC_EINVAL_AND_RESET;
    }
    if (count > destMax) {
        memset(dest, 0, destMax);
        return SECUREC_ERANGE_AND_RESET;
    }
    if (!may_overlap && dest != src && overlap(dest, count, src, count)) {
        memset(dest, 0, destMax);
        return SECUREC_EOVERLAP_AND_RESET;
    }
    if (count && dest != src)
        memmove(dest, src, count);
    return EOK;
}

EXPORT errno_t memcpy_s(void *dest, size_t destMax, const void *src, size_t count)
{
    return copy_checked(dest, destMax, src, count, false);
}

EXPORT errno_t memmove_s(void *dest, size_t destMax, const void *src, size_t count)
{
    return copy_checked(dest, destMax, src, count, true);
}

/* Writes len characters of src and a NUL at dest + at (destMax bytes in all), or clears dest. */
static errno_t put_string(char *dest, size_t destMax, size_t at, const char *src, size_t len)
{
    if (at + len >= destMax) {
        dest[0] = '\0';
        return SECUREC_ERANGE_AND_RESET;
    }
    if (overlap(dest, destMax, src, len + 1)) {
        dest[0] = '\0';
        return SECUREC_EOVERLAP_AND_RESET;
    }
    memcpy(dest + at, src, len);
    dest[at + len] = '\0';
    return EOK;
}

/* The checks every string function makes first; -1 when they pass. */
static int string_args(char *dest, size_t destMax, const char *src)
{
    if (destMax == 0 || destMax > SECUREC_STRING_MAX_LEN)
        return SECUREC_ERANGE;
    if (!dest)
        return SECUREC_EINVAL;
    if (!src) {
        dest[0] = '\0';
        return SECUREC_EINVAL_AND_RESET;
    }
    return -1;
}

EXPORT errno_t strcpy_s(char *strDest, size_t destMax, const char *strSrc)
{
    int st = string_args(strDest, destMax, strSrc);
    return st >= 0 ? st : put_string(strDest, destMax, 0, strSrc, strnlen(strSrc, destMax));
}

EXPORT errno_t strncpy_s(char *strDest, size_t destMax, const char *strSrc, size_t count)
{
    int st = string_args(strDest, destMax, strSrc);
    if (st >= 0)
        return st;
    size_t len = strnlen(strSrc, count < destMax ? count : destMax);
    return put_string(strDest, destMax, 0, strSrc, len);
}

EXPORT errno_t strcat_s(char *strDest, size_t destMax, const char *strSrc)
{
    int st = string_args(strDest, destMax, strSrc);
    if (st >= 0)
        return st;
    size_t at = strnlen(strDest, destMax);
    if (at == destMax) { /* dest holds no string */
        strDest[0] = '\0';
        return SECUREC_EINVAL_AND_RESET;
    }
    return put_string(strDest, destMax, at, strSrc, strnlen(strSrc, destMax));
}
