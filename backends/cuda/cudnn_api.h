/* cudnn_api.h - the cuDNN functions `cnn_forward` uses, loaded at run time
 * (dlopen of libcudnn.so.MAJOR, found through the library's RUNPATH like
 * cuBLAS, or the loader's path): the CUDA backend loads and runs every other
 * workload where cuDNN is absent, and cnn_forward's trials are skipped with
 * the loader's reason (doc/workloads.md#cnn_forward).  The pointers' types are the
 * prototypes of cudnn.h itself (decltype), so no signature is written here.
 * A toolkit without cudnn.h builds the backend without it: RN_HAVE_CUDNN is
 * then 0 and cudnn_load() says so. */
#ifndef BACKENDS_CUDA_CUDNN_API_H
#define BACKENDS_CUDA_CUDNN_API_H

#include <stddef.h>

#if __has_include(<cudnn.h>)
#include <cudnn.h>
#define RN_HAVE_CUDNN 1

typedef struct cudnn_api {
    decltype(&cudnnGetVersion) get_version;
    decltype(&cudnnGetErrorString) error_string;
    decltype(&cudnnCreate) create;
    decltype(&cudnnDestroy) destroy;
    decltype(&cudnnSetStream) set_stream;
    decltype(&cudnnCreateTensorDescriptor) create_tensor;
    decltype(&cudnnSetTensor4dDescriptor) set_tensor4d;
    decltype(&cudnnDestroyTensorDescriptor) destroy_tensor;
    decltype(&cudnnCreateFilterDescriptor) create_filter;
    decltype(&cudnnSetFilter4dDescriptor) set_filter4d;
    decltype(&cudnnDestroyFilterDescriptor) destroy_filter;
    decltype(&cudnnCreateConvolutionDescriptor) create_conv;
    decltype(&cudnnSetConvolution2dDescriptor) set_conv2d;
    decltype(&cudnnSetConvolutionMathType) set_math_type;
    decltype(&cudnnDestroyConvolutionDescriptor) destroy_conv;
    decltype(&cudnnGetConvolutionForwardAlgorithm_v7) get_forward_algorithm;
    decltype(&cudnnGetConvolutionForwardWorkspaceSize) forward_workspace_size;
    decltype(&cudnnConvolutionForward) convolution_forward;
} cudnn_api;
#else
#define RN_HAVE_CUDNN 0
typedef struct cudnn_api cudnn_api;
#endif

/* The loaded functions (loaded once per process), or NULL with the reason
 * in why ("libcudnn.so.9: cannot open shared object file: ..."). */
const cudnn_api *cudnn_load(char *why, size_t len);

/* "9.19.0" of the loaded library, or NULL where none loads. */
const char *cudnn_version_text(void);

#endif
