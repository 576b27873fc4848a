/* cnn_model.c - see cnn_model.h: the network's shape and parameters, its
 * plain-loop reference forward pass, and the comparison of a result with it
 * (compiled into the CPU backend, and as host code into the CUDA one). */
#include "cnn_model.h"

int cnn_config(const rn_trial *t, cnn_cfg *c, rn_error *err)
{
    memset(c, 0, sizeof *c);
    double depth = rn_param_num(t, "depth", 20), width = rn_param_num(t, "width", 16),
           image = rn_param_num(t, "image", 32), channels = rn_param_num(t, "channels", 3),
           classes = rn_param_num(t, "classes", 10);
    if (!(depth >= 0 && depth < 1e9) || cnn_depth_ok((long long)depth) || depth != floor(depth)) {
        snprintf(err->msg, sizeof err->msg,
                 "cnn_forward: depth %g is not 6n + 2 between 8 and %d (8, 14, 20, 26, 32, "
                 "44, 56, 110, ...)",
                 depth, CNN_MAX_DEPTH);
        return -1;
    }
    if (!(width >= 1 && width <= CNN_MAX_WIDTH) || !(image >= 1 && image <= CNN_MAX_IMAGE) ||
        !(channels >= 1 && channels <= CNN_MAX_CHANNELS) ||
        !(classes >= 1 && classes <= CNN_MAX_CLASSES)) {
        snprintf(err->msg, sizeof err->msg,
                 "cnn_forward: width %g, image %g, channels %g or classes %g is out of range",
                 width, image, channels, classes);
        return -1;
    }
    if (t->size < 1 || t->size > (1LL << 24)) {
        snprintf(err->msg, sizeof err->msg,
                 "cnn_forward: size (the batch) = %lld must be between 1 and %d", t->size,
                 1 << 24);
        return -1;
    }
    c->depth = (int)depth;
    c->blocks = (c->depth - 2) / 6;
    c->width = (int)width;
    c->image = (int)image;
    c->channels = (int)channels;
    c->classes = (int)classes;
    c->batch = t->size;
    c->dtype = t->dtype;
    c->amp = rn_param_num(t, "amp", 0) != 0;
    return 0;
}

int cnn_next(const cnn_cfg *c, cnn_cursor *k, cnn_conv *v)
{
    if (k->done)
        return -1;
    memset(v, 0, sizeof *v);
    v->add = -1;
    if (!k->started) { /* the stem: images (buffer 0) -> buffer 1 */
        k->started = 1;
        *v = (cnn_conv){c->channels, c->width, 3, 1, 1, c->image, c->image, 1, 0, 1, -1,
                        0, 0, 0};
        v->boff = (size_t)c->width * (size_t)c->channels * 9;
        k->off = v->boff + (size_t)c->width;
        k->x = 1;
        k->c = c->width;
        k->side = c->image;
        k->part = 0;
        return 0;
    }
    for (;;) {
        if (k->stage >= 3) {
            k->done = 1;
            return -1;
        }
        int down = k->stage > 0 && k->block == 0;
        int cout = c->width << k->stage, stride = down ? 2 : 1;
        int side_out = cnn_out_side(k->side, stride);
        if (k->part == 0) {
            /* buffers for this block: the first three that are not x */
            int f[3], n = 0;
            for (int b = 1; b <= 4 && n < 3; b++)
                if (b != k->x)
                    f[n++] = b;
            k->h = f[0];
            k->y = f[1];
            k->s = f[2];
            k->part = 1;
            if (down) {
                *v = (cnn_conv){k->c, cout, 1, 2, 0, k->side, side_out, 0, k->x, k->s, -1,
                                0, 0, 0};
                break;
            }
            continue;
        }
        if (k->part == 1) {
            *v = (cnn_conv){k->c, cout, 3, stride, 1, k->side, side_out, 1, k->x, k->h, -1,
                            0, 0, 0};
            k->part = 2;
            break;
        }
        /* part 2: conv2 + shortcut, then on to the next block */
        *v = (cnn_conv){cout, cout, 3, 1, 1, side_out, side_out, 1, k->h, k->y,
                        down ? k->s : k->x, 0, 0, 1};
        k->x = k->y;
        k->c = cout;
        k->side = side_out;
        k->part = 0;
        if (++k->block == c->blocks) {
            k->block = 0;
            k->stage++;
        }
        break;
    }
    v->woff = k->off;
    v->boff = v->woff + (size_t)v->cout * (size_t)v->cin * (size_t)v->k * (size_t)v->k;
    k->off = v->boff + (size_t)v->cout;
    return 0;
}

/* What one walk over the convolutions tells: the last one's output buffer,
 * the offset after its parameters (where the linear layer's start) and the
 * multiply-adds of one image. */
typedef struct cnn_walk_sum {
    int last;
    size_t end;
    double macs;
} cnn_walk_sum;

static cnn_walk_sum cnn_walk(const cnn_cfg *c)
{
    cnn_cursor k;
    cnn_conv v;
    cnn_walk_sum w = {1, 0, 0};
    cnn_start(&k);
    while (cnn_next(c, &k, &v) == 0) {
        w.last = v.dst;
        w.macs += (double)v.cout * v.cin * v.k * v.k * (double)v.hout * v.hout;
    }
    w.end = k.off;
    return w;
}

int cnn_last_buffer(const cnn_cfg *c)
{
    return cnn_walk(c).last;
}

int cnn_conv_count(const cnn_cfg *c)
{
    return 6 * c->blocks + 3;
}

void cnn_param_layout(const cnn_cfg *c, size_t *fc_w, size_t *fc_b, size_t *total)
{
    *fc_w = cnn_walk(c).end;
    *fc_b = *fc_w + (size_t)c->classes * (size_t)cnn_features(c);
    *total = *fc_b + (size_t)c->classes;
}

double cnn_macs_per_image(const cnn_cfg *c)
{
    return cnn_walk(c).macs + (double)cnn_features(c) * c->classes;
}

double cnn_max_activation(const cnn_cfg *c)
{
    cnn_cursor k;
    cnn_conv v;
    double m = (double)c->channels * c->image * c->image;
    cnn_start(&k);
    while (cnn_next(c, &k, &v) == 0) {
        double e = (double)v.cout * v.hout * v.hout;
        m = e > m ? e : m;
    }
    return m;
}

void cnn_init_params(const cnn_cfg *c, uint64_t seed, float *p)
{
    cnn_cursor k;
    cnn_conv v;
    cnn_start(&k);
    while (cnn_next(c, &k, &v) == 0) {
        size_t fan = (size_t)v.cin * v.k * v.k;
        double a = sqrt(6.0 / (double)fan);
        for (int o = 0; o < v.cout; o++) {
            double u = rn_uniform(seed, CNN_STREAM_PARAMS, v.boff + (size_t)o);
            double sv = rn_uniform(seed, CNN_STREAM_SCALES, v.boff + (size_t)o);
            double scale = v.scale_small ? 0.2 + 0.2 * sv : 0.5 + 0.5 * sv;
            for (size_t j = 0; j < fan; j++) {
                size_t i = v.woff + (size_t)o * fan + j;
                p[i] = (float)((2.0 * rn_uniform(seed, CNN_STREAM_PARAMS, i) - 1.0) * a * scale);
            }
            p[v.boff + (size_t)o] = (float)(0.2 * u - 0.1);
        }
    }
    size_t fw, fb, total;
    cnn_param_layout(c, &fw, &fb, &total);
    double a = sqrt(1.0 / (double)cnn_features(c));
    for (size_t i = fw; i < fb; i++)
        p[i] = (float)((2.0 * rn_uniform(seed, CNN_STREAM_PARAMS, i) - 1.0) * a);
    for (size_t i = fb; i < total; i++)
        p[i] = (float)(0.2 * rn_uniform(seed, CNN_STREAM_PARAMS, i) - 0.1);
}

int cnn_reference(const cnn_cfg *c, const float *p, const float *images,
                  long long b, rn_dtype emulate, double *logits)
{
    int round = emulate == RN_F16 || emulate == RN_BF16;
    size_t most = (size_t)cnn_max_activation(c);
    double *buf[5];
    int ok = 1;
    for (int i = 0; i < 5; i++)
        ok &= (buf[i] = (double *)malloc(most * sizeof(double))) != NULL;
    double *w = NULL;
    size_t fw, fb, total;
    cnn_param_layout(c, &fw, &fb, &total);
    ok = ok && (w = (double *)malloc(total * sizeof(double))) != NULL;
    if (!ok) {
        for (int i = 0; i < 5; i++)
            free(buf[i]);
        free(w);
        return -1;
    }
    for (size_t i = 0; i < total; i++)
        w[i] = round ? cnn_round(p[i], emulate) : (double)p[i];
    size_t per = (size_t)c->channels * c->image * c->image;
    for (size_t i = 0; i < per; i++)
        buf[0][i] = round ? cnn_round(images[(size_t)b * per + i], emulate)
                          : (double)images[(size_t)b * per + i];
    cnn_cursor k;
    cnn_conv v;
    cnn_start(&k);
    while (cnn_next(c, &k, &v) == 0) {
        const double *x = buf[v.src], *add = v.add >= 0 ? buf[v.add] : NULL;
        double *y = buf[v.dst];
        int H = v.hin, O = v.hout;
        for (int o = 0; o < v.cout; o++) {
            double *yo = y + (size_t)o * O * O;
            for (int i = 0; i < O * O; i++)
                yo[i] = 0;
            for (int ci = 0; ci < v.cin; ci++) {
                const double *xc = x + (size_t)ci * H * H;
                for (int ky = 0; ky < v.k; ky++)
                    for (int kx = 0; kx < v.k; kx++) {
                        double wv = w[v.woff + (((size_t)o * v.cin + ci) * v.k + ky) * v.k + kx];
                        for (int oy = 0; oy < O; oy++) {
                            int iy = oy * v.stride + ky - v.pad;
                            if (iy < 0 || iy >= H)
                                continue;
                            for (int ox = 0; ox < O; ox++) {
                                int ix = ox * v.stride + kx - v.pad;
                                if (ix >= 0 && ix < H)
                                    yo[oy * O + ox] += wv * xc[iy * H + ix];
                            }
                        }
                    }
            }
            double bias = w[v.boff + (size_t)o];
            for (int i = 0; i < O * O; i++) {
                double r = yo[i] + bias;
                if (add)
                    r += add[(size_t)o * O * O + i];
                if (v.relu && r < 0)
                    r = 0;
                yo[i] = round ? cnn_round(r, emulate) : r;
            }
        }
    }
    const double *last = buf[cnn_last_buffer(c)];
    int F = cnn_features(c), S = cnn_final_side(c);
    double *pooled = buf[0]; /* the images are no longer needed */
    for (int f = 0; f < F; f++) {
        double s = 0;
        for (int i = 0; i < S * S; i++)
            s += last[(size_t)f * S * S + i];
        s /= (double)S * S;
        pooled[f] = round ? cnn_round(s, emulate) : s;
    }
    for (int j = 0; j < c->classes; j++) {
        double s = w[fb + (size_t)j];
        for (int f = 0; f < F; f++)
            s += w[fw + (size_t)j * F + f] * pooled[f];
        logits[j] = round ? cnn_round(s, emulate) : s;
    }
    for (int i = 0; i < 5; i++)
        free(buf[i]);
    free(w);
    return 0;
}

int cnn_checked_images(long long batch, long long out[3])
{
    int n = 0;
    out[n++] = 0;
    if (batch > 2)
        out[n++] = batch / 2;
    if (batch > 1)
        out[n++] = batch - 1;
    return n;
}

int cnn_compare(const cnn_cfg *c, long long b, const double *got,
                const double *ref, double *worst, rn_error *err)
{
    double m = 0;
    for (int j = 0; j < c->classes; j++)
        m = fabs(ref[j]) > m ? fabs(ref[j]) : m;
    double tol = cnn_tolerance(c->dtype);
    for (int j = 0; j < c->classes; j++) {
        double e = m > 0 ? fabs(got[j] - ref[j]) / m : fabs(got[j] - ref[j]);
        *worst = e > *worst || e != e ? e : *worst;
        if (!(e <= tol)) { /* NaN fails */
            snprintf(err->msg, sizeof err->msg,
                     "cnn_forward: logit [%lld][%d] = %.9g but the reference is %.9g (error "
                     "%.2e of the image's largest |logit| %.4g > %.1e, %s%s)",
                     b, j, got[j], ref[j], e, m, tol, rn_dtype_name(c->dtype),
                     c->amp ? " amp" : "");
            return -1;
        }
    }
    return 0;
}

double cnn_memory_bytes(const cnn_cfg *c)
{
    size_t fw, fb, total;
    cnn_param_layout(c, &fw, &fb, &total);
    double es = (double)rn_dtype_size(c->dtype);
    double act = cnn_max_activation(c) * (double)c->batch;
    return 8.0 * (double)total + 5.0 * act * es + (double)(48u << 20) + act * 4.0;
}
