#ifndef AUDITOR_CLIBXML2_SHIM_H
#define AUDITOR_CLIBXML2_SHIM_H
/* Never imported from Swift (see STYLE.md); CXMLShim's .c includes libxml2 directly. */
#include <libxml/parser.h>
#endif
