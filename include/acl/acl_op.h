/*
 * aclnn-emu: compatibility header. CANN ships acl/acl_op.h and acl/acl.h
 * includes it, so programs may include it by name. CANN's older single-
 * operator API (aclopExecute*, aclopCompile*) is out of scope here: run
 * operators through the aclnn two-phase API.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#ifndef ACL_ACL_OP_H_
#define ACL_ACL_OP_H_

#include "acl_base.h"
#include "acl_rt.h"

#endif /* ACL_ACL_OP_H_ */
