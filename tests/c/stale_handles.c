/*
 * A destroyed handle stays detectable after many new handles are created:
 * its memory is quarantined, so the allocator cannot hand its address to a
 * new handle and make the stale pointer look live again (ABA).
 */
#include <stdio.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_upsample_bilinear_2d_backward_v2.h"

#define CHECK(cond)                                                                                                  \
    do {                                                                                                             \
        if (!(cond)) {                                                                                               \
            fprintf(stderr, "%s:%d: check failed: %s (%s)\n", __FILE__, __LINE__, #cond, aclGetRecentErrMsg());    \
            return 1;                                                                                                \
        }                                                                                                            \
    } while (0)

#define N_NEW 2000

int main(void)
{
    CHECK(aclInit(NULL) == ACL_SUCCESS);
    CHECK(aclrtSetDevice(0) == ACL_SUCCESS);
    int64_t d[1] = {4};
    static aclTensor *fresh[N_NEW];
    static aclIntArray *fresh_arrays[N_NEW];

    aclTensor *stale = aclCreateTensor(d, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, d, 1, NULL);
    aclIntArray *stale_array = aclCreateIntArray(d, 1);
    aclrtStream stale_stream = NULL;
    CHECK(stale && stale_array && aclrtCreateStream(&stale_stream) == ACL_SUCCESS);
    CHECK(aclDestroyTensor(stale) == ACLNN_SUCCESS);
    CHECK(aclDestroyIntArray(stale_array) == ACLNN_SUCCESS);
    CHECK(aclrtDestroyStream(stale_stream) == ACL_SUCCESS);

    for (int i = 0; i < N_NEW; i++) {
        fresh[i] = aclCreateTensor(d, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, d, 1, NULL);
        fresh_arrays[i] = aclCreateIntArray(d, 1);
        CHECK(fresh[i] && fresh_arrays[i]);
        CHECK((const void *)fresh[i] != (const void *)stale && (const void *)fresh_arrays[i] != (const void *)stale_array);
    }
    aclrtStream s2 = NULL;
    CHECK(aclrtCreateStream(&s2) == ACL_SUCCESS && s2 != stale_stream);

    int64_t offset = 0;
    CHECK(aclGetViewOffset(stale, &offset) == ACLNN_ERR_PARAM_INVALID);
    CHECK(strstr(aclGetRecentErrMsg(), "was already destroyed (stale handle)") != NULL);
    uint64_t size = 0;
    CHECK(aclGetIntArraySize(stale_array, &size) == ACLNN_ERR_PARAM_INVALID);
    CHECK(aclDestroyTensor(stale) == ACLNN_ERR_PARAM_INVALID);
    CHECK(aclrtSynchronizeStream(stale_stream) == ACL_ERROR_RT_INVALID_HANDLE);
    CHECK(strstr(aclGetRecentErrMsg(), "was already destroyed") != NULL);

    for (int i = 0; i < N_NEW; i++) {
        CHECK(aclDestroyTensor(fresh[i]) == ACLNN_SUCCESS);
        CHECK(aclDestroyIntArray(fresh_arrays[i]) == ACLNN_SUCCESS);
    }
    CHECK(aclrtDestroyStream(s2) == ACL_SUCCESS);
    CHECK(aclrtResetDevice(0) == ACL_SUCCESS);
    CHECK(aclFinalize() == ACL_SUCCESS);
    puts("stale handles: ok");
    return 0;
}
