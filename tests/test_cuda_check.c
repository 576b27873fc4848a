/* test_cuda_check.c - which elements the CUDA backend's check() compares
 * (backends/cuda/host_math.h, doc/workloads.md#verification): the sample
 * must reach where a GPU kernel's index math fails first, on a machine
 * without a GPU. */
#include "cuda/host_math.h"

#include <criterion/criterion.h>
#include <stdlib.h>

/* the sample of n, sorted, and its size */
static size_t *sample(size_t n, int *count)
{
    *count = check_count(n);
    size_t *s = malloc((size_t)(*count ? *count : 1) * sizeof *s);
    cr_assert_not_null(s);
    for (int q = 0; q < *count; q++) {
        s[q] = check_index(n, q);
        cr_assert_lt(s[q], n, "n = %zu: element %d of the sample is %zu", n, q, s[q]);
    }
    return s;
}

static int has(const size_t *s, int count, size_t i)
{
    for (int q = 0; q < count; q++)
        if (s[q] == i)
            return 1;
    return 0;
}

static const size_t sizes[] = {4097, 4099, 5000, 65536 + 3, 1000003, (1u << 28) + 1,
                               (1ull << 31) + 7, 3ull << 30, (1ull << 33) + 5};

/* every element up to 4096, each once */
Test(cuda_check, small_outputs_are_checked_whole)
{
    for (size_t n = 0; n <= 4096; n += n < 70 ? 1 : 397) {
        int c;
        size_t *s = sample(n, &c);
        cr_assert_eq((size_t)c, n);
        for (size_t i = 0; i < n; i++)
            cr_assert_eq(s[i], i);
        free(s);
    }
}

/* the first and last 8 (the scalar tail is the last n % 4 at most), at
 * every size */
Test(cuda_check, the_first_and_last_eight_and_the_tail_at_every_size)
{
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        size_t n = sizes[k];
        int c;
        size_t *s = sample(n, &c);
        cr_assert_eq(c, RN_CHECK_SAMPLES);
        for (size_t i = 0; i < 8; i++) {
            cr_assert(has(s, c, i), "n = %zu: element %zu is not checked", n, i);
            cr_assert(has(s, c, n - 1 - i), "n = %zu: element %zu is not checked", n, n - 1 - i);
        }
        free(s);
    }
    for (size_t n = 4097; n < 4097 + 64; n++) { /* every tail length, every chunk split */
        int c;
        size_t *s = sample(n, &c);
        for (size_t i = n / 4 * 4; i < n; i++)
            cr_assert(has(s, c, i), "n = %zu: tail element %zu is not checked", n, i);
        free(s);
    }
}

/* where a grid-stride loop's second pass starts and a 32-bit index
 * overflows: elementwise.h's vector path covers 2^31 floats a pass, 2^30
 * doubles; its scalar path 2^29 elements */
Test(cuda_check, indices_at_and_above_two_to_the_31)
{
    size_t big[] = {(1ull << 31) + 7, 3ull << 30, (1ull << 33) + 5};
    for (size_t k = 0; k < 3; k++) {
        size_t n = big[k];
        int c;
        size_t *s = sample(n, &c);
        for (int b = 29; b <= 33 && ((size_t)1 << b) < n; b++) {
            cr_assert(has(s, c, ((size_t)1 << b) - 1) && has(s, c, (size_t)1 << b),
                      "n = %zu: 2^%d and the element before it are not both checked", n, b);
        }
        /* every one of them when there are few (2^31 + 7: seven), else 20 */
        size_t want = n - (1ull << 31) < 20 ? n - (1ull << 31) : 20, above = 0;
        for (size_t i = 1ull << 31; i < n && i < (1ull << 31) + 20; i++)
            above += has(s, c, i);
        if (want == 20) {
            above = 0;
            for (int q = 0; q < c; q++)
                above += s[q] >= (1ull << 31);
        }
        cr_assert_geq(above, want, "n = %zu: only %zu checked elements at or above 2^31", n, above);
        free(s);
    }
}

/* io: overlap runs a launch per chunk: each chunk's first two and last two */
Test(cuda_check, each_overlap_chunk_has_its_ends_checked)
{
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        size_t n = sizes[k];
        int c;
        size_t *s = sample(n, &c);
        for (int ch = 0; ch < RN_CUDA_CHUNKS; ch++) {
            size_t off, len = chunk_of(n, RN_CUDA_CHUNKS, ch, &off);
            cr_assert_gt(len, 2);
            cr_assert(has(s, c, off) && has(s, c, off + 1) && has(s, c, off + len - 2) &&
                          has(s, c, off + len - 1),
                      "n = %zu: chunk %d [%zu, %zu) has an end unchecked", n, ch, off, off + len);
        }
        /* and still spread: at least 60 distinct elements away from those */
        int spread = 0;
        for (int q = 0; q < c; q++)
            spread += s[q] > 8 && s[q] < n - 8;
        cr_assert_geq(spread, 60);
        free(s);
    }
}
