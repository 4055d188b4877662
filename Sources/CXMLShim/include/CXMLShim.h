#ifndef AUDITOR_CXMLSHIM_H
#define AUDITOR_CXMLSHIM_H
/* The only door to libxml2. Swift sees opaque handles and plain C types, never libxml2's
 * headers (they clash with Foundation's ICU module on a clean build, see STYLE.md). */

/* The libxml2 version this binary runs against, e.g. 20914. */
int axml_runtime_version(void);

#endif
