/* Names the usual atomic-save patterns give their temp files. Shared by
 * the shim (shim/write_event.c) and the floor (floor/floor_event.c),
 * so both stay silent on the same files: a temp file fires no pre event
 * of its own, the rename that publishes it does. Async-signal-safe. */
#ifndef HOOKSHIM_COMMON_TEMP_NAME_H
#define HOOKSHIM_COMMON_TEMP_NAME_H

#include <stdbool.h>
#include <string.h>

static inline bool hs_tn_ends_with(const char *s, const char *suf)
{
	size_t n = strlen(s), m = strlen(suf);

	return n >= m && memcmp(s + n - m, suf, m) == 0;
}

static inline bool hs_tn_word(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

/* Python's tempfile: "tmp" + 8 of [a-z0-9_], then the suffix. */
static inline bool hs_tn_python(const char *b)
{
	if (strncmp(b, "tmp", 3) != 0)
		return false;
	for (int i = 3; i < 11; i++)
		if (!hs_tn_word(b[i]))
			return false;
	return b[11] == '\0' || b[11] == '.';
}

/* Does the absolute path `abs` look like a temp file? */
static inline bool hs_temp_name(const char *abs)
{
	const char *b = strrchr(abs, '/');

	b = b ? b + 1 : abs;
	if (strstr(b, ".tmp") || strstr(b, ".temp") || hs_tn_ends_with(b, "~") ||
	    strncmp(b, ".#", 2) == 0 || hs_tn_python(b) ||
	    (b[0] == '.' && (hs_tn_ends_with(b, ".swp") ||
			     hs_tn_ends_with(b, ".swx"))))
		return true;
	/* the shim's own staging name (shim/write_stage.c) */
	if (strncmp(b, ".hs-stage-", 10) == 0)
		return true;
	/* git: "index.lock" renamed to "index", "tmp_obj_XXXXXX" linked */
	if (strstr(abs, "/.git/") &&
	    (hs_tn_ends_with(b, ".lock") || strncmp(b, "tmp_", 4) == 0))
		return true;
	return false;
}

/* A random part of a temp name: a pid, or hex / a uuid of some length. */
static inline bool hs_tn_random(const char *p, size_t n)
{
	bool digits = true;

	for (size_t i = 0; i < n; i++) {
		char c = p[i];

		if (c < '0' || c > '9')
			digits = false;
		if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
		      (c >= 'A' && c <= 'F') || c == '-'))
			return false;
	}
	return n >= 6 || (digits && n >= 2);
}

/* The name an atomic save will publish its temp file `abs` under, when
 * the temp file's own name says it:
 *   "DIR/B.tmp.REST" -> "DIR/B": Claude Code's Write and Edit
 *     ("x.txt.tmp.PID.HEX"), Go's os.CreateTemp(dir, "x.tmp.*");
 *   "DIR/B.ID.tmp", "DIR/B.ID.ID.tmp" with random IDs (hs_tn_random)
 *     -> "DIR/B": Qwen Code's ("x.txt.HEX12.tmp", "x.PID.HEX.tmp").
 * Other temp names (a bare "x.tmp", "tmpab12cd34", ".tmpXXXXXX") do not
 * say which file they will become, and a bare "B.tmp" is as often a file
 * kept under that name. False when the name does not say, or `out`
 * (cap bytes) cannot hold it. */
static inline bool hs_temp_final(const char *abs, char *out, size_t cap)
{
	const char *b = strrchr(abs, '/');
	const char *t, *end;
	size_t n;

	b = b ? b + 1 : abs;
	if ((t = strstr(b, ".tmp.")) && t[5]) {
		end = t;
	} else if (hs_tn_ends_with(b, ".tmp")) {
		end = b + strlen(b) - 4;
		for (int ids = 0; ids < 2; ids++) {
			const char *d = end - 1;

			while (d > b && *d != '.')
				d--;
			if (d <= b || !hs_tn_random(d + 1, (size_t)(end - d - 1)))
				break;
			end = d;
		}
		if (end == b + strlen(b) - 4)
			return false; /* no random part: "x.tmp" */
	} else {
		return false;
	}
	n = (size_t)(end - abs);
	if (end == b || n >= cap)
		return false;
	memcpy(out, abs, n);
	out[n] = '\0';
	/* a B that is itself a temp name ("f~.tmp.1", ".#f.tmp.1") or a
	 * lone dot ("..tmp.1") is no file a user writes */
	if (hs_temp_name(out) || strcmp(out + (b - abs), ".") == 0)
		return false;
	return true;
}

/* The names mkstemp made lately (the shim's mkstemp family makes its
 * names itself: shim/floor_calls.c), remembered as hashes so that a
 * rename of one publishes it like any temp file. Lock-free; a name that
 * gave way to newer ones is only an extra event. */
#define HS_TEMP_RING 64

struct hs_temp_ring {
	unsigned long h[HS_TEMP_RING]; /* 0: free */
	unsigned next;
};

static inline unsigned long hs_tn_hash(const char *s)
{
	unsigned long h = 1469598103934665603ul;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ul;
	return h | 1;
}

static inline void hs_temp_ring_add(struct hs_temp_ring *r, const char *abs)
{
	unsigned i = __atomic_fetch_add(&r->next, 1, __ATOMIC_RELAXED);

	__atomic_store_n(&r->h[i % HS_TEMP_RING], hs_tn_hash(abs),
			 __ATOMIC_RELAXED);
}

static inline bool hs_temp_ring_has(struct hs_temp_ring *r, const char *abs)
{
	unsigned long h = hs_tn_hash(abs);

	for (int i = 0; i < HS_TEMP_RING; i++)
		if (__atomic_load_n(&r->h[i], __ATOMIC_RELAXED) == h)
			return true;
	return false;
}

/* mkstemp's shape: a base name ending in six of [A-Za-z0-9] (its
 * "XXXXXX"), what glibc's __gen_tempname writes. */
static inline bool hs_tn_mkstemp_shape(const char *abs)
{
	const char *b = strrchr(abs, '/');
	size_t n;

	b = b ? b + 1 : abs;
	n = strlen(b);
	if (n < 6)
		return false;
	for (size_t i = n - 6; i < n; i++) {
		char c = b[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9')))
			return false;
	}
	return true;
}

#endif
