/* Session state; see state.h. */
#include "state.h"

#include <dlfcn.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/wire.h"
#include "../common/plainstr.h"
#include "../common/shellargv.h"
#include "../common/wire.h"
#include "symbols.h"

extern char **environ;

struct hs_state hs_st HS_HOT;
__thread int hs_depth __attribute__((tls_model("initial-exec")));

/* Start-up storage: hs_st's strings ("NAME=value" one after another, the
 * fields pointing at their values), then the write filter's copy and
 * table. Every process the agent starts fills it before main, and on a
 * loaded VM each fresh page written costs as much as a small syscall, so
 * it is packed rather than a PATH_MAX slot per string, and placed (by
 * shim/layout.ld) right after the small statics, in the page they and
 * the loader already touch. Sized for every string at its longest plus
 * the write filter's copy and table. */
static char arena[HS_EV_COUNT * (PATH_MAX + 32) + 8 * PATH_MAX] HS_ARENA;
static size_t arena_used HS_HOT;

HS_START_PATH
void *hs_arena_take(size_t n, size_t align)
{
	size_t at, used = __atomic_load_n(&arena_used, __ATOMIC_RELAXED);

	do {
		at = (used + align - 1) & ~(align - 1);
		if (at > sizeof(arena) || n > sizeof(arena) - at)
			return NULL;
	} while (!__atomic_compare_exchange_n(&arena_used, &used, at + n, true,
					      __ATOMIC_RELAXED,
					      __ATOMIC_RELAXED));
	return arena + at;
}

/* "NAME=val" into the arena; NULL if it does not fit. */
HS_START_PATH
static char *arena_put(const char *name, const char *val)
{
	size_t n = hs_len(name), m = hs_len(val);
	char *s;

	if (m >= PATH_MAX + 16 || !(s = hs_arena_take(n + m + 2, 1)))
		return NULL;
	hs_copy(s, name, n);
	s[n] = '=';
	hs_copy(s + n + 1, val, m + 1);
	return s;
}

/* The session's variables, found in one pass over environ rather than one
 * getenv each (bash, for one, defines its own getenv). */
struct env_vals {
	const char *sock, *session, *root, *bin, *lib, *flags, *write, *off,
		*role, *checked;
};

HS_START_PATH
static void scan_env(struct env_vals *v)
{
	static const struct {
		char name[10]; /* after "HOOKSHIM_", with the '=' (no pointer:
				* no relocation, see shim/layout.ld) */
		unsigned char off;
	} keys[] = {
#define K(n, f) { n "=", offsetof(struct env_vals, f) }
		K("SOCK", sock), K("SESSION", session), K("ROOT", root),
		K("BIN", bin), K("LIB", lib), K("FLAGS", flags),
		K("WRITE", write), K("INERT", off), K("ROLE", role),
		K("CHECKED", checked),
#undef K
	};

	memset(v, 0, sizeof(*v));
	for (char **ep = environ; ep && *ep; ep++) {
		if ((*ep)[0] != 'H' || !hs_starts(*ep, "HOOKSHIM_"))
			continue;
		for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
			size_t n = hs_len(keys[i].name);
			const char **slot =
				(const char **)((char *)v + keys[i].off);

			if (!*slot && hs_starts(*ep + 9, keys[i].name)) {
				*slot = *ep + 9 + n; /* first one wins, as getenv */
				break;
			}
		}
	}
}

/* "i=5,x=126,e=13,s=0,n=0"; unknown keys ignored, so the supervisor can
 * add some without breaking old shims. */
HS_START_PATH
static void parse_flags(struct hs_state *st, const char *s)
{
	char k;
	long v;

	while (hs_flags_next(&s, &k, &v)) {
		switch (k) {
		case 'i': st->interest = (unsigned)v; break;
		case 'x': st->deny_exit = (int)v; break;
		case 'e': st->deny_errno = (int)v; break;
		case 's': st->strict = v != 0; break;
		case 'l': st->deny_on_loss = v != 0; break;
		case 'k': st->net_nokeep = v != 0; break;
		case 'n': st->nested = v != 0; break;
		case 'a': st->all_execs = v != 0; break;
		case 'm': st->enforce = v != 0; break;
		case 'c': st->cookie = (unsigned long)v; break;
		case 'p': st->sup_pid = v; break;
		case 't': st->sup_start = v; break;
		case 'w': st->sup_netns = (unsigned long)v; break;
		}
	}
}

/* Our own path, for LD_PRELOAD when HOOKSHIM_LIB is missing. */
static const char *own_path(void)
{
	Dl_info info;

	if (dladdr((void *)own_path, &info) && info.dli_fname &&
	    info.dli_fname[0] == '/')
		return info.dli_fname;
	return "";
}

/* The hookshim binary itself runs hooks and wrappers: it must never judge
 * its own children (it marks them itself). It exports a symbol to say so
 * (common/wire.h). */
HS_START_PATH
static bool is_hookshim_binary(void)
{
	return hs_main_exports(HS_EXE_MARK_NAME);
}

/* Value of one arena string, or "" when it could not be stored. */
HS_START_PATH
static const char *put_env(enum hs_envvar i, const char *name, const char *val)
{
	char *s = arena_put(name, val ? val : "");

	hs_st.env[i] = s;
	return s ? s + hs_len(name) + 1 : "";
}

/* Racing callers read the same link and store equal strings. */
HS_CHILD_PATH
const char *hs_exe(void)
{
	const char *exe = __atomic_load_n(&hs_st.exe, __ATOMIC_ACQUIRE);
	char buf[PATH_MAX];
	char *dst = NULL;
	ssize_t n;

	if (exe)
		return exe;
	n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
	if (n > 0 && (dst = hs_arena_take((size_t)n + 1, 1))) {
		hs_copy(dst, buf, (size_t)n);
		dst[n] = '\0';
	}
	exe = dst ? dst : "";
	__atomic_store_n(&hs_st.exe, exe, __ATOMIC_RELEASE);
	return exe;
}

bool hs_exe_is_shell(void)
{
	return hs_shell_name(hs_base(hs_exe()));
}

HS_START_PATH
static void load(struct hs_state *st)
{
	struct env_vals v;

	scan_env(&v);
	arena_used = 0;
	memset(st->env, 0, sizeof(st->env));
	st->interest = 0;
	st->strict = st->nested = st->deny_on_loss = false;
	st->cookie = 0;
	st->sup_pid = st->sup_start = 0;
	st->sup_netns = 0;
	st->deny_exit = 126;
	st->deny_errno = EACCES;
	st->pid = hs_getpid();
	st->sock = put_env(HS_EV_SOCK, HS_ENV_SOCK, v.sock);
	st->session = put_env(HS_EV_SESSION, HS_ENV_SESSION, v.session);
	st->root = put_env(HS_EV_ROOT, HS_ENV_ROOT, v.root);
	st->bin = put_env(HS_EV_BIN, HS_ENV_BIN, v.bin);
	st->lib = put_env(HS_EV_LIB, HS_ENV_LIB,
			  v.lib && v.lib[0] ? v.lib : own_path());
	put_env(HS_EV_FLAGS, HS_ENV_FLAGS, v.flags);
	st->write = v.write ? put_env(HS_EV_WRITE, HS_ENV_WRITE, v.write) : "";
	put_env(HS_EV_URING, "UV_USE_IO_URING", "0");
	parse_flags(st, v.flags);
	st->checked = v.checked;
	st->role = !v.role			? HS_ROLE_AGENT
		   : hs_same(v.role, "tool")	? HS_ROLE_TOOL
		   : hs_same(v.role, "handoff") ? HS_ROLE_HANDOFF
						: HS_ROLE_AGENT;
	st->inert = v.off && v.off[0] && !hs_same(v.off, "0");
	st->exe = NULL;
	if (!st->inert && st->sock[0])
		st->inert = is_hookshim_binary();
	st->active = !st->inert && st->sock[0];
	st->reads = st->active && (st->interest & HS_INTEREST_READ_PRE) &&
		    st->role == HS_ROLE_AGENT;
	st->reads_slow = st->reads ||
			 (st->cookie && (st->interest & HS_INTEREST_READ_PRE));
}

HS_START_PATH
void hs_state_init(void)
{
	if (__atomic_load_n(&hs_st.loaded, __ATOMIC_ACQUIRE))
		return;
	load(&hs_st);
	__atomic_store_n(&hs_st.loaded, true, __ATOMIC_RELEASE);
}

HS_START_PATH
void hs_state_reload(void)
{
	load(&hs_st);
	__atomic_store_n(&hs_st.loaded, true, __ATOMIC_RELEASE);
}

HS_CHILD_PATH
bool hs_exec_interest(const struct hs_state *st)
{
	return st->interest & (HS_INTEREST_EXEC_PRE | HS_INTEREST_EXEC_POST);
}

HS_CHILD_PATH
bool hs_nested_enabled(const struct hs_state *st)
{
	return st->nested || (st->interest & HS_INTEREST_EXEC_NESTED);
}

HS_CHILD_PATH
char *hs_utoa(unsigned long v, char *buf)
{
	char tmp[24];
	size_t n = 0;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	for (size_t i = 0; i < n; i++)
		buf[i] = tmp[n - 1 - i];
	buf[n] = '\0';
	return buf;
}

HS_START_PATH
long hs_atol(const char *s)
{
	long v = 0;

	if (!s || !*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > (LONG_MAX - 9) / 10)
			return -1;
		v = v * 10 + (*s - '0');
	}
	return v;
}

void hs_write_str(int fd, const char *s)
{
	(void)hs_write_full(fd, s, strlen(s));
}

void hs_write_escaped(int fd, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	char buf[256];
	size_t n = 0;

	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (n > sizeof(buf) - 5) {
			(void)hs_write_full(fd, buf, n);
			n = 0;
		}
		if (*p == '\n') {
			buf[n++] = '\\';
			buf[n++] = 'n';
		} else if (*p < 0x20 || *p == 0x7f || *p == '\\') {
			/* The backslash too, so "\n" in a name cannot pass
			 * for an escaped newline. */
			buf[n++] = '\\';
			if (*p == '\\') {
				buf[n++] = '\\';
			} else {
				buf[n++] = 'x';
				buf[n++] = hex[*p >> 4];
				buf[n++] = hex[*p & 15];
			}
		} else {
			buf[n++] = (char)*p;
		}
	}
	if (n)
		(void)hs_write_full(fd, buf, n);
}
