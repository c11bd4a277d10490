/* hookshim's version: `hookshim --version`, the executable's mark, the
 * package (Makefile) and what the OpenTelemetry export says it is. */
#ifndef HOOKSHIM_COMMON_VERSION_H
#define HOOKSHIM_COMMON_VERSION_H

#define HOOKSHIM_VERSION "0.1.0"

#endif
