/* fuse.c - fused expressions on the CPU (rn_tensor_ops.fuse_*, backend.h;
 * doc/lua.md#fused-expressions): one pass over the elements in blocks of
 * FUSE_BLOCK floats (4 KiB, which stay in L1 across the operations), each
 * operation applied to the whole block before the next, the intermediate
 * values in a few block-sized registers, never in arrays of full length.
 * This is how nested_sin's fused kernel works, and for the same reason:
 * consecutive vector calls over a block are independent and overlap in the
 * core, where one element's chain of calls would not.
 *
 * cpu_fuse_compile() turns the nodes into a register program: the nodes the
 * result needs, in order, each writing a register freed after its operand's
 * last use (so sin(sin(x)) reuses one register in place), the last writing
 * the output block.  Every operation is the kernel tensor.c applies unfused
 * (ewise.c: the same libmvec vector functions, the same special cases of
 * pow), so a fused result equals the unfused ops' bit for bit.  The split over the
 * OpenMP threads and the PAR_MIN threshold are tensor.c's too.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cpu.h"
#include "ewise.h"
#include "mem.h"

#define FUSE_BLOCK 1024  /* floats per block */
#define FUSE_REGS 32     /* block registers at most */
#define PAR_MIN 32768    /* as tensor.c: below this, on the calling thread */
#define ALIGN_ELEMS 16

/* An operand: a register, an argument (streamed, or its single element), or
 * a number. */
enum { OPD_REG, OPD_INPUT, OPD_CONST };
typedef struct operand {
    int kind, index;
    float value;
} operand;

typedef struct instr {
    rn_fuse_op op;
    int dst; /* register, or -1: the output block */
    operand a, b;
    float k; /* pow's exponent */
} instr;

typedef struct program {
    int ninputs, nregs, n;
    instr ins[];
} program;

/* --- kernels: d = f(a[, b]) over m elements ------------------------------------ */

/* tensor.c's kernels (ewise.c), so that fused and unfused agree bit for bit */
static cpu_unary_fn unary_kernel(rn_fuse_op op, double k)
{
    switch (op) {
    case RN_FN_NEG: return cpu_ew_unary(RN_UN_NEG, k);
    case RN_FN_ABS: return cpu_ew_unary(RN_UN_ABS, k);
    case RN_FN_SIN: return cpu_ew_unary(RN_UN_SIN, k);
    case RN_FN_EXP: return cpu_ew_unary(RN_UN_EXP, k);
    case RN_FN_POW: return cpu_ew_unary(RN_UN_POW, k);
    default: return NULL;
    }
}

/* --- compiling ------------------------------------------------------------------ */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int cpu_fuse_compile(int dev, const rn_fuse_expr *e, void **kernel, double *seconds,
                        rn_error *err)
{
    (void)dev;
    double t0 = now_s();
    *kernel = NULL;
    int n = e->nnodes;
    if (n < 1 || n > RN_FUSE_MAX_NODES || e->ninputs < 0 || e->ninputs > RN_FUSE_MAX_INPUTS) {
        snprintf(err->msg, sizeof err->msg, "fuse: %d nodes, %d inputs: out of range", n,
                 e->ninputs);
        return -1;
    }
    const rn_fuse_node *nd = e->nodes;
    /* which nodes the result needs, and each one's last use */
    char *live = calloc((size_t)n, 1);
    int *last = malloc((size_t)n * sizeof *last), *reg = malloc((size_t)n * sizeof *reg);
    program *p = malloc(sizeof *p + (size_t)(n + 1) * sizeof(instr));
    if (!live || !last || !reg || !p) {
        free(live);
        free(last);
        free(reg);
        free(p);
        snprintf(err->msg, sizeof err->msg, "fuse: out of memory");
        return -1;
    }
    live[n - 1] = 1;
    for (int i = n - 1; i >= 0; i--) {
        last[i] = -1;
        reg[i] = -1;
        if (!live[i])
            continue;
        int binary = nd[i].op >= RN_FN_ADD, unary = nd[i].op >= RN_FN_NEG;
        if (unary && (nd[i].a < 0 || nd[i].a >= i || (binary && (nd[i].b < 0 || nd[i].b >= i)))) {
            snprintf(err->msg, sizeof err->msg, "fuse: node %d uses a later node", i);
            goto fail;
        }
        if (nd[i].op == RN_FN_INPUT && (nd[i].input < 0 || nd[i].input >= e->ninputs)) {
            snprintf(err->msg, sizeof err->msg, "fuse: node %d reads argument %d of %d", i,
                     nd[i].input + 1, e->ninputs);
            goto fail;
        }
        if (unary)
            live[nd[i].a] = 1;
        if (binary)
            live[nd[i].b] = 1;
    }
    for (int i = 0; i < n; i++) {
        if (!live[i] || nd[i].op < RN_FN_NEG)
            continue;
        last[nd[i].a] = i;
        if (nd[i].op >= RN_FN_ADD)
            last[nd[i].b] = i;
    }
    p->ninputs = e->ninputs;
    p->nregs = 0;
    p->n = 0;
    int used[FUSE_REGS] = {0};
    for (int i = 0; i < n; i++) {
        if (!live[i])
            continue;
        int leaf = nd[i].op == RN_FN_INPUT || nd[i].op == RN_FN_CONST;
        if (leaf && i != n - 1)
            continue; /* an operand, not an instruction */
        instr *in = &p->ins[p->n++];
        memset(in, 0, sizeof *in);
        in->op = nd[i].op;
        in->k = (float)nd[i].k;
        int ops[2] = {leaf ? i : nd[i].a, nd[i].op >= RN_FN_ADD ? nd[i].b : -1};
        operand *o[2] = {&in->a, &in->b};
        for (int j = 0; j < 2 && ops[j] >= 0; j++) {
            const rn_fuse_node *q = &nd[ops[j]];
            if (q->op == RN_FN_INPUT)
                *o[j] = (operand){OPD_INPUT, q->input, 0};
            else if (q->op == RN_FN_CONST)
                *o[j] = (operand){OPD_CONST, 0, (float)q->k};
            else
                *o[j] = (operand){OPD_REG, reg[ops[j]], 0};
        }
        if (leaf)
            in->op = RN_FN_POW, in->k = 1; /* the result is an argument or a number: a copy */
        /* free the operands' registers whose last use this is, then take one */
        for (int j = 0; j < 2 && !leaf; j++)
            if (ops[j] >= 0 && reg[ops[j]] >= 0 && last[ops[j]] == i)
                used[reg[ops[j]]] = 0;
        if (i == n - 1) {
            in->dst = -1;
        } else {
            int r = 0;
            while (r < FUSE_REGS && used[r])
                r++;
            if (r == FUSE_REGS) {
                snprintf(err->msg, sizeof err->msg,
                         "fuse: the expression keeps more than %d intermediate values at once",
                         FUSE_REGS);
                goto fail;
            }
            used[r] = 1;
            reg[i] = r;
            in->dst = r;
            p->nregs = r + 1 > p->nregs ? r + 1 : p->nregs;
        }
    }
    free(live);
    free(last);
    free(reg);
    *kernel = p;
    if (seconds)
        *seconds = now_s() - t0;
    return 0;
fail:
    free(live);
    free(last);
    free(reg);
    free(p);
    return -1;
}

void cpu_fuse_free(int dev, void *kernel)
{
    (void)dev;
    free(kernel);
}

/* --- running -------------------------------------------------------------------- */

/* The operand's numbers for the block at element lo (m of them): a pointer
 * and whether it is one number for all. */
static const float *operand_at(const operand *o, float *const *regs, const float *const *in,
                               const size_t *nin, size_t lo, int *single)
{
    switch (o->kind) {
    case OPD_REG:
        *single = 0;
        return regs[o->index];
    case OPD_INPUT:
        *single = nin[o->index] == 1;
        return *single ? in[o->index] : in[o->index] + lo;
    default:
        *single = 1;
        return &o->value;
    }
}

/* Elements [lo, hi) of the result. */
static void run_range(const program *p, float *dst, const float *const *in, const size_t *nin,
                      size_t lo, size_t hi, float *scratch)
{
    float *regs[FUSE_REGS];
    for (int r = 0; r < p->nregs; r++)
        regs[r] = scratch + (size_t)r * FUSE_BLOCK;
    for (size_t b = lo; b < hi; b += FUSE_BLOCK) {
        size_t m = hi - b < FUSE_BLOCK ? hi - b : FUSE_BLOCK;
        for (int i = 0; i < p->n; i++) {
            const instr *q = &p->ins[i];
            float *d = q->dst < 0 ? dst + b : regs[q->dst];
            int sa, sb = 0;
            const float *a = operand_at(&q->a, regs, in, nin, b, &sa);
            if (q->op < RN_FN_ADD) {
                cpu_unary_fn f = unary_kernel(q->op, q->k);
                if (sa) { /* one number: computed once, then spread */
                    float v;
                    f(&v, a, 1, q->k);
                    for (size_t j = 0; j < m; j++)
                        d[j] = v;
                } else {
                    f(d, a, m, q->k);
                }
                continue;
            }
            const float *c = operand_at(&q->b, regs, in, nin, b, &sb);
            const cpu_binary_fn *fs = cpu_ew_binary[q->op - RN_FN_ADD];
            if (sa && sb) {
                float v;
                fs[0](&v, a, c, 1);
                for (size_t j = 0; j < m; j++)
                    d[j] = v;
            } else {
                fs[sa ? 1 : sb ? 2 : 0](d, a, c, m);
            }
        }
    }
}

typedef struct run_args {
    const program *p;
    float *dst;
    const float *const *in;
    const size_t *nin;
    size_t bytes; /* of one thread's block registers */
    int failed;
} run_args;

/* one thread's range, with its own block registers */
static void run_part(void *ctx, int part, size_t lo, size_t hi)
{
    (void)part;
    run_args *a = ctx;
    float *scratch = aligned_alloc(64, a->bytes);
    if (scratch)
        run_range(a->p, a->dst, a->in, a->nin, lo, hi, scratch);
    else
#pragma omp atomic write
        a->failed = 1;
    free(scratch);
}

int cpu_fuse_run(int dev, const void *kernel, float *dst, const float *const *in,
                    const size_t *nin, size_t n, rn_error *err)
{
    (void)dev;
    const program *p = kernel;
    for (int j = 0; j < p->ninputs; j++)
        if (nin[j] != n && nin[j] != 1) {
            snprintf(err->msg, sizeof err->msg, "fuse: argument %d has %zu elements, not %zu or 1",
                     j + 1, nin[j], n);
            return -1;
        }
    if (n == 0)
        return 0;
    size_t bytes = (size_t)(p->nregs ? p->nregs : 1) * FUSE_BLOCK * sizeof(float);
    if (n < PAR_MIN) {
        float *scratch = aligned_alloc(64, bytes);
        if (!scratch) {
            snprintf(err->msg, sizeof err->msg, "fuse: out of memory");
            return -1;
        }
        run_range(p, dst, in, nin, 0, n, scratch);
        free(scratch);
        return 0;
    }
    run_args a = {p, dst, in, nin, bytes, 0};
    cpu_parallel(n, ALIGN_ELEMS, 0, run_part, &a);
    if (a.failed) {
        snprintf(err->msg, sizeof err->msg, "fuse: out of memory");
        return -1;
    }
    return 0;
}
