/* submit_fixture.h - what the submit tests share: scratch folders and the
 * files written into them. */
#ifndef TESTS_SUBMIT_FIXTURE_H
#define TESTS_SUBMIT_FIXTURE_H

#include "base/util.h"

/* A fresh folder under /tmp (malloc'd path). */
char *scratch_dir(void);

/* Removes a folder and all it holds (rm -rf). */
void rm_rf(const char *dir);

/* Writes `text` to `path`, executable when exec is set. */
void put(const char *path, const char *text, int exec);

#endif
