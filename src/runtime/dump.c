/*
 * adump's exception information (acl/acl_dump.h): where exception dumps go,
 * and acldumpSaveExceptionInfo, which writes tensors a program names into a
 * file there. On by acl.json's "dump_scene" (aic_err_brief_dump,
 * lite_exception, aic_err_norm_dump, aic_err_detail_dump), in CANN's layout:
 * <dump path>/extra-info/data-dump/<device>/<fileName>.custom.<time>. The
 * file holds a little-endian u64 header length, a JSON header (CANN writes
 * a protobuf DumpData there) and the tensors' bytes: inputs, outputs, then
 * workspaces.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>

#include "acl/acl_dump.h"
#include "runtime.h"

/* mkdir -p of path (modified in place and restored); 0 or errno. */
static int make_dirs(char *path)
{
    for (char *p = path + 1;; p++) {
        if (*p != '/' && *p != '\0')
            continue;
        char c = *p;
        *p = '\0';
        int rc = mkdir(path, 0750) == 0 || errno == EEXIST ? 0 : errno;
        *p = c;
        if (rc || c == '\0')
            return rc;
    }
}

/* The exception dump's folder for the current device, made and resolved to an absolute path. */
static int exception_root(const char *api, char *out, size_t cap)
{
    char base[PATH_MAX], dir[PATH_MAX + 64];
    if (!emu_exception_dump_base(base, sizeof base))
        return emu_error(ACL_ERROR_FAILURE, api,
                         "the exception dump is not enabled: aclInit's acl.json needs \"dump\": {\"dump_scene\": "
                         "\"aic_err_brief_dump\"} (or lite_exception, aic_err_norm_dump, aic_err_detail_dump)");
    int32_t device;
    if (emu_current_device(api, &device) != 0)
        return emu_error(ACL_ERROR_FAILURE, api, "no device is set on this thread (aclrtSetDevice)");
    snprintf(dir, sizeof dir, "%s/extra-info/data-dump/%d", base, (int)device);
    int rc = make_dirs(dir);
    char resolved[PATH_MAX];
    if (rc || !realpath(dir, resolved))
        return emu_error(ACL_ERROR_FAILURE, api, "cannot make the exception dump folder %s: %s", dir,
                         strerror(rc ? rc : errno));
    if (strlen(resolved) + 1 > cap)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "the path %s does not fit in maxLen %zu", resolved, cap);
    memcpy(out, resolved, strlen(resolved) + 1);
    return 0;
}

ACL_FUNC_VISIBILITY aclError acldumpGetExceptionInfoPath(char *path, size_t maxLen)
{
    EMU_API_ENTRY();
    if (!path)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "path is NULL");
    if (maxLen <= 1)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "maxLen %zu leaves no room for a path", maxLen);
    return exception_root(api, path, maxLen);
}

/* CANN's checks of one tensor (exception_dumper.cpp), in its order. */
static int check_tensor(const char *api, size_t i, const acldumpTensorInfo *t)
{
    const char *why = t->shapeNum > ACL_DUMP_MAX_SHAPE_NUM || t->originShapeNum > ACL_DUMP_MAX_SHAPE_NUM
                          ? "has more than 25 dims"
                      : (unsigned)t->type > ACL_DUMP_TENSOR_WORKSPACE ? "has a type that is no acldumpTensorType"
                      : t->addrType != ACL_DUMP_ADDR_RAW             ? "is not ACL_DUMP_ADDR_RAW"
                      : t->placement != ACL_DUMP_PLACEMENT_DEVICE    ? "is not ACL_DUMP_PLACEMENT_DEVICE"
                      : !t->tensorAddr                               ? "has a NULL tensorAddr"
                      : t->tensorSize == 0                           ? "has tensorSize 0"
                                                                     : NULL;
    return why ? emu_error(ACL_ERROR_INVALID_PARAM, api, "tensors[%zu] %s", i, why) : 0;
}

static bool bad_file_name(const char *name)
{
    if (!*name)
        return true;
    for (const char *seg = name; seg; seg = strchr(seg, '/') ? strchr(seg, '/') + 1 : NULL)
        if (strncmp(seg, "..", 2) == 0 && (seg[2] == '/' || seg[2] == '\0'))
            return true;
    return false;
}

/* The JSON header: the op (the file name's last part), the tag and each tensor's description. */
static void write_header(FILE *f, const char *op, const char *tag, const acldumpTensorInfo *t, size_t n)
{
    static const char *const kind[] = {"input", "output", "workspace"};
    fprintf(f, "{\"version\":\"2.0\",\"op_name\":\"%s\",\"user_tag\":\"%s\",\"tensors\":[", op, tag ? tag : "");
    for (size_t i = 0; i < n; i++) {
        fprintf(f, "%s{\"kind\":\"%s\",\"data_type\":%d,\"format\":%d,\"size\":%zu,\"shape\":[", i ? "," : "",
                kind[t[i].type], (int)t[i].dataType, (int)t[i].format, t[i].tensorSize);
        for (uint32_t d = 0; d < t[i].shapeNum; d++)
            fprintf(f, "%s%llu", d ? "," : "", (unsigned long long)t[i].shape[d]);
        fputs("]}", f);
    }
    fputs("]}", f);
}

ACL_FUNC_VISIBILITY aclError acldumpSaveExceptionInfo(const char *fileName, const char *userTag,
                                              const acldumpTensorInfo *tensors, size_t tensorCount)
{
    EMU_API_ENTRY();
    if (!fileName || bad_file_name(fileName))
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "fileName is %s", fileName ? "empty or has a \"..\" part"
                                                                                  : "NULL");
    if (!tensors || tensorCount == 0)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "%s", tensors ? "tensorCount is 0" : "tensors is NULL");
    char root[PATH_MAX];
    int st = exception_root(api, root, sizeof root);
    if (st)
        return st;
    for (size_t i = 0; i < tensorCount; i++) {
        if ((st = check_tensor(api, i, &tensors[i])))
            return st;
        emu_block_info b;
        if (!emu_mem_find(tensors[i].tensorAddr, tensors[i].tensorSize, &b) || !b.device)
            return emu_error(ACL_ERROR_FAILURE, api,
                             "tensors[%zu]: %zu bytes at %p are not device memory (aclrtMalloc) to read", i,
                             tensors[i].tensorSize, (void *)tensors[i].tensorAddr);
    }
    struct timeval now;
    gettimeofday(&now, NULL);
    struct tm tm;
    localtime_r(&now.tv_sec, &tm);
    char file[PATH_MAX + 256];
    int len = snprintf(file, sizeof file, "%s/%s.custom.%04d%02d%02d%02d%02d%02d%03d", root, fileName,
                       tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
                       (int)(now.tv_usec / 1000));
    if (len < 0 || (size_t)len >= sizeof file)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "fileName makes a path over %d bytes", PATH_MAX);
    char *slash = strrchr(file, '/');
    *slash = '\0';
    int rc = make_dirs(file);
    *slash = '/';
    FILE *f = rc ? NULL : fopen(file, "wb");
    if (!f)
        return emu_error(ACL_ERROR_FAILURE, api, "cannot write %s: %s", file, strerror(rc ? rc : errno));
    char *header = NULL;
    size_t header_len = 0;
    FILE *h = open_memstream(&header, &header_len);
    if (h) {
        write_header(h, strrchr(fileName, '/') ? strrchr(fileName, '/') + 1 : fileName, userTag, tensors,
                     tensorCount);
        fclose(h);
    }
    uint64_t n = header_len;
    bool ok = header && fwrite(&n, sizeof n, 1, f) == 1 && fwrite(header, 1, header_len, f) == header_len;
    for (int kind = ACL_DUMP_TENSOR_INPUT; ok && kind <= ACL_DUMP_TENSOR_WORKSPACE; kind++)
        for (size_t i = 0; ok && i < tensorCount; i++)
            if ((int)tensors[i].type == kind)
                ok = fwrite(tensors[i].tensorAddr, 1, tensors[i].tensorSize, f) == tensors[i].tensorSize;
    free(header);
    ok = fclose(f) == 0 && ok;
    chmod(file, 0400);
    if (!ok)
        return emu_error(ACL_ERROR_FAILURE, api, "writing %s failed", file);
    emu_log(EMU_LOG_INFO, "%s: wrote %s -> 0", api, file);
    return ACL_SUCCESS;
}
