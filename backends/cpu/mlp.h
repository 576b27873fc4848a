/* mlp.h - the CPU implementation of `mlp_train` (mlp_train.c), with its
 * batch loss/gradient and AdamW step exposed for the tests.  What both
 * backends share (parameters, data, layout, init, shuffle) is in
 * backends/mlp_data.h. */
#ifndef BACKENDS_CPU_MLP_H
#define BACKENDS_CPU_MLP_H

#include <stdint.h>

#include "backend.h"
#include "mlp_data.h"

extern const rn_workload_impl cpu_mlp_train;

/* Scratch space for one batch of up to max_batch rows. */
typedef struct mlp_cpu_work {
    int max_batch;
    int threads;                /* OpenMP threads for the element-wise loops */
    float *act[MLP_MAX_WIDTHS]; /* act[l + 1]: output of layer l (after ReLU) */
    float *delta[2];            /* gradients w.r.t. pre-activations, ping-pong */
} mlp_cpu_work;

int mlp_cpu_work_init(mlp_cpu_work *w, const mlp_net *net, int max_batch, int threads,
                      rn_error *err);
void mlp_cpu_work_free(mlp_cpu_work *w);

/* Mean softmax cross-entropy of `batch` (<= w->max_batch) rows x
 * (row-major, batch x width[0]) with labels y under parameters p (layout:
 * mlp_data.h), and, when grad is not NULL, its gradient with respect to
 * every parameter (same layout).  Layer products through cblas_sgemm (f32);
 * the loss is accumulated in double. */
double mlp_loss_grad(const mlp_net *net, const float *p, const float *x, const int32_t *y,
                     int batch, float *grad, mlp_cpu_work *w);

/* One AdamW step t (>= 1) over n parameters, of which the first nweights
 * are decayed (formula: mlp_adam_coeffs in mlp_data.h). */
void mlp_adamw_step(float *p, const float *g, float *m, float *v, size_t n, size_t nweights,
                    double lr, double wd, long t, int threads);

#endif
