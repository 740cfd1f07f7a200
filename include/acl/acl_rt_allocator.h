/*
 * aclnn-emu: a user allocator for a stream (CANN's acl/acl_rt_allocator.h).
 * The emulator records the registration and hands it back; its own
 * operators need no stream memory, so they never call the allocator.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#ifndef ACL_ACL_RT_ALLOCATOR_H_
#define ACL_ACL_RT_ALLOCATOR_H_

#include "acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Allocates size bytes from allocator; returns a block. */
typedef void *(*aclrtAllocatorAllocFunc)(aclrtAllocator allocator, size_t size);
/** Returns a block to allocator. */
typedef void (*aclrtAllocatorFreeFunc)(aclrtAllocator allocator, aclrtAllocatorBlock block);
/** Allocates size bytes, preferably at addr. */
typedef void *(*aclrtAllocatorAllocAdviseFunc)(aclrtAllocator allocator, size_t size, aclrtAllocatorAddr addr);
/** The device address of a block. */
typedef void *(*aclrtAllocatorGetAddrFromBlockFunc)(aclrtAllocatorBlock block);

/**
 * Creates an empty allocator description (destroy it with aclrtAllocatorDestroyDesc).
 * @returns the description, or NULL when out of memory.
 */
ACL_FUNC_VISIBILITY aclrtAllocatorDesc aclrtAllocatorCreateDesc(void);

/** Destroys a description. @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for NULL or a stale handle. */
ACL_FUNC_VISIBILITY aclError aclrtAllocatorDestroyDesc(aclrtAllocatorDesc allocatorDesc);

/** Sets the allocator object. @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for NULL arguments. */
ACL_FUNC_VISIBILITY aclError aclrtAllocatorSetObjToDesc(aclrtAllocatorDesc allocatorDesc, aclrtAllocator allocator);

/** Sets the allocation function. Errors as aclrtAllocatorSetObjToDesc. */
ACL_FUNC_VISIBILITY aclError aclrtAllocatorSetAllocFuncToDesc(aclrtAllocatorDesc allocatorDesc,
                                                             aclrtAllocatorAllocFunc func);

/** Sets the free function. Errors as aclrtAllocatorSetObjToDesc. */
ACL_FUNC_VISIBILITY aclError aclrtAllocatorSetFreeFuncToDesc(aclrtAllocatorDesc allocatorDesc,
                                                            aclrtAllocatorFreeFunc func);

/** Sets the advised-allocation function (optional). Errors as aclrtAllocatorSetObjToDesc. */
ACL_FUNC_VISIBILITY aclError aclrtAllocatorSetAllocAdviseFuncToDesc(aclrtAllocatorDesc allocatorDesc,
                                                                   aclrtAllocatorAllocAdviseFunc func);

/** Sets the block-to-address function. Errors as aclrtAllocatorSetObjToDesc. */
ACL_FUNC_VISIBILITY aclError aclrtAllocatorSetGetAddrFromBlockFuncToDesc(aclrtAllocatorDesc allocatorDesc,
                                                                        aclrtAllocatorGetAddrFromBlockFunc func);

/**
 * Registers (a copy of) the description for stream, replacing an earlier one.
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for a NULL stream or description, or a
 *          description without its object, alloc, free or get-address function;
 *          ACL_ERROR_RT_INVALID_HANDLE for a stale stream.
 */
ACL_FUNC_VISIBILITY aclError aclrtAllocatorRegister(aclrtStream stream, aclrtAllocatorDesc allocatorDesc);

/**
 * What is registered for stream; any output but allocatorDesc may be NULL.
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for NULL stream or allocatorDesc, or a stream
 *          with no allocator registered.
 */
ACL_FUNC_VISIBILITY aclError aclrtAllocatorGetByStream(aclrtStream stream, aclrtAllocatorDesc *allocatorDesc,
                                                      aclrtAllocator *allocator, aclrtAllocatorAllocFunc *allocFunc,
                                                      aclrtAllocatorFreeFunc *freeFunc,
                                                      aclrtAllocatorAllocAdviseFunc *allocAdviseFunc,
                                                      aclrtAllocatorGetAddrFromBlockFunc *getAddrFromBlockFunc);

/** Removes the stream's registration (none: nothing happens). ACL_ERROR_INVALID_PARAM for NULL. */
ACL_FUNC_VISIBILITY aclError aclrtAllocatorUnregister(aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACL_ACL_RT_ALLOCATOR_H_ */
