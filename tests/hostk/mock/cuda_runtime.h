/* A mock of the CUDA runtime for tests/hostk/timer_host.cc: the calls the
 * batch timer (backends/cuda/timer.cu) makes, against a simulated device
 * clock (timer_host.cc defines them).  Only for RN_HOST_KERNELS builds. */
#ifndef TESTS_HOSTK_MOCK_CUDA_RUNTIME_H
#define TESTS_HOSTK_MOCK_CUDA_RUNTIME_H

#include "cuda/host_kernels.h"

#include <stddef.h>

typedef enum cudaError { cudaSuccess = 0, cudaErrorNotReady = 600, cudaErrorInvalidValue = 1 } cudaError_t;
typedef struct rn_mock_event *cudaEvent_t;
typedef enum cudaMemcpyKind {
    cudaMemcpyHostToDevice = 1,
    cudaMemcpyDeviceToHost = 2,
    cudaMemcpyDeviceToDevice = 3
} cudaMemcpyKind;
#define cudaHostAllocMapped 2
#define cudaEventDisableTiming 2
#define cudaStreamNonBlocking 1

void __syncthreads(void);
const char *cudaGetErrorName(cudaError_t e);
const char *cudaGetErrorString(cudaError_t e);
cudaError_t cudaGetLastError(void);
cudaError_t cudaEventCreate(cudaEvent_t *e);
cudaError_t cudaEventDestroy(cudaEvent_t e);
cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t st);
cudaError_t cudaEventSynchronize(cudaEvent_t e);
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b);
cudaError_t cudaStreamWaitEvent(cudaStream_t st, cudaEvent_t e, unsigned flags);
cudaError_t cudaHostAlloc(void **p, size_t bytes, unsigned flags);
cudaError_t cudaHostGetDevicePointer(void **d, void *h, unsigned flags);
cudaError_t cudaFreeHost(void *p);
/* the hold kernel (timer_start with hold): the stream waits until *flag */
void rn_mock_hold(cudaStream_t st, volatile int *flag);

#endif
