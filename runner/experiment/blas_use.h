/* blas_use.h - does a run call OpenBLAS?  The warning about
 * OPENBLAS_CORETYPE (doc/results.md#results) is for the runs that do. */
#ifndef RUNNER_BLAS_USE_H
#define RUNNER_BLAS_USE_H
/* public header of runner/experiment/ */

#include "experiment/experiment.h"

/* 1 when a trial of e runs on the CPU a workload that calls OpenBLAS
 * (matmul, mlp_train, cnn_forward: the registry's `blas`), a Lua workload whose file calls matmul (the one
 * call of the tensor API that reaches the BLAS), or concurrent with such a
 * member on the CPU. */
int experiment_calls_blas(const experiment *e);

#endif
