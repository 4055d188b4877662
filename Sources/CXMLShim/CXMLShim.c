#include "CXMLShim.h"
#include <libxml/xmlversion.h>
#include <libxml/parser.h>
#include <stdlib.h>

int axml_runtime_version(void) {
    return xmlParserVersion ? atoi(xmlParserVersion) : LIBXML_VERSION;
}
