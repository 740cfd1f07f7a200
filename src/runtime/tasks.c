/*
 * The runtime's built-in stream tasks: writing a 64-bit value to device
 * memory and waiting for one (aclrtValueWrite/Wait), the reduce copy
 * (aclrtReduceAsync) and the random-number task (aclrtRandomNumAsync).
 * Each is checked at the call in CANN's order and runs in its stream's order.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../kernel/half.h"
#include "runtime.h"

/* ---- value write and wait ---------------------------------------------- */

/* Every value task reads and writes its word under one lock, so that a wait
 * sees a write whole whatever the word's alignment; a write wakes the waits.
 * A wait also looks again every VALUE_POLL_MS, because the word may change by
 * other means (a copy, an operator, the host); those writes are not ordered
 * with the wait's read (as on a device polling memory the host writes), so a
 * program that needs the word seen whole writes it with aclrtValueWrite. */
static pthread_mutex_t value_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t value_cv = PTHREAD_COND_INITIALIZER;
#define VALUE_POLL_MS 1

typedef struct value_task {
    void *addr;
    uint64_t value;
    uint32_t flag; /* the wait's ACL_STREAM_WAIT_VALUE_* */
} value_task;

static int value_write_run(void *ctx, char *msg, size_t cap)
{
    (void)msg, (void)cap;
    const value_task *t = ctx;
    pthread_mutex_lock(&value_mu);
    memcpy(t->addr, &t->value, sizeof t->value);
    pthread_cond_broadcast(&value_cv);
    pthread_mutex_unlock(&value_mu);
    return 0;
}

/* The conditions of CANN's MEM_WAIT_VALUE_TYPE_* (stars_cond_isa_define.hpp). */
static bool value_met(uint64_t word, uint64_t value, uint32_t flag)
{
    switch (flag) {
    case ACL_STREAM_WAIT_VALUE_GEQ:
        return word >= value;
    case ACL_STREAM_WAIT_VALUE_EQ:
        return word == value;
    case ACL_STREAM_WAIT_VALUE_AND:
        return (word & value) != 0;
    default: /* ACL_STREAM_WAIT_VALUE_NOR */
        return ~(word | value) != 0;
    }
}

static int value_wait_run(void *ctx, char *msg, size_t cap)
{
    (void)msg, (void)cap;
    const value_task *t = ctx;
    int st = 0;
    pthread_mutex_lock(&value_mu);
    for (;;) {
        uint64_t word;
        memcpy(&word, t->addr, sizeof word);
        if (value_met(word, t->value, t->flag))
            break;
        if (emu_stream_fork_pending()) {
            st = EMU_TASK_AGAIN;
            break;
        }
        struct timespec deadline = emu_deadline_after_ms(VALUE_POLL_MS);
        pthread_cond_timedwait(&value_cv, &value_mu, &deadline);
    }
    pthread_mutex_unlock(&value_mu);
    return st;
}

EMU_FORK_SAFE_MUTEX_COND(value_mu, value_cv, EMU_ATFORK_TASKS)

/* len bytes at p in one live device block (aclrtMalloc), or a status naming the argument. CANN's
 * runtime asks the driver where an address lives (rtPtrAttributes); a wrong one is a parameter error. */
static int check_device_span(const char *api, const char *what, const void *p, size_t len)
{
    emu_block_info b;
    if (emu_mem_freed(p, len, &b))
        return emu_error(EMU_FREED_MEMORY_STATUS, api,
                         "%s %p is in device memory that was freed (the %zu-byte block at %p; use after free)", what,
                         p, b.size, (void *)b.base);
    if (emu_mem_find(p, len, &b) && b.device)
        return 0;
    if (emu_mem_find(p, 0, &b) && b.device)
        return emu_error(ACL_ERROR_RT_PARAM_INVALID, api,
                         "%s %p: its %zu bytes run past the end of the %zu-byte device block at %p", what, p, len,
                         b.size, (void *)b.base);
    return emu_error(ACL_ERROR_RT_PARAM_INVALID, api, "%s %p is not device memory (aclrtMalloc)", what, p);
}

/* The flag CANN allows: 0 for a write (reserved), a mode for a wait. */
static int check_value_flag(const char *api, uint32_t flag, bool writes)
{
    if (writes && flag != 0)
        return emu_error(ACL_ERROR_RT_PARAM_INVALID, api, "flag %u is reserved and must be 0", (unsigned)flag);
    if (!writes && flag > ACL_STREAM_WAIT_VALUE_NOR)
        return emu_error(ACL_ERROR_RT_PARAM_INVALID, api,
                         "flag %u is not an ACL_STREAM_WAIT_VALUE_* mode: GEQ (0), EQ (1), AND (2) or NOR (3)",
                         (unsigned)flag);
    return 0;
}

/* In CANN's order (acl, then rtsValue*, then api_error.cc): devAddr, the stream, the flag, the memory. */
static aclError enqueue_value(const char *api, void *devAddr, uint64_t value, uint32_t flag, aclrtStream stream,
                              bool writes)
{
    if (!devAddr)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "devAddr is NULL");
    emu_stream *s;
    int st = emu_require_init(api);
    if (st || (st = emu_stream_resolve(stream, api, ACL_ERROR_RT_INVALID_HANDLE, &s)) ||
        (st = check_value_flag(api, flag, writes)) ||
        (st = check_device_span(api, "devAddr", devAddr, sizeof(uint64_t))))
        return st;
    value_task *t = malloc(sizeof *t);
    if (!t)
        return emu_error(ACL_ERROR_RT_MEMORY_ALLOCATION, api, "out of memory");
    *t = (value_task){devAddr, value, flag};
    uint64_t seq;
    if ((st = emu_stream_enqueue(s, writes ? value_write_run : value_wait_run, free, t, &seq)) != 0)
        return emu_error(st, api, "out of memory");
    emu_mem_note_use(devAddr, s, seq, api, writes);
    emu_log(EMU_LOG_INFO, "%s devAddr=%p value=%llu flag=%u stream=%p -> 0", api, devAddr, (unsigned long long)value,
            (unsigned)flag, stream);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtValueWrite(void *devAddr, uint64_t value, uint32_t flag, aclrtStream stream)
{
    EMU_API_ENTRY();
    return enqueue_value(api, devAddr, value, flag, stream, true);
}

ACL_FUNC_VISIBILITY aclError aclrtValueWait(void *devAddr, uint64_t value, uint32_t flag, aclrtStream stream)
{
    EMU_API_ENTRY();
    return enqueue_value(api, devAddr, value, flag, stream, false);
}

/* ---- reduce ------------------------------------------------------------- */

typedef struct reduce_task {
    void *dst;
    const void *src;
    uint64_t count; /* bytes */
    aclDataType type;
} reduce_task;

/* The element sizes of the types CANN's aclrtReduceAsync maps (memory.cpp kMapDataType); 0 for INT4. */
static int reduce_type_size(aclDataType type)
{
    switch (type) {
    case ACL_FLOAT:
    case ACL_INT32:
    case ACL_UINT32:
        return 4;
    case ACL_FLOAT16:
    case ACL_BF16:
    case ACL_INT16:
    case ACL_UINT16:
        return 2;
    case ACL_INT8:
    case ACL_UINT8:
        return 1;
    case ACL_INT4:
        return 0;
    default:
        return -1;
    }
}

/* dst += src element by element: floating types in float, rounded back to nearest even; integers wrap
 * (the SDMA engine's saturation, if any, is not published). Elements are little-endian, as on the hosts
 * CANN supports (x86_64, aarch64). */
static int reduce_run(void *ctx, char *msg, size_t cap)
{
    (void)msg, (void)cap;
    const reduce_task *t = ctx;
    uint8_t *d = t->dst;
    const uint8_t *s = t->src;
    int size = reduce_type_size(t->type);
    if (size == 0) { /* ACL_INT4: two nibbles a byte, each wrapping on its own */
        for (uint64_t i = 0; i < t->count; i++)
            d[i] = (uint8_t)(((d[i] + s[i]) & 0x0F) | (((d[i] >> 4) + (s[i] >> 4)) << 4));
        return 0;
    }
    for (uint64_t i = 0; i < t->count; i += (uint64_t)size) {
        uint64_t x = 0, y = 0;
        memcpy(&x, d + i, (size_t)size), memcpy(&y, s + i, (size_t)size);
        switch (t->type) {
        case ACL_FLOAT:
            x = emu_f32_to_bits(emu_bits_to_f32((uint32_t)x) + emu_bits_to_f32((uint32_t)y));
            break;
        case ACL_FLOAT16:
            x = emu_f32_to_f16(emu_f16_to_f32((uint16_t)x) + emu_f16_to_f32((uint16_t)y));
            break;
        case ACL_BF16:
            x = emu_f32_to_bf16(emu_bf16_to_f32((uint16_t)x) + emu_bf16_to_f32((uint16_t)y));
            break;
        default:
            x += y; /* the low size bytes are stored: a wrapping sum */
            break;
        }
        memcpy(d + i, &x, (size_t)size);
    }
    return 0;
}

#define REDUCE_MAX_BYTES (4ULL << 30) /* MAX_MEMCPY_SIZE_OF_D2D */

ACL_FUNC_VISIBILITY aclError aclrtReduceAsync(void *dst, const void *src, uint64_t count, aclrtReduceKind kind,
                                              aclDataType type, aclrtStream stream, void *reserve)
{
    EMU_API_ENTRY();
    /* acl's checks (memory.cpp), then rtsLaunchReduceAsyncTask's and ApiErrorDecorator::ReduceAsyncV2's. */
    if (!dst || !src)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "%s is NULL", dst ? "src" : "dst");
    if (reserve)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "reserve is a reserved parameter and must be NULL");
    int size = reduce_type_size(type);
    if (size < 0)
        return emu_error(ACL_ERROR_INVALID_PARAM, api,
                         "type %d is not supported: FLOAT, FLOAT16, BF16, INT4, INT8, INT16, INT32, UINT8, UINT16 or "
                         "UINT32",
                         (int)type);
    emu_stream *s;
    int st = emu_require_init(api);
    if (st || (st = emu_stream_resolve(stream, api, ACL_ERROR_RT_INVALID_HANDLE, &s)))
        return st;
    if (count == 0)
        return emu_error(ACL_ERROR_RT_PARAM_INVALID, api, "count is 0: it must be in (0, %llu] bytes",
                         REDUCE_MAX_BYTES);
    if (kind != ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM)
        return emu_error(ACL_ERROR_RT_PARAM_INVALID, api,
                         "kind %d is not supported: CANN's runtime takes only ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM (10)",
                         (int)kind);
    if (count > REDUCE_MAX_BYTES)
        return emu_error(ACL_ERROR_RT_PARAM_INVALID, api, "count %llu is over %llu bytes", (unsigned long long)count,
                         REDUCE_MAX_BYTES);
    if (size > 1 && count % (uint64_t)size)
        return emu_error(ACL_ERROR_RT_PARAM_INVALID, api,
                         "count %llu bytes is not a whole number of %d-byte elements: count is in bytes",
                         (unsigned long long)count, size);
    if ((st = check_device_span(api, "dst", dst, (size_t)count)) ||
        (st = check_device_span(api, "src", src, (size_t)count)))
        return st;
    reduce_task *t = malloc(sizeof *t);
    if (!t)
        return emu_error(ACL_ERROR_RT_MEMORY_ALLOCATION, api, "out of memory");
    *t = (reduce_task){dst, src, count, type};
    uint64_t seq;
    if ((st = emu_stream_enqueue(s, reduce_run, free, t, &seq)) != 0)
        return emu_error(st, api, "out of memory");
    emu_mem_note_use(src, s, seq, api, false);
    emu_mem_note_use(dst, s, seq, api, true);
    emu_log(EMU_LOG_INFO, "%s dst=%p src=%p count=%llu type=%d stream=%p -> 0", api, dst, src,
            (unsigned long long)count, (int)type, stream);
    return ACL_SUCCESS;
}

/* ---- random numbers ------------------------------------------------------- */

/* Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3"): a counter-based
 * generator, so a task's numbers depend only on the seed and the counter it starts from. */
typedef struct philox {
    uint32_t key[2];
    uint32_t ctr[4];
    uint32_t out[4];
    int used; /* words of out already taken */
} philox;

static void philox_block(const uint32_t key_in[2], const uint32_t ctr_in[4], uint32_t out[4])
{
    uint32_t k0 = key_in[0], k1 = key_in[1];
    uint32_t c0 = ctr_in[0], c1 = ctr_in[1], c2 = ctr_in[2], c3 = ctr_in[3];
    for (int round = 0; round < 10; round++) {
        uint64_t p0 = (uint64_t)0xD2511F53u * c0, p1 = (uint64_t)0xCD9E8D57u * c2;
        uint32_t n0 = (uint32_t)(p1 >> 32) ^ c1 ^ k0, n2 = (uint32_t)(p0 >> 32) ^ c3 ^ k1;
        c0 = n0, c1 = (uint32_t)p1, c2 = n2, c3 = (uint32_t)p0;
        k0 += 0x9E3779B9u, k1 += 0xBB67AE85u;
    }
    out[0] = c0, out[1] = c1, out[2] = c2, out[3] = c3;
}

static uint32_t philox_next(philox *g)
{
    if (g->used == 4) {
        philox_block(g->key, g->ctr, g->out);
        for (int i = 0; i < 4 && ++g->ctr[i] == 0; i++) /* the 128-bit counter, little-endian words */
            ;
        g->used = 0;
    }
    return g->out[g->used++];
}

/* A uniform float in [0, 1) from 24 random bits; (0, 1] where a logarithm needs it. */
static float philox_unit(philox *g)
{
    return (float)(philox_next(g) >> 8) * 0x1p-24f;
}

static float philox_normal(philox *g)
{
    float u1 = 1.0f - philox_unit(g), u2 = philox_unit(g);
    return sqrtf(-2.0f * logf(u1)) * cosf(6.28318530717958647692f * u2);
}

typedef struct random_task {
    aclrtRandomNumTaskInfo info; /* a copy: the caller's may be gone when the task runs */
    size_t elem;                 /* bytes per element of dataType */
} random_task;

/* A parameter's value as 8 little-endian bytes: inline, or read from device memory now. */
static uint64_t random_param(const aclrtRandomParaInfo *p, size_t elem)
{
    uint64_t v = 0;
    if (p->isAddr) {
        const void *addr;
        memcpy(&addr, p->valueOrAddr, sizeof addr);
        memcpy(&v, addr, elem);
    } else {
        memcpy(&v, p->valueOrAddr, p->size);
    }
    return v;
}

/* A floating parameter of dataType as a float. */
static float random_float_param(const aclrtRandomParaInfo *p, aclDataType type)
{
    uint64_t v = random_param(p, type == ACL_FLOAT ? 4 : 2);
    if (type == ACL_FLOAT)
        return emu_bits_to_f32((uint32_t)v);
    return type == ACL_FLOAT16 ? emu_f16_to_f32((uint16_t)v) : emu_bf16_to_f32((uint16_t)v);
}

static void random_store_float(uint8_t *out, uint64_t i, aclDataType type, float x)
{
    if (type == ACL_FLOAT) {
        memcpy(out + 4 * i, &x, 4);
    } else {
        uint16_t h = type == ACL_FLOAT16 ? emu_f32_to_f16(x) : emu_f32_to_bf16(x);
        memcpy(out + 2 * i, &h, 2);
    }
}

static int random_run(void *ctx, char *msg, size_t cap)
{
    const random_task *t = ctx;
    const aclrtRandomNumTaskInfo *in = &t->info;
    uint64_t seed = random_param(&in->randomSeed, 8), num = random_param(&in->randomNum, 8);
    aclrtRandomNumFuncType fn = in->randomNumFuncParaInfo.funcType;
    uint64_t bytes = fn == ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK ? (num + 7) / 8 : num * t->elem;
    emu_block_info b;
    if (num > UINT64_MAX / 8 || !emu_mem_find(in->randomResultAddr, (size_t)bytes, &b) || !b.device) {
        snprintf(msg, cap, "randomResultAddr %p does not hold the %llu numbers randomNum (read from device memory) "
                 "asks for", in->randomResultAddr, (unsigned long long)num);
        return ACL_ERROR_RT_PARAM_INVALID;
    }
    philox g = {.key = {(uint32_t)seed, (uint32_t)(seed >> 32)}, .used = 4};
    memcpy(g.ctr, in->randomCounterAddr, sizeof g.ctr);
    uint8_t *out = in->randomResultAddr;
    const aclDataType type = in->dataType;
    if (fn == ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK) {
        float drop = random_float_param(&in->randomNumFuncParaInfo.paramInfo.dropoutBitmaskInfo.dropoutRation, type);
        memset(out, 0, (size_t)bytes);
        for (uint64_t i = 0; i < num; i++)
            if (philox_unit(&g) >= drop)
                out[i / 8] |= (uint8_t)(1u << (i % 8));
    } else if (fn == ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS) {
        const aclrtUniformDisInfo *u = &in->randomNumFuncParaInfo.paramInfo.uniformDisInfo;
        if (type == ACL_FLOAT || type == ACL_FLOAT16 || type == ACL_BF16) {
            float lo = random_float_param(&u->min, type), hi = random_float_param(&u->max, type);
            for (uint64_t i = 0; i < num; i++)
                random_store_float(out, i, type, lo + philox_unit(&g) * (hi - lo));
        } else {
            uint64_t lo = random_param(&u->min, t->elem), hi = random_param(&u->max, t->elem);
            bool wide = t->elem == 8;
            if (!wide && type == ACL_INT32) /* sign-extend so that the range below is right */
                lo = (uint64_t)(int64_t)(int32_t)lo, hi = (uint64_t)(int64_t)(int32_t)hi;
            uint64_t range = hi - lo; /* modulo 2**64: max <= min gives a range of the wrapped span */
            if (!wide)
                range &= 0xFFFFFFFFu;
            for (uint64_t i = 0; i < num; i++) {
                uint64_t draw = philox_next(&g);
                if (wide)
                    draw |= (uint64_t)philox_next(&g) << 32;
                uint64_t v = lo + (range ? draw % range : 0);
                memcpy(out + t->elem * i, &v, t->elem); /* little-endian: the low bytes */
            }
        }
    } else {
        const aclrtNormalDisInfo *nd = &in->randomNumFuncParaInfo.paramInfo.normalDisInfo;
        float mean = random_float_param(&nd->mean, type), stddev = random_float_param(&nd->stddev, type);
        bool truncated = fn == ACL_RT_RANDOM_NUM_FUNC_TYPE_TRUNCATED_NORMAL_DIS;
        for (uint64_t i = 0; i < num; i++) {
            float z = philox_normal(&g);
            while (truncated && fabsf(z) > 2.0f)
                z = philox_normal(&g);
            random_store_float(out, i, type, mean + stddev * z);
        }
    }
    memcpy(in->randomCounterAddr, g.ctr, sizeof g.ctr);
    return 0;
}

/* The data types each function takes (random_num_task.cc FUNCTYPE_DATATYPE_MAP). */
static bool random_takes(aclrtRandomNumFuncType fn, aclDataType type)
{
    bool floating = type == ACL_FLOAT || type == ACL_FLOAT16 || type == ACL_BF16;
    if (fn == ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS)
        return floating || type == ACL_INT32 || type == ACL_INT64 || type == ACL_UINT32 || type == ACL_UINT64;
    return floating;
}

/* CheckRandomParam: isAddr 0 or 1; size in [1, the value's size] (8 for an address). An address must be
 * device memory holding the value. */
static int check_random_param(const char *api, const char *name, const aclrtRandomParaInfo *p, size_t elem)
{
    size_t limit = p->isAddr == 1 ? sizeof(uint64_t) : elem;
    if (p->isAddr > 1)
        return emu_error(ACL_ERROR_RT_PARAM_INVALID, api, "%s.isAddr is %u: it must be 0 (a value) or 1 (an address)",
                         name, (unsigned)p->isAddr);
    if (p->size == 0 || p->size > limit)
        return emu_error(ACL_ERROR_RT_PARAM_INVALID, api, "%s.size is %u: it must be in [1, %zu]", name,
                         (unsigned)p->size, limit);
    if (p->isAddr) {
        void *addr;
        memcpy(&addr, p->valueOrAddr, sizeof addr);
        char what[64];
        snprintf(what, sizeof what, "%s's address", name);
        return check_device_span(api, what, addr, elem);
    }
    return 0;
}

static size_t random_type_size(aclDataType type)
{
    switch (type) {
    case ACL_INT64:
    case ACL_UINT64:
        return 8;
    case ACL_INT32:
    case ACL_UINT32:
    case ACL_FLOAT:
        return 4;
    case ACL_FLOAT16:
    case ACL_BF16:
        return 2;
    default:
        return 0;
    }
}

/* CheckRandomNumTaskInfo, in its order. */
static int check_random_task(const char *api, const aclrtRandomNumTaskInfo *in, size_t elem)
{
    aclrtRandomNumFuncType fn = in->randomNumFuncParaInfo.funcType;
    if ((unsigned)fn > ACL_RT_RANDOM_NUM_FUNC_TYPE_TRUNCATED_NORMAL_DIS)
        return emu_error(ACL_ERROR_RT_PARAM_INVALID, api, "funcType %d is not in [0, 4)", (int)fn);
    if (!random_takes(fn, in->dataType))
        return emu_error(ACL_ERROR_RT_PARAM_INVALID, api, "dataType %d is not one funcType %d takes: %s",
                         (int)in->dataType, (int)fn,
                         fn == ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS ? "bf16, fp16, fp32, int32, int64, uint32, uint64"
                                                                       : "bf16, fp16, fp32");
    if (!in->randomCounterAddr || !in->randomResultAddr)
        return emu_error(ACL_ERROR_RT_PARAM_INVALID, api, "taskInfo->%s is NULL",
                         in->randomCounterAddr ? "randomResultAddr" : "randomCounterAddr");
    int st;
    if ((st = check_random_param(api, "randomSeed", &in->randomSeed, sizeof(uint64_t))) ||
        (st = check_random_param(api, "randomNum", &in->randomNum, sizeof(uint64_t))))
        return st;
    const aclrtRandomParaInfo *a, *b = NULL;
    const char *na, *nb = NULL;
    if (fn == ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK) {
        a = &in->randomNumFuncParaInfo.paramInfo.dropoutBitmaskInfo.dropoutRation, na = "dropoutRation";
    } else if (fn == ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS) {
        a = &in->randomNumFuncParaInfo.paramInfo.uniformDisInfo.min, na = "min";
        b = &in->randomNumFuncParaInfo.paramInfo.uniformDisInfo.max, nb = "max";
    } else {
        a = &in->randomNumFuncParaInfo.paramInfo.normalDisInfo.mean, na = "mean";
        b = &in->randomNumFuncParaInfo.paramInfo.normalDisInfo.stddev, nb = "stddev";
    }
    if ((st = check_random_param(api, na, a, elem)) || (b && (st = check_random_param(api, nb, b, elem))))
        return st;
    /* Beyond CANN's checks (its device would fault): the counter and, where num is known now, the result. */
    if ((st = check_device_span(api, "randomCounterAddr", in->randomCounterAddr, 16)))
        return st;
    if (!in->randomNum.isAddr) {
        uint64_t num = random_param(&in->randomNum, 8);
        uint64_t bytes = fn == ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK ? num / 8 + (num % 8 != 0) : num * elem;
        if (num > (uint64_t)SIZE_MAX / 8)
            return emu_error(ACL_ERROR_RT_PARAM_INVALID, api, "randomNum %llu is too large",
                             (unsigned long long)num);
        return check_device_span(api, "randomResultAddr", in->randomResultAddr, (size_t)bytes);
    }
    return 0;
}

ACL_FUNC_VISIBILITY aclError aclrtRandomNumAsync(const aclrtRandomNumTaskInfo *taskInfo, const aclrtStream stream,
                                                 void *reserve)
{
    EMU_API_ENTRY();
    if (!taskInfo)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "taskInfo is NULL");
    size_t elem = random_type_size(taskInfo->dataType);
    if (!elem)
        return emu_error(ACL_ERROR_INVALID_PARAM, api,
                         "taskInfo->dataType %d is not supported: INT32, INT64, UINT32, UINT64, BF16, FLOAT16 or FLOAT",
                         (int)taskInfo->dataType);
    emu_stream *s;
    int st = emu_require_init(api);
    if (st || (st = emu_stream_resolve(stream, api, ACL_ERROR_RT_INVALID_HANDLE, &s)))
        return st;
    if (reserve)
        return emu_error(ACL_ERROR_RT_PARAM_INVALID, api, "reserve is a reserved parameter and must be NULL");
    if ((st = check_random_task(api, taskInfo, elem)))
        return st;
    random_task *t = malloc(sizeof *t);
    if (!t)
        return emu_error(ACL_ERROR_RT_MEMORY_ALLOCATION, api, "out of memory");
    *t = (random_task){*taskInfo, elem};
    uint64_t seq;
    if ((st = emu_stream_enqueue(s, random_run, free, t, &seq)) != 0)
        return emu_error(st, api, "out of memory");
    emu_mem_note_use(taskInfo->randomCounterAddr, s, seq, api, true);
    emu_mem_note_use(taskInfo->randomResultAddr, s, seq, api, true);
    emu_log(EMU_LOG_INFO, "%s funcType=%d dataType=%d stream=%p -> 0", api,
            (int)taskInfo->randomNumFuncParaInfo.funcType, (int)taskInfo->dataType, stream);
    return ACL_SUCCESS;
}

/* ---- floating-point overflow status ------------------------------------------------- */

#define OVERFLOW_STATUS_BYTES 64 /* OVERFLOW_OUTPUT_SIZE */

/* CANN's process-wide mode (Runtime::satMode_): INFNAN on the chips the emulator has. */
static atomic_int sat_mode = ACL_RT_OVERFLOW_MODE_INFNAN;

ACL_FUNC_VISIBILITY aclError aclrtGetDeviceSatMode(aclrtFloatOverflowMode *mode)
{
    EMU_API_ENTRY();
    if (!mode)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "mode is NULL");
    *mode = (aclrtFloatOverflowMode)atomic_load(&sat_mode);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtSetDeviceSatMode(aclrtFloatOverflowMode mode)
{
    EMU_API_ENTRY();
    if (mode == ACL_RT_OVERFLOW_MODE_SATURATION && emu_soc_current()->family == EMU_SOC_950)
        return emu_error(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, api,
                         "%s supports only ACL_RT_OVERFLOW_MODE_INFNAN", emu_soc_current()->name);
    if (mode != ACL_RT_OVERFLOW_MODE_SATURATION && mode != ACL_RT_OVERFLOW_MODE_INFNAN)
        return emu_error(ACL_ERROR_RT_PARAM_INVALID, api, "mode %d is not SATURATION (0) or INFNAN (1)", (int)mode);
    atomic_store(&sat_mode, (int)mode);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtSetStreamOverflowSwitch(aclrtStream stream, uint32_t flag)
{
    EMU_API_ENTRY();
    if (flag > 1)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "flag %u is not 0 (off) or 1 (on)", (unsigned)flag);
    emu_stream *s;
    int st = emu_require_init(api);
    if (st || (st = emu_stream_resolve(stream, api, ACL_ERROR_RT_INVALID_HANDLE, &s)))
        return st;
    emu_stream_overflow_switch(s, (int)flag);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtGetStreamOverflowSwitch(aclrtStream stream, uint32_t *flag)
{
    EMU_API_ENTRY();
    if (!flag)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "flag is NULL");
    emu_stream *s;
    int st = emu_require_init(api);
    if (st || (st = emu_stream_resolve(stream, api, ACL_ERROR_RT_INVALID_HANDLE, &s)))
        return st;
    *flag = emu_stream_overflow_switch(s, -1);
    return ACL_SUCCESS;
}

/* The status copy: the emulator's kernels raise no overflow flags, so the status is zeros. */
static int overflow_status_run(void *ctx, char *msg, size_t cap)
{
    (void)msg, (void)cap;
    memset(ctx, 0, OVERFLOW_STATUS_BYTES);
    return 0;
}

static int nothing_run(void *ctx, char *msg, size_t cap)
{
    (void)ctx, (void)msg, (void)cap;
    return 0;
}

static void keep(void *ctx)
{
    (void)ctx;
}

ACL_FUNC_VISIBILITY aclError aclrtGetOverflowStatus(void *outputAddr, size_t outputSize, aclrtStream stream)
{
    EMU_API_ENTRY();
    if (!outputAddr)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "outputAddr is NULL");
    emu_stream *s;
    int st = emu_require_init(api);
    if (st || (st = emu_stream_resolve(stream, api, ACL_ERROR_RT_INVALID_HANDLE, &s)))
        return st;
    if (outputSize != OVERFLOW_STATUS_BYTES)
        return emu_error(ACL_ERROR_RT_PARAM_INVALID, api, "outputSize is %zu: the status is %d bytes", outputSize,
                         OVERFLOW_STATUS_BYTES);
    if ((st = check_device_span(api, "outputAddr", outputAddr, OVERFLOW_STATUS_BYTES)))
        return st;
    uint64_t seq;
    if ((st = emu_stream_enqueue(s, overflow_status_run, keep, outputAddr, &seq)) != 0)
        return emu_error(st, api, "out of memory");
    emu_mem_note_use(outputAddr, s, seq, api, true);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtResetOverflowStatus(aclrtStream stream)
{
    EMU_API_ENTRY();
    emu_stream *s;
    int st = emu_require_init(api);
    if (st || (st = emu_stream_resolve(stream, api, ACL_ERROR_RT_INVALID_HANDLE, &s)))
        return st;
    uint64_t seq; /* a task in stream order, as CANN's clear-status task: there is no status to clear */
    if ((st = emu_stream_enqueue(s, nothing_run, keep, NULL, &seq)) != 0)
        return emu_error(st, api, "out of memory");
    return ACL_SUCCESS;
}
