/* The release of papi-uncore every tool reports with --version.  Kept equal
 * to configure.ac's AC_INIT version (tests/integration/test_tools_docs.sh
 * checks both). */
#ifndef UNCORE_VERSION_H
#define UNCORE_VERSION_H

#define PAPI_UNCORE_VERSION "0.1.0"

#endif
