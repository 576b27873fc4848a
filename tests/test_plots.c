/* test_plots.c - charts (gnuplot), report.md, `runner plot` and `runner
 * report`, from the hand-made run in tests/fixtures/matmul_run (CPU and CUDA
 * trials, one failed, one timed out, two skipped, one noisy).  Each test
 * works on its own copy of the fixture. */
#include "experiment/config.h"
#include "report/plot_crossover.h"
#include "report/plot_gp.h"
#include "report/plot_model.h"
#include "report/plot_render.h"
#include "report/plots.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* --- helpers ---------------------------------------------------------- */

static const char *root(void)
{
    const char *r = getenv("RUNNER_ROOT");
    return r && *r ? r : ".";
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0, got;
    char *buf = malloc(cap + 1);
    while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap)
            buf = realloc(buf, (cap *= 2) + 1);
    }
    fclose(f);
    buf[n] = '\0';
    if (len)
        *len = n;
    return buf;
}

static void spit(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "cannot write %s", path);
    fputs(text, f);
    fclose(f);
}

static char *tmpdir(void)
{
    char tmpl[] = "/tmp/runner-plots-XXXXXX";
    char *d = mkdtemp(tmpl);
    cr_assert_not_null(d);
    return strdup(d);
}

/* A copy of the fixture run in a new folder (or in `dir` when given). */
static char *fixture_copy(const char *dir)
{
    char *d = dir ? strdup(dir) : tmpdir();
    mkdir(d, 0777);
    static const char *const files[] = {"trials.csv", "samples.csv", "meta.json",
                                        "experiment.yaml"};
    for (int i = 0; i < 4; i++) {
        char src[4096], dst[4096];
        snprintf(src, sizeof src, "%s/tests/fixtures/matmul_run/%s", root(), files[i]);
        snprintf(dst, sizeof dst, "%s/%s", d, files[i]);
        size_t n;
        char *text = slurp(src, &n);
        cr_assert_not_null(text, "fixture file %s is missing", src);
        FILE *f = fopen(dst, "wb");
        cr_assert_not_null(f);
        fwrite(text, 1, n, f);
        fclose(f);
        free(text);
    }
    return d;
}

static int exists(const char *dir, const char *name)
{
    char p[4096];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    return access(p, F_OK) == 0;
}

static void assert_png(const char *dir, const char *stem)
{
    static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    char p[4096];
    snprintf(p, sizeof p, "%s/plots/%s.png", dir, stem);
    size_t n = 0;
    char *b = slurp(p, &n);
    cr_assert_not_null(b, "%s was not written", p);
    cr_assert(n > 8 && !memcmp(b, sig, 8), "%s is not a PNG", p);
    free(b);
}

static void assert_svg(const char *dir, const char *stem)
{
    char p[4096];
    snprintf(p, sizeof p, "%s/plots/%s.svg", dir, stem);
    char *b = slurp(p, NULL);
    cr_assert_not_null(b, "%s was not written", p);
    cr_assert(!strncmp(b, "<?xml", 5) || strstr(b, "<svg"), "%s is not an SVG", p);
    free(b);
}

static void assert_chart(const char *dir, const char *stem)
{
    assert_png(dir, stem);
    assert_svg(dir, stem);
    char p[4096];
    snprintf(p, sizeof p, "plots/%s.gp", stem);
    cr_assert(exists(dir, p), "%s/%s (the chart's script) is missing", dir, p);
}

static char *file_in(const char *dir, const char *name)
{
    char p[4096];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    return slurp(p, NULL);
}

static experiment *parse(const char *text)
{
    diags d = {0};
    experiment *e = experiment_parse("test.yaml", text, strlen(text), &d);
    if (!e)
        diag_print(&d, stderr);
    diag_free(&d);
    cr_assert_not_null(e, "the test's experiment does not parse");
    return e;
}

static experiment *load_fixture_experiment(const char *dir)
{
    char p[4096];
    snprintf(p, sizeof p, "%s/experiment.yaml", dir);
    diags d = {0};
    experiment *e = experiment_load(p, &d);
    if (!e)
        diag_print(&d, stderr);
    diag_free(&d);
    cr_assert_not_null(e, "the fixture's experiment.yaml does not load");
    return e;
}

typedef struct proc {
    int status;
    char err[65536];
} proc;

/* Runs the runner binary (RUNNER_BIN) in `cwd` with args; env: "K=V" or NULL. */
static void run_bin(proc *p, const char *cwd, const char *env, char *const args[])
{
    const char *bin = getenv("RUNNER_BIN");
    cr_assert(bin, "RUNNER_BIN is not set (run through make test)");
    int e[2];
    cr_assert_eq(pipe(e), 0);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(e[1], 2);
        int nul = open("/dev/null", O_WRONLY);
        dup2(nul, 1);
        close(e[0]);
        if (cwd && chdir(cwd) < 0)
            _exit(126);
        if (env)
            putenv((char *)env);
        char *argv[32];
        int n = 0;
        argv[n++] = (char *)bin;
        for (int i = 0; args[i] && n < 31; i++)
            argv[n++] = args[i];
        argv[n] = NULL;
        execv(bin, argv);
        _exit(127);
    }
    close(e[1]);
    size_t len = 0;
    ssize_t r;
    while (len + 1 < sizeof p->err && (r = read(e[0], p->err + len, sizeof p->err - 1 - len)) > 0)
        len += (size_t)r;
    p->err[len] = '\0';
    close(e[0]);
    int st;
    waitpid(pid, &st, 0);
    p->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* --- the crossover finder ------------------------------------------- */

Test(crossover, one_crossing_from_below)
{
    double x[] = {16, 32, 64, 128, 256, 512};
    double s[] = {0.1, 0.2, 0.5, 0.9, 2.5, 8};
    crossing c[4];
    int n = find_crossings(x, s, 6, c, 4);
    cr_assert_eq(n, 1);
    cr_assert_eq(c[0].faster, 1);
    cr_assert_eq(c[0].x, 256);
    cr_assert_eq(c[0].x_prev, 128);
    cr_assert(c[0].x_cross > 128 && c[0].x_cross < 256, "crossing at %g", c[0].x_cross);
}

Test(crossover, none)
{
    double x[] = {1, 2, 4, 8};
    double below[] = {0.1, 0.5, 0.9, 0.99};
    double above[] = {1.5, 3, 9, 40};
    cr_assert_eq(find_crossings(x, below, 4, NULL, 0), 0);
    cr_assert_eq(find_crossings(x, above, 4, NULL, 0), 0);
    cr_assert_eq(find_crossings(x, above, 0, NULL, 0), 0);
    cr_assert_eq(find_crossings(x, above, 1, NULL, 0), 0);
}

Test(crossover, two_crossings)
{
    /* faster in the middle only: crosses up, then back down */
    double x[] = {1, 2, 4, 8, 16, 32};
    double s[] = {0.5, 0.8, 1.6, 3, 1.2, 0.7};
    crossing c[4];
    int n = find_crossings(x, s, 6, c, 4);
    cr_assert_eq(n, 2);
    cr_assert_eq(c[0].faster, 1);
    cr_assert_eq(c[0].x, 4);
    cr_assert_eq(c[1].faster, 0);
    cr_assert_eq(c[1].x, 32);
    cr_assert_eq(c[1].x_prev, 16);
    /* more crossings than room: counts them all, writes what fits */
    crossing one[1];
    cr_assert_eq(find_crossings(x, s, 6, one, 1), 2);
    cr_assert_eq(one[0].x, 4);
}

Test(crossover, skips_missing_points_and_exact_one)
{
    double x[] = {1, 2, 4, 8, 16};
    double s[] = {0.5, NAN, 1.0, -3, 2.0};
    crossing c[2];
    int n = find_crossings(x, s, 5, c, 2);
    cr_assert_eq(n, 1); /* 1.0 is "not faster"; NAN and -3 are skipped */
    cr_assert_eq(c[0].x, 16);
    cr_assert_eq(c[0].x_prev, 4);
}

Test(crossover, needs_the_minimum_effect_beyond_the_intervals)
{
    /* 1.017x faster at 4 is no crossing; 1.3x at 8 is one */
    double x[] = {1, 2, 4, 8};
    double s[] = {0.5, 0.8, 1.017, 1.3};
    crossing c[4];
    cr_assert_eq(find_crossings(x, s, 4, NULL, 0), 1);
    cr_assert_eq(find_clear_crossings(x, s, NULL, NULL, 4, CROSSOVER_MIN_EFFECT, c, 4), 1);
    cr_assert_eq(c[0].x, 8);
    cr_assert_eq(c[0].x_prev, 2);
    /* the intervals: 1.3x whose interval reaches 1.02 is not clear either */
    double lo[] = {0.45, 0.7, 0.9, 1.02}, hi[] = {0.55, 0.9, 1.1, 1.5};
    cr_assert_eq(find_clear_crossings(x, s, lo, hi, 4, CROSSOVER_MIN_EFFECT, c, 4), 0);
    /* a slower point whose interval reaches 0.96 is not clearly slower */
    double lo2[] = {0.45, 0.7, 0.9, 1.2}, hi2[] = {0.96, 0.9, 1.1, 1.5};
    cr_assert_eq(find_clear_crossings(x, s, lo2, hi2, 4, CROSSOVER_MIN_EFFECT, c, 4), 1);
    cr_assert_eq(c[0].x_prev, 2);
    cr_assert_eq(CROSSOVER_MIN_EFFECT, 0.05);
}

/* --- tidy numbers ------------------------------------------------------ */

Test(numbers, sizes_in_engineering_style)
{
    static const struct {
        double v;
        const char *want;
    } cases[] = {{16, "16"},          {1024, "1024"},       {9999, "9999"},
                 {16384, "2^14"},     {4194304, "2^22"},    {4194303, "4.19M"},
                 {10000, "10k"},      {26400, "26.4k"},     {999999, "1M"},
                 {1.5e9, "1.5G"},     {0.5, "0.5"},         {2.345, "2.35"},
                 {-4194304, "-2^22"}, {57.1699, "57.2"},    {3e15, "3P"}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char t[32];
        pm_fmt_num(t, sizeof t, cases[i].v);
        cr_assert_str_eq(t, cases[i].want, "%.17g", cases[i].v);
    }
}

Test(numbers, ratios_with_three_significant_digits)
{
    static const struct {
        double v;
        const char *want;
    } cases[] = {{26412.7, "26400"}, {2.6412, "2.64"}, {103.4, "103"}, {1.017, "1.02"},
                 {0.0123456, "0.0123"}, {1234567, "1230000"}, {0.00001234, "0.0000123"},
                 {1, "1"}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char t[32];
        pm_fmt_ratio(t, sizeof t, cases[i].v);
        cr_assert_str_eq(t, cases[i].want, "%.17g", cases[i].v);
    }
}

/* --- quoting ---------------------------------------------------------- */

Test(gnuplot_text, quotes_concatenated_newlines_flattened)
{
    strbuf b = {0};
    gp_quote(&b, "it's `x` \"y\"\nEOD\r\\", 0);
    cr_assert_str_eq(b.s, "'it'.\"'\".'s `x` \"y\" EOD \\'");
    sb_free(&b);
    gp_quote(&b, "''a''", 0);
    cr_assert_str_eq(b.s, "''.\"'\".''.\"'\".'a'.\"'\".''.\"'\".''");
    sb_free(&b);
    gp_quote(&b, "bad \xff utf8 \xc3\xa9", 0);
    cr_assert_str_eq(b.s, "'bad ? utf8 \xc3\xa9'");
    sb_free(&b);
    gp_quote(&b, "0123456789", 4);
    cr_assert_str_eq(b.s, "'0123...'");
    sb_free(&b);
    char *c = gp_clean("EOD", 0);
    cr_assert_str_neq(c, "EOD");
    free(c);
    c = gp_clean("a\nEOD\nb", 0);
    cr_assert_null(strchr(c, '\n'));
    free(c);
}

/* --- charts ------------------------------------------------------------ */

Test(plots, default_charts_from_the_fixture)
{
    char *d = fixture_copy(NULL);
    experiment *e = load_fixture_experiment(d);
    int n = plots_render_run(d, e, 1, NULL);
    cr_assert_eq(n, 4, "drew %d charts", n);
    assert_chart(d, "time");
    assert_chart(d, "speedup");
    assert_chart(d, "throughput");
    assert_chart(d, "breakdown");
    cr_assert(!exists(d, "plots/bar.png"));
    /* time: exactly the CPU / GPU / GPU no IO curves (a linked axis counts once) */
    char *gp = file_in(d, "plots/time.gp");
    cr_assert(strstr(gp, "title 'CPU'") && strstr(gp, "title 'GPU'") &&
              strstr(gp, "title 'GPU no IO'"));
    cr_assert_null(strstr(gp, "$s3"), "more curves than CPU / GPU / GPU no IO");
    cr_assert_null(strstr(gp, "device=cuda"));
    cr_assert(strstr(gp, "set logscale x 2") && strstr(gp, "set logscale y"), "not log-log");
    cr_assert(strstr(gp, "yerrorlines"), "no min..max error bars");
    free(gp);
    gp = file_in(d, "plots/speedup.gp");
    /* speedup: crossings marked, a line at 1, the CPU curve not drawn */
    cr_assert(strstr(gp, "'GPU faster from n = 256'"), "no crossover label:\n%s", gp);
    /* 1.01x faster at 64: within the minimum effect, marked from 128 */
    cr_assert(strstr(gp, "'GPU no IO faster from n = 128'"), "%s", gp);
    cr_assert(strstr(gp, "1 with lines"));
    cr_assert_null(strstr(gp, "title 'CPU'"));
    free(gp);
    /* failed and skipped trials are left out, not drawn as zeros: one data
     * line per ok trial (23 of 27) */
    gp = file_in(d, "plots/time.gp");
    int lines = 0, in = 0;
    for (char *l = strtok(gp, "\n"); l; l = strtok(NULL, "\n")) {
        if (strstr(l, " << EOD"))
            in = 1;
        else if (!strcmp(l, "EOD"))
            in = 0;
        else if (in) {
            lines++;
            cr_assert_null(strstr(l, " 0 "), "a zero in '%s'", l);
        }
    }
    cr_assert_eq(lines, 23);
    free(gp);
    experiment_free(e);
    free(d);
}

Test(plots, same_colour_for_a_series_on_every_chart)
{
    char *d = fixture_copy(NULL);
    experiment *e = load_fixture_experiment(d);
    cr_assert_eq(plots_render_run(d, e, 1, NULL), 4);
    const char *charts[] = {"plots/time.gp", "plots/speedup.gp", "plots/throughput.gp"};
    char colour[3][16] = {{0}};
    for (int i = 0; i < 3; i++) {
        char *gp = file_in(d, charts[i]);
        /* the style of the 'GPU' curve: "... lc rgb '#XXXXXX' ... title 'GPU' noenhanced" */
        char *t = strstr(gp, "title 'GPU' noenhanced");
        cr_assert_not_null(t, "%s has no GPU curve", charts[i]);
        char *lc = NULL;
        for (char *p = gp; (p = strstr(p, "lc rgb '")) && p < t; p++)
            lc = p;
        cr_assert_not_null(lc);
        memcpy(colour[i], lc + 8, 7);
        free(gp);
    }
    cr_assert_str_eq(colour[0], colour[1]);
    cr_assert_str_eq(colour[0], colour[2]);
    experiment_free(e);
    free(d);
}

static const char every_type[] =
    "name: matmul\n"
    "workload: matmul\n"
    "params: {dtype: f32}\n"
    "sweep:\n"
    "  target:\n"
    "    - {label: CPU, device: cpu}\n"
    "    - {label: GPU, device: cuda, io: with}\n"
    "    - {label: GPU no IO, device: cuda, io: without}\n"
    "  size: {pow2: [4, 12]}\n"
    "plots:\n"
    "  - {name: l, type: line, x: size, y: mean, series: [target], where: {size: {min: 64}},\n"
    "     logx: true, logy: false, title: Mean time}\n"
    "  - {name: s, type: speedup, baseline: {device: cpu}, logy: true}\n"
    "  - {name: t, type: throughput, y: gflops}\n"
    "  - {name: b, type: breakdown}\n"
    "  - {name: c, type: bar, x: target, series: size, where: {size: [256, 1024]}}\n";

Test(plots, every_chart_type)
{
    char *d = fixture_copy(NULL);
    experiment *e = parse(every_type);
    cr_assert_eq(plots_render_run(d, e, 1, NULL), 5);
    const char *stems[] = {"l", "s", "t", "b", "c"};
    for (int i = 0; i < 5; i++)
        assert_chart(d, stems[i]);
    char *gp = file_in(d, "plots/l.gp");
    cr_assert(strstr(gp, "'Mean time'"));
    cr_assert_null(strstr(gp, "\n32 "), "where: size >= 64 kept size 32");
    cr_assert_null(strstr(gp, "set logscale y"), "logy: false ignored");
    free(gp);
    gp = file_in(d, "plots/c.gp");
    cr_assert(strstr(gp, "title 'size=256'") && strstr(gp, "title 'size=1024'"));
    cr_assert(strstr(gp, "'GPU no IO'"), "the categories are not the x tics");
    free(gp);
    experiment_free(e);
    free(d);
}

/* Keeps the fixture's rows of one size: no numeric swept key is left. */
Test(plots, bar_chart_when_x_is_categorical)
{
    char *d = fixture_copy(NULL);
    char p[4096];
    snprintf(p, sizeof p, "%s/trials.csv", d);
    char *all = slurp(p, NULL);
    FILE *f = fopen(p, "w");
    int line = 0;
    for (char *s = strtok(all, "\n"); s; s = strtok(NULL, "\n"), line++)
        if (line == 0 || strstr(s, ",256,matmul,"))
            fprintf(f, "%s\n", s);
    fclose(f);
    free(all);
    experiment *e = parse("name: matmul\nworkload: matmul\nsize: 256\n"
                          "sweep:\n  target:\n    - {label: CPU, device: cpu}\n"
                          "    - {label: GPU, device: cuda, io: with}\n"
                          "    - {label: GPU no IO, device: cuda, io: without}\n");
    int n = plots_render_run(d, e, 1, NULL);
    cr_assert(n >= 1);
    assert_chart(d, "bar");
    cr_assert(!exists(d, "plots/time.png"), "a time chart over a categorical x");
    experiment_free(e);
    free(d);
}

/* Titles and series labels reach gnuplot as data: nothing in them runs. */
Test(plots, injection_in_titles_and_labels_runs_nothing)
{
    char *d = fixture_copy(NULL);
    char yaml[8192];
    snprintf(yaml, sizeof yaml,
             "name: matmul\n"
             "workload: matmul\n"
             "sweep:\n"
             "  target:\n"
             "    - {label: CPU, device: cpu}\n"
             "    - {label: GPU, device: cuda, io: with}\n"
             "    - {label: GPU no IO, device: cuda, io: without}\n"
             "  size: {pow2: [4, 12]}\n"
             "plots:\n"
             "  - name: a\n"
             "    title: \"x' . system(\\\"touch %s/M1\\\") . '\"\n"
             "  - name: b\n"
             "    title: \"`touch %s/M2` @mac \\\\ \\\"; set output '/tmp/x'\\nEOD\\nsystem('touch "
             "%s/M3')\"\n"
             "  - name: c\n"
             "    type: speedup\n"
             "    baseline: {device: cpu}\n"
             "    title: \"'; system('touch %s/M4'); '\"\n",
             d, d, d, d);
    experiment *e = parse(yaml);
    /* a series label with the same tricks, through trials.csv */
    char p[4096];
    snprintf(p, sizeof p, "%s/trials.csv", d);
    char *csv = slurp(p, NULL);
    char label[2048];
    snprintf(label, sizeof label,
             "\"GPU' . system(\"\"touch %s/M5\"\") . '`touch %s/M6`;\nEOD\n@x \\\"", d, d);
    FILE *f = fopen(p, "w");
    for (char *s = csv; *s;) {
        if (!strncmp(s, "GPU no IO,", 10)) {
            fputs(label, f);
            s += 9;
        } else {
            fputc(*s++, f);
        }
    }
    fclose(f);
    free(csv);
    int n = plots_render_run(d, e, 1, NULL);
    cr_assert_eq(n, 3, "drew %d charts", n);
    assert_png(d, "a");
    assert_png(d, "b");
    assert_png(d, "c");
    static const char *const markers[] = {"M1", "M2", "M3", "M4", "M5", "M6"};
    for (int i = 0; i < 6; i++) {
        char m[64];
        cr_assert(!exists(d, markers[i]), "marker %s exists: a title ran a command", markers[i]);
        snprintf(m, sizeof m, "plots/%s", markers[i]);
        cr_assert(!exists(d, m), "marker %s exists: a title ran a command", markers[i]);
    }
    /* every datablock line "EOD" is one the runner wrote */
    char *gp = file_in(d, "plots/c.gp");
    int blocks = 0, ends = 0;
    for (char *s = gp; (s = strstr(s, " << EOD\n")); s++)
        blocks++;
    for (char *s = gp; (s = strstr(s, "\nEOD\n")); s++)
        ends++;
    cr_assert_eq(ends, blocks);
    free(gp);
    experiment_free(e);
    free(d);
}

Test(plots, missing_gnuplot_returns_cleanly)
{
    char *d = fixture_copy(NULL);
    experiment *e = load_fixture_experiment(d);
    setenv("RUNNER_GNUPLOT", "/nonexistent/gnuplot", 1);
    int n = plots_render_run(d, e, 1, NULL);
    unsetenv("RUNNER_GNUPLOT");
    cr_assert_eq(n, -1);
    cr_assert(exists(d, "plots/time.gp"), "the scripts should still be written");
    cr_assert(!exists(d, "plots/time.png"));
    cr_assert(exists(d, "trials.csv"));
    experiment_free(e);

    proc pr;
    run_bin(&pr, d, "RUNNER_GNUPLOT=/nonexistent/gnuplot", (char *[]){"plot", d, NULL});
    cr_assert_eq(pr.status, 1, "exit %d: %s", pr.status, pr.err);
    cr_assert(strstr(pr.err, "apt-get install gnuplot-nox"), "%s", pr.err);
    free(d);
}

static const char fixture_head[] =
    "name: matmul\nworkload: matmul\nsweep:\n  target:\n"
    "    - {label: CPU, device: cpu}\n"
    "    - {label: GPU, device: cuda, io: with}\n"
    "    - {label: GPU no IO, device: cuda, io: without}\n"
    "  size: {pow2: [4, 12]}\n";

/* The text of file_line_col errors for a file (NULL: it parsed). */
static char *parse_errors(const char *text)
{
    diags d = {0};
    experiment *e = experiment_parse("exp.yaml", text, strlen(text), &d);
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    diag_print(&d, m);
    fclose(m);
    diag_free(&d);
    if (e) {
        experiment_free(e);
        free(buf);
        return NULL;
    }
    return buf;
}

Test(plots, title_xlabel_ylabel_legend_reach_the_script)
{
    char *d = fixture_copy(NULL);
    char yaml[4096];
    snprintf(yaml, sizeof yaml,
             "%splots:\n"
             "  - {name: t, x: size, title: My title, xlabel: matrix side, ylabel: kernel time,\n"
             "     legend: top left}\n"
             "  - {name: s, type: speedup, baseline: {device: cpu}, ylabel: times faster,\n"
             "     legend: off}\n"
             "  - {name: g, type: throughput, legend: below}\n"
             "  - {name: plain}\n",
             fixture_head);
    experiment *e = parse(yaml);
    cr_assert_eq(plots_render_run(d, e, 1, NULL), 4);
    char *t = file_in(d, "plots/t.gp"), *sp = file_in(d, "plots/s.gp"),
         *g = file_in(d, "plots/g.gp"), *pl = file_in(d, "plots/plain.gp");
    cr_assert(strstr(t, "set title 'My title'"), "%s", t);
    cr_assert(strstr(t, "set xlabel 'matrix side'"), "%s", t);
    /* a time axis keeps the unit it is drawn in */
    cr_assert(strstr(t, "set ylabel 'kernel time (seconds)'") ||
                  strstr(t, "set ylabel 'kernel time (ms)'"), "%s", t);
    cr_assert(strstr(t, "set key inside left top noenhanced"), "%s", t);
    cr_assert(strstr(sp, "set ylabel 'times faster'"), "%s", sp);
    cr_assert(strstr(sp, "unset key"), "%s", sp);
    cr_assert(strstr(g, "set key below center horizontal noenhanced"), "%s", g);
    /* the defaults: outside right, labels from the columns */
    cr_assert_null(strstr(pl, "unset key"));
    cr_assert_null(strstr(pl, "set key inside"));
    cr_assert(strstr(pl, "set xlabel 'size (n of"), "%s", pl);
    free(t);
    free(sp);
    free(g);
    free(pl);
    experiment_free(e);
    free(d);
}

Test(plots, unknown_plot_key_has_a_did_you_mean)
{
    char yaml[4096];
    snprintf(yaml, sizeof yaml, "%splots:\n  - name: p\n    xlable: n\n    legnd: off\n",
             fixture_head);
    char *err = parse_errors(yaml);
    cr_assert_not_null(err);
    cr_assert(strstr(err, "exp.yaml:11:5: error: unknown key 'xlable' in a plot; did you mean "
                          "'xlabel'?"), "%s", err);
    cr_assert(strstr(err, "exp.yaml:12:5: error: unknown key 'legnd' in a plot; did you mean "
                          "'legend'?"), "%s", err);
    free(err);
}

Test(plots, legend_takes_a_position_or_off)
{
    char yaml[4096];
    snprintf(yaml, sizeof yaml, "%splots:\n  - {name: p, legend: top lef}\n", fixture_head);
    char *err = parse_errors(yaml);
    cr_assert_not_null(err);
    cr_assert(strstr(err, "exp.yaml:10:23: error: 'legend' must be right, below, top left, top "
                          "right, bottom left, bottom right or off, not 'top lef'; did you mean "
                          "'top left'?"), "%s", err);
    free(err);
    snprintf(yaml, sizeof yaml, "%splots:\n  - {name: p, legend: [a]}\n", fixture_head);
    err = parse_errors(yaml);
    cr_assert(err && strstr(err, "'legend' must be a position or off"), "%s", err);
    free(err);
    static const char *const ok[] = {"right", "below", "top left", "top right", "bottom left",
                                     "bottom right", "off", "\"off\""};
    for (int i = 0; i < 8; i++) {
        snprintf(yaml, sizeof yaml, "%splots:\n  - {name: p, legend: %s, xlabel: a, ylabel: b}\n",
                 fixture_head, ok[i]);
        err = parse_errors(yaml);
        cr_assert_null(err, "%s: %s", ok[i], err);
    }
    snprintf(yaml, sizeof yaml, "%splots:\n  - {name: p, xlabel: [a]}\n", fixture_head);
    err = parse_errors(yaml);
    cr_assert(err && strstr(err, "plot key 'xlabel' must be text"), "%s", err);
    free(err);
}

Test(plots, unknown_plot_column_is_a_file_line_col_error)
{
    const char *text = "name: m\nworkload: matmul\nsweep:\n  size: [1, 2]\n"
                       "plots:\n  - name: p\n    x: sizes\n";
    diags d = {0};
    experiment *e = experiment_parse("exp.yaml", text, strlen(text), &d);
    cr_assert_null(e);
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    diag_print(&d, m);
    fclose(m);
    cr_assert(strstr(buf, "exp.yaml:7:8: error: plot 'x': unknown column 'sizes'"), "%s", buf);
    free(buf);
    diag_free(&d);
}

/* --- runner plot / runner report --------------------------------------- */

Test(cmd_plot, rerenders_from_saved_results_only)
{
    char *d = fixture_copy(NULL);
    char *work = tmpdir();
    size_t n1, n2, s1, s2;
    char tp[4096], sp[4096];
    snprintf(tp, sizeof tp, "%s/trials.csv", d);
    snprintf(sp, sizeof sp, "%s/samples.csv", d);
    char *t1 = slurp(tp, &n1), *x1 = slurp(sp, &s1);
    proc pr;
    run_bin(&pr, work, NULL, (char *[]){"plot", d, NULL});
    cr_assert_eq(pr.status, 0, "exit %d: %s", pr.status, pr.err);
    assert_chart(d, "time");
    assert_chart(d, "speedup");
    char *t2 = slurp(tp, &n2), *x2 = slurp(sp, &s2);
    cr_assert(n1 == n2 && !memcmp(t1, t2, n1), "trials.csv changed");
    cr_assert(s1 == s2 && !memcmp(x1, x2, s1), "samples.csv changed");
    cr_assert(!exists(work, "results"), "plot started a run");
    free(t1);
    free(t2);
    free(x1);
    free(x2);
    free(work);
    free(d);
}

Test(cmd_plot, results_folder_means_each_latest_run)
{
    char *top = tmpdir();
    char exp[4096], run[4096], lnk[4096], res[4096];
    snprintf(res, sizeof res, "%s/results", top);
    snprintf(exp, sizeof exp, "%s/results/matmul", top);
    snprintf(run, sizeof run, "%s/results/matmul/20260115T100000Z", top);
    snprintf(lnk, sizeof lnk, "%s/results/matmul/latest", top);
    mkdir(res, 0777);
    mkdir(exp, 0777);
    free(fixture_copy(run));
    cr_assert_eq(symlink("20260115T100000Z", lnk), 0);
    proc pr;
    run_bin(&pr, top, NULL, (char *[]){"plot", "results/", NULL});
    cr_assert_eq(pr.status, 0, "exit %d: %s", pr.status, pr.err);
    assert_chart(run, "time");
    free(top);
}

Test(cmd_plot, config_restyles_an_old_run)
{
    char *d = fixture_copy(NULL);
    char cfg[4096];
    snprintf(cfg, sizeof cfg, "%s/new.yaml", d);
    spit(cfg, "name: matmul\nworkload: matmul\nsweep:\n"
              "  target:\n    - {label: CPU, device: cpu}\n"
              "    - {label: GPU, device: cuda, io: with}\n"
              "    - {label: GPU no IO, device: cuda, io: without}\n"
              "  size: {pow2: [4, 12]}\n"
              "plots:\n  - {name: time, type: line, title: Restyled by --config, logy: false}\n");
    proc pr;
    run_bin(&pr, d, NULL, (char *[]){"plot", d, "--config", cfg, NULL});
    cr_assert_eq(pr.status, 0, "exit %d: %s", pr.status, pr.err);
    char *gp = file_in(d, "plots/time.gp");
    cr_assert(strstr(gp, "'Restyled by --config'"), "%s", gp);
    cr_assert_null(strstr(gp, "set logscale y"));
    free(gp);
    assert_png(d, "time");
    cr_assert(!exists(d, "plots/speedup.png"), "the newer file's plots replace the defaults");
    free(d);
}

Test(cmd_plot, bad_run_dir_is_exit_2)
{
    char *d = tmpdir();
    proc pr;
    run_bin(&pr, d, NULL, (char *[]){"plot", "/nonexistent/run", NULL});
    cr_assert_eq(pr.status, 2);
    cr_assert(strstr(pr.err, "/nonexistent/run"), "%s", pr.err);
    run_bin(&pr, d, NULL, (char *[]){"plot", d, NULL});
    cr_assert_eq(pr.status, 2);
    cr_assert(strstr(pr.err, d) && strstr(pr.err, "trials.csv"), "%s", pr.err);
    run_bin(&pr, d, NULL, (char *[]){"report", "/nonexistent/run", NULL});
    cr_assert_eq(pr.status, 2);
    char cfg[4096];
    snprintf(cfg, sizeof cfg, "%s/bad.yaml", d);
    spit(cfg, "name: m\nworkload: matmul\nplots:\n  - {name: p, x: nope}\n");
    char *run = fixture_copy(NULL);
    run_bin(&pr, d, NULL, (char *[]){"plot", run, "--config", cfg, NULL});
    cr_assert_eq(pr.status, 2);
    cr_assert(strstr(pr.err, "bad.yaml:4:"), "%s", pr.err);
    free(run);
    free(d);
}

Test(cmd_report, report_md_from_the_fixture)
{
    char *d = fixture_copy(NULL);
    proc pr;
    run_bin(&pr, d, NULL, (char *[]){"plot", d, NULL});
    cr_assert_eq(pr.status, 0, "%s", pr.err);
    run_bin(&pr, d, NULL, (char *[]){"report", d, NULL});
    cr_assert_eq(pr.status, 0, "%s", pr.err);
    char *md = file_in(d, "report.md");
    cr_assert_not_null(md);
    const char *want[] = {"## Environment",
                          "AMD EPYC 9454",
                          "48 cores",
                          "NVIDIA H100 80GB HBM3",
                          "OpenBLAS",
                          "powersave",
                          "## Findings",
                          "GPU against CPU: faster from n = 256",
                          /* at n = 64 it was 1.01x faster: within the
                           * minimum effect, no crossing there */
                          "GPU no IO against CPU: faster from n = 128 (32 was the last slower)",
                          "Largest speedup: GPU no IO",
                          "Fastest configuration",
                          "Noisy trials",
                          "trial 6 (target=CPU size=1024)",
                          "out of memory",
                          "timeout",
                          "2 trials: the CUDA device is busy",
                          "![time](plots/time.png)",
                          "![speedup](plots/speedup.png)",
                          "## Trials",
                          "95 % CI",
                          "GFLOP/s"};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++)
        cr_assert(strstr(md, want[i]), "report.md lacks '%s':\n%s", want[i], md);
    free(md);
    free(d);
}

/* Each cause in the noise column gets its own advice in report.md
 * (doc/timing.md#measurement-quality): the fixture's trials 0-4 given one cause each,
 * trial 6 a spread and an outlier. */
Test(cmd_report, noisy_trials_get_the_advice_of_their_cause)
{
    char *d = fixture_copy(NULL);
    char *csv = file_in(d, "trials.csv");
    static const char *const causes[] = {
        "bimodal: 3.0 us and 9.0 us (20% slow)", "2 stalls over 10x the median",
        "unsteady warmup (last/fastest 1.4)", "gave up (max_time): median +-3% > rse 1%",
        "processes shared a CPU in 2 calls"};
    strbuf b = {0};
    int line = 0;
    for (char *p = csv; *p; line++) {
        char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        const char *add = line == 0   ? "noise"
                          : line <= 5 ? causes[line - 1]
                          : line == 7 ? "cv 17.4%, mad 15.2%; 1 outlier" /* trial 6 */
                                      : "";
        sb_printf(&b, "%.*s,\"%s\"\n", (int)len, p, add);
        p += len + (nl ? 1 : 0);
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/trials.csv", d);
    spit(path, b.s);
    proc pr;
    run_bin(&pr, d, NULL, (char *[]){"report", d, NULL});
    cr_assert_eq(pr.status, 0, "%s", pr.err);
    char *md = file_in(d, "report.md");
    cr_assert_not_null(md);
    const char *want[] = {"two modes: a thread pool waking up", "stalls: something else ran",
                          "a longer warmup_time would help", "more time (stop: max_time)",
                          "the OS ran two of its processes on one CPU"};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++)
        cr_assert(strstr(md, want[i]), "report.md lacks '%s':\n%s", want[i], md);
    /* the spread is said once, in words, and the other parts follow */
    const char *t6 = strstr(md, "- trial 6 (target=CPU size=1024): CV ");
    cr_assert_not_null(t6, "%s", md);
    char line6[1024];
    snprintf(line6, sizeof line6, "%.*s", (int)strcspn(t6, "\n"), t6);
    cr_expect(strstr(line6, " %, robust spread 15.2 % (1.4826 MAD / median), 5 samples (min "),
              "%s", line6);
    cr_expect(strstr(line6, "); 1 outlier: few samples: more repeats would help"), "%s", line6);
    cr_expect(!strstr(md, "cv 17.4%"), "the noise column's spread repeated: %s", line6);
    sb_free(&b);
    free(csv);
    free(md);
    free(d);
}

/* The fixture with sizes 1024 times larger (2^14 to 2^22): report.md writes sizes as 2^K and never an exponent. */
Test(cmd_report, tidy_numbers_in_findings_and_tables)
{
    char *d = fixture_copy(NULL);
    char *csv = file_in(d, "trials.csv");
    strbuf b = {0};
    int field = 0, line = 0;
    for (const char *p = csv; *p;) {
        if (field == 4 && line > 0) { /* size */
            char *end;
            long v = strtol(p, &end, 10);
            sb_printf(&b, "%ld", v * 1024);
            p = end;
            field++; /* the comma after it */
            sb_putc(&b, *p++);
            continue;
        }
        if (*p == ',')
            field++;
        if (*p == '\n')
            field = 0, line++;
        sb_putc(&b, *p++);
    }
    char p[4096];
    snprintf(p, sizeof p, "%s/trials.csv", d);
    spit(p, b.s);
    sb_free(&b);
    free(csv);
    snprintf(p, sizeof p, "%s/experiment.yaml", d);
    char *y = file_in(d, "experiment.yaml");
    char *w = strstr(y, "pow2: [4, 12]");
    cr_assert_not_null(w);
    memcpy(w, "pow2: [14,22]", 13);
    spit(p, y);
    free(y);
    cr_assert_eq(report_write(d, 1, NULL), 0);
    char *md = file_in(d, "report.md");
    const char *want[] = {"GPU against CPU: faster from n = 2^18 (2^17 was the last slower)",
                          "at n = 2^20.", "| 2^22 |", "| 2^14 | CPU |",
                          "trial 6 (target=CPU size=2^20)", "| 4.35x |"};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++)
        cr_assert(strstr(md, want[i]), "report.md lacks '%s':\n%s", want[i], md);
    cr_assert_null(strstr(md, "e+0"), "%s", md);
    cr_assert_null(strstr(md, "e-0"), "%s", md);
    free(md);
    free(d);
}

Test(cmd_report, without_experiment_yaml_infers_the_sweep)
{
    char *d = fixture_copy(NULL);
    char p[4096];
    snprintf(p, sizeof p, "%s/experiment.yaml", d);
    unlink(p);
    run_model m;
    char err[256];
    cr_assert_eq(pm_load(&m, d, NULL, err, sizeof err), 0, "%s", err);
    int t = pm_col(&m, "target"), dev = pm_col(&m, "device"), io = pm_col(&m, "io");
    cr_assert(m.swept[t] && m.swept[dev] && m.swept[io] && m.swept[m.c_size]);
    cr_assert(m.is_label[t] && m.group[dev] == m.group[t] && m.group[io] == m.group[t]);
    cr_assert_eq(pm_default_x(&m), m.c_size);
    pm_free(&m);
    int n = plots_render_run(d, NULL, 1, NULL);
    cr_assert_eq(n, 4);
    char *gp = file_in(d, "plots/time.gp");
    cr_assert(strstr(gp, "title 'GPU no IO'"));
    free(gp);
    cr_assert_eq(report_write(d, 1, NULL), 0);
    char *md = file_in(d, "report.md");
    cr_assert(strstr(md, "faster from n = 256"));
    free(md);
    free(d);
}

/* The saved experiment.yaml names a hooks file that is not beside it: the
 * run's own `plots` still apply. */
Test(cmd_plot, saved_experiment_with_absent_hooks_keeps_its_plots)
{
    char *d = fixture_copy(NULL);
    char p[4096];
    snprintf(p, sizeof p, "%s/experiment.yaml", d);
    spit(p, "name: matmul\nworkload: matmul\nhooks: hooks/extra.lua\nsweep:\n"
            "  target:\n    - {label: CPU, device: cpu}\n"
            "    - {label: GPU, device: cuda, io: with}\n"
            "    - {label: GPU no IO, device: cuda, io: without}\n"
            "  size: {pow2: [4, 12]}\n"
            "plots:\n  - {name: mine, type: line, title: Kept}\n");
    proc pr;
    run_bin(&pr, d, NULL, (char *[]){"plot", d, NULL});
    cr_assert_eq(pr.status, 0, "exit %d: %s", pr.status, pr.err);
    assert_chart(d, "mine");
    cr_assert(!exists(d, "plots/time.png"));
    cr_assert(!exists(d, "hooks"), "a stand-in file was left in the run folder");
    free(d);
}

/* --- device time ------------------------------------------------------- */

/* The fixture with device-time columns, as results.c writes them for CUDA
 * trials: device_median is a tenth of the wall median (empty for CPU rows). */
static void add_device_times(const char *dir)
{
    char p[4096];
    snprintf(p, sizeof p, "%s/trials.csv", dir);
    csv_table t;
    cr_assert_eq(csv_read(p, &t), 0);
    int dc = csv_col(&t, "device"), mc = csv_col(&t, "median");
    strbuf b = {0};
    for (int r = 0; r < t.nrows; r++) {
        for (int i = 0; i < t.nfields[r]; i++) {
            if (i)
                sb_putc(&b, ',');
            csv_field(&b, t.rows[r][i]);
        }
        if (r == 0)
            sb_puts(&b, ",device_min,device_median,device_max");
        else if (!strcmp(t.rows[r][dc], "cuda") && *t.rows[r][mc]) {
            double v = atof(t.rows[r][mc]) / 10;
            sb_printf(&b, ",%.9g,%.9g,%.9g", v * 0.9, v, v * 1.1);
        } else
            sb_puts(&b, ",,,");
        sb_putc(&b, '\n');
    }
    csv_free(&t);
    spit(p, b.s);
    sb_free(&b);
}

/* Charts say which time they show; `time: device` (or y: device_median)
 * draws CUDA trials with their device time and CPU trials with their wall
 * time, each legend entry saying which. */
Test(plots, device_time_charts_say_which_time_they_show)
{
    char *d = fixture_copy(NULL);
    add_device_times(d);
    experiment *e = parse("name: matmul\nworkload: matmul\nparams: {dtype: f32}\nsweep:\n"
                          "  target:\n    - {label: CPU, device: cpu}\n"
                          "    - {label: GPU, device: cuda, io: with}\n"
                          "    - {label: GPU no IO, device: cuda, io: without}\n"
                          "  size: {pow2: [4, 12]}\n"
                          "plots:\n  - {name: wall, type: line}\n"
                          "  - {name: dev, type: line, time: device}\n"
                          "  - {name: sp, type: speedup, baseline: {device: cpu}, y: device_median}\n"
                          "  - {name: gpu, type: line, time: device, where: {device: cuda}}\n");
    cr_assert_eq(plots_render_run(d, e, 1, NULL), 4);
    char *gp = file_in(d, "plots/wall.gp");
    cr_assert(strstr(gp, "'median wall time (seconds)'"), "%s", gp);
    cr_assert(strstr(gp, "title 'GPU no IO' noenhanced"));
    free(gp);
    gp = file_in(d, "plots/dev.gp");
    cr_assert(strstr(gp, "median time: device (CUDA events) where measured, else wall"), "%s", gp);
    cr_assert(strstr(gp, "title 'GPU no IO (device time)'") &&
              strstr(gp, "title 'CPU (wall time)'"), "%s", gp);
    free(gp);
    gp = file_in(d, "plots/gpu.gp");
    cr_assert(strstr(gp, "'median device time (CUDA events) (seconds)'"), "%s", gp);
    cr_assert(strstr(gp, "title 'GPU no IO' noenhanced"), "one kind of time: plain legend");
    free(gp);
    gp = file_in(d, "plots/sp.gp");
    cr_assert(strstr(gp, "speedup (x), device time where measured, else wall"), "%s", gp);
    free(gp);

    /* the values: a GPU no IO trial is drawn at its device median */
    run_model m;
    char err[256];
    cr_assert_eq(pm_load(&m, d, e, err, sizeof err), 0, "%s", err);
    chart_spec *cs;
    char warn[256];
    int n = pm_file_charts(&m, e, &cs, warn, sizeof warn);
    cr_assert_eq(n, 4, "%s", warn);
    cr_assert(cs[1].device_time && !cs[0].device_time && cs[2].device_time);
    chart_data cd;
    cr_assert_gt(pm_chart_data(&m, &cs[1], &cd), 0);
    cr_assert_eq(cd.time_kind, 2);
    int checked = 0;
    for (int c = 0; c < cd.ncurves; c++)
        for (int i = 0; i < cd.curves[c].n; i++) {
            const pm_point *p = &cd.curves[c].p[i];
            int dev = !strcmp(pm_cell(&m, p->row, m.c_device), "cuda");
            double want = pm_num(&m, p->row, dev ? m.c_dev_median : m.c_median);
            cr_assert_float_eq(p->y, want, 1e-12 * want, "row %d", p->row);
            if (dev)
                cr_assert_float_eq(p->hi, pm_num(&m, p->row, m.c_dev_max), 1e-15);
            checked++;
        }
    cr_assert_gt(checked, 10);
    chart_data_free(&cd);
    for (int i = 0; i < n; i++)
        chart_spec_free(&cs[i]);
    free(cs);
    pm_free(&m);
    experiment_free(e);
    free(d);
}

/* `time` is checked like every plot key. */
Test(plots, time_key_is_checked)
{
    const char *bad[] = {
        "workload: noop\nplots:\n  - {name: a, time: cpu}\n",
        "workload: noop\nplots:\n  - {name: a, type: throughput, time: device}\n",
        "workload: noop\nplots:\n  - {name: a, y: mean, time: device}\n",
        "workload: noop\nplots:\n  - {name: a, y: device_median, time: wall}\n",
    };
    const char *msg[] = {"'time' must be wall or device, not 'cpu'",
                         "'time' is for line, bar and speedup charts",
                         "'time: device' draws the median; it cannot go with y: mean",
                         "'time: wall' draws the median; it cannot go with y: device_median"};
    for (int i = 0; i < 4; i++) {
        diags dg = {0};
        experiment *e = experiment_parse("t.yaml", bad[i], strlen(bad[i]), &dg);
        cr_assert_null(e, "case %d parsed", i);
        int found = 0;
        for (int k = 0; k < dg.n; k++)
            found |= strstr(dg.items[k].msg, msg[i]) != NULL;
        cr_assert(found, "case %d: no '%s' (%s)", i, msg[i], dg.n ? dg.items[0].msg : "");
        diag_free(&dg);
    }
    experiment *e = parse("workload: noop\nplots:\n  - {name: a, y: device_median}\n"
                          "  - {name: b, time: device}\n  - {name: c, time: wall}\n");
    cr_assert_str_eq(e->plots[1].y, "device_median");
    cr_assert_str_eq(e->plots[2].y, "median");
    experiment_free(e);
}

/* logx and logy (doc/results.md#plots-and-reports): true forces a log axis, false
 * a linear one, whatever the default would be. */
Test(plots, logx_and_logy_force_the_axes)
{
    char *d = fixture_copy(NULL);
    experiment *e = parse("name: m\nworkload: matmul\nsweep:\n  target:\n"
                          "    - {label: CPU, device: cpu}\n"
                          "    - {label: GPU, device: cuda, io: with}\n"
                          "    - {label: GPU no IO, device: cuda, io: without}\n"
                          "  size: {pow2: [4, 12]}\nplots:\n"
                          "  - {name: loglog, x: size, logx: true, logy: true}\n"
                          "  - {name: linlin, x: size, logx: false, logy: false}\n"
                          "  - {name: auto, x: size}\n");
    cr_assert_eq(plots_render_run(d, e, 1, NULL), 3);
    char *gp = file_in(d, "plots/loglog.gp");
    cr_assert(strstr(gp, "set logscale x") && strstr(gp, "set logscale y"), "%s", gp);
    free(gp);
    gp = file_in(d, "plots/linlin.gp");
    cr_assert(!strstr(gp, "set logscale x") && !strstr(gp, "set logscale y"), "%s", gp);
    free(gp);
    /* the default: sizes 16..4096 and times over 10x apart are log-log */
    gp = file_in(d, "plots/auto.gp");
    cr_assert(strstr(gp, "set logscale x") && strstr(gp, "set logscale y"), "%s", gp);
    free(gp);
    experiment_free(e);
    free(d);
}
