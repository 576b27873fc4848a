/* backends.h - finding, loading and checking backends.  The CPU backend is
 * linked in; the CUDA backend is a shared object loaded on first use. */
#ifndef RUNNER_BACKENDS_H
#define RUNNER_BACKENDS_H
/* public header of runner/experiment/registry/ */

#include "backend.h"

#include <stddef.h>

/* Checks a backend table: ABI version and required hooks.  0 if usable;
 * otherwise -1 and `why` says what is wrong. */
int backend_validate(const rn_backend *b, char *why, size_t len);

/* Loads a backend shared object and validates it. */
const rn_backend *backend_load_file(const char *path, char *why, size_t len);

/* The backend for a device kind, loaded and probed once per process.
 * NULL with the reason (e.g. "no CUDA driver") when it cannot run here. */
const rn_backend *backend_for(rn_device_kind kind, char *why, size_t len);

/* 1 when this process has loaded a usable CUDA backend (backend_for found
 * and probed it): from then on a failed trial of any device may have left
 * a sticky CUDA error in this process (worker.c retires it). */
int backend_cuda_loaded(void);

/* Lets a loaded CUDA backend free what it keeps for the process (the L2
 * flush buffer) before a worker exits. */
void backends_shutdown(void);

/* Where the CUDA backend is looked for: $RUNNER_CUDA_BACKEND, then
 * lib/runner-cuda.so beside the executable's bin/, then PREFIX/lib/runner/. */
int backend_cuda_path(char *out, size_t len);

#endif
