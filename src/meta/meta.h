/*
 * Meta layer: tensors and host arrays, the executor framework (phase one
 * captures, phase two checks and enqueues) and the op-check kit the operator
 * files are written with. Built on the runtime layer.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#ifndef ACLNN_EMU_META_H_
#define ACLNN_EMU_META_H_

#include "../kernel/kernel.h"
#include "../runtime/runtime.h"

_Static_assert(EMU_VIEW_MAX_DIMS == ACLNN_EMU_MAX_DIMS, "a kernel view holds every tensor's dims");
_Static_assert(EMU_KERNEL_ERR_INNER == ACLNN_ERR_INNER && EMU_KERNEL_ERR_PARAM_INVALID == ACLNN_ERR_PARAM_INVALID,
               "kernel statuses are CANN's");

/* ---- tensors (tensor.c) ------------------------------------------------ */

struct aclTensor {
    int64_t dims[EMU_MAX_DIMS];
    int64_t strides[EMU_MAX_DIMS];
    int64_t storage[EMU_MAX_DIMS];
    uint64_t ndim;
    uint64_t storage_ndim;
    int64_t offset;
    aclDataType dtype;
    aclFormat format;
    void *data;
};

struct aclIntArray {
    uint64_t size;
    int64_t values[];
};
struct aclFloatArray { /* the layout aclCreateFloatArray makes */
    uint64_t size;
    float values[];
};

size_t emu_dtype_size(aclDataType dt); /* 0 for types without a whole-byte size */
const char *emu_dtype_name(aclDataType dt);
const char *emu_format_name(aclFormat f);
int64_t emu_tensor_numel(const aclTensor *t);
/* An aclScalar's dtype and value (emu_dtype_size(dtype) bytes, at most 16), for phase one's checks. */
aclDataType emu_scalar_dtype(const aclScalar *s);
const void *emu_scalar_data(const aclScalar *s);
/* "f32(512,256,7,7)" (plus " NCHW" when with_format) */
void emu_tensor_describe(const aclTensor *t, bool with_format, char *buf, size_t cap);
void emu_dims_describe(const int64_t *dims, uint64_t n, char *buf, size_t cap);
/* Element offset one past the furthest element of the view (0 for an empty tensor). */
int64_t emu_tensor_extent(const aclTensor *t);
/* True if two distinct indices of the view address the same element. */
bool emu_tensor_self_overlaps(const aclTensor *t);

/* ---- executors (executor.c) ------------------------------------------- */

/* Tensors of one operator, inputs and outputs (GridSampler2DBackward has 3 and 2). */
#define EMU_MAX_IO 8

struct emu_launch;

/* What an operator file provides to the executor framework. */
typedef struct emu_op_def {
    const char *name;                     /* "aclnnRoiAlignV2Backward" */
    const char *const *tensor_names;      /* inputs then outputs, signature order */
    size_t n_inputs, n_outputs;
    /* Runs on the stream's worker thread. 0 or a status plus a message in msg. */
    int (*run)(const struct emu_launch *l, char *msg, size_t msg_cap);
} emu_op_def;

/* An operator file's definition: OP, named by its CANN API, with its tensors'
 * names (inputs then outputs, signature order) and its run step. */
#define EMU_DEFINE_OP(api_name, names, inputs, outputs, run_fn)                                            \
    _Static_assert((inputs) + (outputs) <= EMU_MAX_IO && sizeof(names) / sizeof((names)[0]) == (inputs) + (outputs), \
                   "an operator names each of its tensors, at most EMU_MAX_IO");                          \
    static const emu_op_def OP = {                                                                         \
        .name = api_name, .tensor_names = names, .n_inputs = inputs, .n_outputs = outputs, .run = run_fn}

/* An operator's phase two, `api`(workspace, workspaceSize, executor, stream), for the OP of its file. */
#define EMU_DEFINE_PHASE_TWO(api)                                                                          \
    ACLNN_API aclnnStatus api(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,             \
                              aclrtStream stream)                                                          \
    {                                                                                                      \
        return emu_executor_launch(&OP, workspace, workspaceSize, executor, stream);                      \
    }

/* Everything one execution needs: a snapshot of the executor taken at launch. */
typedef struct emu_launch {
    const emu_op_def *op;
    aclTensor tensors[EMU_MAX_IO]; /* inputs then outputs */
    void *workspace;
    uint64_t workspace_size; /* what phase one asked for (the caller may have passed more) */
    bool fill_unwritten;     /* outputs CANN leaves unwritten get the strict-mode fill (see below) */
    size_t params_size;
    _Alignas(16) unsigned char params[];
} emu_launch;

/* Phase one epilogue: captures tensors and attributes, logs, returns the executor. */
int emu_executor_create(const emu_op_def *op, const aclTensor *const *tensors, const void *params,
                        size_t params_size, uint64_t workspace_size, const char *attrs, uint64_t *workspace_size_out,
                        aclOpExecutor **executor_out);
/* Phase two: validates and enqueues a run of executor on stream. */
int emu_executor_launch(const emu_op_def *op, void *workspace, uint64_t workspace_size, aclOpExecutor *executor,
                        aclrtStream stream);
/* The same with the tensors' data at addrs (inputs then outputs) for this run alone (NULL: as bound). */
int emu_executor_launch_at(const emu_op_def *op, void *workspace, uint64_t workspace_size, aclOpExecutor *executor,
                           void *const *addrs, aclrtStream stream);

/* True when the view is row-major contiguous from its offset (CANN's Contiguous makes no copy). */
bool emu_tensor_contiguous(const aclTensor *t);
/* Bytes an intermediate tensor of numel items takes in a CANN workspace (512-byte aligned). */
uint64_t emu_ws_bytes(int64_t numel, size_t item);

/* In a run step: an input CANN accepts but that surely is a caller's bug (the emulator says so where CANN would
 * compute garbage or nothing). Normal mode: a warning naming op, returns 0. Strict mode: the message (plus "
 * (strict mode)") goes to msg, returns ACLNN_ERR_PARAM_INVALID. */
int emu_run_misuse(const char *op, char *msg, size_t cap, const char *fmt, ...) EMU_PRINTF(4, 5);

/* The kernel's view of one of the launch's tensors (see ops/kernel.h). */
emu_view emu_launch_view(const emu_launch *l, size_t index);
/* A run step's word that CANN's kernels leave tensor index (an output)
 * unwritten: it is then filled with 0xff bytes (NaN in every float type) in
 * strict mode, or when the launching thread asked (aclnnEmuSetFillUnwritten),
 * so that a fresh result never shows memory's earlier contents. */
void emu_launch_leave_unwritten(const emu_launch *l, size_t index);

/* In a run step: lays the plan's booked scratch out for `threads` threads and allocates its block (the one
 * allocation of a kernel call). 0, or EMU_KERNEL_ERR_INNER with "<op>: cannot allocate N bytes of kernel
 * scratch" in msg; release it with emu_scratch_release whatever the kernel returned. */
int emu_scratch_grant(emu_scratch *s, int threads, const char *op, char *msg, size_t cap);
void emu_scratch_release(emu_scratch *s);

/* ---- the op-check kit --------------------------------------------------- */

/* Each check returns 0, or records "<api>: <param> must ..., got ..." as the
 * thread's error and returns the status (161001 for NULL, else 161002).
 * An operator's check function is a list of them in CANN's order:
 *     EMU_TRY(emu_check_rank(api, gradOut, "gradOut", 4)); */
#define EMU_TRY(expr)                                                                                        \
    do {                                                                                                     \
        int emu_try_status_ = (expr);                                                                        \
        if (emu_try_status_)                                                                                 \
            return emu_try_status_;                                                                          \
    } while (0)

/* A set of dtypes or formats, for the *_in checks: EMU_SET(aclDataType, ACL_FLOAT, ACL_BF16). */
#define EMU_SET(type, ...) (const type[]){__VA_ARGS__}, sizeof((const type[]){__VA_ARGS__}) / sizeof(type)

/* An operator's handle and pointer arguments, in the signature's order, for emu_check_args. */
typedef enum emu_arg_kind {
    EMU_ARG_POINTER,
    EMU_ARG_TENSOR,
    EMU_ARG_INT_ARRAY,
    EMU_ARG_FLOAT_ARRAY,
    EMU_ARG_SCALAR
} emu_arg_kind;
typedef struct emu_arg {
    const void *p;
    const char *name;
    emu_arg_kind kind;
    int null_status; /* the status of a NULL (0: ACLNN_ERR_PARAM_NULLPTR) */
} emu_arg;
#define EMU_TENSOR_ARG(x) {(x), #x, EMU_ARG_TENSOR, 0}
#define EMU_INT_ARRAY_ARG(x) {(x), #x, EMU_ARG_INT_ARRAY, 0}
#define EMU_FLOAT_ARRAY_ARG(x) {(x), #x, EMU_ARG_FLOAT_ARRAY, 0}
#define EMU_POINTER_ARG(x) {(x), #x, EMU_ARG_POINTER, 0}
#define EMU_SCALAR_ARG(x) {(x), #x, EMU_ARG_SCALAR, 0}
/* CANN's first check of every operator: no argument NULL (in the given order), then no
 * handle stale (never dereferenced), in the same order:
 *     EMU_TRY(emu_check_args(API, EMU_ARGS(EMU_TENSOR_ARG(self), EMU_POINTER_ARG(executor)))); */
int emu_check_args(const char *api, const emu_arg *args, size_t n);
#define EMU_ARGS(...) (const emu_arg[]){__VA_ARGS__}, sizeof((const emu_arg[]){__VA_ARGS__}) / sizeof(emu_arg)

/* One expectation per tensor, checked in the list's order by the emu_check_each_* below:
 *     EMU_TRY(emu_check_each_rank(API, EMU_EACH(EMU_WANT(self, 4), EMU_WANT(out, 4)))); */
typedef struct emu_want {
    const aclTensor *t;
    const char *name;
    int64_t value;
} emu_want;
#define EMU_WANT(t, value) {(t), #t, (int64_t)(value)}
#define EMU_EACH(...) (const emu_want[]){__VA_ARGS__}, sizeof((const emu_want[]){__VA_ARGS__}) / sizeof(emu_want)
int emu_check_each_format(const char *api, const emu_want *w, size_t n); /* value: the aclFormat */
int emu_check_each_rank(const char *api, const emu_want *w, size_t n);   /* value: the rank */
/* value: the dtype (why: what it is, e.g. " (self's)"). */
int emu_check_each_dtype(const char *api, const emu_want *w, size_t n, const char *why);

int emu_check_not_null(const char *api, const void *p, const char *param);
int emu_check_tensor_live(const char *api, const aclTensor *t, const char *param);
int emu_check_int_array_live(const char *api, const aclIntArray *a, const char *param);
int emu_check_rank(const char *api, const aclTensor *t, const char *param, uint64_t rank);
/* why: what want is, e.g. " (gradOutput's)", or "" */
int emu_check_dtype(const char *api, const aclTensor *t, const char *param, aclDataType want, const char *why);
int emu_check_dtype_in(const char *api, const aclTensor *t, const char *param, const aclDataType *set, size_t n);
int emu_check_format(const char *api, const aclTensor *t, const char *param, aclFormat want);
int emu_check_format_in(const char *api, const aclTensor *t, const char *param, const aclFormat *set, size_t n);
/* "<what> must equal <from> (<want>), got <got>" */
int emu_check_dim(const char *api, int64_t got, int64_t want, const char *what, const char *from);
/* "<param> shape must be (..)<why>, got (..)" */
int emu_check_shape(const char *api, const aclTensor *t, const char *param, const int64_t *want, uint64_t n,
                    const char *why);
/* "<param> must have <n> values<why>, got <size>" */
int emu_check_array_len(const char *api, const aclIntArray *a, const char *param, uint64_t n, const char *why);
/* "<param> must have <n> values, got <size>" for a float array. */
int emu_check_float_array_len(const char *api, const aclFloatArray *a, const char *param, uint64_t n);
/* "<param> must be >= <min>, got <v>" */
int emu_check_min(const char *api, int64_t v, int64_t min, const char *param);
/* Whether t's view shape equals the array's values, dim by dim (CANN's CheckIOSizesIsSame). */
bool emu_shape_equals(const aclTensor *t, const aclIntArray *a);
/* Outputs must not have two elements sharing memory. */
int emu_check_output_writable(const char *api, const aclTensor *t, const char *param);
/* RoIAlign attributes CANN accepts that are surely a caller's bug (both
 * directions alike): a NaN or infinite spatialScale, a samplingRatio above
 * INT32_MAX (CANN's tiling casts it to int32). A warning; strict mode: an error. */
int emu_warn_roi_attributes(const char *api, float spatial_scale, int64_t sampling_ratio);

#endif /* ACLNN_EMU_META_H_ */
