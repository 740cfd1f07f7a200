/*
 * The checks the C tests share: a status and a fragment of the recent error
 * message (expect), or a condition (ok). Failures are printed and counted in
 * `fails`; a test's main returns fails != 0.
 */
#ifndef ACLNN_EMU_TESTS_EXPECT_H_
#define ACLNN_EMU_TESTS_EXPECT_H_

#include <stdio.h>
#include <string.h>

#include "acl/acl.h"

static int fails;

static inline void expect(int got, int want, const char *fragment, const char *what)
{
    const char *msg = aclGetRecentErrMsg();
    if (got != want || (fragment && !strstr(msg, fragment))) {
        printf("FAIL %s: status %d (want %d), message \"%s\"\n", what, got, want, msg);
        fails++;
    }
}

static inline void ok(int cond, const char *what)
{
    if (!cond) {
        printf("FAIL %s\n", what);
        fails++;
    }
}

#endif /* ACLNN_EMU_TESTS_EXPECT_H_ */
