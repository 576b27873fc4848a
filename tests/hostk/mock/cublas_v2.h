/* A mock of cuBLAS's types, enough for cuda_common.h's declarations
 * (tests/hostk/timer_host.cc). */
#ifndef TESTS_HOSTK_MOCK_CUBLAS_V2_H
#define TESTS_HOSTK_MOCK_CUBLAS_V2_H
typedef enum { CUBLAS_STATUS_SUCCESS = 0 } cublasStatus_t;
typedef struct rn_mock_blas *cublasHandle_t;
#endif
