/* The libc functions we wrap, found in one walk of the loaded objects.
 *
 * dlsym(RTLD_NEXT, name) answers one name per call, each behind the
 * loader's lock, an error-catching setjmp and a scope walk; the shim needs
 * about sixty in every process it loads into, where that came to a fifth
 * of the start-up cost of /bin/true. Here each object after this library,
 * in load order (the order RTLD_NEXT searches at start-up), is asked
 * through its GNU hash table directly. A name this cannot settle (no GNU
 * hash table, an IFUNC whose resolver the loader must run, an unusual
 * object) is left NULL and the caller asks dlsym. */
#include "symbols.h"

#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <stdint.h>
#include <string.h>

#include "../common/plainstr.h"
#include "state.h"

extern ElfW(Dyn) _DYNAMIC[];

struct object {
	ElfW(Addr) base;
	const ElfW(Sym) *sym;
	const char *str;
	const ElfW(Half) *versym;   /* may be NULL: no symbol versions */
	const ElfW(Verdef) *verdef; /* may be NULL */
	const uint32_t *gnu_hash;
};

/* The loader relocates most d_ptr values in place; where it did not
 * (a read-only dynamic section) they are offsets from the base. */
HS_START_PATH
static const void *dyn_ptr(const struct link_map *lm, ElfW(Addr) p)
{
	return (const void *)(p < lm->l_addr ? lm->l_addr + p : p);
}

HS_START_PATH
static bool object_of(const struct link_map *lm, struct object *o)
{
	memset(o, 0, sizeof(*o));
	o->base = lm->l_addr;
	for (const ElfW(Dyn) *d = lm->l_ld; d && d->d_tag != DT_NULL; d++) {
		switch (d->d_tag) {
		case DT_SYMTAB: o->sym = dyn_ptr(lm, d->d_un.d_ptr); break;
		case DT_STRTAB: o->str = dyn_ptr(lm, d->d_un.d_ptr); break;
		case DT_VERSYM: o->versym = dyn_ptr(lm, d->d_un.d_ptr); break;
		case DT_VERDEF: o->verdef = dyn_ptr(lm, d->d_un.d_ptr); break;
		case DT_GNU_HASH:
			o->gnu_hash = dyn_ptr(lm, d->d_un.d_ptr);
			break;
		}
	}
	return o->sym && o->str && o->gnu_hash;
}

/* The index a version name has in this object's verdef, 0 if none. */
HS_START_PATH
static unsigned version_index(const struct object *o, const char *version)
{
	const ElfW(Verdef) *vd = o->verdef;

	while (vd) {
		const ElfW(Verdaux) *aux =
			(const void *)((const char *)vd + vd->vd_aux);

		if (hs_same(o->str + aux->vda_name, version))
			return vd->vd_ndx;
		if (!vd->vd_next)
			break;
		vd = (const void *)((const char *)vd + vd->vd_next);
	}
	return 0;
}

HS_START_PATH
static uint32_t gnu_hash(const char *s)
{
	uint32_t h = 5381;

	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		h = h * 33 + *p;
	return h;
}

/* Would dlsym take symbol i for this name? Defined, and either the
 * requested version or (unversioned request) the default one. */
HS_START_PATH
static bool acceptable(const struct object *o, uint32_t i, unsigned want)
{
	const ElfW(Sym) *s = &o->sym[i];
	unsigned v = o->versym ? o->versym[i] : 1;

	if (s->st_shndx == SHN_UNDEF || s->st_value == 0)
		return false;
	if (want)
		return (v & 0x7fff) == want;
	return !(v & 0x8000);
}

/* 1: found (*out set), 0: not defined here, -1: defined but not ours to
 * resolve (an IFUNC). */
HS_START_PATH
static int lookup(const struct object *o, const char *name, uint32_t h,
		  unsigned want, void **out)
{
	const uint32_t *ht = o->gnu_hash;
	uint32_t nbuckets = ht[0], symoffset = ht[1], bloom_size = ht[2];
	uint32_t shift = ht[3];
	const ElfW(Addr) *bloom = (const void *)(ht + 4);
	const uint32_t *buckets = (const void *)(bloom + bloom_size);
	const uint32_t *chain = buckets + nbuckets;
	const unsigned bits = sizeof(ElfW(Addr)) * 8;
	ElfW(Addr) word, mask;
	uint32_t i;

	if (!nbuckets || !bloom_size)
		return 0;
	word = bloom[(h / bits) % bloom_size];
	mask = ((ElfW(Addr))1 << (h % bits)) |
	       ((ElfW(Addr))1 << ((h >> shift) % bits));
	if ((word & mask) != mask)
		return 0;
	i = buckets[h % nbuckets];
	if (i < symoffset)
		return 0;
	for (;; i++) {
		uint32_t h2 = chain[i - symoffset];

		if ((h | 1) == (h2 | 1) &&
		    hs_same(o->str + o->sym[i].st_name, name) &&
		    acceptable(o, i, want)) {
			if (ELF64_ST_TYPE(o->sym[i].st_info) == STT_GNU_IFUNC)
				return -1;
			*out = (void *)(o->base + o->sym[i].st_value);
			return 1;
		}
		if (h2 & 1)
			return 0;
	}
}

bool hs_next_foreign HS_HOT;

/* glibc's own objects (an old glibc kept some wrappers in libpthread). */
HS_START_PATH
static bool libc_object(const struct link_map *lm)
{
	const char *b = lm->l_name, *p;

	for (p = b; p && *p; p++)
		if (*p == '/')
			b = p + 1;
	return b && (hs_starts(b, "libc.so") || hs_starts(b, "libpthread.so") ||
		     hs_starts(b, "libdl.so") || hs_starts(b, "ld-linux"));
}

HS_START_PATH
void hs_next_symbols(const struct hs_symbol *syms, void **out, size_t n)
{
	struct link_map *self = NULL;
	Dl_info info;
	size_t left = n;
	uint32_t hashes[n ? n : 1];
	bool settled[n ? n : 1];

	for (size_t k = 0; k < n; k++) {
		hashes[k] = gnu_hash(syms[k].name);
		settled[k] = out[k] != NULL;
		left -= settled[k];
	}
	/* This library's entry: the one whose dynamic section is ours. The
	 * loader's list is read directly (dladdr1 would take its lock and
	 * catch errors with a setjmp: more pages of ld.so and libc touched
	 * in every process). */
	for (self = _r_debug.r_map; self && self->l_ld != _DYNAMIC;
	     self = self->l_next)
		;
	if (!self && (!dladdr1((void *)hs_next_symbols, &info, (void **)&self,
			       RTLD_DL_LINKMAP) || !self))
		return;
	for (const struct link_map *lm = self->l_next; lm && left;
	     lm = lm->l_next) {
		struct object o;

		if (!object_of(lm, &o))
			continue;
		for (size_t k = 0; k < n; k++) {
			unsigned want = 0;

			if (settled[k])
				continue;
			/* an object without versions serves any */
			if (syms[k].version[0] && o.versym &&
			    !(want = version_index(&o, syms[k].version)))
				continue;
			if (lookup(&o, syms[k].name, hashes[k], want, &out[k])) {
				settled[k] = true; /* found, or dlsym's */
				left--;
				if (out[k] && !libc_object(lm))
					hs_next_foreign = true;
			}
		}
	}
}

HS_START_PATH
bool hs_main_exports(const char *name)
{
	const struct link_map *main_map = _r_debug.r_map; /* always first */
	struct object o;
	void *found = NULL;

	return main_map && object_of(main_map, &o) &&
	       lookup(&o, name, gnu_hash(name), 0, &found) == 1;
}
