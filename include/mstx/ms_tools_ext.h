/*
 * aclnn-emu: the MindStudio tools extension (mstx/ms_tools_ext.h): marks and
 * ranges, globally or in a named domain, that a profiler shows on its
 * timeline. Declared with CANN's signatures. As in CANN, marks and ranges do
 * nothing unless msproftx profiling is on, which the emulator does not start:
 * they are accepted and ignored (a range's id is MSTX_INVALID_ID). Domains
 * follow CANN's rules: a name makes one domain, and "default" is taken.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#ifndef INC_EXTERNAL_MS_TOOLS_EXT_H_
#define INC_EXTERNAL_MS_TOOLS_EXT_H_

#include "acl/acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MSTX_INVALID_ID 0

typedef uint64_t mstxRangeId;
struct mstxDomainRegistration_st;
typedef struct mstxDomainRegistration_st mstxDomainRegistration_t;
typedef mstxDomainRegistration_t *mstxDomainHandle_t;

/** A mark with message (on stream when not NULL). */
ACL_FUNC_VISIBILITY void mstxMarkA(const char *message, aclrtStream stream);
/** Opens a range; its id, MSTX_INVALID_ID while profiling is off. */
ACL_FUNC_VISIBILITY mstxRangeId mstxRangeStartA(const char *message, aclrtStream stream);
/** Closes a range (an id no range has is ignored). */
ACL_FUNC_VISIBILITY void mstxRangeEnd(mstxRangeId id);
/**
 * The domain named name: the same handle for the same name. NULL for NULL, an empty name or one starting
 * with '=', '+', '-' or '@', a name of 1024 bytes or more, or "default" (the built-in domain's).
 */
ACL_FUNC_VISIBILITY mstxDomainHandle_t mstxDomainCreateA(const char *name);
/** Forgets a domain (NULL or unknown: nothing). */
ACL_FUNC_VISIBILITY void mstxDomainDestroy(mstxDomainHandle_t handle);
/** mstxMarkA in a domain. */
ACL_FUNC_VISIBILITY void mstxDomainMarkA(mstxDomainHandle_t handle, const char *message, aclrtStream stream);
/** mstxRangeStartA in a domain. */
ACL_FUNC_VISIBILITY mstxRangeId mstxDomainRangeStartA(mstxDomainHandle_t handle, const char *message,
                                                      aclrtStream stream);
/** mstxRangeEnd in a domain. */
ACL_FUNC_VISIBILITY void mstxDomainRangeEnd(mstxDomainHandle_t handle, mstxRangeId id);

#ifdef __cplusplus
}
#endif

#endif /* INC_EXTERNAL_MS_TOOLS_EXT_H_ */
