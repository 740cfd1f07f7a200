/*
 * aclnn-emu: CANN's profiling switches (acl/acl_prof.h). A program may turn
 * profiling on and mark ranges; the emulator accepts every call, checks its
 * arguments and records nothing (use `aclnn-emu run`'s report instead).
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#ifndef ACL_ACL_PROF_H_
#define ACL_ACL_PROF_H_

#include "acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Data types of aclprofCreateConfig's dataTypeConfig (accepted, ignored). */
#define ACL_PROF_ACL_API 0x0001ULL
#define ACL_PROF_TASK_TIME 0x0002ULL
#define ACL_PROF_AICORE_METRICS 0x0004ULL
#define ACL_PROF_AICPU 0x0008ULL
#define ACL_PROF_L2CACHE 0x0010ULL
#define ACL_PROF_HCCL_TRACE 0x0020ULL
#define ACL_PROF_TRAINING_TRACE 0x0040ULL
#define ACL_PROF_MSPROFTX 0x0080ULL
#define ACL_PROF_RUNTIME_API 0x0100ULL
#define ACL_PROF_GE_API_L0 0x0200ULL
#define ACL_PROF_TASK_TIME_L0 0x0800ULL
#define ACL_PROF_TASK_MEMORY 0x1000ULL
#define ACL_PROF_GE_API_L1 0x01000000ULL
#define ACL_PROF_TASK_TIME_L2 0x2000ULL
#define ACL_PROF_OP_ATTR 0x4000ULL
#define ACL_PROF_TASK_TIME_L3 0x8000ULL
#define ACL_PROF_API_STATS 0x400000000ULL
#define ACL_PROF_AICORE_SHAPE 0x800000000ULL

/** AI Core metrics of aclprofCreateConfig (accepted, ignored). */
typedef enum {
    ACL_AICORE_ARITHMETIC_UTILIZATION = 0,
    ACL_AICORE_PIPE_UTILIZATION = 1,
    ACL_AICORE_MEMORY_BANDWIDTH = 2,
    ACL_AICORE_L0B_AND_WIDTH = 3,
    ACL_AICORE_RESOURCE_CONFLICT_RATIO = 4,
    ACL_AICORE_MEMORY_UB = 5,
    ACL_AICORE_L2_CACHE = 6,
    ACL_AICORE_PIPE_EXECUTE_UTILIZATION = 7,
    ACL_AICORE_MEMORY_ACCESS = 8,
    ACL_AICORE_NONE = 0xFF
} aclprofAicoreMetrics;

/** Settings of aclprofSetConfig (accepted, ignored). */
typedef enum {
    ACL_PROF_ARGS_MIN = 0,
    ACL_PROF_STORAGE_LIMIT = 1,
    ACL_PROF_SYS_HARDWARE_MEM_FREQ = 3,
    ACL_PROF_LLC_MODE = 4,
    ACL_PROF_SYS_IO_FREQ = 5,
    ACL_PROF_SYS_INTERCONNECTION_FREQ = 6,
    ACL_PROF_DVPP_FREQ = 7,
    ACL_PROF_HOST_SYS = 8,
    ACL_PROF_HOST_SYS_USAGE = 9,
    ACL_PROF_HOST_SYS_USAGE_FREQ = 10,
    ACL_PROF_LOW_POWER_FREQ = 11,
    ACL_PROF_SYS_MEM_SERVICEFLOW = 12,
    ACL_PROF_SYS_CPU_FREQ = 13,
    ACL_PROF_OPTYPE = 14,
    ACL_PROF_NTS_METRICS = 15,
    ACL_PROF_PATH = 16,
    ACL_PROF_ARGS_MAX = 17
} aclprofConfigType;

typedef struct aclprofConfig aclprofConfig;
typedef struct aclprofAicoreEvents aclprofAicoreEvents;

/**
 * Starts a profiling session writing to profilerResultPath (nothing is written here).
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for a NULL path or length 0.
 */
ACL_FUNC_VISIBILITY aclError aclprofInit(const char *profilerResultPath, size_t length);

/** Ends the session. @returns ACL_SUCCESS. */
ACL_FUNC_VISIBILITY aclError aclprofFinalize(void);

/**
 * A profiling configuration (destroy it with aclprofDestroyConfig).
 * @returns the configuration; NULL (with a message) for a NULL device list or
 *          deviceNums 0, or when out of memory.
 */
ACL_FUNC_VISIBILITY aclprofConfig *aclprofCreateConfig(uint32_t *deviceIdList, uint32_t deviceNums,
                                                       aclprofAicoreMetrics aicoreMetrics,
                                                       const aclprofAicoreEvents *aicoreEvents, uint64_t dataTypeConfig);

/** Destroys a configuration. @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for NULL or a stale one. */
ACL_FUNC_VISIBILITY aclError aclprofDestroyConfig(const aclprofConfig *profilerConfig);

/** Starts collecting (nothing here). Errors as aclprofDestroyConfig. */
ACL_FUNC_VISIBILITY aclError aclprofStart(const aclprofConfig *profilerConfig);

/** Stops collecting. Errors as aclprofDestroyConfig. */
ACL_FUNC_VISIBILITY aclError aclprofStop(const aclprofConfig *profilerConfig);

/**
 * Sets one profiling setting.
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for a type outside (ACL_PROF_ARGS_MIN,
 *          ACL_PROF_ARGS_MAX), a NULL config or configLength 0.
 */
ACL_FUNC_VISIBILITY aclError aclprofSetConfig(aclprofConfigType configType, const char *config, size_t configLength);

/** A marker stamp (msproftx); destroy it with aclprofDestroyStamp. NULL when out of memory. */
ACL_FUNC_VISIBILITY void *aclprofCreateStamp(void);

/** Destroys a stamp (NULL: nothing happens). */
ACL_FUNC_VISIBILITY void aclprofDestroyStamp(void *stamp);

/** Attaches a message to a stamp. @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for NULL stamp or msg. */
ACL_FUNC_VISIBILITY aclError aclprofSetStampTraceMessage(void *stamp, const char *msg, uint32_t msgLen);

/** Marks an instant. @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for NULL. */
ACL_FUNC_VISIBILITY aclError aclprofMark(void *stamp);

/** Marks an instant with a message on stream. @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for NULL msg. */
ACL_FUNC_VISIBILITY aclError aclprofMarkEx(const char *msg, size_t msgLen, aclrtStream stream);

/** Opens a nested range. @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for NULL. */
ACL_FUNC_VISIBILITY aclError aclprofPush(void *stamp);

/** Closes the innermost range. @returns ACL_SUCCESS. */
ACL_FUNC_VISIBILITY aclError aclprofPop(void);

/** Opens a range; *rangeId receives its id. @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for NULL. */
ACL_FUNC_VISIBILITY aclError aclprofRangeStart(void *stamp, uint32_t *rangeId);

/** Closes a range. @returns ACL_SUCCESS. */
ACL_FUNC_VISIBILITY aclError aclprofRangeStop(uint32_t rangeId);


/* ---- step timestamps ---- */

typedef enum {
    ACL_STEP_START = 0, /* step start */
    ACL_STEP_END = 1    /* step end */
} aclprofStepTag;

typedef struct aclprofStepInfo aclprofStepInfo;

/** A step's info, numbered from 1 in the order made. NULL when out of memory. */
ACL_FUNC_VISIBILITY aclprofStepInfo *aclprofCreateStepInfo(void);
/** Destroys a step's info (NULL: nothing). */
ACL_FUNC_VISIBILITY void aclprofDestroyStepInfo(aclprofStepInfo *stepinfo);
/**
 * Marks the step's start or end on stream, once each (any tag but START counts as END).
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for NULL or stale stepInfo, or a start or end marked
 *          again; invalid stream handles.
 */
ACL_FUNC_VISIBILITY aclError aclprofGetStepTimestamp(aclprofStepInfo *stepInfo, aclprofStepTag tag,
                                                     aclrtStream stream);


/* ---- model subscriptions: per-operator records written to a pipe ---- */

typedef enum {
    ACL_SUBSCRIBE_OP = 0,
    ACL_SUBSCRIBE_SUBGRAPH = 1,
    ACL_SUBSCRIBE_OP_THREAD = 2,
    ACL_SUBSCRIBE_NONE = 0xFF
} aclprofSubscribeOpFlag;

typedef enum { ACL_SUBSCRIBE_ATTRI_THREADID = 0, ACL_SUBSCRIBE_ATTRI_NONE } aclprofSubscribeOpAttri;

typedef struct aclprofSubscribeConfig aclprofSubscribeConfig;

/**
 * A subscription's configuration: time info on (1) or off (0), AI Core metrics, and fd, a pointer to the
 * int write end of a pipe the records go to. NULL (with a message) for a NULL fd or a switch other than 0 or 1.
 */
ACL_FUNC_VISIBILITY aclprofSubscribeConfig *aclprofCreateSubscribeConfig(int8_t timeInfoSwitch,
                                                                         aclprofAicoreMetrics aicoreMetrics,
                                                                         void *fd);
/** @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for NULL or stale. */
ACL_FUNC_VISIBILITY aclError aclprofDestroySubscribeConfig(const aclprofSubscribeConfig *profSubscribeConfig);
/**
 * Subscribes to the operators of model modelId (a model known to profiling: MsprofSetDeviceIdByGeModelIdx,
 * as a model load does). The emulator runs no offline model, so no record is ever written.
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_MODEL_ID for an unknown model; ACL_ERROR_INVALID_PARAM for a NULL
 *          or stale config, or one with time info off and no metrics; ACL_ERROR_PROF_REPEAT_SUBSCRIBE for a
 *          model subscribed already.
 */
ACL_FUNC_VISIBILITY aclError aclprofModelSubscribe(uint32_t modelId, const aclprofSubscribeConfig *profSubscribeConfig);
/**
 * Ends a subscription and closes its pipe's write end (*fd becomes -1), so that a reader sees the end.
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_MODEL_ID for a model not subscribed.
 */
ACL_FUNC_VISIBILITY aclError aclprofModelUnSubscribe(uint32_t modelId);
/** The size of one record (80 bytes). @returns ACL_ERROR_INVALID_PARAM for NULL. */
ACL_FUNC_VISIBILITY aclError aclprofGetOpDescSize(size_t *opDescSize);
/**
 * The number of records in opInfo (opInfoLen bytes).
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for NULL arguments, a length that is not whole records, or a
 *          record whose signature (CRC-32C of its bytes after the signature) is wrong.
 */
ACL_FUNC_VISIBILITY aclError aclprofGetOpNum(const void *opInfo, size_t opInfoLen, uint32_t *opNumber);
/** The length (with NUL) of record index's operator type. @returns as aclprofGetOpNum, or for an unknown op. */
ACL_FUNC_VISIBILITY aclError aclprofGetOpTypeLen(const void *opInfo, size_t opInfoLen, uint32_t index,
                                                 size_t *opTypeLen);
/** Copies record index's operator type. @returns as aclprofGetOpTypeLen. */
ACL_FUNC_VISIBILITY aclError aclprofGetOpType(const void *opInfo, size_t opInfoLen, uint32_t index, char *opType,
                                              size_t opTypeLen);
/** The length (with NUL) of record index's operator name. @returns as aclprofGetOpTypeLen. */
ACL_FUNC_VISIBILITY aclError aclprofGetOpNameLen(const void *opInfo, size_t opInfoLen, uint32_t index,
                                                 size_t *opNameLen);
/** Copies record index's operator name. @returns as aclprofGetOpTypeLen. */
ACL_FUNC_VISIBILITY aclError aclprofGetOpName(const void *opInfo, size_t opInfoLen, uint32_t index, char *opName,
                                              size_t opNameLen);
/** Record index's start time (0 for a bad record or index). */
ACL_FUNC_VISIBILITY uint64_t aclprofGetOpStart(const void *opInfo, size_t opInfoLen, uint32_t index);
/** Record index's end time (0 for a bad record or index). */
ACL_FUNC_VISIBILITY uint64_t aclprofGetOpEnd(const void *opInfo, size_t opInfoLen, uint32_t index);
/** Record index's duration (0 for a bad record or index). */
ACL_FUNC_VISIBILITY uint64_t aclprofGetOpDuration(const void *opInfo, size_t opInfoLen, uint32_t index);
/** Record index's model id (0 for a bad record or index). */
ACL_FUNC_VISIBILITY size_t aclprofGetModelId(const void *opInfo, size_t opInfoLen, uint32_t index);

#ifdef __cplusplus
}
#endif

#endif /* ACL_ACL_PROF_H_ */
