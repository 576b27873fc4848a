/* cudnn_api.cu - see cudnn_api.h. */
#include "cudnn_api.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#if RN_HAVE_CUDNN

#define RN_STR2(x) #x
#define RN_STR(x) RN_STR2(x)
#define CUDNN_SONAME "libcudnn.so." RN_STR(CUDNN_MAJOR)

static cudnn_api api;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded;
static char reason[512], version[32];

/* Resolves one symbol into api.field; 0, or -1 with the reason set. */
template <typename F> static int sym(void *h, F *field, const char *name)
{
    void *p = dlsym(h, name);
    if (!p) {
        snprintf(reason, sizeof reason, "%s has no %s (cuDNN older than the headers, %d.%d?)",
                 CUDNN_SONAME, name, CUDNN_MAJOR, CUDNN_MINOR);
        return -1;
    }
    *field = (F)p;
    return 0;
}

static int load(void)
{
    void *h = dlopen(CUDNN_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *e = dlerror();
        snprintf(reason, sizeof reason, "cuDNN is not available: %s", e ? e : CUDNN_SONAME);
        return -1;
    }
    if (sym(h, &api.get_version, "cudnnGetVersion") ||
        sym(h, &api.error_string, "cudnnGetErrorString") || sym(h, &api.create, "cudnnCreate") ||
        sym(h, &api.destroy, "cudnnDestroy") || sym(h, &api.set_stream, "cudnnSetStream") ||
        sym(h, &api.create_tensor, "cudnnCreateTensorDescriptor") ||
        sym(h, &api.set_tensor4d, "cudnnSetTensor4dDescriptor") ||
        sym(h, &api.destroy_tensor, "cudnnDestroyTensorDescriptor") ||
        sym(h, &api.create_filter, "cudnnCreateFilterDescriptor") ||
        sym(h, &api.set_filter4d, "cudnnSetFilter4dDescriptor") ||
        sym(h, &api.destroy_filter, "cudnnDestroyFilterDescriptor") ||
        sym(h, &api.create_conv, "cudnnCreateConvolutionDescriptor") ||
        sym(h, &api.set_conv2d, "cudnnSetConvolution2dDescriptor") ||
        sym(h, &api.set_math_type, "cudnnSetConvolutionMathType") ||
        sym(h, &api.destroy_conv, "cudnnDestroyConvolutionDescriptor") ||
        sym(h, &api.get_forward_algorithm, "cudnnGetConvolutionForwardAlgorithm_v7") ||
        sym(h, &api.forward_workspace_size, "cudnnGetConvolutionForwardWorkspaceSize") ||
        sym(h, &api.convolution_forward, "cudnnConvolutionForward")) {
        dlclose(h);
        return -1;
    }
    size_t v = api.get_version(); /* major * 10000 + minor * 100 + patch (cuDNN 9) */
    if (v / 10000 != CUDNN_MAJOR) {
        snprintf(reason, sizeof reason, "%s is version %zu, not the %d.x of the headers",
                 CUDNN_SONAME, v, CUDNN_MAJOR);
        dlclose(h);
        return -1;
    }
    snprintf(version, sizeof version, "%zu.%zu.%zu", v / 10000, v / 100 % 100, v % 100);
    return 0; /* the library stays loaded for the process */
}

static void load_once(void)
{
    loaded = load() == 0;
}

const cudnn_api *cudnn_load(char *why, size_t len)
{
    pthread_once(&once, load_once); /* concurrent members may call it at once */
    if (!loaded) {
        snprintf(why, len, "%s", reason);
        return NULL;
    }
    return &api;
}

const char *cudnn_version_text(void)
{
    char why[8];
    return cudnn_load(why, sizeof why) ? version : NULL;
}

#else

const cudnn_api *cudnn_load(char *why, size_t len)
{
    snprintf(why, len, "the CUDA backend was built without cudnn.h (no cuDNN in its toolkit)");
    return NULL;
}

const char *cudnn_version_text(void)
{
    return NULL;
}

#endif
