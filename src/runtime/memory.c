/*
 * Device memory: host memory recorded in a registry of blocks so that
 * tensors, copies and diagnostics can check pointers and bounds.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#define _GNU_SOURCE /* madvise, MADV_HUGEPAGE, MAP_NORESERVE, process_vm_readv, malloc_usable_size */
#include <errno.h>
#include <malloc.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime.h"

/* Tensor data must be 32-byte aligned on CANN; we give cache lines. */
#define BLOCK_ALIGN 64
/* Large blocks under a HUGE_* policy are backed by 2 MiB pages where the
 * kernel allows it: hardware prefetchers stop at page boundaries, so
 * streaming kernels read such memory markedly faster. */
#define HUGE_PAGE ((size_t)2 << 20)

typedef struct block {
    uintptr_t base;
    size_t size;
    size_t map_size; /* owned blocks: the bytes mapped for it (size rounded up) */
    bool device;
    bool owned; /* false: host memory registered with aclrtHostRegister */
    bool reserved; /* aclnnEmuMallocReserved: address space only, never cached */
    bool shared;   /* exported (aclrtIpcMemGetExportKey): its pages are a shared memory object's, never cached */
    bool imported; /* another process's export (aclrtIpcMemImportByKey): released by aclrtIpcMemClose */
    int refs;   /* registrations of host memory (of aclrtMallocHost's too: it may be registered) */
    int policy;
    /* The last enqueued work that writes the block (missing-synchronise check) and
     * that uses it at all (freeing memory still in use). */
    emu_stream *writer, *user;
    uint64_t writer_seq, user_seq;
    const char *writer_op, *user_op;
} block;

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

/* Idle blocks kept for reuse (the cache, below): result blocks of
 * aclnnEmuCacheAlloc (which carry a header) and freed device blocks, apart by
 * page kind, so that no request gets pages of the wrong kind. */
enum { IDLE_RESULT, IDLE_DEVICE, IDLE_DEVICE_HUGE };
static size_t size_class(size_t n);
static void *cache_take(size_t cls, int kind);
static bool cache_put(void *base, size_t cls, int kind);
static block *blocks; /* sorted by base */
static size_t n_blocks, cap_blocks;

/* ---- freed blocks ------------------------------------------------------
 * Owned blocks (aclrtMalloc, aclrtMallocHost) are mappings of their own. A
 * freed one is either idle in the cache (mapped, for the next allocation of
 * its class) or quarantined (its pages dropped, its addresses reserved), so
 * that no other allocator can hand its addresses out while the library still
 * recognises them: a later copy, memset or operator on them is refused, not
 * run on memory that now belongs to someone else. The quarantine keeps the
 * last QUARANTINE_BLOCKS blocks (QUARANTINE_VA bytes of address space at
 * most); older ones are unmapped and forgotten. */
#define QUARANTINE_BLOCKS 4096
#define QUARANTINE_VA ((size_t)64 << 30)

typedef struct freed_range {
    uintptr_t base;
    size_t size;
    bool device;
} freed_range;

static freed_range *freed; /* sorted by base, guarded by mu */
static size_t n_freed, cap_freed;
static freed_range quarantine[QUARANTINE_BLOCKS]; /* a ring, oldest at q_head */
static size_t q_head, q_count, q_bytes;

/* Index of the first freed range ending after p. Caller holds mu. */
static size_t freed_lower_locked(uintptr_t p)
{
    size_t lo = 0, hi = n_freed;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (freed[mid].base + freed[mid].size <= p)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The freed range overlapping [p, p+len) (at least its first byte), or -1. */
static ptrdiff_t freed_overlap_locked(uintptr_t p, size_t len)
{
    size_t i = freed_lower_locked(p);
    if (i < n_freed && freed[i].base < p + (len ? len : 1) && p + (len ? len : 1) > p)
        return (ptrdiff_t)i;
    return -1;
}

static void freed_add_locked(uintptr_t base, size_t size, bool device)
{
    if (n_freed == cap_freed) {
        size_t cap = cap_freed ? 2 * cap_freed : 64;
        freed_range *grown = realloc(freed, cap * sizeof *grown);
        if (!grown)
            return; /* no memory to remember it: it just goes unrecognised */
        freed = grown;
        cap_freed = cap;
    }
    size_t i = freed_lower_locked(base);
    memmove(&freed[i + 1], &freed[i], (n_freed - i) * sizeof *freed);
    freed[i] = (freed_range){base, size, device};
    n_freed++;
}

static void freed_remove_locked(uintptr_t base)
{
    size_t i = freed_lower_locked(base);
    if (i < n_freed && freed[i].base == base) {
        memmove(&freed[i], &freed[i + 1], (n_freed - i - 1) * sizeof *freed);
        n_freed--;
    }
}

/* A mapping of size bytes (a page multiple) aligned to align (a power of two);
 * reserved: without swap reservation (pages are committed only when written). */
static void *map_block(size_t size, size_t align, bool reserved)
{
    const size_t page = (size_t)sysconf(_SC_PAGESIZE);
    const size_t extra = align > page ? align : 0;
    char *m = mmap(NULL, size + extra, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | (reserved ? MAP_NORESERVE : 0), -1, 0);
    if (m == MAP_FAILED)
        return NULL;
    if (!extra)
        return m;
    const uintptr_t a = ((uintptr_t)m + align - 1) & ~(uintptr_t)(align - 1);
    const size_t head = a - (uintptr_t)m;
    if (head)
        munmap(m, head);
    if (extra - head)
        munmap((char *)a + size, extra - head);
    return (void *)a;
}

static void quarantine_evict_locked(void)
{
    freed_range q = quarantine[q_head];
    q_head = (q_head + 1) % QUARANTINE_BLOCKS;
    q_count--;
    q_bytes -= q.size;
    freed_remove_locked(q.base);
    munmap((void *)q.base, q.size);
}

/* Holds a freed block's addresses back with its pages dropped (a fresh
 * inaccessible reservation over them), so it costs no memory. Caller holds mu. */
static void quarantine_locked(uintptr_t base, size_t size, bool device)
{
    void *r = mmap((void *)base, size, PROT_NONE, MAP_FIXED | MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (r == MAP_FAILED) {
        munmap((void *)base, size);
        return;
    }
    while (q_count == QUARANTINE_BLOCKS || (q_count && q_bytes + size > QUARANTINE_VA))
        quarantine_evict_locked();
    quarantine[(q_head + q_count) % QUARANTINE_BLOCKS] = (freed_range){base, size, device};
    q_count++;
    q_bytes += size;
    freed_add_locked(base, size, device);
}

bool emu_mem_freed(const void *p, size_t len, emu_block_info *out)
{
    pthread_mutex_lock(&mu);
    ptrdiff_t i = freed_overlap_locked((uintptr_t)p, len);
    if (i >= 0 && out)
        *out = (emu_block_info){.base = freed[i].base, .size = freed[i].size, .device = freed[i].device};
    pthread_mutex_unlock(&mu);
    return i >= 0;
}

/* ---- host allocations the allocator can measure ------------------------ */

/* A sanitizer's allocator answers exactly (weak: absent in plain processes). */
extern int __sanitizer_get_ownership(const volatile void *p) __attribute__((weak));
extern size_t __sanitizer_get_allocated_size(const volatile void *p) __attribute__((weak));

/* Reads n bytes at addr without faulting on unmapped or inaccessible memory. */
static bool read_self(const void *addr, void *out, size_t n)
{
    struct iovec local = {out, n}, remote = {(void *)(uintptr_t)addr, n};
    return process_vm_readv(getpid(), &local, 1, &remote, 1, 0) == (ssize_t)n;
}

/* glibc's chunk layout on 64-bit targets: the size word (low bits: 1 previous
 * chunk in use, 2 mmapped, 4 non-main arena) 8 bytes before the pointer;
 * chunks are 16-byte multiples, and an in-use chunk's successor has bit 1
 * set. What malloc_usable_size(p) returns, for a p that passes these
 * consistency checks (read without faulting), or false. */
static bool glibc_usable_size(const void *p, size_t *usable)
{
    const uintptr_t a = (uintptr_t)p;
    uint64_t hdr[2], next;
    if (sizeof(void *) != 8 || a % 16 || a < 4096 || !read_self((const void *)(a - 16), hdr, sizeof hdr))
        return false;
    const uint64_t size = hdr[1] & ~(uint64_t)7;
    if (size < 32 || size % 16 || size > ((uint64_t)1 << 46))
        return false;
    const uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
    if (hdr[1] & 2) { /* mmapped: a mapping of its own, from a page start */
        if ((hdr[1] & 4) || ((a - 16 - hdr[0]) % page) || ((hdr[0] + size) % page))
            return false;
        *usable = (size_t)size - 16;
        return true;
    }
    if (!read_self((const void *)(a - 16 + size + 8), &next, sizeof next) || !(next & 1) ||
        (next & ~(uint64_t)7) < 16 || (next & ~(uint64_t)7) % 16)
        return false;
    *usable = (size_t)size - 8;
    return true;
}

static bool glibc_probe_works;
static pthread_once_t glibc_probe_once = PTHREAD_ONCE_INIT;

/* The probe is used only where it measures this process's malloc correctly
 * (glibc's allocator, not a replacement), checked on a small and a large block. */
static void glibc_probe_check(void)
{
    bool works = true;
    const size_t sizes[] = {40, 1000, (size_t)1 << 20};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes && works; i++) {
        void *b = malloc(sizes[i]);
        size_t got = 0;
        works = b && glibc_usable_size(b, &got) && got == malloc_usable_size(b);
        free(b);
    }
    glibc_probe_works = works;
}

bool emu_host_alloc_size(const void *p, size_t *size)
{
    if (!p)
        return false;
    if (__sanitizer_get_ownership && __sanitizer_get_allocated_size) {
        if (!__sanitizer_get_ownership(p))
            return false;
        *size = __sanitizer_get_allocated_size(p);
        return true;
    }
    pthread_once(&glibc_probe_once, glibc_probe_check);
    return glibc_probe_works && glibc_usable_size(p, size);
}

/* Index of the block containing p, or -1. Caller holds mu. */
static ptrdiff_t find_locked(uintptr_t p)
{
    size_t lo = 0, hi = n_blocks;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (blocks[mid].base <= p)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return -1;
    const block *b = &blocks[lo - 1];
    return p - b->base < b->size ? (ptrdiff_t)(lo - 1) : -1;
}

bool emu_mem_find(const void *p, size_t len, emu_block_info *out)
{
    pthread_mutex_lock(&mu);
    ptrdiff_t i = find_locked((uintptr_t)p);
    bool ok = i >= 0 && len <= blocks[i].size - ((uintptr_t)p - blocks[i].base);
    if (i >= 0 && out)
        *out = (emu_block_info){
            .base = blocks[i].base, .size = blocks[i].size, .device = blocks[i].device, .registered = !blocks[i].owned};
    pthread_mutex_unlock(&mu);
    return ok;
}

static int add_block(uintptr_t base, size_t size, size_t map_size, bool device, bool owned, int policy)
{
    pthread_mutex_lock(&mu);
    if (n_blocks == cap_blocks) {
        size_t cap = cap_blocks ? 2 * cap_blocks : 64;
        block *grown = realloc(blocks, cap * sizeof *grown);
        if (!grown) {
            pthread_mutex_unlock(&mu);
            return -1;
        }
        blocks = grown;
        cap_blocks = cap;
    }
    size_t i = n_blocks;
    while (i > 0 && blocks[i - 1].base > base) {
        blocks[i] = blocks[i - 1];
        i--;
    }
    blocks[i] = (block){.base = base,
                        .size = size,
                        .map_size = map_size,
                        .device = device,
                        .owned = owned,
                        .refs = owned ? 0 : 1,
                        .policy = policy};
    n_blocks++;
    pthread_mutex_unlock(&mu);
    return 0;
}

ACL_FUNC_VISIBILITY bool aclnnEmuIsDeviceMemory(const void *ptr, size_t size)
{
    emu_block_info b;
    return ptr && emu_mem_find(ptr, size, &b) && b.device && !b.registered;
}

static bool valid_policy(int policy)
{
    const int flags = ACL_MEM_TYPE_LOW_BAND_WIDTH | ACL_MEM_TYPE_HIGH_BAND_WIDTH | ACL_MEM_ACCESS_USER_SPACE_READONLY;
    return policy >= 0 && (policy & 0xff) <= ACL_MEM_MALLOC_HUGE1G_ONLY_P2P && (policy & ~(flags | 0xff)) == 0;
}

/* Whether a device block of size under policy is backed by 2 MiB pages. */
static bool huge_pages(size_t size, int policy)
{
    const int kind = policy & 0xff;
    return size >= HUGE_PAGE && kind != ACL_MEM_MALLOC_NORMAL_ONLY && kind != ACL_MEM_MALLOC_NORMAL_ONLY_P2P;
}

static aclError allocate(const char *api, void **ptr, size_t size, bool device, int policy, bool reserved)
{
    emu_diag_api(api);
    if (!ptr)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "%s is NULL", device ? "devPtr" : "hostPtr");
    if (size == 0)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "size is 0");
    if (device && !valid_policy(policy))
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "policy %d is not an aclrtMemMallocPolicy", policy);
    int32_t dev = 0;
    int st = device ? emu_current_device(api, &dev) : emu_require_init(api);
    if (st)
        return st;
    if (size > (size_t)PTRDIFF_MAX - HUGE_PAGE)
        return emu_error(ACL_ERROR_BAD_ALLOC, api, "size %zu bytes cannot be allocated", size);
    const bool huge = device && !reserved && huge_pages(size, policy);
    const size_t page = (size_t)sysconf(_SC_PAGESIZE);
    /* Device blocks come in the cache's size classes: a freed one serves the
     * next request of its class with its pages already mapped (no faults). */
    const size_t rounded = device && !reserved ? size_class(size) : (size + page - 1) / page * page;
    void *p = device && !reserved ? cache_take(rounded, huge ? IDLE_DEVICE_HUGE : IDLE_DEVICE) : NULL;
    if (!p) {
        if (!(p = map_block(rounded, huge ? HUGE_PAGE : BLOCK_ALIGN, reserved)))
            return emu_error(ACL_ERROR_BAD_ALLOC, api, "size %zu bytes cannot be allocated (out of memory)", size);
#ifdef MADV_HUGEPAGE
        if (huge)
            (void)madvise(p, rounded, MADV_HUGEPAGE); /* a hint: without huge pages the block still works */
#endif
    }
    /* A real device does not zero fresh memory; strict mode makes forgotten
     * initialisation visible as NaN (0xff bytes are NaN in every float type). */
    if (device && !reserved && emu_strict())
        memset(p, 0xff, rounded);
    if (add_block((uintptr_t)p, size, rounded, device, true, policy) != 0) {
        pthread_mutex_lock(&mu);
        quarantine_locked((uintptr_t)p, rounded, device);
        pthread_mutex_unlock(&mu);
        return emu_error(ACL_ERROR_BAD_ALLOC, api, "out of memory recording the block");
    }
    if (reserved) {
        pthread_mutex_lock(&mu);
        blocks[find_locked((uintptr_t)p)].reserved = true;
        pthread_mutex_unlock(&mu);
    }
    *ptr = p;
    emu_log(EMU_LOG_INFO, "%s size=%zu policy=%d -> 0 (%p)", api, size, policy, p);
    return ACL_SUCCESS;
}

/* Host access to memory that work enqueued on a stream still uses (any use,
 * for a free; a write, for a read) before the host synchronised with that
 * stream: warn and wait for the work (strict mode: refuse). Decided by the
 * order of API calls, so it is reported every time, however fast the kernel. */
static int check_pending(const char *api, const void *p, bool writes_only, const char *doing, const char *their_use)
{
    pthread_mutex_lock(&mu);
    ptrdiff_t i = find_locked((uintptr_t)p);
    emu_stream *s = i < 0 ? NULL : writes_only ? blocks[i].writer : blocks[i].user;
    uint64_t seq = i < 0 ? 0 : writes_only ? blocks[i].writer_seq : blocks[i].user_seq;
    const char *op = i < 0 ? NULL : writes_only ? blocks[i].writer_op : blocks[i].user_op;
    pthread_mutex_unlock(&mu);
    if (!s || emu_stream_host_synced(s, seq))
        return 0;
    int st = emu_misuse(ACL_ERROR_INVALID_PARAM, api,
                        "%s memory %p that %s, enqueued on stream %p, %s; the host has not synchronised with that "
                        "stream since (missing aclrtSynchronizeStream?)",
                        doing, p, op, (void *)s, their_use);
    if (st == 0)
        emu_stream_wait(s, seq); /* normal mode: act on the finished result, deterministically */
    return st;
}

static aclError release(const char *api, void *p, bool device)
{
    emu_diag_api(api);
    if (!p)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "%s is NULL", device ? "devPtr" : "hostPtr");
    int st = check_pending(api, p, false, "frees", "still uses");
    if (st)
        return st;
    pthread_mutex_lock(&mu);
    ptrdiff_t i = find_locked((uintptr_t)p);
    const bool imported = i >= 0 && blocks[i].imported;
    bool ok = i >= 0 && !imported && blocks[i].base == (uintptr_t)p && blocks[i].device == device && blocks[i].owned;
    const size_t size = ok ? blocks[i].size : 0, map_size = ok ? blocks[i].map_size : 0;
    const int policy = ok ? blocks[i].policy : 0;
    const bool reserved = ok && (blocks[i].reserved || blocks[i].shared); /* neither goes back to the cache */
    const bool was_freed = !ok && freed_overlap_locked((uintptr_t)p, 1) >= 0;
    if (ok) {
        memmove(&blocks[i], &blocks[i + 1], (n_blocks - (size_t)i - 1) * sizeof *blocks);
        n_blocks--;
    }
    pthread_mutex_unlock(&mu);
    if (imported)
        return emu_error(ACL_ERROR_RT_PARAM_INVALID, api,
                         "%p is another process's memory (aclrtIpcMemImportByKey): release it with aclrtIpcMemClose", p);
    /* CANN's driver answers an address it did not allocate with "invalid value" (107000). */
    if (was_freed)
        return emu_error(EMU_FREED_MEMORY_STATUS, api, "%p was already freed (double free)", p);
    if (!ok)
        return emu_error(EMU_FREED_MEMORY_STATUS, api, "%p is not the start of a live block from %s", p,
                         device ? "aclrtMalloc" : "aclrtMallocHost");
    emu_log(EMU_LOG_INFO, "%s %p -> 0", api, p);
    if (!device || reserved ||
        !cache_put(p, size_class(size), huge_pages(size, policy) ? IDLE_DEVICE_HUGE : IDLE_DEVICE)) {
        pthread_mutex_lock(&mu);
        quarantine_locked((uintptr_t)p, map_size, device);
        pthread_mutex_unlock(&mu);
    }
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtMalloc(void **devPtr, size_t size, aclrtMemMallocPolicy policy)
{
    return allocate("aclrtMalloc", devPtr, size, true, (int)policy, false);
}

ACL_FUNC_VISIBILITY aclError aclnnEmuMallocReserved(void **devPtr, size_t size)
{
    return allocate("aclnnEmuMallocReserved", devPtr, size, true, ACL_MEM_MALLOC_NORMAL_ONLY, true);
}

ACL_FUNC_VISIBILITY aclError aclrtFree(void *devPtr)
{
    return release("aclrtFree", devPtr, true);
}

ACL_FUNC_VISIBILITY aclError aclrtMallocHost(void **hostPtr, size_t size)
{
    return allocate("aclrtMallocHost", hostPtr, size, false, 0, false);
}

ACL_FUNC_VISIBILITY aclError aclrtFreeHost(void *hostPtr)
{
    return release("aclrtFreeHost", hostPtr, false);
}

/* Registered host memory, or aclrtMallocHost's memory while registered. */
static bool is_registered_locked(const block *b)
{
    return !b->owned || (!b->device && b->refs > 0);
}

/* Records [a, a+size) as registered host memory (a reference more when inside a registration):
 * ACL_SUCCESS, ACL_ERROR_INVALID_PARAM when it overlaps a recorded block otherwise, or ACL_ERROR_BAD_ALLOC. */
static aclError add_registration(uintptr_t a, size_t size)
{
    const uintptr_t b = a + size;
    pthread_mutex_lock(&mu);
    ptrdiff_t i = find_locked(a);
    if (i >= 0 && (!blocks[i].owned || !blocks[i].device) && b - blocks[i].base <= blocks[i].size) {
        blocks[i].refs++; /* inside an existing registration or aclrtMallocHost's memory */
        pthread_mutex_unlock(&mu);
        return ACL_SUCCESS;
    }
    bool overlap = i >= 0 || (find_locked(b - 1) >= 0);
    for (size_t j = 0; !overlap && j < n_blocks; j++)
        overlap = blocks[j].base >= a && blocks[j].base < b;
    pthread_mutex_unlock(&mu);
    if (overlap)
        return ACL_ERROR_INVALID_PARAM;
    return add_block(a, size, 0, true, false, 0) != 0 ? ACL_ERROR_BAD_ALLOC : ACL_SUCCESS;
}

static aclError register_host(const char *api, void *ptr, uint64_t size)
{
    if (size == 0 || size > (uint64_t)PTRDIFF_MAX)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "size %llu is invalid", (unsigned long long)size);
    int st = emu_require_init(api);
    if (st)
        return st;
    st = add_registration((uintptr_t)ptr, (size_t)size);
    if (st == ACL_ERROR_INVALID_PARAM)
        return emu_error(st, api, "[%p, +%llu) overlaps memory that is already recorded", ptr,
                         (unsigned long long)size);
    if (st)
        return emu_error(st, api, "out of memory recording the block");
    return ACL_SUCCESS;
}

bool emu_mem_register_host(const void *ptr, size_t size)
{
    return size > 0 && size <= (size_t)PTRDIFF_MAX && add_registration((uintptr_t)ptr, size) == ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtHostRegister(void *ptr, uint64_t size, aclrtHostRegisterType type, void **devPtr)
{
    EMU_API_ENTRY();
    if (!ptr || !devPtr)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "%s is NULL", ptr ? "devPtr" : "ptr");
    if (type != ACL_HOST_REGISTER_MAPPED)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "type %d is not an aclrtHostRegisterType", (int)type);
    int st = register_host(api, ptr, size);
    if (!st)
        *devPtr = ptr;
    return st;
}

ACL_FUNC_VISIBILITY aclError aclrtHostRegisterV2(void *ptr, uint64_t size, uint32_t flag)
{
    EMU_API_ENTRY();
    if (!ptr)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "ptr is NULL");
    const uint32_t known = ACL_HOST_REG_MAPPED | ACL_HOST_REG_IOMEMORY | ACL_HOST_REG_READONLY | ACL_HOST_REG_PINNED;
    if (flag & ~known)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "flag 0x%x has bits no ACL_HOST_REG_* flag defines",
                         (unsigned)flag);
    return register_host(api, ptr, size);
}

ACL_FUNC_VISIBILITY aclError aclrtHostGetDevicePointer(void *pHost, void **pDevice, uint32_t flag)
{
    EMU_API_ENTRY();
    if (!pHost || !pDevice)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "%s is NULL", pHost ? "pDevice" : "pHost");
    if (flag != 0)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "flag must be 0 (reserved), not %u", (unsigned)flag);
    pthread_mutex_lock(&mu);
    ptrdiff_t i = find_locked((uintptr_t)pHost);
    bool registered = i >= 0 && is_registered_locked(&blocks[i]);
    pthread_mutex_unlock(&mu);
    if (!registered)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "%p is not registered host memory (aclrtHostRegister)", pHost);
    *pDevice = pHost; /* the emulated device addresses host memory directly */
    return ACL_SUCCESS;
}

bool emu_mem_unregister_host(const void *ptr)
{
    pthread_mutex_lock(&mu);
    ptrdiff_t i = ptr ? find_locked((uintptr_t)ptr) : -1;
    bool ok = i >= 0 && is_registered_locked(&blocks[i]);
    if (ok && --blocks[i].refs == 0 && !blocks[i].owned) {
        memmove(&blocks[i], &blocks[i + 1], (n_blocks - (size_t)i - 1) * sizeof *blocks);
        n_blocks--;
    }
    pthread_mutex_unlock(&mu);
    return ok;
}

ACL_FUNC_VISIBILITY aclError aclrtHostUnregister(void *ptr)
{
    EMU_API_ENTRY();
    return emu_mem_unregister_host(ptr) ? ACL_SUCCESS
                                        : emu_error(ACL_ERROR_INVALID_PARAM, api, "%p is not registered host memory", ptr);
}

void emu_mem_note_use(const void *p, emu_stream *s, uint64_t seq, const char *op, bool writes)
{
    pthread_mutex_lock(&mu);
    ptrdiff_t i = find_locked((uintptr_t)p);
    if (i >= 0) {
        blocks[i].user = s;
        blocks[i].user_seq = seq;
        blocks[i].user_op = op;
        if (writes) {
            blocks[i].writer = s;
            blocks[i].writer_seq = seq;
            blocks[i].writer_op = op;
        }
    }
    pthread_mutex_unlock(&mu);
}

static void forget_allocator_locked(const emu_stream *s);

static void forget_stream(emu_stream *s)
{
    pthread_mutex_lock(&mu);
    forget_allocator_locked(s);
    for (size_t i = 0; i < n_blocks; i++) {
        if (blocks[i].writer == s)
            blocks[i].writer = NULL;
        if (blocks[i].user == s)
            blocks[i].user = NULL;
    }
    pthread_mutex_unlock(&mu);
}

int emu_mem_check_read(const void *p, size_t len, const char *api)
{
    return len ? check_pending(api, p, true, "reads device", "writes") : 0;
}

/* The status for memory the library freed (see emu_mem_freed); the message says which block. */
static int freed_error(const char *api, const char *param, const void *p, size_t len, const emu_block_info *b)
{
    return emu_error(EMU_FREED_MEMORY_STATUS, api,
                     "%s range [%p, +%zu) touches %s memory that was freed (the %zu-byte block at %p; use after free)",
                     param, p, len, b->device ? "device" : "host", b->size, (void *)b->base);
}

/* Checks that [p, p+len) is either wholly inside one block or outside all
 * blocks, and touches no freed block. */
static int check_range(const char *api, const char *param, const void *p, size_t len, bool *is_device)
{
    emu_block_info b;
    if (emu_mem_freed(p, len, &b))
        return freed_error(api, param, p, len, &b);
    bool inside = emu_mem_find(p, len, &b);
    if (!inside && emu_mem_find(p, 0, &b))
        return emu_error(ACL_ERROR_INVALID_PARAM, api,
                         "%s range [%p, +%zu) runs past the end of its %zu-byte block at %p", param, p, len, b.size,
                         (void *)b.base);
    *is_device = inside && b.device;
    return 0;
}

static const char *const kind_names[] = {"ACL_MEMCPY_HOST_TO_HOST",
                                         "ACL_MEMCPY_HOST_TO_DEVICE",
                                         "ACL_MEMCPY_DEVICE_TO_HOST",
                                         "ACL_MEMCPY_DEVICE_TO_DEVICE",
                                         "ACL_MEMCPY_DEFAULT",
                                         "ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE",
                                         "ACL_MEMCPY_INNER_DEVICE_TO_DEVICE",
                                         "ACL_MEMCPY_INTER_DEVICE_TO_DEVICE"};

/* Where the bytes a copy touches lie ([dst, +dst_len), [src, +src_len)) against its kind. */
static int check_placement(const char *api, void *dst, size_t dst_len, const void *src, size_t src_len, int kind)
{
    bool dst_dev = false, src_dev = false;
    int st = check_range(api, "dst", dst, dst_len, &dst_dev);
    if (!st)
        st = check_range(api, "src", src, src_len, &src_dev);
    if (st)
        return st;
    int want_src = -1, want_dst = -1; /* -1: either, 0: host, 1: device */
    switch (kind) {
    case ACL_MEMCPY_HOST_TO_HOST: want_src = 0; want_dst = 0; break;
    case ACL_MEMCPY_HOST_TO_DEVICE:
    case ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE: want_src = 0; want_dst = 1; break;
    case ACL_MEMCPY_DEVICE_TO_HOST: want_src = 1; want_dst = 0; break;
    case ACL_MEMCPY_DEVICE_TO_DEVICE:
    case ACL_MEMCPY_INNER_DEVICE_TO_DEVICE:
    case ACL_MEMCPY_INTER_DEVICE_TO_DEVICE: want_src = 1; want_dst = 1; break;
    default: break;
    }
    if ((want_src >= 0 && want_src != src_dev) || (want_dst >= 0 && want_dst != dst_dev)) {
        st = emu_misuse(ACL_ERROR_INVALID_PARAM, api,
                        "kind %s disagrees with the pointers: src %p is %s memory, dst %p is %s memory",
                        kind_names[kind], src, src_dev ? "device" : "host", dst, dst_dev ? "device" : "host");
        if (st)
            return st;
    }
    return 0;
}

/* The checks shared by the synchronous and asynchronous copies. */
static int check_copy(const char *api, void *dst, size_t destMax, const void *src, size_t count, int kind)
{
    if (!dst)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "dst is NULL");
    if (!src)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "src is NULL");
    if (count > destMax)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "count %zu exceeds destMax %zu", count, destMax);
    if (kind < 0 || kind > ACL_MEMCPY_INTER_DEVICE_TO_DEVICE)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "kind %d is not an aclrtMemcpyKind", kind);
    return check_placement(api, dst, count, src, count, kind);
}

/* Bytes from the first row's start to the last row's end; false on overflow. */
static bool extent_2d(size_t pitch, size_t width, size_t height, size_t *out)
{
    if (height - 1 > (SIZE_MAX - width) / pitch)
        return false;
    *out = (height - 1) * pitch + width;
    return true;
}

/* CANN's checks of a pitched copy (CheckMemcpy2dParam) after aclInit's, then placement.
 * *empty is set for width or height 0, which copies nothing and succeeds. */
static int check_copy_2d(const char *api, void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                         size_t height, int kind, size_t *dst_len, size_t *src_len, bool *empty)
{
    int st = emu_require_init(api);
    *empty = width == 0 || height == 0;
    if (st || *empty)
        return st;
    if (!dst)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "dst is NULL");
    if (!src)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "src is NULL");
    if (width > spitch || width > dpitch)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "width %zu must not exceed spitch %zu and dpitch %zu", width,
                         spitch, dpitch);
    if (kind != ACL_MEMCPY_HOST_TO_DEVICE && kind != ACL_MEMCPY_DEVICE_TO_HOST && kind != ACL_MEMCPY_DEVICE_TO_DEVICE &&
        kind != ACL_MEMCPY_DEFAULT)
        return emu_error(ACL_ERROR_INVALID_PARAM, api,
                         "kind %d is not ACL_MEMCPY_HOST_TO_DEVICE, ACL_MEMCPY_DEVICE_TO_HOST, "
                         "ACL_MEMCPY_DEVICE_TO_DEVICE or ACL_MEMCPY_DEFAULT",
                         kind);
    if (!extent_2d(dpitch, width, height, dst_len) || !extent_2d(spitch, width, height, src_len))
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "height %zu rows of the pitches overflow size_t", height);
    return check_placement(api, dst, *dst_len, src, *src_len, kind);
}

ACL_FUNC_VISIBILITY aclError aclrtMemcpy(void *dst, size_t destMax, const void *src, size_t count,
                                         aclrtMemcpyKind kind)
{
    EMU_API_ENTRY();
    int st = emu_require_init(api);
    if (!st)
        st = check_copy(api, dst, destMax, src, count, (int)kind);
    if (!st)
        st = emu_mem_check_read(src, count, api);
    if (!st)
        st = emu_capture_check_sync(api);
    if (st)
        return st;
    /* A source that is the start of a host allocation shorter than count (a caller's bug: CANN's own
     * test_aclnn_upsample_nearest.cpp copies a 5-float vector into a 15-float tensor): only the
     * allocation is read, the rest arrives as zeros, and the caller hears of it (strict mode: refused). */
    size_t readable = count, host_size = 0;
    emu_block_info b;
    if (count && !emu_mem_find(src, 1, &b) && emu_host_alloc_size(src, &host_size) && host_size < count) {
        if ((st = emu_misuse(ACL_ERROR_RT_PARAM_INVALID, api, "src %p is a %zu-byte host allocation but count is "
                             "%zu; the %zu bytes past its end are copied as zeros", src, host_size, count,
                             count - host_size)) != 0)
            return st;
        readable = host_size;
    }
    if (readable)
        memmove(dst, src, readable);
    if (readable < count)
        memset((char *)dst + readable, 0, count - readable);
    emu_log(EMU_LOG_INFO, "%s dst=%p destMax=%zu src=%p count=%zu kind=%s -> 0", api, dst, destMax, src, count,
            kind_names[kind]);
    return ACL_SUCCESS;
}

/* height rows of width bytes (one row for plain copies and memsets). */
typedef struct copy_task {
    void *dst;
    const void *src;
    size_t width, height, dpitch, spitch;
    int value; /* memset when src is NULL */
} copy_task;

static void copy_rows(const copy_task *t)
{
    for (size_t r = 0; r < t->height; r++) {
        char *d = (char *)t->dst + r * t->dpitch;
        if (t->src)
            memmove(d, (const char *)t->src + r * t->spitch, t->width);
        else
            memset(d, t->value, t->width);
    }
}

static int run_copy(void *ctx, char *msg, size_t cap)
{
    (void)msg;
    (void)cap;
    copy_rows(ctx);
    return 0;
}

static aclError enqueue_task(const char *api, aclrtStream stream, const copy_task *what)
{
    emu_stream *s;
    int st = emu_stream_resolve(stream, api, ACL_ERROR_INVALID_PARAM, &s);
    if (st)
        return st;
    if (what->width == 0 || what->height == 0)
        return ACL_SUCCESS;
    copy_task *t = malloc(sizeof *t);
    if (!t)
        return emu_error(ACL_ERROR_BAD_ALLOC, api, "out of memory");
    *t = *what;
    const void *src = t->src;
    void *dst = t->dst;
    uint64_t seq;
    st = emu_stream_enqueue(s, run_copy, free, t, &seq);
    if (st)
        return emu_error(st, api, "out of memory enqueuing the copy");
    emu_mem_note_use(dst, s, seq, api, true);
    if (src)
        emu_mem_note_use(src, s, seq, api, false);
    return ACL_SUCCESS;
}

static aclError enqueue_copy(const char *api, aclrtStream stream, void *dst, const void *src, size_t count, int value)
{
    copy_task t = {.dst = dst, .src = src, .width = count, .height = 1, .dpitch = count, .spitch = count, .value = value};
    return enqueue_task(api, stream, &t);
}

ACL_FUNC_VISIBILITY aclError aclrtMemcpyAsync(void *dst, size_t destMax, const void *src, size_t count,
                                              aclrtMemcpyKind kind, aclrtStream stream)
{
    EMU_API_ENTRY();
    int st = emu_require_init(api);
    if (!st)
        st = check_copy(api, dst, destMax, src, count, (int)kind);
    return st ? st : enqueue_copy(api, stream, dst, src, count, 0);
}

ACL_FUNC_VISIBILITY aclError aclrtMemcpy2d(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                           size_t height, aclrtMemcpyKind kind)
{
    EMU_API_ENTRY();
    size_t dst_len = 0, src_len = 0;
    bool empty = false;
    int st = check_copy_2d(api, dst, dpitch, src, spitch, width, height, (int)kind, &dst_len, &src_len, &empty);
    if (!st && !empty)
        st = emu_mem_check_read(src, src_len, api);
    if (st)
        return st;
    if (!empty) {
        copy_task t = {.dst = dst, .src = src, .width = width, .height = height, .dpitch = dpitch, .spitch = spitch};
        copy_rows(&t);
    }
    emu_log(EMU_LOG_INFO, "%s dst=%p dpitch=%zu src=%p spitch=%zu width=%zu height=%zu kind=%d -> 0", api, dst, dpitch,
            src, spitch, width, height, (int)kind);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtMemcpy2dAsync(void *dst, size_t dpitch, const void *src, size_t spitch,
                                                size_t width, size_t height, aclrtMemcpyKind kind, aclrtStream stream)
{
    EMU_API_ENTRY();
    size_t dst_len = 0, src_len = 0;
    bool empty = false;
    int st = check_copy_2d(api, dst, dpitch, src, spitch, width, height, (int)kind, &dst_len, &src_len, &empty);
    if (st)
        return st;
    copy_task t = {.dst = dst, .src = src, .width = width, .height = height, .dpitch = dpitch, .spitch = spitch};
    return enqueue_task(api, stream, &t);
}

static int check_set(const char *api, void *devPtr, size_t maxCount, size_t count)
{
    if (!devPtr)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "devPtr is NULL");
    if (count > maxCount)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "count %zu exceeds maxCount %zu", count, maxCount);
    bool dev;
    return check_range(api, "devPtr", devPtr, count, &dev);
}

ACL_FUNC_VISIBILITY aclError aclrtMemset(void *devPtr, size_t maxCount, int32_t value, size_t count)
{
    EMU_API_ENTRY();
    int st = emu_require_init(api);
    if (!st)
        st = check_set(api, devPtr, maxCount, count);
    if (!st)
        st = emu_capture_check_sync(api);
    if (st)
        return st;
    if (count)
        memset(devPtr, value, count);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtMemsetAsync(void *devPtr, size_t maxCount, int32_t value, size_t count,
                                              aclrtStream stream)
{
    EMU_API_ENTRY();
    int st = emu_require_init(api);
    if (!st)
        st = check_set(api, devPtr, maxCount, count);
    return st ? st : enqueue_copy(api, stream, devPtr, NULL, count, value);
}

ACL_FUNC_VISIBILITY aclError aclrtGetMemInfo(aclrtMemAttr attr, size_t *free, size_t *total)
{
    EMU_API_ENTRY();
    int st = emu_require_init(api);
    if (!st && (!free || !total))
        st = emu_error(ACL_ERROR_INVALID_PARAM, api, "%s is NULL", !free ? "free" : "total");
    if (!st && ((int)attr < ACL_DDR_MEM || (int)attr > ACL_MEM_P2P_HUGE1G))
        st = emu_error(ACL_ERROR_INVALID_PARAM, api, "attr %d is not an aclrtMemAttr", (int)attr);
    if (st)
        return st;
    /* Every kind of device memory is the host's: its RAM is the total, less
     * what aclrtMalloc holds (and never more than the system has free). */
    long pages = sysconf(_SC_PHYS_PAGES), avail = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    size_t ram = pages > 0 && page > 0 ? (size_t)pages * (size_t)page : 0;
    size_t sys_free = avail > 0 && page > 0 ? (size_t)avail * (size_t)page : 0;
    size_t used = 0;
    pthread_mutex_lock(&mu);
    for (size_t i = 0; i < n_blocks; i++)
        if (blocks[i].device && blocks[i].owned)
            used += blocks[i].size;
    pthread_mutex_unlock(&mu);
    *total = ram;
    *free = ram > used ? ram - used : 0;
    if (*free > sys_free)
        *free = sys_free;
    emu_log(EMU_LOG_INFO, "%s attr=%d -> 0 (free %zu, total %zu)", api, (int)attr, *free, *total);
    return ACL_SUCCESS;
}

size_t emu_mem_live_blocks(char *buf, size_t cap, size_t *used)
{
    pthread_mutex_lock(&mu);
    size_t n = n_blocks;
    for (size_t i = 0; i < n_blocks; i++) {
        int w = snprintf(buf && *used < cap ? buf + *used : NULL, buf && *used < cap ? cap - *used : 0,
                         "  leaked %s memory %p (%zu bytes) created by %s\n", blocks[i].device ? "device" : "host",
                         (void *)blocks[i].base, blocks[i].size,
                         !blocks[i].owned ? "aclrtHostRegister" : blocks[i].device ? "aclrtMalloc" : "aclrtMallocHost");
        if (w > 0)
            *used += (size_t)w;
    }
    pthread_mutex_unlock(&mu);
    return n;
}

/* ---- block cache (aclnnEmuCacheAlloc, and freed device blocks) -----------
 * Result blocks carry their size class in a 64-byte header; device blocks'
 * class follows from their recorded size. Idle blocks of both sit in one
 * list under mu, bounded by ACLNN_EMU_CACHE_BYTES; a request takes the most
 * recently freed block of its class and kind. */

#define CACHE_HEADER ((size_t)64)

typedef struct cache_block {
    void *base;
    size_t cls;
    int kind;
} cache_block;

static cache_block *idle; /* guarded by mu */
static size_t n_idle, cap_idle;
static uint64_t idle_bytes;

/* Powers of two up to 2 MiB, then whole 2 MiB pages. 0 on overflow. */
static size_t size_class(size_t n)
{
    if (n > (size_t)PTRDIFF_MAX - HUGE_PAGE)
        return 0;
    if (n >= HUGE_PAGE)
        return (n + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
    size_t c = 4096;
    while (c < n)
        c *= 2;
    return c;
}

/* An idle block of class cls and kind, or NULL. */
static void *cache_take(size_t cls, int kind)
{
    void *base = NULL;
    pthread_mutex_lock(&mu);
    for (size_t i = n_idle; i-- > 0;) /* the most recently freed: its pages are the warmest */
        if (idle[i].cls == cls && idle[i].kind == kind) {
            base = idle[i].base;
            memmove(&idle[i], &idle[i + 1], (n_idle - i - 1) * sizeof *idle); /* keep the list oldest first */
            n_idle--;
            idle_bytes -= cls;
            if (kind != IDLE_RESULT)
                freed_remove_locked((uintptr_t)base);
            break;
        }
    pthread_mutex_unlock(&mu);
    return base;
}

/* Lets an idle block go: a result block back to malloc, a device block into
 * the quarantine (still recognised as freed). Caller holds mu. */
static void idle_drop_locked(const cache_block *b)
{
    if (b->kind == IDLE_RESULT) {
        free(b->base);
    } else {
        freed_remove_locked((uintptr_t)b->base);
        quarantine_locked((uintptr_t)b->base, b->cls, true);
    }
}

/* Keeps a block idle, dropping the least recently freed blocks as the bound
 * requires (sizes a program stopped using make room for the ones it uses
 * now); false: the block alone exceeds the bound, the caller drops it. */
static bool cache_put(void *base, size_t cls, int kind)
{
    const uint64_t limit = emu_cache_bytes();
    bool kept = false;
    pthread_mutex_lock(&mu);
    while (cls && cls <= limit && idle_bytes + cls > limit && n_idle > 0) {
        idle_bytes -= idle[0].cls;
        idle_drop_locked(&idle[0]);
        memmove(&idle[0], &idle[1], (n_idle - 1) * sizeof *idle);
        n_idle--;
    }
    if (cls && idle_bytes + cls <= limit) {
        if (n_idle == cap_idle) {
            size_t cap = cap_idle ? 2 * cap_idle : 16;
            cache_block *grown = realloc(idle, cap * sizeof *grown);
            if (grown) {
                idle = grown;
                cap_idle = cap;
            }
        }
        if (n_idle < cap_idle) {
            idle[n_idle++] = (cache_block){base, cls, kind};
            idle_bytes += cls;
            if (kind != IDLE_RESULT)
                freed_add_locked((uintptr_t)base, cls, true);
            kept = true;
        }
    }
    pthread_mutex_unlock(&mu);
    return kept;
}

ACL_FUNC_VISIBILITY void *aclnnEmuCacheAlloc(size_t size)
{
    /* size_class refuses what would overflow once the header is added. */
    const size_t cls = size && size <= (size_t)PTRDIFF_MAX - HUGE_PAGE - CACHE_HEADER
                           ? size_class(size + CACHE_HEADER) : 0;
    if (!cls)
        return NULL;
    char *base = cache_take(cls, IDLE_RESULT);
    if (!base) {
        void *p = NULL;
        if (posix_memalign(&p, cls >= HUGE_PAGE ? HUGE_PAGE : CACHE_HEADER, cls) != 0 || !p)
            return NULL;
#ifdef MADV_HUGEPAGE
        if (cls >= HUGE_PAGE)
            (void)madvise(p, cls, MADV_HUGEPAGE);
#endif
        base = p;
        memcpy(base, &cls, sizeof cls);
    }
    /* Live blocks are known by address, so a second free is caught without
     * reading memory that may already be someone else's. */
    if (emu_registry_add(base + CACHE_HEADER, EMU_CACHE_BLOCK, "aclnnEmuCacheAlloc") != 0) {
        if (!cache_put(base, cls, IDLE_RESULT))
            free(base);
        return NULL;
    }
    emu_registry_mark_internal(base + CACHE_HEADER);
    return base + CACHE_HEADER;
}

ACL_FUNC_VISIBILITY aclError aclnnEmuCacheFree(void *ptr)
{
    if (!ptr)
        return ACL_SUCCESS;
    if (!emu_registry_forget(ptr, EMU_CACHE_BLOCK))
        return emu_error(ACL_ERROR_INVALID_PARAM, "aclnnEmuCacheFree",
                         "%p is not a live block of aclnnEmuCacheAlloc (freed twice, or never allocated there)", ptr);
    char *base = (char *)ptr - CACHE_HEADER;
    size_t cls;
    memcpy(&cls, base, sizeof cls);
    if (!cache_put(base, cls, IDLE_RESULT))
        free(base);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY uint64_t aclnnEmuCacheTrim(void)
{
    pthread_mutex_lock(&mu);
    const uint64_t bytes = idle_bytes;
    for (size_t i = 0; i < n_idle; i++)
        idle_drop_locked(&idle[i]);
    free(idle);
    idle = NULL;
    n_idle = cap_idle = 0;
    idle_bytes = 0;
    pthread_mutex_unlock(&mu);
    return bytes;
}

ACL_FUNC_VISIBILITY uint64_t aclnnEmuCacheIdleBytes(void)
{
    pthread_mutex_lock(&mu);
    const uint64_t bytes = idle_bytes;
    pthread_mutex_unlock(&mu);
    return bytes;
}

void emu_mem_release_all(void)
{
    aclnnEmuCacheTrim();
    pthread_mutex_lock(&mu);
    for (size_t i = 0; i < n_blocks; i++)
        if (blocks[i].owned)
            munmap((void *)blocks[i].base, blocks[i].map_size);
    n_blocks = 0;
    while (q_count)
        quarantine_evict_locked();
    pthread_mutex_unlock(&mu);
}

static void trim_cache_on_reset(void)
{
    aclnnEmuCacheTrim();
}

__attribute__((constructor)) static void memory_init(void)
{
    emu_stream_on_destroy(forget_stream); /* streams sit below memory: they call back */
    emu_device_on_reset(trim_cache_on_reset);
}

/* ---- stream allocators (acl/acl_rt_allocator.h) ----------------------- */

typedef struct allocator_desc {
    aclrtAllocator obj;
    aclrtAllocatorAllocFunc alloc;
    aclrtAllocatorFreeFunc free_fn;
    aclrtAllocatorAllocAdviseFunc advise;
    aclrtAllocatorGetAddrFromBlockFunc addr;
} allocator_desc;

typedef struct registration {
    const emu_stream *stream;
    aclrtAllocatorDesc handle; /* as registered (handed back by aclrtAllocatorGetByStream) */
    allocator_desc desc;       /* copied at registration, as CANN does */
} registration;

#define MAX_ALLOCATORS 1024
static registration registrations[MAX_ALLOCATORS]; /* guarded by mu */
static size_t n_registrations;

static ptrdiff_t find_registration_locked(const emu_stream *s)
{
    for (size_t i = 0; i < n_registrations; i++)
        if (registrations[i].stream == s)
            return (ptrdiff_t)i;
    return -1;
}

static void forget_allocator_locked(const emu_stream *s)
{
    ptrdiff_t i = find_registration_locked(s);
    if (i >= 0)
        registrations[i] = registrations[--n_registrations];
}

ACL_FUNC_VISIBILITY aclrtAllocatorDesc aclrtAllocatorCreateDesc(void)
{
    EMU_API_ENTRY();
    allocator_desc *d = calloc(1, sizeof *d);
    if (!d || emu_registry_add(d, EMU_ALLOCATOR_DESC, api) != 0) {
        free(d);
        emu_error(ACL_ERROR_BAD_ALLOC, api, "out of memory");
        return NULL;
    }
    emu_log(EMU_LOG_INFO, "%s -> %p", api, (void *)d);
    return d;
}

static int check_desc(const char *api, aclrtAllocatorDesc desc)
{
    if (!desc)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "allocatorDesc is NULL");
    return emu_check_handle(desc, EMU_ALLOCATOR_DESC, ACL_ERROR_INVALID_PARAM, api, "allocatorDesc");
}

ACL_FUNC_VISIBILITY aclError aclrtAllocatorDestroyDesc(aclrtAllocatorDesc allocatorDesc)
{
    EMU_API_ENTRY();
    int st = check_desc(api, allocatorDesc);
    if (st)
        return st;
    emu_registry_release(allocatorDesc, EMU_ALLOCATOR_DESC, sizeof(allocator_desc), free);
    emu_log(EMU_LOG_INFO, "%s allocatorDesc=%p -> 0", api, allocatorDesc);
    return ACL_SUCCESS;
}

/* A setter's arguments: 0, or the status with a message. On 0 the caller stores the value under mu. */
static int check_setter(const char *api, aclrtAllocatorDesc desc, bool value_missing, const char *param)
{
    int st = check_desc(api, desc);
    if (!st && value_missing)
        st = emu_error(ACL_ERROR_INVALID_PARAM, api, "%s is NULL", param);
    if (!st)
        pthread_mutex_lock(&mu);
    return st;
}

/* Ends a successful setter. */
static aclError set_done(const char *api, aclrtAllocatorDesc desc)
{
    pthread_mutex_unlock(&mu);
    emu_log(EMU_LOG_INFO, "%s allocatorDesc=%p -> 0", api, desc);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtAllocatorSetObjToDesc(aclrtAllocatorDesc allocatorDesc, aclrtAllocator allocator)
{
    EMU_API_ENTRY();
    int st = check_setter(api, allocatorDesc, !allocator, "allocator");
    if (st)
        return st;
    ((allocator_desc *)allocatorDesc)->obj = allocator;
    return set_done(api, allocatorDesc);
}

ACL_FUNC_VISIBILITY aclError aclrtAllocatorSetAllocFuncToDesc(aclrtAllocatorDesc allocatorDesc,
                                                             aclrtAllocatorAllocFunc func)
{
    EMU_API_ENTRY();
    int st = check_setter(api, allocatorDesc, !func, "func");
    if (st)
        return st;
    ((allocator_desc *)allocatorDesc)->alloc = func;
    return set_done(api, allocatorDesc);
}

ACL_FUNC_VISIBILITY aclError aclrtAllocatorSetFreeFuncToDesc(aclrtAllocatorDesc allocatorDesc,
                                                            aclrtAllocatorFreeFunc func)
{
    EMU_API_ENTRY();
    int st = check_setter(api, allocatorDesc, !func, "func");
    if (st)
        return st;
    ((allocator_desc *)allocatorDesc)->free_fn = func;
    return set_done(api, allocatorDesc);
}

ACL_FUNC_VISIBILITY aclError aclrtAllocatorSetAllocAdviseFuncToDesc(aclrtAllocatorDesc allocatorDesc,
                                                                   aclrtAllocatorAllocAdviseFunc func)
{
    EMU_API_ENTRY();
    int st = check_setter(api, allocatorDesc, !func, "func");
    if (st)
        return st;
    ((allocator_desc *)allocatorDesc)->advise = func;
    return set_done(api, allocatorDesc);
}

ACL_FUNC_VISIBILITY aclError aclrtAllocatorSetGetAddrFromBlockFuncToDesc(aclrtAllocatorDesc allocatorDesc,
                                                                        aclrtAllocatorGetAddrFromBlockFunc func)
{
    EMU_API_ENTRY();
    int st = check_setter(api, allocatorDesc, !func, "func");
    if (st)
        return st;
    ((allocator_desc *)allocatorDesc)->addr = func;
    return set_done(api, allocatorDesc);
}

static int check_stream_arg(const char *api, aclrtStream stream)
{
    if (!stream)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "stream is NULL");
    return emu_check_handle(stream, EMU_STREAM, ACL_ERROR_RT_INVALID_HANDLE, api, "stream");
}

ACL_FUNC_VISIBILITY aclError aclrtAllocatorRegister(aclrtStream stream, aclrtAllocatorDesc allocatorDesc)
{
    EMU_API_ENTRY();
    int st = check_stream_arg(api, stream);
    if (!st)
        st = check_desc(api, allocatorDesc);
    if (st)
        return st;
    pthread_mutex_lock(&mu);
    const allocator_desc *d = allocatorDesc;
    const char *missing = !d->obj ? "obj" : !d->alloc ? "allocFunc" : !d->free_fn ? "freeFunc"
                        : !d->addr ? "getAddrFromBlockFunc" : NULL;
    ptrdiff_t i = find_registration_locked(stream);
    if (!missing && i < 0 && n_registrations == MAX_ALLOCATORS)
        st = ACL_ERROR_BAD_ALLOC;
    else if (!missing)
        registrations[i >= 0 ? (size_t)i : n_registrations++] =
            (registration){.stream = stream, .handle = allocatorDesc, .desc = *d};
    pthread_mutex_unlock(&mu);
    if (missing)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "allocatorDesc->%s is NULL", missing);
    if (st)
        return emu_error(st, api, "more than %d streams have an allocator", MAX_ALLOCATORS);
    emu_log(EMU_LOG_INFO, "%s stream=%p allocatorDesc=%p -> 0", api, stream, allocatorDesc);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtAllocatorGetByStream(aclrtStream stream, aclrtAllocatorDesc *allocatorDesc,
                                                      aclrtAllocator *allocator, aclrtAllocatorAllocFunc *allocFunc,
                                                      aclrtAllocatorFreeFunc *freeFunc,
                                                      aclrtAllocatorAllocAdviseFunc *allocAdviseFunc,
                                                      aclrtAllocatorGetAddrFromBlockFunc *getAddrFromBlockFunc)
{
    EMU_API_ENTRY();
    if (!allocatorDesc)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "allocatorDesc is NULL");
    int st = check_stream_arg(api, stream);
    if (st)
        return st;
    pthread_mutex_lock(&mu);
    ptrdiff_t i = find_registration_locked(stream);
    registration r = i >= 0 ? registrations[i] : (registration){0};
    pthread_mutex_unlock(&mu);
    if (i < 0)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "stream %p is not registered with any allocator", stream);
    *allocatorDesc = r.handle;
    if (allocator)
        *allocator = r.desc.obj;
    if (allocFunc)
        *allocFunc = r.desc.alloc;
    if (freeFunc)
        *freeFunc = r.desc.free_fn;
    if (allocAdviseFunc)
        *allocAdviseFunc = r.desc.advise;
    if (getAddrFromBlockFunc)
        *getAddrFromBlockFunc = r.desc.addr;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtAllocatorUnregister(aclrtStream stream)
{
    EMU_API_ENTRY();
    if (!stream)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "stream is NULL");
    pthread_mutex_lock(&mu);
    forget_allocator_locked(stream);
    pthread_mutex_unlock(&mu);
    emu_log(EMU_LOG_INFO, "%s stream=%p -> 0", api, stream);
    return ACL_SUCCESS;
}

EMU_FORK_SAFE_MUTEX(mu, EMU_ATFORK_MEMORY)

/* ---- data buffers (CANN's data_buffer.cpp): an address and a size, nothing owned ---- */

struct aclDataBuffer {
    void *data;
    size_t size;
};

ACL_FUNC_VISIBILITY aclDataBuffer *aclCreateDataBuffer(void *data, size_t size)
{
    EMU_API_ENTRY();
    aclDataBuffer *b = emu_handle_alloc(sizeof *b, EMU_DATA_BUFFER, api);
    if (b)
        *b = (aclDataBuffer){data, size};
    return b;
}

ACL_FUNC_VISIBILITY aclError aclDestroyDataBuffer(const aclDataBuffer *dataBuffer)
{
    EMU_API_ENTRY();
    if (!dataBuffer)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "dataBuffer is NULL");
    int st = emu_check_handle(dataBuffer, EMU_DATA_BUFFER, ACL_ERROR_INVALID_PARAM, api, "dataBuffer");
    if (!st)
        emu_registry_release((void *)dataBuffer, EMU_DATA_BUFFER, sizeof *dataBuffer, free);
    return st;
}

ACL_FUNC_VISIBILITY aclError aclUpdateDataBuffer(aclDataBuffer *dataBuffer, void *data, size_t size)
{
    EMU_API_ENTRY();
    if (!dataBuffer)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "dataBuffer is NULL");
    int st = emu_check_handle(dataBuffer, EMU_DATA_BUFFER, ACL_ERROR_INVALID_PARAM, api, "dataBuffer");
    if (st)
        return st;
    dataBuffer->data = data;
    dataBuffer->size = size;
    return ACL_SUCCESS;
}

/* The getters answer NULL / 0 for a NULL handle, as CANN; a stale one is refused the same way (and said). */
static const aclDataBuffer *live_buffer(const aclDataBuffer *b, const char *api)
{
    return b && emu_check_handle(b, EMU_DATA_BUFFER, ACL_ERROR_INVALID_PARAM, api, "dataBuffer") == 0 ? b : NULL;
}

ACL_FUNC_VISIBILITY void *aclGetDataBufferAddr(const aclDataBuffer *dataBuffer)
{
    EMU_API_ENTRY();
    const aclDataBuffer *b = live_buffer(dataBuffer, api);
    return b ? b->data : NULL;
}

ACL_FUNC_VISIBILITY uint32_t aclGetDataBufferSize(const aclDataBuffer *dataBuffer)
{
    EMU_API_ENTRY();
    const aclDataBuffer *b = live_buffer(dataBuffer, api);
    return b ? (uint32_t)b->size : 0;
}

ACL_FUNC_VISIBILITY size_t aclGetDataBufferSizeV2(const aclDataBuffer *dataBuffer)
{
    EMU_API_ENTRY();
    const aclDataBuffer *b = live_buffer(dataBuffer, api);
    return b ? b->size : 0;
}

/* ---- memory shared between processes (ipc.c) ---------------------------------- */

int emu_mem_share(const char *api, const void *p, size_t len, int fd, size_t *offset, size_t *map_size)
{
    pthread_mutex_lock(&mu);
    ptrdiff_t i = find_locked((uintptr_t)p);
    block *b = i >= 0 ? &blocks[i] : NULL;
    bool ok = b && b->device && b->owned && !b->imported && !b->reserved &&
              (uintptr_t)p + len <= b->base + b->size && (uintptr_t)p + len >= (uintptr_t)p;
    int st = 0;
    if (!ok)
        st = emu_error(ACL_ERROR_RT_PARAM_INVALID, api,
                       "devPtr %p and its %zu bytes are not in one block of aclrtMalloc's device memory", p, len);
    else if (b->shared)
        st = emu_error(ACL_ERROR_RT_PARAM_INVALID, api, "the block at %p is exported already", (void *)b->base);
    /* The block's pages become the shared object's: copy what they hold, then map the object over them. */
    else if (ftruncate(fd, (off_t)b->map_size) != 0 ||
             pwrite(fd, (const void *)b->base, b->map_size, 0) != (ssize_t)b->map_size ||
             mmap((void *)b->base, b->map_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0) == MAP_FAILED)
        st = emu_error(ACL_ERROR_RT_MEMORY_ALLOCATION, api, "cannot share the block at %p: %s", (void *)b->base,
                       strerror(errno));
    if (!st) {
        b->shared = true;
        *offset = (uintptr_t)p - b->base;
        *map_size = b->map_size;
    }
    pthread_mutex_unlock(&mu);
    return st;
}

int emu_mem_add_imported(void *base, size_t map_size)
{
    if (add_block((uintptr_t)base, map_size, map_size, true, true, 0) != 0)
        return -1;
    pthread_mutex_lock(&mu);
    blocks[find_locked((uintptr_t)base)].imported = true;
    pthread_mutex_unlock(&mu);
    return 0;
}

bool emu_mem_drop_imported(void *base, size_t *map_size)
{
    pthread_mutex_lock(&mu);
    ptrdiff_t i = find_locked((uintptr_t)base);
    bool ok = i >= 0 && blocks[i].imported && blocks[i].base == (uintptr_t)base;
    if (ok) {
        *map_size = blocks[i].map_size;
        memmove(&blocks[i], &blocks[i + 1], (n_blocks - (size_t)i - 1) * sizeof *blocks);
        n_blocks--;
        quarantine_locked((uintptr_t)base, *map_size, true); /* later use is reported, as after aclrtFree */
    }
    pthread_mutex_unlock(&mu);
    return ok;
}
