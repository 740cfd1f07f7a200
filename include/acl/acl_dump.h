/*
 * aclnn-emu: CANN's dump interface (acl/acl_dump.h).
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 *
 * The emulator writes no dumps: the switches are accepted (a program may turn
 * dumping on and run as usual) and no chunk is ever delivered to a registered
 * callback. Calls that would write a file now return ACL_ERROR_API_NOT_SUPPORT.
 */
#ifndef ACL_ACL_DUMP_H_
#define ACL_ACL_DUMP_H_

#include <stddef.h>
#include <stdint.h>

#include "acl_base.h"

#define ACL_DUMP_API __attribute__((visibility("default")))
#define ACL_DUMP_WEAK __attribute__((weak))
/* CANN's zero-length dataBuf is a GNU extension; this keeps -pedantic builds quiet. */
#if defined(__GNUC__) || defined(__clang__)
#define ACL_DUMP_ZERO_LENGTH __extension__
#else
#define ACL_DUMP_ZERO_LENGTH
#endif

#ifdef __cplusplus
extern "C" {
#endif

/** The longest dump file path. */
#define ACL_DUMP_MAX_FILE_PATH_LENGTH 4096

/** A piece of dump data handed to an acldumpRegCallback callback (never, on the emulator). */
typedef struct acldumpChunk {
    char fileName[ACL_DUMP_MAX_FILE_PATH_LENGTH];
    uint32_t bufLen;
    uint32_t isLastChunk;
    int64_t offset;
    int32_t flag;
    ACL_DUMP_ZERO_LENGTH uint8_t dataBuf[0];
} acldumpChunk;

/**
 * Registers the callback that would receive dump data. Accepted; no data is produced.
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for a NULL callback.
 */
ACL_DUMP_API aclError acldumpRegCallback(int32_t (*const messageCallback)(const acldumpChunk *, int32_t),
                                         int32_t flag);

/** Drops the callback of acldumpRegCallback. */
ACL_DUMP_API void acldumpUnregCallback(void);

/** dumpType of aclopStartDumpArgs: the AI Core arguments of each operator. */
#define ACL_OP_DUMP_OP_AICORE_ARGS 0x00000001U

/**
 * Starts dumping operator arguments under path. Accepted; nothing is written.
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for another dumpType or a NULL path.
 */
ACL_FUNC_VISIBILITY aclError aclopStartDumpArgs(uint32_t dumpType, const char *path);

/** Ends aclopStartDumpArgs. @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for another dumpType. */
ACL_FUNC_VISIBILITY aclError aclopStopDumpArgs(uint32_t dumpType);

/** Kinds of dump (acldumpGetPath). */
typedef enum acldumpType {
    AIC_ERR_BRIEF_DUMP = 1,
    AIC_ERR_NORM_DUMP = 2,
    AIC_ERR_DETAIL_DUMP = 3,
    DATA_DUMP = 4,
    OVERFLOW_DUMP = 5
} acldumpType;

/** Where dumps of dumpType are written: NULL, none is configured on the emulator. */
ACL_FUNC_VISIBILITY const char *acldumpGetPath(acldumpType dumpType);

/** The most dimensions of a dumped tensor. */
#define ACL_DUMP_MAX_SHAPE_NUM 25

typedef enum acldumpTensorType {
    ACL_DUMP_TENSOR_INPUT = 0,
    ACL_DUMP_TENSOR_OUTPUT,
    ACL_DUMP_TENSOR_WORKSPACE
} acldumpTensorType;

typedef enum acldumpTensorAddressType {
    ACL_DUMP_ADDR_PTR = 0,
    ACL_DUMP_ADDR_PTR_PTR,
    ACL_DUMP_ADDR_RAW
} acldumpTensorAddressType;

typedef enum acldumpTensorPlacement {
    ACL_DUMP_PLACEMENT_DEVICE = 0,
    ACL_DUMP_PLACEMENT_HOST,
    ACL_DUMP_PLACEMENT_END
} acldumpTensorPlacement;

/** A tensor described to acldumpSaveExceptionInfo. */
typedef struct acldumpTensorInfo {
    acldumpTensorType type;
    size_t tensorSize;
    int32_t format;
    int32_t dataType;
    int64_t *tensorAddr;
    acldumpTensorAddressType addrType;
    acldumpTensorPlacement placement;
    uint32_t argsOffset;
    uint32_t shapeNum;
    uint32_t originShapeNum;
    uint64_t shape[ACL_DUMP_MAX_SHAPE_NUM];
    uint64_t originShape[ACL_DUMP_MAX_SHAPE_NUM];
} acldumpTensorInfo;

/**
 * Writes tensors (device memory, ACL_DUMP_ADDR_RAW) into <exception dump path>/<fileName>.custom.<time>, when
 * acl.json's "dump_scene" turned the exception dump on (the file: a u64 header length, a JSON header in place
 * of CANN's protobuf, then the bytes of the inputs, outputs and workspaces).
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for a NULL or empty fileName or one with a ".." part, NULL
 *          tensors, tensorCount 0, a tensor of over 25 dims, another type, address type or placement, a NULL
 *          address or size 0; ACL_ERROR_FAILURE when the dump is not on, there is no device, a tensor is not
 *          device memory, or the file cannot be written.
 */
ACL_DUMP_WEAK ACL_FUNC_VISIBILITY aclError acldumpSaveExceptionInfo(const char *fileName, const char *userTag,
                                                                    const acldumpTensorInfo *tensors,
                                                                    size_t tensorCount);

/**
 * The exception dump's folder for the current device, made if need be: <base>/extra-info/data-dump/<device>,
 * absolute, where base is ASCEND_DUMP_PATH, ASCEND_WORK_PATH, acl.json's "dump_path" or "./".
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for NULL path, maxLen <= 1 or a path that does not fit;
 *          ACL_ERROR_FAILURE when acl.json's "dump_scene" did not turn the dump on, or there is no device.
 */
ACL_DUMP_WEAK ACL_FUNC_VISIBILITY aclError acldumpGetExceptionInfoPath(char *path, size_t maxLen);

#ifdef __cplusplus
}
#endif

#endif /* ACL_ACL_DUMP_H_ */
