/*
 * aclnn-emu: AscendCL umbrella header.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#ifndef ACL_ACL_H_
#define ACL_ACL_H_

#include "acl_base.h"
#include "acl_rt.h"
#include "acl_op.h"
#include "acl_mdl.h"

#endif /* ACL_ACL_H_ */
