/*
 * Small helpers shared by the operator kernels.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#ifndef ACLNN_EMU_KERNEL_UTIL_H_
#define ACLNN_EMU_KERNEL_UTIL_H_

/* Hot loops are compiled twice, for AVX2 and for the baseline, and the
 * loader picks one (GNU ifunc): a portable library that still uses the
 * vector width of the machine it runs on. Results may differ in the last
 * bit between the two builds, never between runs or thread counts. */
#if defined(__x86_64__) && defined(__GNUC__) && defined(__ELF__) && !defined(ACLNN_EMU_NO_CLONES)
#define EMU_HOT __attribute__((target_clones("avx2", "default")))
#else
#define EMU_HOT
#endif

#endif
