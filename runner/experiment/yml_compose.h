/* yml_compose.h - one YAML document built from libyaml's events, as
 * yaml_parser_load builds it, but in time linear in the file's size
 * (doc/experiment-file.md#errors): lists and mappings nest at most
 * YML_MAX_DEPTH deep (libyaml's scanner spends time proportional to the
 * depth of flow collections on every token: 20,000 nested '[' took 5 s,
 * a 400 KB file 203 s), and anchors are found in a tree, not by a scan of
 * every anchor before them. */
#ifndef RUNNER_YML_COMPOSE_H
#define RUNNER_YML_COMPOSE_H
/* internal header of runner/experiment/: other folders may not include it */

#include "base/diag.h"

#include <yaml.h>

/* An experiment file nests about 6 deep (sweep, an axis, its elements, a
 * member, its layers); 64 leaves room and keeps the scanner's cost per
 * token small. */
enum { YML_MAX_DEPTH = 64 };
/* A node takes about 150 bytes in libyaml's document: 7.8 million of them
 * (a 16 MiB list of 1s) took 1.3 GB and 7 s.  Twice the nodes of a sweep
 * at its 1,000,000-trial limit (doc/experiment-file.md#axes). */
enum { YML_MAX_NODES = 2000000 };

/* The next document of p's stream into doc (yaml_parser_load's contract:
 * doc->nodes empty when the stream has ended).  1: a document; 0: the
 * stream ended; -1: a libyaml error (p->error, p->problem, ... say which);
 * -2: a limit or an alias error, with a diagnostic added to d.  On a
 * negative return doc holds nothing to free. */
int yml_compose(yaml_parser_t *p, yaml_document_t *doc, diags *d);

#endif
