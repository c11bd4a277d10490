/* Batch resolution of the functions the shim forwards to. */
#ifndef HOOKSHIM_SHIM_SYMBOLS_H
#define HOOKSHIM_SHIM_SYMBOLS_H

#include <stdbool.h>
#include <stddef.h>

/* Names held in place, not pointed to: a table of pointers would need a
 * relocation per entry, written by the loader into the library's data page
 * in every process (shim/layout.ld). The longest name forwarded is 12
 * characters; test_symbols resolves every one against dlsym. */
struct hs_symbol {
	char name[20];
	char version[12]; /* a version to insist on, or "": the default */
};

/* For each out[k] still NULL, the definition of syms[k] that
 * dlsym(RTLD_NEXT) (dlvsym, given a version) would return to this
 * library, found in one pass over the objects loaded after it. Entries it
 * cannot settle stay NULL for the caller to ask dlsym. Start-up only: it
 * reads the loader's list unlocked. */
void hs_next_symbols(const struct hs_symbol *syms, void **out, size_t n);
/* Set by hs_next_symbols when a definition came from another library
 * than glibc's (a profiler or fakeroot preloaded after the shim): the
 * shim must then forward through it, not straight to the kernel
 * (floor_calls.h). */
extern bool hs_next_foreign;

/* Does the main program export a definition of name? Start-up only, as
 * above. */
bool hs_main_exports(const char *name);

#endif
