/*
 * Device memory shared between processes (aclrtIpcMem*). Exporting a block
 * moves its pages into a POSIX shared memory object (its contents copied,
 * the object mapped over the same addresses, so the exporter's pointers stay
 * good); importing maps that object in another process and records it there
 * as device memory. A second object beside it holds the export's
 * description: the offset and size of the exported range, and the import
 * whitelist of aclrtIpcMemSetImportPid, checked unless the export was made
 * with ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION, as in CANN.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "runtime.h"

#define IPC_MEM_MAGIC 0x6d656d4370496d45ULL /* "EmIpCmem" */
#define IPC_MAX_PIDS 64
#define IPC_KEY_MAX 48

/* An export's description, in the shared object "/<key>_m". */
typedef struct ipc_meta {
    uint64_t magic;
    uint64_t flags;
    uint64_t offset, size, map_size;
    int32_t owner;
    uint32_t npids;
    int32_t pids[IPC_MAX_PIDS];
} ipc_meta;

/* This process's exports and imports, by key (under ipc_mu). */
typedef struct ipc_entry {
    char key[IPC_KEY_MAX];
    bool exported;
    void *base; /* an import's mapping */
    size_t map_size;
} ipc_entry;

static pthread_mutex_t ipc_mu = PTHREAD_MUTEX_INITIALIZER;
static ipc_entry *entries;
static size_t n_entries, cap_entries;
static atomic_uint next_export;
EMU_FORK_SAFE_MUTEX(ipc_mu, EMU_ATFORK_IPC)

static void object_name(char *out, size_t cap, const char *key, const char *suffix)
{
    snprintf(out, cap, "/%s%s", key, suffix);
}

/* The description of key's export, mapped (NULL when there is none). */
static ipc_meta *map_meta(const char *key, bool create)
{
    char name[IPC_KEY_MAX + 8];
    object_name(name, sizeof name, key, "_m");
    int fd = shm_open(name, create ? O_RDWR | O_CREAT | O_EXCL : O_RDWR, 0600);
    if (fd < 0)
        return NULL;
    ipc_meta *m = NULL;
    if (!create || ftruncate(fd, sizeof *m) == 0)
        m = mmap(NULL, sizeof *m, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (m == MAP_FAILED || (m && !create && m->magic != IPC_MEM_MAGIC)) {
        if (m && m != MAP_FAILED)
            munmap(m, sizeof *m);
        return NULL;
    }
    return m;
}

static ptrdiff_t find_entry_locked(const char *key, bool exported)
{
    for (size_t i = 0; i < n_entries; i++)
        if (entries[i].exported == exported && strcmp(entries[i].key, key) == 0)
            return (ptrdiff_t)i;
    return -1;
}

static int add_entry(const char *api, ipc_entry e)
{
    pthread_mutex_lock(&ipc_mu);
    bool ok = emu_grow((void **)&entries, &cap_entries, n_entries, sizeof *entries);
    if (ok)
        entries[n_entries++] = e;
    pthread_mutex_unlock(&ipc_mu);
    return ok ? 0 : emu_error(ACL_ERROR_BAD_ALLOC, api, "out of memory");
}

static void unlink_export(const char *key)
{
    char name[IPC_KEY_MAX + 8];
    object_name(name, sizeof name, key, "");
    shm_unlink(name);
    object_name(name, sizeof name, key, "_m");
    shm_unlink(name);
}

ACL_FUNC_VISIBILITY aclError aclrtIpcMemGetExportKey(void *devPtr, size_t size, char *key, size_t len,
                                                    uint64_t flags)
{
    EMU_API_ENTRY();
    if (!devPtr || !key)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "%s is NULL", devPtr ? "key" : "devPtr");
    if (size == 0)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "size is 0");
    if (flags > ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION)
        return emu_error(ACL_ERROR_INVALID_PARAM, api,
                         "flags 0x%llx is not ACL_RT_IPC_MEM_EXPORT_FLAG_DEFAULT or _DISABLE_PID_VALIDATION",
                         (unsigned long long)flags);
    int st = emu_require_init(api);
    if (st)
        return st;
    char made[IPC_KEY_MAX];
    snprintf(made, sizeof made, "aclnn_emu_mem_%ld_%u", (long)getpid(), atomic_fetch_add(&next_export, 1));
    if (strlen(made) + 1 > len)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "len %zu is too small for the key (%zu bytes)", len,
                         strlen(made) + 1);
    char name[IPC_KEY_MAX + 8];
    object_name(name, sizeof name, made, "");
    int fd = shm_open(name, O_RDWR | O_CREAT | O_EXCL, 0600);
    ipc_meta *meta = fd >= 0 ? map_meta(made, true) : NULL;
    if (!meta) {
        if (fd >= 0)
            close(fd);
        unlink_export(made);
        return emu_error(ACL_ERROR_RT_MEMORY_ALLOCATION, api, "cannot make shared memory %s: %s", name,
                         strerror(errno));
    }
    size_t offset = 0, map_size = 0;
    st = emu_mem_share(api, devPtr, size, fd, &offset, &map_size);
    close(fd);
    if (!st) {
        *meta = (ipc_meta){.flags = flags, .offset = offset, .size = size, .map_size = map_size,
                           .owner = (int32_t)getpid()};
        meta->magic = IPC_MEM_MAGIC; /* last: an importer sees a whole description or none */
        ipc_entry e = {.exported = true};
        snprintf(e.key, sizeof e.key, "%s", made);
        st = add_entry(api, e);
    }
    munmap(meta, sizeof *meta);
    if (st) {
        unlink_export(made);
        return st;
    }
    memcpy(key, made, strlen(made) + 1);
    emu_log(EMU_LOG_INFO, "%s devPtr=%p size=%zu -> 0 (key %s)", api, devPtr, size, made);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtIpcMemSetImportPid(const char *key, int32_t *pid, size_t num)
{
    EMU_API_ENTRY();
    if (!key || !pid || num == 0)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "%s", !key ? "key is NULL" : !pid ? "pid is NULL" : "num is 0");
    pthread_mutex_lock(&ipc_mu);
    bool mine = find_entry_locked(key, true) >= 0;
    pthread_mutex_unlock(&ipc_mu);
    ipc_meta *meta = mine ? map_meta(key, false) : NULL;
    if (!meta)
        return emu_error(ACL_ERROR_RT_PARAM_INVALID, api, "\"%s\" is not a key this process exported", key);
    int st = 0;
    if (meta->npids + num > IPC_MAX_PIDS)
        st = emu_error(ACL_ERROR_RT_PARAM_INVALID, api, "the whitelist holds %d processes at most", IPC_MAX_PIDS);
    else
        for (size_t i = 0; i < num; i++)
            meta->pids[meta->npids++] = pid[i];
    munmap(meta, sizeof *meta);
    return st;
}

ACL_FUNC_VISIBILITY aclError aclrtIpcMemImportByKey(void **devPtr, const char *key, uint64_t flags)
{
    EMU_API_ENTRY();
    if (!devPtr || !key)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "%s is NULL", devPtr ? "key" : "devPtr");
    if (flags > ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS)
        return emu_error(ACL_ERROR_INVALID_PARAM, api,
                         "flags 0x%llx is not ACL_RT_IPC_MEM_IMPORT_FLAG_DEFAULT or _ENABLE_PEER_ACCESS",
                         (unsigned long long)flags);
    int32_t dev;
    int st = emu_current_device(api, &dev);
    if (st)
        return st;
    if (strnlen(key, IPC_KEY_MAX) >= IPC_KEY_MAX || strchr(key, '/'))
        return emu_error(ACL_ERROR_RT_PARAM_INVALID, api, "\"%.*s\" is not an export key", IPC_KEY_MAX, key);
    ipc_meta *meta = map_meta(key, false);
    if (!meta)
        return emu_error(ACL_ERROR_RT_PARAM_INVALID, api, "no live export has the key \"%s\"", key);
    ipc_meta m = *meta;
    munmap(meta, sizeof *meta);
    bool allowed = (m.flags & ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION) != 0;
    for (uint32_t i = 0; !allowed && i < m.npids && i < IPC_MAX_PIDS; i++)
        allowed = m.pids[i] == (int32_t)getpid();
    if (!allowed)
        return emu_error(ACL_ERROR_RT_PARAM_INVALID, api,
                         "process %ld is not on the export's whitelist (aclrtIpcMemSetImportPid; or export with "
                         "ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION)",
                         (long)getpid());
    char name[IPC_KEY_MAX + 8];
    object_name(name, sizeof name, key, "");
    int fd = shm_open(name, O_RDWR, 0600);
    void *base = fd >= 0 ? mmap(NULL, m.map_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) : MAP_FAILED;
    if (fd >= 0)
        close(fd);
    if (base == MAP_FAILED)
        return emu_error(ACL_ERROR_RT_PARAM_INVALID, api, "the memory of \"%s\" cannot be mapped: %s", key,
                         strerror(errno));
    ipc_entry e = {.base = base, .map_size = m.map_size};
    snprintf(e.key, sizeof e.key, "%s", key);
    if (emu_mem_add_imported(base, m.map_size) != 0 || (st = add_entry(api, e)) != 0) {
        size_t ignored;
        if (!emu_mem_drop_imported(base, &ignored))
            munmap(base, m.map_size);
        return st ? st : emu_error(ACL_ERROR_BAD_ALLOC, api, "out of memory");
    }
    *devPtr = (char *)base + m.offset;
    emu_log(EMU_LOG_INFO, "%s key=%s -> 0 (%p)", api, key, *devPtr);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtIpcMemClose(const char *key)
{
    EMU_API_ENTRY();
    if (!key)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "key is NULL");
    pthread_mutex_lock(&ipc_mu);
    ptrdiff_t i = find_entry_locked(key, false); /* an import of it closes first, then an export */
    if (i < 0)
        i = find_entry_locked(key, true);
    ipc_entry e = i >= 0 ? entries[i] : (ipc_entry){0};
    if (i >= 0)
        entries[i] = entries[--n_entries];
    pthread_mutex_unlock(&ipc_mu);
    if (i < 0)
        return emu_error(ACL_ERROR_RT_PARAM_INVALID, api, "\"%s\" is not a key this process exported or imported",
                         key);
    size_t map_size;
    if (e.exported)
        unlink_export(key); /* imports made already keep their mapping, as with CANN */
    else
        emu_mem_drop_imported(e.base, &map_size);
    return ACL_SUCCESS;
}

/* At exit, no name this process made stays behind in the shared memory namespace (an export never closed, an
 * IPC event never destroyed): mappings other processes hold stay valid, as after aclrtIpcMemClose. */
__attribute__((destructor)) static void unlink_own_objects(void)
{
    char mine[2][64];
    snprintf(mine[0], sizeof mine[0], "aclnn_emu_mem_%ld_", (long)getpid());
    snprintf(mine[1], sizeof mine[1], "aclnn_emu_event_%ld_", (long)getpid());
    DIR *d = opendir("/dev/shm"); /* where glibc keeps POSIX shared memory */
    if (!d)
        return;
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        for (int k = 0; k < 2; k++)
            if (strncmp(e->d_name, mine[k], strlen(mine[k])) == 0) {
                char name[300];
                snprintf(name, sizeof name, "/%s", e->d_name);
                shm_unlink(name);
            }
    closedir(d);
}
