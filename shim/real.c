/* Resolution of the functions the shim forwards to; see real.h. */
#include "real.h"

#include <dlfcn.h>
#include <stddef.h>

#include "../common/plainstr.h"
#include "state.h"
#include "symbols.h"

/* The names of the FWD rows, by slot. Held in place, not pointed to
 * (symbols.h says why); a name that would not fit with its NUL stops
 * the build here rather than being cut silently. */
#define NAME_FWD(n, v) [HS_R_##n] = { #n, v },
#define NAME_OWN(n, v)
#define NAME(n, v, family, real) NAME_##real(n, v)
static const struct hs_symbol syms[HS_R_COUNT] = { HS_INTERPOSED(NAME) };

#define FITS(n, v, family, real)                                        \
	_Static_assert(sizeof(#n) <= sizeof(syms[0].name) &&            \
			       sizeof(v) <= sizeof(syms[0].version),    \
		       #n ": name or version too long for struct hs_symbol");
HS_INTERPOSED(FITS)

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

/* One walk of the loaded objects for every slot (hs_next_symbols); what
 * it cannot settle (an IFUNC, an object without a GNU hash table) goes
 * to dlsym, as does a name libc lacks, which then stays NULL. */
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
