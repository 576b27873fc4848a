/* mlp_data.c - see mlp_data.h: the trial's parameters, the data set (a CSV
 * file or a synthetic set), the network's layout and initialisation, the
 * per-epoch shuffle, and the plain-loop evaluation on the host (compiled into
 * the CPU backend, and as host code into the CUDA one). */
#include "mlp_data.h"

#include <stdarg.h>

void mlp_shuffle(uint32_t *perm, long n, uint64_t seed, int epoch)
{
    for (long i = 0; i < n; i++)
        perm[i] = (uint32_t)i;
    rn_philox_out o = {{0, 0, 0, 0}};
    uint64_t have = UINT64_MAX;
    for (long i = n - 1; i > 0; i--) {
        uint64_t blk = (uint64_t)i >> 2;
        if (blk != have) {
            o = mlp_block(seed, MLP_STREAM_SHUFFLE, (uint32_t)epoch, blk);
            have = blk;
        }
        long j = (long)(((uint64_t)o.v[i & 3] * (uint64_t)(i + 1)) >> 32);
        uint32_t t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
}

static int mlp_is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

int mlp_parse_layers(const char *text, int features, int classes, mlp_net *net,
                     rn_error *err)
{
    static const char *const hint =
        "`layers` lists every width, input first and output last, e.g. 'features,32,16,2'";
    memset(net, 0, sizeof *net);
    const char *s = text;
    while (mlp_is_space(*s))
        s++;
    int bracket = *s == '[';
    if (bracket)
        s++;
    for (;;) {
        while (mlp_is_space(*s))
            s++;
        const char *tok = s;
        while (*s && *s != ',' && *s != ']')
            s++;
        const char *end = s;
        while (end > tok && mlp_is_space(end[-1]))
            end--;
        int len = (int)(end - tok);
        if (net->nw == MLP_MAX_WIDTHS) {
            snprintf(err->msg, sizeof err->msg, "mlp_train: layers '%s' has more than %d widths",
                     text, MLP_MAX_WIDTHS);
            return -1;
        }
        long w = -1;
        if (net->nw == 0 && len == 8 && strncmp(tok, "features", 8) == 0) {
            w = features;
        } else if (len > 0 && len < 12) {
            char buf[16], *e;
            memcpy(buf, tok, (size_t)len);
            buf[len] = '\0';
            errno = 0;
            w = strtol(buf, &e, 10);
            if (*e || errno || w < 1)
                w = -1;
        }
        if (w < 1 || w > MLP_MAX_WIDTH) {
            snprintf(err->msg, sizeof err->msg,
                     "mlp_train: layers '%s': entry %d ('%.*s') is not a width between 1 and "
                     "%d (%s)",
                     text, net->nw + 1, len > 40 ? 40 : len, tok, MLP_MAX_WIDTH, hint);
            return -1;
        }
        net->width[net->nw++] = (int)w;
        if (*s == ',') {
            s++;
            continue;
        }
        if (*s == ']' && bracket) {
            s++;
            bracket = 0;
        }
        while (mlp_is_space(*s))
            s++;
        if (*s || bracket) {
            snprintf(err->msg, sizeof err->msg, "mlp_train: layers '%s' is not a list (%s)", text,
                     hint);
            return -1;
        }
        break;
    }
    if (net->nw < 2) {
        snprintf(err->msg, sizeof err->msg,
                 "mlp_train: layers '%s' needs at least an input and an output width (%s)", text,
                 hint);
        return -1;
    }
    if (net->width[0] != features) {
        snprintf(err->msg, sizeof err->msg,
                 "mlp_train: layers '%s' starts with %d inputs but the data set has %d "
                 "features (write 'features' or %d first; %s)",
                 text, net->width[0], features, features, hint);
        return -1;
    }
    if (net->width[net->nw - 1] < classes) {
        snprintf(err->msg, sizeof err->msg,
                 "mlp_train: layers '%s' ends with %d outputs but the labels go up to %d "
                 "(%d classes): the last width must be at least %d",
                 text, net->width[net->nw - 1], classes - 1, classes, classes);
        return -1;
    }
    size_t off = 0;
    net->maxw = 0;
    for (int l = 0; l < net->nw; l++)
        if (net->width[l] > net->maxw)
            net->maxw = net->width[l];
    for (int l = 0; l + 1 < net->nw; l++) {
        net->woff[l] = off;
        off += (size_t)net->width[l] * (size_t)net->width[l + 1];
    }
    net->nweights = off;
    for (int l = 0; l + 1 < net->nw; l++) {
        net->boff[l] = off;
        off += (size_t)net->width[l + 1];
    }
    net->nparams = off;
    return 0;
}

void mlp_init_params(const mlp_net *net, uint64_t seed, float *p)
{
    for (int l = 0; l + 1 < net->nw; l++) {
        size_t n = (size_t)net->width[l] * (size_t)net->width[l + 1];
        double scale = sqrt(2.0 / (double)net->width[l]);
        for (size_t k = 0; k < n; k++)
            p[net->woff[l] + k] =
                (float)(scale * mlp_normal(seed, MLP_STREAM_INIT, (uint32_t)l, k));
        for (int k = 0; k < net->width[l + 1]; k++)
            p[net->boff[l] + (size_t)k] = 0.0f;
    }
}

void mlp_data_free(mlp_data *d)
{
    free(d->x);
    free(d->y);
    d->x = NULL;
    d->y = NULL;
}

int mlp_data_alloc(mlp_data *d, long rows, int features, rn_error *err)
{
    d->rows = rows;
    d->features = features;
    d->x = (float *)malloc((size_t)rows * (size_t)features * sizeof(float) + 1);
    d->y = (int32_t *)malloc((size_t)rows * sizeof(int32_t) + 1);
    if (!d->x || !d->y) {
        mlp_data_free(d);
        snprintf(err->msg, sizeof err->msg,
                 "mlp_train: cannot allocate the data set (%ld rows x %d features): out of "
                 "memory",
                 rows, features);
        return -1;
    }
    return 0;
}

int mlp_synthesize(mlp_data *d, long rows, int features, uint64_t seed, rn_error *err)
{
    if (mlp_data_alloc(d, rows, features, err))
        return -1;
    double *w = (double *)malloc((size_t)features * sizeof(double));
    if (!w) {
        mlp_data_free(d);
        snprintf(err->msg, sizeof err->msg, "mlp_train: out of memory");
        return -1;
    }
    for (int j = 0; j < features; j++)
        w[j] = mlp_normal(seed, MLP_STREAM_RULE, 0, (uint64_t)j);
    for (long r = 0; r < rows; r++) {
        double dot = 0;
        float *x = d->x + (size_t)r * (size_t)features;
        for (int j = 0; j < features; j++) {
            x[j] = (float)mlp_normal(seed, MLP_STREAM_X, 0,
                                     (uint64_t)r * (uint64_t)features + (uint64_t)j);
            dot += (double)x[j] * w[j];
        }
        int label = dot > 0;
        if (rn_uniform(seed, MLP_STREAM_NOISE, (uint64_t)r) < MLP_LABEL_NOISE)
            label = !label;
        d->y[r] = label;
    }
    free(w);
    d->classes = 2;
    return 0;
}

/* One comma-separated field [*p, end of field): trimmed bounds; advances *p
 * past the comma.  Returns 0 at the end of the line (no field). */
static int mlp_next_field(const char **p, const char *end, const char **fb, const char **fe)
{
    if (*p == NULL)
        return 0;
    const char *s = *p, *c = s;
    while (c < end && *c != ',')
        c++;
    *p = c < end ? c + 1 : NULL;
    while (s < c && mlp_is_space(*s))
        s++;
    const char *e = c;
    while (e > s && mlp_is_space(e[-1]))
        e--;
    *fb = s;
    *fe = e;
    return 1;
}

/* A whole field as a finite number; -1 when it is not one. */
static int mlp_field_number(const char *b, const char *e, double *out)
{
    char buf[64], *stop;
    size_t n = (size_t)(e - b);
    if (n == 0 || n >= sizeof buf)
        return -1;
    memcpy(buf, b, n);
    buf[n] = '\0';
    errno = 0;
    double v = strtod(buf, &stop);
    if (*stop || !isfinite(v))
        return -1;
    *out = v;
    return 0;
}

static int mlp_count_fields(const char *s, const char *end)
{
    int n = 1;
    for (; s < end; s++)
        n += *s == ',';
    return n;
}

static int mlp_blank(const char *s, const char *end)
{
    for (; s < end; s++)
        if (!mlp_is_space(*s))
            return 0;
    return 1;
}

/* The line at *next (before end): [*s, *e), *e its newline or end; *next
 * moves past it.  0 when no line is left. */
static int next_line(const char **next, const char *end, const char **s, const char **e)
{
    if (*next >= end)
        return 0;
    *s = *next;
    *e = (const char *)memchr(*s, '\n', (size_t)(end - *s));
    if (!*e)
        *e = end;
    *next = *e + 1;
    return 1;
}

/* mlp_load_csv's failures after the file is read: frees the text, writes
 * the message, -1 */
static int load_fail(char *text, rn_error *err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int load_fail(char *text, rn_error *err, const char *fmt, ...)
{
    free(text);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    return -1;
}

int mlp_load_csv(const char *path, mlp_data *d, rn_error *err)
{
    memset(d, 0, sizeof *d);
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err->msg, sizeof err->msg, "%s: cannot open the data set: %s", path,
                 strerror(errno));
        return -1;
    }
    size_t cap = 1 << 16, len = 0;
    char *text = (char *)malloc(cap);
    for (;;) {
        if (!text) {
            fclose(f);
            snprintf(err->msg, sizeof err->msg, "%s: out of memory reading the data set", path);
            return -1;
        }
        len += fread(text + len, 1, cap - len, f);
        if (len < cap)
            break;
        cap *= 2;
        char *t = (char *)realloc(text, cap);
        if (!t)
            free(text);
        text = t;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad)
        return load_fail(text, err, "%s: cannot read the data set", path);
    const char *end = text + len;
    /* pass 1: the header and the number of data rows */
    const char *next = text, *s, *e;
    long line = 0, rows = 0;
    int ncols = 0;
    while (next_line(&next, end, &s, &e)) {
        line++;
        if (line == 1) {
            ncols = mlp_count_fields(s, e);
            const char *p = s, *fb, *fe;
            int numeric = 0;
            double v;
            while (mlp_next_field(&p, e, &fb, &fe))
                numeric += mlp_field_number(fb, fe, &v) == 0;
            if (mlp_blank(s, e))
                ncols = 0;
            if (ncols < 2)
                return load_fail(text, err,
                                 "%s:1: expected a header of at least 2 columns (features..., "
                                 "label), got %d",
                                 path, ncols);
            if (numeric == ncols)
                return load_fail(
                    text, err, "%s:1: the first line must be a header (column names), not numbers",
                    path);
        } else if (!mlp_blank(s, e)) {
            rows++;
        }
    }
    if (line == 0)
        return load_fail(text, err, "%s: empty file (expected a header line, then data rows)",
                         path);
    if (rows == 0)
        return load_fail(text, err, "%s: no data rows after the header", path);
    if (rows > MLP_MAX_ROWS)
        return load_fail(text, err, "%s: %ld data rows: more than the limit of %ld", path, rows,
                         MLP_MAX_ROWS);
    int features = ncols - 1;
    if (features > MLP_MAX_WIDTH)
        return load_fail(text, err, "%s:1: %d features: more than the limit of %d", path,
                         features, MLP_MAX_WIDTH);
    if (mlp_data_alloc(d, rows, features, err)) {
        free(text);
        return -1;
    }
    /* pass 2: the numbers */
    next = text;
    line = 0;
    long r = 0;
    int maxlabel = 0;
    while (next_line(&next, end, &s, &e)) {
        line++;
        if (line > 1 && !mlp_blank(s, e)) {
            int got = mlp_count_fields(s, e);
            if (got != ncols) {
                snprintf(err->msg, sizeof err->msg, "%s:%ld: expected %d numbers, got %d", path,
                         line, ncols, got);
                goto fail;
            }
            const char *p = s, *fb, *fe;
            for (int k = 0; k < ncols && mlp_next_field(&p, e, &fb, &fe); k++) {
                double v;
                int len1 = (int)(fe - fb) > 40 ? 40 : (int)(fe - fb);
                if (mlp_field_number(fb, fe, &v)) {
                    snprintf(err->msg, sizeof err->msg,
                             "%s:%ld: expected %d numbers, got '%.*s' in column %d%s", path, line,
                             ncols, len1, fb, k + 1, fb == fe ? " (an empty field)" : "");
                    goto fail;
                }
                if (k < features) {
                    d->x[(size_t)r * (size_t)features + (size_t)k] = (float)v;
                } else {
                    if (v < 0 || v != floor(v) || v >= MLP_MAX_CLASSES) {
                        snprintf(err->msg, sizeof err->msg,
                                 "%s:%ld: the label (column %d, the last) must be an integer "
                                 "from 0 to %d, got '%.*s'",
                                 path, line, ncols, MLP_MAX_CLASSES - 1, len1, fb);
                        goto fail;
                    }
                    d->y[r] = (int32_t)v;
                    if ((int)v > maxlabel)
                        maxlabel = (int)v;
                }
            }
            r++;
        }
    }
    free(text);
    d->classes = maxlabel + 1;
    return 0;
fail:
    free(text);
    mlp_data_free(d);
    return -1;
}

void mlp_config_free(mlp_config *c)
{
    mlp_data_free(&c->data);
}

int mlp_config_load(const rn_trial *t, mlp_config *c, rn_error *err)
{
    memset(c, 0, sizeof *c);
    if (t->dtype != RN_F32) {
        snprintf(err->msg, sizeof err->msg, "mlp_train: dtype %s is not supported (f32 only)",
                 rn_dtype_name(t->dtype));
        return RN_PREPARE_SKIP;
    }
    c->seed = t->seed;
    c->lr = rn_param_num(t, "lr", 1e-3);
    c->wd = rn_param_num(t, "weight_decay", 1e-4);
    double epochs = rn_param_num(t, "epochs", 100);
    if (t->size < 1) {
        snprintf(err->msg, sizeof err->msg,
                 "mlp_train: size (the batch size) must be at least 1, not %lld", t->size);
        return -1;
    }
    if (!(c->lr > 0) || !isfinite(c->lr)) {
        snprintf(err->msg, sizeof err->msg, "mlp_train: lr must be above 0, not %g", c->lr);
        return -1;
    }
    if (!(c->wd >= 0) || !isfinite(c->wd)) {
        snprintf(err->msg, sizeof err->msg, "mlp_train: weight_decay must be 0 or more, not %g",
                 c->wd);
        return -1;
    }
    if (!(epochs >= 1 && epochs <= 1e7) || epochs != floor(epochs)) {
        snprintf(err->msg, sizeof err->msg,
                 "mlp_train: epochs must be an integer from 1 to 10000000, not %g", epochs);
        return -1;
    }
    c->epochs = (int)epochs;
    const char *path = rn_param_text(t, "dataset", NULL);
    if (path && *path) {
        snprintf(c->source, sizeof c->source, "%s", path);
        if (mlp_load_csv(path, &c->data, err))
            return -1;
    } else {
        double rows = rn_param_num(t, "rows", 900), feats = rn_param_num(t, "features", 13);
        if (!(rows >= 1 && rows <= (double)MLP_MAX_ROWS) || rows != floor(rows)) {
            snprintf(err->msg, sizeof err->msg,
                     "mlp_train: rows must be an integer from 1 to %ld, not %g", MLP_MAX_ROWS,
                     rows);
            return -1;
        }
        if (!(feats >= 1 && feats <= MLP_MAX_WIDTH) || feats != floor(feats)) {
            snprintf(err->msg, sizeof err->msg,
                     "mlp_train: features must be an integer from 1 to %d, not %g", MLP_MAX_WIDTH,
                     feats);
            return -1;
        }
        snprintf(c->source, sizeof c->source, "synthetic %ld x %d", (long)rows, (int)feats);
        if (mlp_synthesize(&c->data, (long)rows, (int)feats, t->seed, err))
            return -1;
    }
    if (mlp_parse_layers(rn_param_text(t, "layers", MLP_DEFAULT_LAYERS), c->data.features,
                         c->data.classes, &c->net, err)) {
        mlp_config_free(c);
        return -1;
    }
    c->batch = t->size < c->data.rows ? (int)t->size : (int)c->data.rows;
    return 0;
}

int mlp_evaluate(const mlp_net *net, const float *p, const mlp_data *d, double *loss,
                 double *accuracy)
{
    double *a = (double *)malloc(2 * (size_t)net->maxw * sizeof(double));
    if (!a)
        return -1;
    double *b = a + net->maxw, total = 0;
    long right = 0;
    for (long r = 0; r < d->rows; r++) {
        const float *x = d->x + (size_t)r * (size_t)d->features;
        for (int j = 0; j < net->width[0]; j++)
            a[j] = x[j];
        double *in = a, *out = b;
        for (int l = 0; l + 1 < net->nw; l++) {
            int ni = net->width[l], no = net->width[l + 1];
            const float *W = p + net->woff[l], *bias = p + net->boff[l];
            for (int o = 0; o < no; o++)
                out[o] = bias[o];
            for (int i = 0; i < ni; i++) {
                double v = in[i];
                const float *w = W + (size_t)i * (size_t)no;
                for (int o = 0; o < no; o++)
                    out[o] += v * w[o];
            }
            if (l + 2 < net->nw)
                for (int o = 0; o < no; o++)
                    out[o] = out[o] > 0 ? out[o] : 0;
            double *t = in;
            in = out;
            out = t;
        }
        int c = net->width[net->nw - 1], best = 0;
        double mx = in[0];
        for (int o = 1; o < c; o++)
            if (in[o] > mx) {
                mx = in[o];
                best = o;
            }
        double s = 0;
        for (int o = 0; o < c; o++)
            s += exp(in[o] - mx);
        total += mx + log(s) - in[d->y[r]];
        right += best == d->y[r];
    }
    free(a);
    *loss = total / (double)d->rows;
    *accuracy = (double)right / (double)d->rows;
    return 0;
}

int mlp_check_loss(const mlp_config *c, double before, double after, rn_error *err)
{
    if (!isfinite(after)) {
        snprintf(err->msg, sizeof err->msg,
                 "mlp_train: the final training loss is %g (training diverged; try a smaller "
                 "lr than %g)",
                 after, c->lr);
        return -1;
    }
    if (!(after < before)) {
        snprintf(err->msg, sizeof err->msg,
                 "mlp_train: the training loss did not fall: %.6g before training, %.6g after "
                 "%d epochs (lr %g, %s)",
                 before, after, c->epochs, c->lr, c->source);
        return -1;
    }
    return 0;
}

void mlp_report(double loss, double accuracy, void *ctx,
                void (*cb)(void *ctx, const char *k, const char *v))
{
    char buf[64];
    snprintf(buf, sizeof buf, "%.6g", loss);
    cb(ctx, "loss", buf);
    snprintf(buf, sizeof buf, "%.6g", accuracy);
    cb(ctx, "accuracy", buf);
}
