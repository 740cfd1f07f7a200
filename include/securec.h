/*
 * aclnn-emu: the bounds-checked memory and string functions CANN ships as
 * libc_sec (the libboundscheck library's securec.h), as CANN's samples call
 * them. Same names, signatures and return codes; implemented by the
 * emulator's library (the toolkit's libc_sec.so links to it).
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#ifndef SECUREC_H_5D13A042_DC3F_4ED9_A8D1_882811274C27
#define SECUREC_H_5D13A042_DC3F_4ED9_A8D1_882811274C27

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef EOK
#define EOK 0
#endif
#ifndef errno_t
typedef int errno_t;
#endif

/* What a failed call returns: the plain codes leave dest alone, the *_AND_RESET ones cleared it. */
#define SECUREC_EINVAL 22              /* EINVAL: dest is NULL */
#define SECUREC_ERANGE 34              /* ERANGE: destMax is 0 or over SECUREC_MEM_MAX_LEN */
#define SECUREC_EINVAL_AND_RESET 150   /* src is NULL: dest was cleared */
#define SECUREC_ERANGE_AND_RESET 162   /* the data does not fit in destMax: dest was cleared (memset_s: filled) */
#define SECUREC_EOVERLAP_AND_RESET 182 /* dest and src overlap: dest was cleared */
#define SECUREC_MEM_MAX_LEN 0x7fffffffUL
#define SECUREC_STRING_MAX_LEN 0x7fffffffUL

/** Sets count bytes of dest (destMax bytes) to c; count > destMax fills destMax bytes and returns ERANGE_AND_RESET. */
errno_t memset_s(void *dest, size_t destMax, int c, size_t count);
/** Copies count bytes; refuses NULL, overlap and count > destMax (clearing dest). */
errno_t memcpy_s(void *dest, size_t destMax, const void *src, size_t count);
/** memcpy_s for buffers that may overlap. */
errno_t memmove_s(void *dest, size_t destMax, const void *src, size_t count);
/** Copies the string src with its NUL; refuses a src that does not fit (dest becomes ""). */
errno_t strcpy_s(char *strDest, size_t destMax, const char *strSrc);
/** Copies at most count characters of src and a NUL; refuses what does not fit (dest becomes ""). */
errno_t strncpy_s(char *strDest, size_t destMax, const char *strSrc, size_t count);
/** Appends src to dest; refuses what does not fit (dest becomes ""). */
errno_t strcat_s(char *strDest, size_t destMax, const char *strSrc);

#ifdef __cplusplus
}
#endif

#endif
