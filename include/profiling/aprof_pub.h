/*
 * aclnn-emu: the part of CANN's profiling/aprof_pub.h that host programs
 * call: telling profiling which device a model runs on (a model load does
 * it in CANN; a program without offline models, such as CANN's
 * subscribe_model sample, does it by hand).
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#ifndef PROFILING_APROF_PUB_H_
#define PROFILING_APROF_PUB_H_

#include <stddef.h>
#include <stdint.h>

#ifndef MSVP_PROF_API
#define MSVP_PROF_API __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

/** Makes model geModelIdx known to profiling, on device deviceId (aclprofModelSubscribe needs it). @returns 0. */
MSVP_PROF_API int32_t MsprofSetDeviceIdByGeModelIdx(const uint32_t geModelIdx, const uint32_t deviceId);
/** Forgets model geModelIdx. @returns 0. */
MSVP_PROF_API int32_t MsprofUnsetDeviceIdByGeModelIdx(const uint32_t geModelIdx, const uint32_t deviceId);

#ifdef __cplusplus
}
#endif

#endif /* PROFILING_APROF_PUB_H_ */
