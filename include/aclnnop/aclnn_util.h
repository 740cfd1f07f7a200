/*
 * aclnn-emu: helpers shared by operator headers.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#ifndef ACLNNOP_ACLNN_UTIL_H_
#define ACLNNOP_ACLNN_UTIL_H_

#if defined(_WIN32)
#define ACLNN_API __declspec(dllexport)
#else
#define ACLNN_API __attribute__((visibility("default")))
#endif

#endif /* ACLNNOP_ACLNN_UTIL_H_ */
