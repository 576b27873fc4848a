/* plugin_template.c - see plugin_template.h.  The files are text with
 * @NAME@ (the workload's name), @UNAME@ (upper case) and @KEY@ markers that
 * the snippets below fill in, one text for a plugin with or without its
 * CUDA half (doc/own-code-plugins.md#runner-new-workload). */
#include "experiment/registry/plugin_template.h"

#include "base/util.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static const char c_text[] =
    "/* @NAME@.c - the workload '@NAME@' as a runner plugin: y = scale * x + 1\n"
    " * over `size` floats, checked after the timed calls.  Written by `runner new\n"
    " * workload @NAME@`: put your own computation in prepare() and run().\n"
    " * `make` builds @NAME@.so against <runner/workload.h> (pkg-config runner\n"
    " * finds it), and `runner @NAME@.yaml` sweeps it.\n"
    " * The interface, every function and the rules: runner(1) and the user\n"
    " * guide's \"Measuring your own code\". */\n"
    "#include <runner/workload.h>\n"
    "@CUDA_INCLUDE@\n"
    "#include <stdio.h>\n"
    "#include <stdlib.h>\n"
    "#include <string.h>\n"
    "\n"
    "typedef struct {\n"
    "    float *x, *y;\n"
    "    size_t n;\n"
    "    float scale;\n"
    "@CUDA_FIELD@} @NAME@_state;\n"
    "\n"
    "static void @NAME@_release(void *st)\n"
    "{\n"
    "    @NAME@_state *s = st;\n"
    "    if (!s)\n"
    "        return;\n"
    "@CUDA_RELEASE@    free(s->x);\n"
    "    free(s->y);\n"
    "    free(s);\n"
    "}\n"
    "\n"
    "/* Untimed: checks the trial's parameters and makes its inputs.  Returns\n"
    " * RN_PREPARE_OK, RN_PREPARE_SKIP (the trial cannot run here: err->msg says\n"
    " * why) or RN_PREPARE_FAIL (err->msg says what is wrong). */\n"
    "static int @NAME@_prepare(const rn_trial *t, void **state, rn_error *err)\n"
    "{\n"
    "    /* the runner passes every parameter through: refuse what this workload\n"
    "     * does not take, so that a misspelt one is not ignored */\n"
    "    for (int i = 0; i < t->nparams; i++)\n"
    "        if (strcmp(t->params[i].name, \"scale\")) {\n"
    "            snprintf(err->msg, sizeof err->msg,\n"
    "                     \"@NAME@: unknown parameter '%s' (it takes: scale)\", t->params[i].name);\n"
    "            return RN_PREPARE_FAIL;\n"
    "        }\n"
    "    if (t->dtype != RN_F32) {\n"
    "        snprintf(err->msg, sizeof err->msg, \"@NAME@: dtype %s is not supported (f32 only)\",\n"
    "                 rn_dtype_name(t->dtype));\n"
    "        return RN_PREPARE_SKIP;\n"
    "    }\n"
    "@CPU_ONLY@    @NAME@_state *s = calloc(1, sizeof *s);\n"
    "    if (!s) {\n"
    "        snprintf(err->msg, sizeof err->msg, \"@NAME@: out of memory\");\n"
    "        return RN_PREPARE_FAIL;\n"
    "    }\n"
    "    /* size: -1 when the experiment sets none; this workload's default then */\n"
    "    s->n = t->size >= 0 ? (size_t)t->size : (size_t)1 << 20;\n"
    "    s->scale = (float)rn_param_num(t, \"scale\", 2.0);\n"
    "    s->x = malloc((s->n ? s->n : 1) * sizeof *s->x);\n"
    "    s->y = malloc((s->n ? s->n : 1) * sizeof *s->y);\n"
    "    if (!s->x || !s->y) {\n"
    "        snprintf(err->msg, sizeof err->msg, \"@NAME@: out of memory for %zu floats\", s->n);\n"
    "        @NAME@_release(s); /* a failed prepare() frees what it made */\n"
    "        return RN_PREPARE_FAIL;\n"
    "    }\n"
    "    for (size_t i = 0; i < s->n; i++)\n"
    "        s->x[i] = (float)(i % 1000);\n"
    "@CUDA_PREPARE@    *state = s;\n"
    "    return RN_PREPARE_OK;\n"
    "}\n"
    "\n"
    "/* Timed: one call.  Returns only once the work is done (on a GPU: after it\n"
    " * synchronised); 0, or non-zero with err->msg to fail the trial. */\n"
    "static int @NAME@_run(void *st, rn_sample *smp, rn_error *err)\n"
    "{\n"
    "    @NAME@_state *s = st;\n"
    "@CUDA_RUN@    (void)smp;\n"
    "    (void)err;\n"
    "    for (size_t i = 0; i < s->n; i++)\n"
    "        s->y[i] = s->scale * s->x[i] + 1.0f;\n"
    "    return 0;\n"
    "}\n"
    "\n"
    "/* After the timed calls: 0 when the last call's output is right; non-zero\n"
    " * with err->msg fails the trial (\"wrong result: ...\"). */\n"
    "static int @NAME@_check(void *st, rn_error *err)\n"
    "{\n"
    "    @NAME@_state *s = st;\n"
    "@CUDA_CHECK@    for (size_t i = 0; i < s->n; i++) {\n"
    "        /* within 1e-6 of it, relative: a GPU may fuse the multiply-add */\n"
    "        float want = s->scale * s->x[i] + 1.0f, d = s->y[i] - want;\n"
    "        float tol = 1e-6f * (want < -1.0f ? -want : want > 1.0f ? want : 1.0f);\n"
    "        if (!(d <= tol && -d <= tol)) { /* NaN fails too */\n"
    "            snprintf(err->msg, sizeof err->msg, \"@NAME@: y[%zu] = %g, not %g\", i,\n"
    "                     (double)s->y[i], (double)want);\n"
    "            return 1;\n"
    "        }\n"
    "    }\n"
    "    return 0;\n"
    "}\n"
    "\n"
    "/* The work of one call, for the gflops and gbps columns. */\n"
    "static void @NAME@_work(void *st, double *flops, double *bytes)\n"
    "{\n"
    "    @NAME@_state *s = st;\n"
    "    *flops = 2.0 * (double)s->n;\n"
    "    *bytes = 2.0 * sizeof(float) * (double)s->n;\n"
    "}\n"
    "\n"
    "static const rn_workload_impl @NAME@_workload = {\n"
    "    .name = \"@NAME@\",\n"
    "    .prepare = @NAME@_prepare,\n"
    "    .run = @NAME@_run,\n"
    "    .check = @NAME@_check,\n"
    "    .release = @NAME@_release,\n"
    "    .work = @NAME@_work,\n"
    "};\n"
    "\n"
    "/* the table the runner looks for: the interface version and the workloads */\n"
    "RN_PLUGIN(&@NAME@_workload)\n";

static const char cu_text[] =
    "/* @NAME@.cu - the CUDA half of the plugin '@NAME@': y = scale * x + 1 on\n"
    " * the trial's GPU.  With `io: with` every call copies x in and y out (timed,\n"
    " * as the built-in workloads do); with `io: without` the data stay on the\n"
    " * GPU.  Built by the Makefile with nvcc. */\n"
    "#include \"@NAME@.h\"\n"
    "\n"
    "#include <cuda_runtime.h>\n"
    "#include <stdio.h>\n"
    "#include <stdlib.h>\n"
    "\n"
    "struct @NAME@_gpu {\n"
    "    float *x, *y;    /* on the GPU */\n"
    "    const float *hx; /* the C half's input, on the host */\n"
    "    size_t n;\n"
    "    float scale;\n"
    "    int copies; /* io: with (or overlap): copy in and out in every call */\n"
    "};\n"
    "\n"
    "/* a CUDA error: its text in err->msg, and a non-zero return */\n"
    "#define CK(call)                                                                               \\\n"
    "    do {                                                                                       \\\n"
    "        cudaError_t e_ = (call);                                                               \\\n"
    "        if (e_ != cudaSuccess) {                                                               \\\n"
    "            snprintf(err->msg, sizeof err->msg, \"@NAME@: %s: %s\", #call,                       \\\n"
    "                     cudaGetErrorString(e_));                                                  \\\n"
    "            return RN_PREPARE_FAIL;                                                            \\\n"
    "        }                                                                                      \\\n"
    "    } while (0)\n"
    "\n"
    "static __global__ void @NAME@_kernel(const float *x, float *y, size_t n, float scale)\n"
    "{\n"
    "    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;\n"
    "    if (i < n)\n"
    "        y[i] = scale * x[i] + 1.0f;\n"
    "}\n"
    "\n"
    "extern \"C\" int @NAME@_cuda_prepare(const rn_trial *t, const float *x, size_t n, float scale,\n"
    "                                   void **gpu, rn_error *err)\n"
    "{\n"
    "    int count = 0;\n"
    "    if (cudaGetDeviceCount(&count) != cudaSuccess || t->device_index >= count) {\n"
    "        snprintf(err->msg, sizeof err->msg, \"@NAME@: no CUDA device %d\", t->device_index);\n"
    "        return RN_PREPARE_SKIP;\n"
    "    }\n"
    "    CK(cudaSetDevice(t->device_index));\n"
    "    @NAME@_gpu *g = (@NAME@_gpu *)calloc(1, sizeof *g);\n"
    "    if (!g) {\n"
    "        snprintf(err->msg, sizeof err->msg, \"@NAME@: out of memory\");\n"
    "        return RN_PREPARE_FAIL;\n"
    "    }\n"
    "    *gpu = g; /* the C half releases it, also when this fails */\n"
    "    g->hx = x;\n"
    "    g->n = n;\n"
    "    g->scale = scale;\n"
    "    g->copies = t->io != RN_IO_WITHOUT;\n"
    "    size_t bytes = (n ? n : 1) * sizeof(float);\n"
    "    CK(cudaMalloc((void **)&g->x, bytes));\n"
    "    CK(cudaMalloc((void **)&g->y, bytes));\n"
    "    CK(cudaMemcpy(g->x, x, n * sizeof(float), cudaMemcpyHostToDevice));\n"
    "    CK(cudaMemset(g->y, 0xff, bytes)); /* NaN: a kernel that never ran fails the check */\n"
    "    CK(cudaDeviceSynchronize());\n"
    "    return RN_PREPARE_OK;\n"
    "}\n"
    "\n"
    "extern \"C\" int @NAME@_cuda_run(void *gpu, float *y, rn_error *err)\n"
    "{\n"
    "    @NAME@_gpu *g = (@NAME@_gpu *)gpu;\n"
    "    if (g->copies)\n"
    "        CK(cudaMemcpy(g->x, g->hx, g->n * sizeof(float), cudaMemcpyHostToDevice));\n"
    "    unsigned blocks = (unsigned)((g->n + 255) / 256);\n"
    "    if (blocks)\n"
    "        @NAME@_kernel<<<blocks, 256>>>(g->x, g->y, g->n, g->scale);\n"
    "    CK(cudaGetLastError());\n"
    "    if (g->copies)\n"
    "        CK(cudaMemcpy(y, g->y, g->n * sizeof(float), cudaMemcpyDeviceToHost));\n"
    "    CK(cudaDeviceSynchronize()); /* run() returns once the GPU is idle */\n"
    "    return 0;\n"
    "}\n"
    "\n"
    "extern \"C\" int @NAME@_cuda_result(void *gpu, float *y, rn_error *err)\n"
    "{\n"
    "    @NAME@_gpu *g = (@NAME@_gpu *)gpu;\n"
    "    if (!g->copies) /* io: with: the last call downloaded it */\n"
    "        CK(cudaMemcpy(y, g->y, g->n * sizeof(float), cudaMemcpyDeviceToHost));\n"
    "    return 0;\n"
    "}\n"
    "\n"
    "extern \"C\" void @NAME@_cuda_release(void *gpu)\n"
    "{\n"
    "    @NAME@_gpu *g = (@NAME@_gpu *)gpu;\n"
    "    if (!g)\n"
    "        return;\n"
    "    cudaFree(g->x);\n"
    "    cudaFree(g->y);\n"
    "    free(g);\n"
    "}\n";

static const char h_text[] =
    "/* @NAME@.h - the CUDA half of the plugin '@NAME@' (@NAME@.cu), as its C\n"
    " * half (@NAME@.c) calls it.  Each returns 0 (RN_PREPARE_OK), or non-zero\n"
    " * with err->msg saying what failed; prepare may return RN_PREPARE_SKIP. */\n"
    "#ifndef @UNAME@_H\n"
    "#define @UNAME@_H\n"
    "\n"
    "#include <runner/workload.h>\n"
    "\n"
    "#ifdef __cplusplus\n"
    "extern \"C\" {\n"
    "#endif\n"
    "\n"
    "typedef struct @NAME@_gpu @NAME@_gpu;\n"
    "\n"
    "/* Copies x (n floats) to the trial's GPU; *gpu: the state, set also when\n"
    " * this fails (the C half releases it). */\n"
    "int @NAME@_cuda_prepare(const rn_trial *t, const float *x, size_t n, float scale, void **gpu,\n"
    "                        rn_error *err);\n"
    "/* One call: y = scale * x + 1 on the GPU (with `io: with`, x copied in\n"
    " * and y out to the host's y), then waits for the GPU. */\n"
    "int @NAME@_cuda_run(void *gpu, float *y, rn_error *err);\n"
    "/* The last call's y in the host's y, for the check. */\n"
    "int @NAME@_cuda_result(void *gpu, float *y, rn_error *err);\n"
    "void @NAME@_cuda_release(void *gpu);\n"
    "\n"
    "#ifdef __cplusplus\n"
    "}\n"
    "#endif\n"
    "\n"
    "#endif\n";

static const char mk_text[] =
    "# Builds the runner plugin @NAME@.so against <runner/workload.h>, found by\n"
    "# pkg-config: first in RUNNER_PC_DIR, where the runner that wrote this file\n"
    "# has its pkg-config file (the source tree's lib/pkgconfig, whose\n"
    "# runner-uninstalled.pc names the tree's header, or PREFIX/lib/pkgconfig\n"
    "# after make install), then on pkg-config's own path.\n"
    "#   make               @NAME@.so\n"
    "#   make run           builds it and sweeps it (@NAME@.yaml)\n"
    "CC      ?= cc\n"
    "CFLAGS  ?= -O2 -g\n"
    "RUNNER  ?= @RUNNER@\n"
    "RUNNER_PC_DIR ?= @PC_DIR@\n"
    "PC_ENV  := $(if $(RUNNER_PC_DIR),PKG_CONFIG_PATH='$(RUNNER_PC_DIR)'$${PKG_CONFIG_PATH:+:$$PKG_CONFIG_PATH})\n"
    "RUNNER_CFLAGS := $(shell $(PC_ENV) pkg-config --cflags runner)\n"
    "RUNNER_LIBS   := $(shell $(PC_ENV) pkg-config --libs runner)\n"
    "ifneq ($(shell $(PC_ENV) pkg-config --exists runner && echo yes),yes)\n"
    "$(error pkg-config finds no runner: build the runner (make) or install it (make install PREFIX=...), then set RUNNER_PC_DIR=PREFIX/lib/pkgconfig)\n"
    "endif\n"
    "@CUDA_VARS@\n"
    "@NAME@.so: @DEPS@\n"
    "@RULE@\n"
    "run: @NAME@.so\n"
    "\t$(RUNNER) @NAME@.yaml\n"
    "\n"
    "clean:\n"
    "\trm -f @NAME@.so @NAME@.o @NAME@_cuda.o\n"
    "\n"
    ".PHONY: run clean\n";

static const char yaml_text[] =
    "# @NAME@.yaml - sweeps the plugin @NAME@ (build it first: make)\n"
    "name: @NAME@\n"
    "description: y = scale * x + 1 over size floats, a runner plugin\n"
    "workload: plugin:@NAME@.so:@NAME@   # plugin:LIBRARY:WORKLOAD, relative to this file\n"
    "size_means: floats                # what size counts, for the charts' x axis\n"
    "params: {scale: 2}\n"
    "sweep:\n"
    "@SWEEP@  size: {pow2: [10, 16]}\n"
    "repeats: 5\n";

/* @KEY@: {without CUDA, with CUDA} */
static const struct {
    const char *key, *text[2];
} snippets[] = {
    {"CUDA_INCLUDE",
     {"",
      "#include \"@NAME@.h\" /* the CUDA half: @NAME@.cu */\n"}},
    {"CUDA_FIELD",
     {"",
      "    void *gpu; /* the CUDA half's state on a GPU trial, else NULL */\n"}},
    {"CUDA_RELEASE",
     {"",
      "    @NAME@_cuda_release(s->gpu);\n"}},
    {"CPU_ONLY",
     {"    if (t->device != RN_DEV_CPU) {\n"
       "        snprintf(err->msg, sizeof err->msg,\n"
       "                 \"@NAME@: CPU only (runner new workload @NAME@ --cuda writes a CUDA half)\");\n"
       "        return RN_PREPARE_SKIP;\n"
       "    }\n",
      ""}},
    {"CUDA_PREPARE",
     {"",
      "    if (t->device == RN_DEV_CUDA) {\n"
       "        int rc = @NAME@_cuda_prepare(t, s->x, s->n, s->scale, &s->gpu, err);\n"
       "        if (rc != RN_PREPARE_OK) {\n"
       "            @NAME@_release(s);\n"
       "            return rc;\n"
       "        }\n"
       "    }\n"}},
    {"CUDA_RUN",
     {"",
      "    if (s->gpu)\n"
       "        return @NAME@_cuda_run(s->gpu, s->y, err);\n"}},
    {"CUDA_CHECK",
     {"",
      "    if (s->gpu && @NAME@_cuda_result(s->gpu, s->y, err) != 0)\n"
       "        return 1;\n"}},
    {"CUDA_VARS",
     {"",
      "NVCC    ?= $(shell command -v nvcc 2>/dev/null || echo /usr/local/cuda/bin/nvcc)\n"
       "NVFLAGS ?= -O2\n"}},
    {"DEPS",
     {"@NAME@.c",
      "@NAME@.c @NAME@.cu @NAME@.h"}},
    {"RULE",
     {"\t$(CC) $(CFLAGS) -std=c11 -Wall -Wextra -fPIC -shared $(RUNNER_CFLAGS) -o $@ @NAME@.c $(RUNNER_LIBS)\n",
      "\t$(NVCC) $(NVFLAGS) -Xcompiler -fPIC $(RUNNER_CFLAGS) -c @NAME@.cu -o @NAME@_cuda.o\n"
       "\t$(CC) $(CFLAGS) -std=c11 -Wall -Wextra -fPIC $(RUNNER_CFLAGS) -c @NAME@.c -o @NAME@.o\n"
       "\t$(NVCC) -shared -o $@ @NAME@.o @NAME@_cuda.o $(RUNNER_LIBS)\n"}},
    {"SWEEP",
     {"  device: [cpu]\n",
      "  target:\n"
       "    - {label: CPU, device: cpu}\n"
       "    - {label: GPU, device: cuda, io: with}\n"
       "    - {label: GPU no IO, device: cuda, io: without}\n"}},
};
/* what the markers are filled with */
typedef struct tmpl_ctx {
    const char *name, *runner, *pc_dir;
    int cuda;
} tmpl_ctx;

/* text with every marker filled in */
static char *expand(const char *text, const tmpl_ctx *c)
{
    const char *name = c->name;
    strbuf b = {0};
    for (const char *p = text; *p;) {
        const char *at = strchr(p, '@'), *end = at ? strchr(at + 1, '@') : NULL;
        if (!at || !end) {
            sb_puts(&b, p);
            break;
        }
        sb_printf(&b, "%.*s", (int)(at - p), p);
        size_t klen = (size_t)(end - at - 1);
        const char *fill = NULL;
        char *expanded = NULL;
        if (klen == 4 && !strncmp(at + 1, "NAME", 4)) {
            fill = name;
        } else if (klen == 6 && !strncmp(at + 1, "RUNNER", 6)) {
            fill = c->runner;
        } else if (klen == 6 && !strncmp(at + 1, "PC_DIR", 6)) {
            fill = c->pc_dir;
        } else if (klen == 5 && !strncmp(at + 1, "UNAME", 5)) {
            expanded = xstrdup(name);
            for (char *c = expanded; *c; c++)
                *c = (char)toupper((unsigned char)*c);
        } else {
            for (size_t i = 0; i < sizeof snippets / sizeof snippets[0]; i++)
                if (strlen(snippets[i].key) == klen && !strncmp(snippets[i].key, at + 1, klen))
                    expanded = expand(snippets[i].text[c->cuda != 0], c);
        }
        if (!fill && !expanded) { /* not a marker: the '@' as written */
            sb_putc(&b, '@');
            p = at + 1;
            continue;
        }
        sb_puts(&b, fill ? fill : expanded);
        free(expanded);
        p = end + 1;
    }
    return b.s ? sb_take(&b) : xstrdup("");
}

int plugin_name_ok(const char *name)
{
    if (!name || !(isalpha((unsigned char)name[0]) || name[0] == '_') || strlen(name) > 64)
        return 0;
    for (const char *c = name; *c; c++)
        if (!isalnum((unsigned char)*c) && *c != '_')
            return 0;
    return 1;
}

int plugin_template(const char *name, int cuda, const char *runner, const char *pc_dir,
                    plugin_file out[PLUGIN_TEMPLATE_MAX])
{
    const tmpl_ctx c = {name, runner, pc_dir ? pc_dir : "", cuda};
    static const struct {
        const char *suffix, *text;
        int cuda_only;
    } files[] = {
        {".c", c_text, 0},  {".cu", cu_text, 1},      {".h", h_text, 1},
        {"", mk_text, 0},   {".yaml", yaml_text, 0},
    };
    int n = 0;
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        if (files[i].cuda_only && !cuda)
            continue;
        out[n].name = *files[i].suffix ? xasprintf("%s%s", name, files[i].suffix)
                                       : xstrdup("Makefile");
        out[n].text = expand(files[i].text, &c);
        n++;
    }
    return n;
}

void plugin_template_free(plugin_file *f, int n)
{
    for (int i = 0; i < n; i++) {
        free(f[i].name);
        free(f[i].text);
    }
}
