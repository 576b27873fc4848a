/* browser.h - headless Chromium for the tests that open a page as a user
 * would (report.html, the cleaned SVG charts): the browser found, and the
 * DOM a page leaves once its scripts ran. */
#ifndef TESTS_BROWSER_H
#define TESTS_BROWSER_H

/* chromium (Debian's package); without it the test is skipped, saying that
 * `what` was not opened in a browser. */
const char *chromium_or_skip(const char *what);

/* `browser` --headless --dump-dom URL, its profile and files in folder d:
 * the DOM after the page's scripts ran (malloc'd; asserted), and, when log
 * is not NULL, its log with the console messages in *log (malloc'd). */
char *dump_dom(const char *browser, const char *d, const char *url, char **log);

#endif
