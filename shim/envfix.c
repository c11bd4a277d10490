/* Environment repair; see envfix.h. AS-safe: pure string work, without
 * libc (it runs in every fork child: see plainstr.h). */
#include "envfix.h"

#include <sys/mman.h>

#include "../common/plainstr.h"

#include "../common/wire.h"

extern char **environ;

/* Arrays, not pointers: a table of pointers would sit in the relocated
 * data, one more page for every fork child to read. (The longest name,
 * its '=' and the NUL fit.) */
static const char dropped[][24] = {
	HS_ENV_SOCK "=", HS_ENV_SESSION "=", HS_ENV_ROOT "=", HS_ENV_BIN "=",
	HS_ENV_LIB "=", HS_ENV_FLAGS "=", HS_ENV_ROLE "=", HS_ENV_CHECKED "=",
	HS_ENV_WRITE "=", HS_ENV_OFF "=", HS_ENV_FDS "=", "UV_USE_IO_URING=",
	"LD_PRELOAD=",
};

/* Runs for every variable of every exec: the first letter settles
 * nearly all of them without a string call. */
HS_CHILD_PATH
static bool is_dropped(const char *s)
{
	for (size_t i = 0; i < sizeof(dropped) / sizeof(dropped[0]); i++)
		if (s[0] == dropped[i][0] && hs_starts(s, dropped[i]))
			return true;
	return false;
}

HS_CHILD_PATH
static const char *find_preload(char *const envp[])
{
	for (size_t i = 0; envp && envp[i]; i++)
		if (hs_starts(envp[i], "LD_PRELOAD="))
			return envp[i] + sizeof("LD_PRELOAD=") - 1;
	return NULL;
}

/* ld.so splits LD_PRELOAD on ':' and ' '. (No strcspn: its table is one
 * more page for a fork child to fault in.) */
HS_CHILD_PATH
static bool list_has(const char *list, const char *item)
{
	size_t n = hs_len(item);

	while (*list) {
		size_t k = 0;

		while (list[k] && list[k] != ':' && list[k] != ' ')
			k++;

		if (k == n && hs_same_n(list, item, n))
			return true;
		list += k;
		if (*list)
			list++;
	}
	return false;
}

HS_CHILD_PATH
size_t hs_env_slots(char *const envp[])
{
	size_t n = 0;

	while (envp && envp[n])
		n++;
	return n + HS_EV_COUNT + 5; /* + role, marker, preload, add, NULL */
}

HS_CHILD_PATH
size_t hs_env_bytes(char *const envp[])
{
	const char *pre = find_preload(envp);

	return (pre ? hs_len(pre) : 0) + hs_len(hs_st.lib) + 160;
}

HS_CHILD_PATH
static char *put(char **pos, const char *end, const char *a, const char *b)
{
	size_t na = hs_len(a), nb = hs_len(b);
	char *s = *pos;

	if ((size_t)(end - s) < na + nb + 1)
		return NULL;
	hs_copy(s, a, na);
	hs_copy(s + na, b, nb + 1);
	*pos = s + na + nb + 1;
	return s;
}

HS_CHILD_PATH
char **hs_env_build(char **slots, size_t nslots, char *buf, size_t cap,
		    char *const envp[], enum hs_role role, const char *checked)
{
	const struct hs_state *st = &hs_st;
	const char *pre = find_preload(envp);
	char *pos = buf, *end = buf + cap;
	size_t n = 0;
	char *s;

	if (!slots || !buf || nslots < hs_env_slots(envp))
		return NULL;
	for (size_t i = 0; envp && envp[i]; i++)
		if (!is_dropped(envp[i]))
			slots[n++] = envp[i];
	for (int i = 0; i < HS_EV_COUNT; i++)
		if (st->env[i])
			slots[n++] = (char *)st->env[i];
	s = put(&pos, end, HS_ENV_ROLE "=", hs_role_name(role));
	if (s)
		slots[n++] = s;
	if (checked && (s = put(&pos, end, HS_ENV_CHECKED "=", checked)))
		slots[n++] = s;
	if (!st->lib[0] || (pre && list_has(pre, st->lib))) {
		if (pre)
			slots[n++] = (char *)pre - (sizeof("LD_PRELOAD=") - 1);
	} else if ((s = put(&pos, end, "LD_PRELOAD=", st->lib))) {
		if (pre && *pre) {
			/* extend in place: s ends where pos-1 is the NUL */
			pos--;
			if (!put(&pos, end, ":", pre))
				pos++;
		}
		slots[n++] = s;
	}
	slots[n] = NULL;
	return slots;
}

HS_CHILD_PATH
void hs_env_add(char **env, char *const envp[], size_t nslots, char *s)
{
	size_t n = 0;

	if (!s || !env || env == (char **)envp)
		return; /* not repaired: no spare slot */
	while (env[n])
		n++;
	if (n + 1 < nslots) {
		env[n] = s;
		env[n + 1] = NULL;
	}
}

HS_CHILD_PATH
struct hs_env_map hs_env_map(bool big, size_t nslots, size_t nbytes)
{
	struct hs_env_map m = { NULL, NULL, 0 };
	size_t len;
	void *p;

	if (!big)
		return m;
	len = nslots * sizeof(char *) + nbytes;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return m;
	m.slots = p;
	m.bytes = (char *)p + nslots * sizeof(char *);
	m.len = len;
	return m;
}

HS_CHILD_PATH
void hs_env_unmap(struct hs_env_map *m)
{
	if (m->slots)
		munmap(m->slots, m->len);
}

HS_CHILD_PATH
void hs_marker(char *buf, const char *kind, pid_t pid)
{
	size_t k = hs_len(kind);

	hs_copy(buf, kind, k);
	buf[k] = ':';
	hs_utoa((unsigned long)pid, buf + k + 1);
}

HS_START_PATH
const char *hs_environ_take(const char *prefix)
{
	const char *first;
	char **r = environ, **w;

	while (r && *r && !hs_starts(*r, prefix))
		r++;
	if (!r || !*r)
		return NULL; /* the usual case: not one store to environ */
	first = *r + hs_len(prefix);
	for (w = r; *r; r++)
		if (!hs_starts(*r, prefix))
			*w++ = *r;
	*w = NULL;
	return first;
}
