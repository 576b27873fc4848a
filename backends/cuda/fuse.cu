/* fuse.cu - fused expressions on a CUDA device (rn_tensor_ops.fuse_*,
 * backend.h; doc/lua.md#fused-expressions): the expression becomes the CUDA
 * C++ source of one grid-stride kernel (one f32 local per node), compiled at
 * run time with NVRTC for the device's architecture (a CUBIN for sm_XY, or
 * PTX for compute_XY when this NVRTC does not know the GPU) and loaded with
 * cudaLibraryLoadData.  Kernels are cached per source (the expression) and
 * device for the life of the process: the first compile_seconds of an
 * expression is NVRTC's and the loader's time, later ones 0.
 *
 * Each node computes what tensor.cu's unfused kernel computes (sinf, expf,
 * fabsf, -x, x * x for pow 2 else powf, + - * /), and NVRTC runs with
 * --fmad=false so that no multiply and add are contracted into an FMA the
 * unfused kernels do not make.  NVRTC (libnvrtc.so.MAJOR) is loaded with
 * dlopen: without it fuse_compile() fails with the loader's reason and
 * everything else runs.  Kernels go to the default stream, as the tensor
 * API's other operations.  Never run on a GPU at the time of writing; the
 * source and its NVRTC compilation are tested without one
 * (runner_cuda_fuse_compile_test, tests/test_fuse.c).
 */
#include "cuda_backend.h"

#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if __has_include(<nvrtc.h>)
#include <nvrtc.h>
#define RN_HAVE_NVRTC 1
#else
#define RN_HAVE_NVRTC 0
#endif

#define FUSE_CACHE 256

/* --- the source ---------------------------------------------------------------- */

typedef struct sbuf {
    char *p;
    size_t n, cap;
} sbuf;

static int sb_printf(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int sb_printf(sbuf *b, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        va_start(ap, fmt);
        int m = vsnprintf(b->p + b->n, b->cap - b->n, fmt, ap);
        va_end(ap);
        if (m < 0)
            return -1;
        if (b->n + (size_t)m < b->cap) {
            b->n += (size_t)m;
            return 0;
        }
        size_t cap = (b->cap + (size_t)m + 1) * 2;
        char *p = (char *)realloc(b->p, cap);
        if (!p)
            return -1;
        b->p = p;
        b->cap = cap;
    }
}

static unsigned bits_of(float f)
{
    unsigned u;
    memcpy(&u, &f, 4);
    return u;
}

/* The kernel's source (malloc'd), or NULL with err filled. */
static char *fuse_source(const rn_fuse_expr *e, rn_error *err)
{
    int n = e->nnodes;
    if (n < 1 || n > RN_FUSE_MAX_NODES || e->ninputs < 0 || e->ninputs > RN_FUSE_MAX_INPUTS) {
        snprintf(err->msg, sizeof err->msg, "fuse: %d nodes, %d inputs: out of range", n,
                 e->ninputs);
        return NULL;
    }
    char *live = (char *)calloc((size_t)n, 1);
    sbuf b = {(char *)malloc(4096), 0, 4096};
    if (!live || !b.p) {
        free(live);
        free(b.p);
        snprintf(err->msg, sizeof err->msg, "fuse: out of memory");
        return NULL;
    }
    const rn_fuse_node *nd = e->nodes;
    live[n - 1] = 1;
    for (int i = n - 1; i >= 0; i--) {
        if (!live[i] || nd[i].op < RN_FN_NEG)
            continue;
        int bin = nd[i].op >= RN_FN_ADD;
        if (nd[i].a < 0 || nd[i].a >= i || (bin && (nd[i].b < 0 || nd[i].b >= i))) {
            snprintf(err->msg, sizeof err->msg, "fuse: node %d uses a later node", i);
            free(live);
            free(b.p);
            return NULL;
        }
        live[nd[i].a] = 1;
        if (bin)
            live[nd[i].b] = 1;
    }
    int rc = sb_printf(&b,
                       "/* inputs: %d */\n"
                       "struct rn_fuse_args { const float *x[%d]; unsigned long long nx[%d]; };\n"
                       "extern \"C\" __global__ void rn_fused(float *y, unsigned long long n, "
                       "rn_fuse_args a)\n{\n"
                       "  for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x "
                       "+ threadIdx.x; i < n;\n"
                       "       i += (unsigned long long)gridDim.x * blockDim.x) {\n",
                       e->ninputs, RN_FUSE_MAX_INPUTS, RN_FUSE_MAX_INPUTS);
    static const char *const binop[] = {"+", "-", "*", "/"};
    static const char *const unfn[] = {"sinf", "expf", "fabsf"};
    for (int i = 0; rc == 0 && i < n; i++) {
        if (!live[i])
            continue;
        const rn_fuse_node *q = &nd[i];
        switch (q->op) {
        case RN_FN_INPUT:
            if (q->input < 0 || q->input >= e->ninputs) {
                snprintf(err->msg, sizeof err->msg, "fuse: node %d reads argument %d of %d", i,
                         q->input + 1, e->ninputs);
                rc = -2;
                break;
            }
            rc = sb_printf(&b, "    const float v%d = a.x[%d][a.nx[%d] == 1 ? 0 : i];\n", i,
                           q->input, q->input);
            break;
        case RN_FN_CONST: /* the exact float, whatever its value */
            rc = sb_printf(&b, "    const float v%d = __int_as_float(0x%08x); /* %.9g */\n", i,
                           bits_of((float)q->k), q->k);
            break;
        case RN_FN_NEG:
            rc = sb_printf(&b, "    const float v%d = -v%d;\n", i, q->a);
            break;
        case RN_FN_SIN: /* sinf(v), expf(v), fabsf(v) */
        case RN_FN_EXP:
        case RN_FN_ABS:
            rc = sb_printf(&b, "    const float v%d = %s(v%d);\n", i, unfn[q->op - RN_FN_SIN],
                           q->a);
            break;
        case RN_FN_POW: /* as tensor.cu's k_unary */
            if ((float)q->k == 2.0f)
                rc = sb_printf(&b, "    const float v%d = v%d * v%d;\n", i, q->a, q->a);
            else
                rc = sb_printf(&b, "    const float v%d = powf(v%d, __int_as_float(0x%08x));\n",
                               i, q->a, bits_of((float)q->k));
            break;
        default:
            rc = sb_printf(&b, "    const float v%d = v%d %s v%d;\n", i, q->a,
                           binop[q->op - RN_FN_ADD], q->b);
            break;
        }
    }
    if (rc == 0)
        rc = sb_printf(&b, "    y[i] = v%d;\n  }\n}\n", n - 1);
    free(live);
    if (rc != 0) {
        if (rc == -1)
            snprintf(err->msg, sizeof err->msg, "fuse: out of memory");
        free(b.p);
        return NULL;
    }
    return b.p;
}

/* --- NVRTC ----------------------------------------------------------------------- */

#if RN_HAVE_NVRTC
#define RN_STR2(x) #x
#define RN_STR(x) RN_STR2(x)

static struct {
    decltype(&nvrtcCreateProgram) create;
    decltype(&nvrtcCompileProgram) compile;
    decltype(&nvrtcGetProgramLogSize) log_size;
    decltype(&nvrtcGetProgramLog) log;
    decltype(&nvrtcGetCUBINSize) cubin_size;
    decltype(&nvrtcGetCUBIN) cubin;
    decltype(&nvrtcGetPTXSize) ptx_size;
    decltype(&nvrtcGetPTX) ptx;
    decltype(&nvrtcDestroyProgram) destroy;
    decltype(&nvrtcGetErrorString) error_string;
} nvrtc_api;
static pthread_once_t nv_once = PTHREAD_ONCE_INIT;
static int nv_ok;
static char nv_why[512];

static void nv_load(void)
{
    char name[64];
    snprintf(name, sizeof name, "libnvrtc.so.%d", CUDART_VERSION / 1000);
    void *h = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *e = dlerror();
        snprintf(nv_why, sizeof nv_why, "NVRTC is not available: %s", e ? e : name);
        return;
    }
    *(void **)&nvrtc_api.create = dlsym(h, "nvrtcCreateProgram");
    *(void **)&nvrtc_api.compile = dlsym(h, "nvrtcCompileProgram");
    *(void **)&nvrtc_api.log_size = dlsym(h, "nvrtcGetProgramLogSize");
    *(void **)&nvrtc_api.log = dlsym(h, "nvrtcGetProgramLog");
    *(void **)&nvrtc_api.cubin_size = dlsym(h, "nvrtcGetCUBINSize");
    *(void **)&nvrtc_api.cubin = dlsym(h, "nvrtcGetCUBIN");
    *(void **)&nvrtc_api.ptx_size = dlsym(h, "nvrtcGetPTXSize");
    *(void **)&nvrtc_api.ptx = dlsym(h, "nvrtcGetPTX");
    *(void **)&nvrtc_api.destroy = dlsym(h, "nvrtcDestroyProgram");
    *(void **)&nvrtc_api.error_string = dlsym(h, "nvrtcGetErrorString");
    if (!nvrtc_api.create || !nvrtc_api.compile || !nvrtc_api.log_size || !nvrtc_api.log || !nvrtc_api.cubin_size || !nvrtc_api.cubin ||
        !nvrtc_api.ptx_size || !nvrtc_api.ptx || !nvrtc_api.destroy || !nvrtc_api.error_string) {
        snprintf(nv_why, sizeof nv_why, "%s lacks an entry point this backend uses", name);
        dlclose(h);
        return;
    }
    nv_ok = 1;
}

/* Compiles src for compute capability `arch` (e.g. 90): a CUBIN for sm_XY,
 * else (an NVRTC that does not know sm_XY) PTX for compute_XY.  The image
 * (malloc'd) in *image; 0, or -1 with err filled (NVRTC's log included). */
static int nv_compile(const char *src, int arch, char **image, size_t *bytes, int *is_ptx,
                      rn_error *err)
{
    pthread_once(&nv_once, nv_load);
    if (!nv_ok) {
        snprintf(err->msg, sizeof err->msg, "fuse: %s", nv_why);
        return -1;
    }
    for (int ptx = 0; ptx < 2; ptx++) {
        nvrtcProgram prog;
        nvrtcResult r = nvrtc_api.create(&prog, src, "rn_fused.cu", 0, NULL, NULL);
        if (r != NVRTC_SUCCESS) {
            snprintf(err->msg, sizeof err->msg, "fuse: nvrtcCreateProgram: %s",
                     nvrtc_api.error_string(r));
            return -1;
        }
        char opt_arch[64];
        snprintf(opt_arch, sizeof opt_arch, "--gpu-architecture=%s_%d", ptx ? "compute" : "sm",
                 arch);
        const char *opts[] = {opt_arch, "--fmad=false", "-default-device"};
        r = nvrtc_api.compile(prog, 3, opts);
        if (r == NVRTC_ERROR_INVALID_OPTION && !ptx) { /* sm_XY unknown to this NVRTC */
            nvrtc_api.destroy(&prog);
            continue;
        }
        if (r != NVRTC_SUCCESS) {
            size_t n = 0;
            char log[768] = "";
            if (nvrtc_api.log_size(prog, &n) == NVRTC_SUCCESS && n > 0 && n < 65536) {
                char *full = (char *)malloc(n);
                if (full && nvrtc_api.log(prog, full) == NVRTC_SUCCESS)
                    snprintf(log, sizeof log, "%s", full);
                free(full);
            }
            for (char *c = log; *c; c++)
                if (*c == '\n')
                    *c = ' ';
            snprintf(err->msg, sizeof err->msg, "fuse: NVRTC (%s): %s: %s", opt_arch,
                     nvrtc_api.error_string(r), log);
            nvrtc_api.destroy(&prog);
            return -1;
        }
        size_t n = 0;
        r = ptx ? nvrtc_api.ptx_size(prog, &n) : nvrtc_api.cubin_size(prog, &n);
        char *img = (char *)malloc(n ? n : 1);
        if (r == NVRTC_SUCCESS && img)
            r = ptx ? nvrtc_api.ptx(prog, img) : nvrtc_api.cubin(prog, img);
        nvrtc_api.destroy(&prog);
        if (r != NVRTC_SUCCESS || !img) {
            free(img);
            snprintf(err->msg, sizeof err->msg, "fuse: reading NVRTC's output: %s",
                     img ? nvrtc_api.error_string(r) : "out of memory");
            return -1;
        }
        *image = img;
        *bytes = n;
        *is_ptx = ptx;
        return 0;
    }
    snprintf(err->msg, sizeof err->msg, "fuse: NVRTC accepts neither sm_%d nor compute_%d", arch,
             arch);
    return -1;
}
#else
static int nv_compile(const char *src, int arch, char **image, size_t *bytes, int *is_ptx,
                      rn_error *err)
{
    (void)src;
    (void)arch;
    (void)image;
    (void)bytes;
    (void)is_ptx;
    snprintf(err->msg, sizeof err->msg,
             "fuse: the CUDA backend was built without nvrtc.h (no NVRTC in its toolkit)");
    return -1;
}
#endif

/* --- the cache and the operations ------------------------------------------------ */

typedef struct fuse_kernel {
    char *source;
    int dev, ninputs;
    cudaLibrary_t lib;
    cudaKernel_t fn;
} fuse_kernel;

static fuse_kernel cache[FUSE_CACHE];
static int ncache;
static pthread_mutex_t cache_mu = PTHREAD_MUTEX_INITIALIZER;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int use(int dev, rn_error *err)
{
    if (dev != cuda_current_device) {
        CK(cudaSetDevice(dev));
        cuda_current_device = dev;
    }
    return 0;
}

int cuda_fuse_compile(int dev, const rn_fuse_expr *e, void **kernel, double *seconds,
                        rn_error *err)
{
    *kernel = NULL;
    if (use(dev, err))
        return -1;
    char *src = fuse_source(e, err);
    if (!src)
        return -1;
    pthread_mutex_lock(&cache_mu);
    for (int i = 0; i < ncache; i++)
        if (cache[i].dev == dev && !strcmp(cache[i].source, src)) {
            pthread_mutex_unlock(&cache_mu);
            free(src);
            *kernel = &cache[i];
            if (seconds)
                *seconds = 0;
            return 0;
        }
    int rc = -1;
    double t0 = now_s();
    int major = 0, minor = 0, is_ptx = 0;
    char *image = NULL;
    size_t bytes = 0;
    cudaError_t ce = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev);
    if (ce == cudaSuccess)
        ce = cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev);
    if (ce != cudaSuccess) {
        ck_fail(err, __FILE__, __LINE__, "cudaDeviceGetAttribute", ce);
    } else if (ncache == FUSE_CACHE) {
        snprintf(err->msg, sizeof err->msg, "fuse: more than %d fused kernels in one process",
                 FUSE_CACHE);
    } else if (nv_compile(src, major * 10 + minor, &image, &bytes, &is_ptx, err) == 0) {
        fuse_kernel *k = &cache[ncache];
        ce = cudaLibraryLoadData(&k->lib, image, NULL, NULL, 0, NULL, NULL, 0);
        if (ce == cudaSuccess)
            ce = cudaLibraryGetKernel(&k->fn, k->lib, "rn_fused");
        if (ce != cudaSuccess) {
            ck_fail(err, __FILE__, __LINE__, is_ptx ? "loading the fused kernel (PTX)"
                                                    : "loading the fused kernel (CUBIN)",
                    ce);
        } else {
            k->source = src;
            k->dev = dev;
            k->ninputs = e->ninputs;
            src = NULL;
            ncache++;
            *kernel = k;
            rc = 0;
        }
    }
    pthread_mutex_unlock(&cache_mu);
    free(image);
    free(src);
    if (rc == 0 && seconds)
        *seconds = now_s() - t0;
    return rc;
}

struct rn_fuse_args {
    const float *x[RN_FUSE_MAX_INPUTS];
    unsigned long long nx[RN_FUSE_MAX_INPUTS];
};

int cuda_fuse_run(int dev, const void *kernel, float *dst, const float *const *in,
                    const size_t *nin, size_t n, rn_error *err)
{
    const fuse_kernel *k = (const fuse_kernel *)kernel;
    if (use(dev, err))
        return -1;
    if (n == 0)
        return 0;
    rn_fuse_args a;
    memset(&a, 0, sizeof a);
    for (int j = 0; j < k->ninputs; j++) {
        a.x[j] = in[j];
        a.nx[j] = nin[j];
    }
    unsigned long long nn = n;
    void *args[] = {&dst, &nn, &a};
    CK(cudaLaunchKernel((const void *)k->fn, dim3(grid_for(n)), dim3(256), args, 0, 0));
    return 0;
}

void cuda_fuse_free(int dev, void *kernel)
{
    (void)dev;
    (void)kernel; /* kernels stay in the cache for the process */
}

/* For the tests, without a GPU: the source of e compiled by NVRTC for
 * compute capability arch; 0 with the image's size and the time, or -1
 * with the reason in msg. */
extern "C" __attribute__((visibility("default"))) int
runner_cuda_fuse_compile_test(const rn_fuse_expr *e, int arch, size_t *bytes, double *seconds,
                              char *source, size_t source_len, char *msg, size_t len)
{
    rn_error err;
    err.msg[0] = '\0';
    double t0 = now_s();
    char *src = fuse_source(e, &err);
    char *image = NULL;
    int is_ptx = 0, rc = -1;
    if (src) {
        snprintf(source, source_len, "%s", src);
        rc = nv_compile(src, arch, &image, bytes, &is_ptx, &err);
    }
    *seconds = now_s() - t0;
    snprintf(msg, len, "%s", err.msg);
    free(src);
    free(image);
    return rc;
}
