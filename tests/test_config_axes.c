/* test_config_axes.c - the sweep of an experiment file: every axis form,
 * expansion order, and exclude. */
#include <criterion/criterion.h>
#include <criterion/logging.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "config_fixture.h"

/* Values of a single axis `size` given as `axis` (a YAML flow value). */
static char *size_axis(const char *axis)
{
    char text[512];
    snprintf(text, sizeof text, "workload: matmul\nsweep:\n  size: %s\n", axis);
    experiment *e = parse_ok(text);
    char *v = values(e, "size");
    experiment_free(e);
    return v;
}

#define expect_axis(axis, want)                                                          \
    do {                                                                                 \
        char *got_ = size_axis(axis);                                                    \
        cr_expect_str_eq(got_, (want), "size: %s gives %s, want %s", (axis), got_, (want)); \
        free(got_);                                                                      \
    } while (0)

/* ---- axis forms --------------------------------------------------------------- */

Test(config_axes, list_of_scalars)
{
    expect_axis("[1, 2, 4]", "1,2,4");
    expect_axis("[7]", "7");
    expect_axis("[0, 1e3, 16]", "0,1000,16"); /* integral floats are integers */
    experiment *e = parse_ok("workload: nested_sin\n"
                             "sweep:\n"
                             "  dtype: [f32, f64]\n"
                             "  fused: [true, false]\n");
    expect_values(e, "dtype", "f32,f32,f64,f64");
    expect_values(e, "fused", "true,false,true,false");
    cr_expect_eq(trial_value(e, 0, col_of(e, "fused")).kind, VAL_BOOL);
    experiment_free(e);
}

Test(config_axes, block_list)
{
    expect_parsed_values("workload: matmul\n"
                         "sweep:\n"
                         "  size:\n"
                         "    - 3\n"
                         "    - 5\n",
                         "size", "3,5");
}

Test(config_axes, pow2)
{
    expect_axis("{pow2: [0, 4]}", "1,2,4,8,16");
    expect_axis("{pow2: [3, 3]}", "8");
    expect_axis("{pow2: [10, 12]}", "1024,2048,4096");
    expect_axis("{pow2: [62, 62]}", "4611686018427387904");
}

Test(config_axes, range_start_stop)
{
    expect_axis("{range: [2, 5]}", "2,3,4,5");
    expect_axis("{range: [0, 0]}", "0");
}

Test(config_axes, range_with_step)
{
    expect_axis("{range: [0, 10, 3]}", "0,3,6,9");
    expect_axis("{range: [0, 9, 3]}", "0,3,6,9"); /* STOP included */
    expect_axis("{range: [5, 5, 2]}", "5");
}

Test(config_axes, range_negative_step)
{
    expect_axis("{range: [10, 1, -3]}", "10,7,4,1");
    expect_axis("{range: [5, 0, -5]}", "5,0");
    expect_parsed_values("workload: matmul\nsweep:\n  seed: {range: [3, 0, -1]}\n", "seed",
                         "3,2,1,0");
}

Test(config_axes, geom)
{
    expect_axis("{geom: [1, 1000, 10]}", "1,10,100,1000");
    expect_axis("{geom: [3, 100, 2]}", "3,6,12,24,48,96");
    expect_axis("{geom: [5, 5, 3]}", "5");
    expect_parsed_values("workload: selftest\nsweep:\n  seconds: {geom: [0.5, 2, 2]}\n", "seconds",
                         "0.5,1,2");
}

Test(config_axes, linked_with_labels)
{
    experiment *e = parse_n("workload: matmul\n"
                            "sweep:\n"
                            "  target:\n"
                            "    - {label: CPU, device: cpu}\n"
                            "    - {label: GPU, device: cuda, io: with}\n"
                            "    - {label: GPU no IO, device: cuda, io: without}\n",
                            3);
    expect_values(e, "target", "CPU,GPU,GPU no IO");
    expect_values(e, "device", "cpu,cuda,cuda");
    expect_values(e, "io", "with,with,without"); /* io defaults to with */
    cr_expect_eq(e->cols[col_of(e, "target")].kind, COL_AXIS);
    experiment_free(e);
}

Test(config_axes, linked_default_label_joins_values)
{
    experiment *e = parse_ok("workload: matmul\n"
                             "sweep:\n"
                             "  target:\n"
                             "    - {device: cpu, threads: 2}\n"
                             "    - {device: cuda, io: without}\n"
                             "    - {label: named, device: cuda}\n"
                             "  dims:\n"
                             "    - {m: 8, k: 16}\n");
    expect_values(e, "target", "cpu/2,cuda/without,named");
    expect_values(e, "dims", "8/16,8/16,8/16");
    expect_values(e, "threads", "2,all,all");
    expect_values(e, "m", "8,8,8");
    experiment_free(e);
}

Test(config_axes, linked_label_may_be_a_number)
{
    expect_parsed_values("workload: matmul\n"
                         "sweep:\n"
                         "  variant:\n"
                         "    - {label: 1, device: cpu}\n"
                         "    - {label: 2, device: cuda}\n"
                         "exclude:\n"
                         "  - {variant: 2}\n",
                         "variant", "1");
}

/* ---- expansion order ------------------------------------------------------------- */

Test(config_expand, first_axis_outermost)
{
    experiment *e = parse_n("workload: matmul\n"
                            "sweep:\n"
                            "  size: [1, 2]\n"
                            "  dtype: [f32, f64, f16]\n",
                            6);
    expect_rows(e, "1/f32 1/f64 1/f16 2/f32 2/f64 2/f16", "size", "dtype");
    experiment_free(e);
}

Test(config_expand, three_axes_last_fastest)
{
    experiment *e = parse_n("workload: nested_sin\n"
                            "sweep:\n"
                            "  fused: [false, true]\n"
                            "  target:\n"
                            "    - {label: a, depth: 1}\n"
                            "    - {label: b, depth: 2}\n"
                            "  size: [10, 20]\n",
                            8);
    expect_rows(e,
                "false/a/1/10 false/a/1/20 false/b/2/10 false/b/2/20 "
                "true/a/1/10 true/a/1/20 true/b/2/10 true/b/2/20",
                "fused", "target", "depth", "size");
    /* axis columns come first, in sweep order */
    char *names = column_names(e);
    cr_expect(!strncmp(names, "fused,target,depth,size,", 24), "columns: %s", names);
    free(names);
    experiment_free(e);
}

Test(config_expand, no_sweep_is_one_trial)
{
    experiment *e = parse_n("workload: matmul\nsize: 64\n", 1);
    cr_expect_str_eq(tv(e, 0, "size"), "64");
    experiment_free(e);
}

/* ---- exclude ---------------------------------------------------------------- */

static const char *const excl_head = "workload: matmul\n"
                                     "sweep:\n"
                                     "  device: [cpu, cuda]\n"
                                     "  size: [1, 2, 4, 8]\n"
                                     "exclude:\n";

static char *excluded_rows(const char *entries)
{
    char text[1024];
    snprintf(text, sizeof text, "%s%s", excl_head, entries);
    experiment *e = parse_ok(text);
    static const char *const names[] = {"device", "size", NULL};
    char *r = rows(e, names);
    experiment_free(e);
    return r;
}

#define expect_excl(entries, want)                                                     \
    do {                                                                               \
        char *got_ = excluded_rows(entries);                                           \
        cr_expect_str_eq(got_, (want), "exclude\n%s: got\n  %s\nwant\n  %s", (entries), got_, \
                         (want));                                                      \
        free(got_);                                                                    \
    } while (0)

Test(config_exclude, single_value)
{
    expect_excl("  - {size: 2}\n", "cpu/1 cpu/4 cpu/8 cuda/1 cuda/4 cuda/8");
    expect_excl("  - {device: cuda}\n", "cpu/1 cpu/2 cpu/4 cpu/8");
}

Test(config_exclude, list_of_values)
{
    expect_excl("  - {size: [1, 8]}\n", "cpu/2 cpu/4 cuda/2 cuda/4");
}

Test(config_exclude, min_max_bounds_inclusive)
{
    expect_excl("  - {size: {min: 4}}\n", "cpu/1 cpu/2 cuda/1 cuda/2");
    expect_excl("  - {size: {max: 2}}\n", "cpu/4 cpu/8 cuda/4 cuda/8");
    expect_excl("  - {size: {min: 2, max: 4}}\n", "cpu/1 cpu/8 cuda/1 cuda/8");
    expect_excl("  - {size: {min: 2.5, max: 3}}\n",
                "cpu/1 cpu/2 cpu/4 cpu/8 cuda/1 cuda/2 cuda/4 cuda/8");
}

Test(config_exclude, multi_key_entry_drops_only_when_every_key_matches)
{
    expect_excl("  - {device: cpu, size: {min: 4}}\n", "cpu/1 cpu/2 cuda/1 cuda/2 cuda/4 cuda/8");
    expect_excl("  - {device: cuda, size: [1, 2]}\n", "cpu/1 cpu/2 cpu/4 cpu/8 cuda/4 cuda/8");
    /* no trial has both */
    expect_excl("  - {device: cpu, dtype: f64}\n",
                "cpu/1 cpu/2 cpu/4 cpu/8 cuda/1 cuda/2 cuda/4 cuda/8");
}

Test(config_exclude, any_entry_drops)
{
    expect_excl("  - {device: cpu, size: 1}\n"
                "  - {device: cuda, size: 8}\n",
                "cpu/2 cpu/4 cpu/8 cuda/1 cuda/2 cuda/4");
}

Test(config_exclude, unswept_key_uses_its_fixed_or_default_value)
{
    /* dtype defaults to f32: the entry matches every trial with size 1 */
    expect_excl("  - {dtype: f32, size: 1}\n", "cpu/2 cpu/4 cpu/8 cuda/2 cuda/4 cuda/8");
}

Test(config_exclude, linked_axis_label)
{
    expect_parsed_rows("workload: matmul\n"
                       "sweep:\n"
                       "  target:\n"
                       "    - {label: CPU, device: cpu}\n"
                       "    - {label: GPU, device: cuda, io: with}\n"
                       "    - {label: GPU no IO, device: cuda, io: without}\n"
                       "  size: [1, 2]\n"
                       "exclude:\n"
                       "  - {target: GPU no IO, size: 1}\n"
                       "  - {target: [CPU], size: {min: 2}}\n",
                       "CPU/1 GPU/1 GPU/2 GPU no IO/2", "target", "size");
}

Test(config_exclude, linked_default_label)
{
    expect_parsed_values("workload: matmul\n"
                         "sweep:\n"
                         "  target:\n"
                         "    - {device: cpu, threads: 2}\n"
                         "    - {device: cuda, io: without}\n"
                         "exclude:\n"
                         "  - {target: cpu/2}\n",
                         "target", "cuda/without");
}
