/*
 * The RoI family's one grouping of boxes by image: both kernels apply an
 * image's boxes together (the forward pools them from one channel block of
 * the image, the backward scatters them into the image's planes).
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include "roi.h"

void roi_group_by_image(int64_t boxes, int64_t batch, int64_t (*image_of)(const void *ctx, int64_t k),
                        const void *ctx, int64_t *first, int64_t *order)
{
    /* first[b + 1] counts image b's boxes, then (prefix sums) is where image b + 1's start; placing a box
     * advances its image's start, which afterwards is the next image's: shifted back once at the end. */
    for (int64_t b = 0; b <= batch; b++)
        first[b] = 0;
    for (int64_t k = 0; k < boxes; k++) {
        const int64_t b = image_of(ctx, k);
        if (b >= 0)
            first[b + 1]++;
    }
    for (int64_t b = 0; b < batch; b++)
        first[b + 1] += first[b];
    for (int64_t k = 0; k < boxes; k++) {
        const int64_t b = image_of(ctx, k);
        if (b >= 0)
            order[first[b]++] = k;
    }
    for (int64_t b = batch; b > 0; b--)
        first[b] = first[b - 1];
    first[0] = 0;
}
