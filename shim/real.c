/* Resolution of the wrapped libc functions; see real.h. */
#include "real.h"

#include <dlfcn.h>
#include <stddef.h>

#include "../common/plainstr.h"
#include "state.h"
#include "symbols.h"

/* posix_spawn and posix_spawnp exist as @@GLIBC_2.15 and a compat @GLIBC_2.2
 * whose child runs /bin/sh on ENOEXEC. Callers reach our unversioned
 * definition whichever they were linked against; we forward to the current
 * one. An unversioned lookup could hand back the compat version on some
 * setups, hence the version is asked for (hs_next_symbols, else dlvsym). */
static const struct hs_symbol syms[HS_R_COUNT] = {
	[HS_R_EXECVE] = { "execve", "" },
	[HS_R_EXECVEAT] = { "execveat", "" },
	[HS_R_FEXECVE] = { "fexecve", "" },
	[HS_R_POSIX_SPAWN] = { "posix_spawn", "GLIBC_2.15" },
	[HS_R_POSIX_SPAWNP] = { "posix_spawnp", "GLIBC_2.15" },
	[HS_R_SYSTEM] = { "system", "" },
	[HS_R_POPEN] = { "popen", "" },
	[HS_R_PCLOSE] = { "pclose", "" },
};

/* Written once per slot with the same value by whoever resolves first, so
 * relaxed atomics are enough and no lock is needed. */
static void *slots[HS_R_COUNT] HS_HOT;

static void *resolve(enum hs_real_id id)
{
	void *p = NULL;

	if (syms[id].version[0])
		p = dlvsym(RTLD_NEXT, syms[id].name, syms[id].version);
	if (!p)
		p = dlsym(RTLD_NEXT, syms[id].name);
	__atomic_store_n(&slots[id], p, __ATOMIC_RELEASE);
	return p;
}

HS_CHILD_PATH
void *hs_real(enum hs_real_id id)
{
	void *p = __atomic_load_n(&slots[id], __ATOMIC_ACQUIRE);

	return p ? p : resolve(id);
}

HS_START_PATH
void hs_real_init(void)
{
	void *found[HS_R_COUNT] = { 0 };

	hs_next_symbols(syms, found, HS_R_COUNT);
	for (int i = 0; i < HS_R_COUNT; i++)
		if (found[i])
			__atomic_store_n(&slots[i], found[i], __ATOMIC_RELEASE);
	for (int i = 0; i < HS_R_COUNT; i++)
		if (!__atomic_load_n(&slots[i], __ATOMIC_ACQUIRE))
			resolve((enum hs_real_id)i);
}
