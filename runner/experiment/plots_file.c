/* plots_file.c - see plots_file.h. */
#include "experiment/plots_file.h"

#include "base/util.h"
#include "experiment/loader.h"
#include "experiment/plots_check.h"
#include "experiment/plots_config.h"
#include "experiment/yml.h"

#include <stdlib.h>
#include <string.h>

int plots_file_is_plots_only(const char *path)
{
    size_t len = 0;
    char *text = read_file(path, &len);
    if (!text)
        return 0;
    diags d = {0};
    yml y = {0};
    int only = 0;
    if (yml_load(&y, text, len, &d) == 0) {
        yaml_node_t *root = yml_root(&y);
        if (root && root->type == YAML_MAPPING_NODE) {
            ypair *top;
            int n = yml_pairs(&y, root, &top, &d);
            only = 1;
            for (int i = 0; i < n; i++)
                only &= strcmp(yml_text(top[i].key), "workload") != 0;
            free(top);
        }
        yml_free(&y);
    }
    diag_free(&d);
    free(text);
    return only;
}

int plots_file_apply(experiment *e, const char *path, diags *d)
{
    d->file = path;
    size_t len = 0;
    char *text = read_file(path, &len);
    if (!text) {
        diag_add(d, 0, 0, "cannot read the file");
        return -1;
    }
    /* the run's experiment, with the plots file's charts in place of its own */
    plot_spec *own = e->plots;
    int nown = e->nplots, own_given = e->plots_given;
    e->plots = NULL;
    e->nplots = 0;
    e->plots_given = 0;
    loader L = {.d = d, .e = e};
    int before = d->n;
    const yaml_node_t *plots = NULL;
    if (yml_load(&L.y, text, len, d) == 0) {
        yaml_node_t *root = yml_root(&L.y);
        ypair *top = NULL;
        int n = root && root->type == YAML_MAPPING_NODE ? yml_pairs(&L.y, root, &top, d) : 0;
        for (int i = 0; i < n; i++) {
            const char *k = yml_text(top[i].key);
            if (!strcmp(k, "plots"))
                plots = top[i].val;
            else if (k[0] != '.' && strncmp(k, "x-", 2))
                diag_add(d, yml_line(top[i].key), yml_col(top[i].key),
                         "'%s' in a plots file: it holds only 'plots:' (a whole experiment file "
                         "with 'workload' may be given instead)",
                         k);
        }
        free(top);
        if (!plots && d->n == before)
            diag_add(d, 1, 1, "a plots file needs 'plots:' (a list of plot specs)");
        if (plots)
            plots_parse(&L, plots);
        if (d->n == before)
            plots_check_merges(e, d);
        yml_free(&L.y);
    }
    free(text);
    if (d->n > before) {
        for (int i = 0; i < e->nplots; i++)
            plot_spec_free(&e->plots[i]);
        free(e->plots);
        e->plots = own;
        e->nplots = nown;
        e->plots_given = own_given;
        return -1;
    }
    for (int i = 0; i < nown; i++)
        plot_spec_free(&own[i]);
    free(own);
    return 0;
}
