/*
 * aclnn-emu: compatibility header. CANN ships acl/acl_mdl.h and acl/acl.h
 * includes it, so programs may include it by name. Offline models
 * (aclmdl*) are out of scope for the emulator.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#ifndef ACL_ACL_MDL_H_
#define ACL_ACL_MDL_H_

#include "acl_base.h"
#include "acl_rt.h"

#endif /* ACL_ACL_MDL_H_ */
