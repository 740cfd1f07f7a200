/*
 * aclnn-emu: CANN-compatible base types, data types, formats and status codes.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 *
 * Values are CANN's (AscendCL). Status codes are macros so that the header
 * serves C and C++ alike; they compare and assign like CANN's constants.
 */
#ifndef ACL_BASE_H_
#define ACL_BASE_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#define ACL_FUNC_VISIBILITY __declspec(dllexport)
#else
#define ACL_FUNC_VISIBILITY __attribute__((visibility("default")))
#endif

/** Handles of the runtime. Opaque: never dereference them. */
typedef void *aclrtStream;
typedef void *aclrtContext;
typedef void *aclrtEvent;
/** Handles of the stream allocator API (acl/acl_rt_allocator.h). */
typedef void *aclrtAllocatorDesc;
typedef void *aclrtAllocator;
typedef void *aclrtAllocatorBlock;
typedef void *aclrtAllocatorAddr;

/** Status of every AscendCL runtime call: ACL_SUCCESS (0) or an ACL_ERROR_* code. */
typedef int aclError;
/** IEEE 754 binary16 bit pattern. */
typedef uint16_t aclFloat16;

#define ACL_SUCCESS 0
#define ACL_ERROR_NONE 0
#define ACL_ERROR_INVALID_PARAM 100000
#define ACL_ERROR_UNINITIALIZE 100001
#define ACL_ERROR_INVALID_FILE 100003
#define ACL_ERROR_REPEAT_INITIALIZE 100002
#define ACL_ERROR_INVALID_MODEL_ID 100011
#define ACL_ERROR_REPEAT_FINALIZE 100037
#define ACL_ERROR_PROF_ALREADY_RUN 100042
#define ACL_ERROR_PROF_REPEAT_SUBSCRIBE 148046
#define ACL_ERROR_PROF_API_CONFLICT 148047
#define ACL_ERROR_BAD_ALLOC 200000
#define ACL_ERROR_API_NOT_SUPPORT 200001
#define ACL_ERROR_INVALID_DEVICE 200002
#define ACL_ERROR_MEMORY_ADDRESS_UNALIGNED 200003
#define ACL_ERROR_INVALID_RESOURCE_HANDLE 200005
#define ACL_ERROR_FEATURE_UNSUPPORTED 200006
#define ACL_ERROR_STORAGE_OVER_LIMIT 300000
#define ACL_ERROR_INTERNAL_ERROR 500000
#define ACL_ERROR_FAILURE 500001
#define ACL_ERROR_RT_FAILURE 500003
#define ACL_ERROR_PROFILING_FAILURE 500005

/** Element types. */
typedef enum aclDataType {
    ACL_DT_UNDEFINED = -1,
    ACL_FLOAT = 0,
    ACL_FLOAT16 = 1,
    ACL_INT8 = 2,
    ACL_INT32 = 3,
    ACL_UINT8 = 4,
    ACL_INT16 = 6,
    ACL_UINT16 = 7,
    ACL_UINT32 = 8,
    ACL_INT64 = 9,
    ACL_UINT64 = 10,
    ACL_DOUBLE = 11,
    ACL_BOOL = 12,
    ACL_STRING = 13,
    ACL_COMPLEX64 = 16,
    ACL_COMPLEX128 = 17,
    ACL_BF16 = 27,
    ACL_INT4 = 29,
    ACL_UINT1 = 30,
    ACL_COMPLEX32 = 33,
    ACL_HIFLOAT8 = 34,
    ACL_FLOAT8_E5M2 = 35,
    ACL_FLOAT8_E4M3FN = 36,
    ACL_FLOAT8_E8M0 = 37,
    ACL_FLOAT6_E3M2 = 38,
    ACL_FLOAT6_E2M3 = 39,
    ACL_FLOAT4_E2M1 = 40,
    ACL_FLOAT4_E1M2 = 41
} aclDataType;

/** Layout labels. Operators check them; they never permute a tensor's view. */
typedef enum aclFormat {
    ACL_FORMAT_UNDEFINED = -1,
    ACL_FORMAT_NCHW = 0,
    ACL_FORMAT_NHWC = 1,
    ACL_FORMAT_ND = 2,
    ACL_FORMAT_NC1HWC0 = 3,
    ACL_FORMAT_FRACTAL_Z = 4,
    ACL_FORMAT_NC1HWC0_C04 = 12,
    ACL_FORMAT_HWCN = 16,
    ACL_FORMAT_NDHWC = 27,
    ACL_FORMAT_FRACTAL_NZ = 29,
    ACL_FORMAT_NCDHW = 30,
    ACL_FORMAT_NDC1HWC0 = 32,
    ACL_FRACTAL_Z_3D = 33,
    ACL_FORMAT_NC = 35,
    ACL_FORMAT_NCL = 47,
    ACL_FORMAT_FRACTAL_NZ_C0_16 = 50,
    ACL_FORMAT_FRACTAL_NZ_C0_32 = 51,
    ACL_FORMAT_FRACTAL_NZ_C0_2 = 52,
    ACL_FORMAT_FRACTAL_NZ_C0_4 = 53,
    ACL_FORMAT_FRACTAL_NZ_C0_8 = 54
} aclFormat;

/** Options of aclrtSetSysParamOpt / aclrtCtxSetSysParamOpt. */
typedef enum aclSysParamOpt {
    ACL_OPT_DETERMINISTIC = 0,
    ACL_OPT_ENABLE_DEBUG_KERNEL = 1,
    ACL_OPT_STRONG_CONSISTENCY = 2,
    ACL_OPT_ENABLE_KERNEL_EARLY_START = 3
} aclSysParamOpt;

/**
 * The message recorded by the most recent failing call on this host thread,
 * naming the function, the parameter, what was expected and what was given.
 *
 * @returns a NUL-terminated string owned by the library, valid until the next
 *          call on this thread; "" when there is none. Reading it clears it.
 */
ACL_FUNC_VISIBILITY const char *aclGetRecentErrMsg(void);

/** Bytes of one element of dataType; 0 for types without a whole-byte size and for unknown values. */
ACL_FUNC_VISIBILITY size_t aclDataTypeSize(aclDataType dataType);

/** CANN's software attributes (aclGetCannAttributeList). */
typedef enum {
    ACL_CANN_ATTR_UNDEFINED = -1,
    ACL_CANN_ATTR_INF_NAN = 0,
    ACL_CANN_ATTR_BF16 = 1,
    ACL_CANN_ATTR_JIT_COMPILE = 2
} aclCannAttr;

/**
 * The CANN attributes this installation has: *cannAttrList points to *num entries owned by the library.
 * The emulator lists INF_NAN, BF16 and JIT_COMPILE (see aclGetCannAttribute).
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for a NULL pointer.
 */
ACL_FUNC_VISIBILITY aclError aclGetCannAttributeList(const aclCannAttr **cannAttrList, size_t *num);

/**
 * Whether cannAttr is available: *value 1 or 0. The emulator: INF_NAN 1 and BF16 1 (every emulated SoC
 * computes with Inf, NaN and BF16), JIT_COMPILE 0 (it compiles no operator).
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for a NULL value or an unknown attribute.
 */
ACL_FUNC_VISIBILITY aclError aclGetCannAttribute(aclCannAttr cannAttr, int32_t *value);

/** A device or host buffer's address and size, as a handle (CANN's aclDataBuffer; it does not own the memory). */
typedef struct aclDataBuffer aclDataBuffer;

/** A buffer describing data (NULL allowed) of size bytes; NULL when out of memory. Free with aclDestroyDataBuffer. */
ACL_FUNC_VISIBILITY aclDataBuffer *aclCreateDataBuffer(void *data, size_t size);

/** Frees the handle (not the memory it names). ACL_ERROR_INVALID_PARAM for NULL or a stale handle. */
ACL_FUNC_VISIBILITY aclError aclDestroyDataBuffer(const aclDataBuffer *dataBuffer);

/** Points the handle at other memory. ACL_ERROR_INVALID_PARAM for NULL or a stale handle. */
ACL_FUNC_VISIBILITY aclError aclUpdateDataBuffer(aclDataBuffer *dataBuffer, void *data, size_t size);

/** The buffer's address; NULL for a NULL (or stale) handle. */
ACL_FUNC_VISIBILITY void *aclGetDataBufferAddr(const aclDataBuffer *dataBuffer);

/** The buffer's size in bytes, cut to 32 bits (deprecated in CANN: aclGetDataBufferSizeV2); 0 for NULL. */
ACL_FUNC_VISIBILITY uint32_t aclGetDataBufferSize(const aclDataBuffer *dataBuffer);

/** The buffer's size in bytes; 0 for a NULL (or stale) handle. */
ACL_FUNC_VISIBILITY size_t aclGetDataBufferSizeV2(const aclDataBuffer *dataBuffer);

/** float -> float16, round to nearest even (NaN stays NaN, overflow gives infinity). */
ACL_FUNC_VISIBILITY aclFloat16 aclFloatToFloat16(float value);

/** float16 -> float (exact). */
ACL_FUNC_VISIBILITY float aclFloat16ToFloat(aclFloat16 value);

#ifdef __cplusplus
}
#endif

#endif /* ACL_BASE_H_ */
