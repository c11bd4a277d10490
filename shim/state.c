/* Session state; see state.h. */
#include "state.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../engine/dispatch.h"
#include "proto.h"

struct hs_state hs_st;
__thread int hs_depth __attribute__((tls_model("initial-exec")));

/* Storage behind hs_st.env: "NAME=" plus the value. */
static char env_buf[HS_EV_COUNT][PATH_MAX + 32];

static void copy_env(char *dst, size_t cap, const char *name)
{
	const char *v = getenv(name);

	dst[0] = '\0';
	if (v && strlen(v) < cap)
		memcpy(dst, v, strlen(v) + 1);
}

/* "i=5,x=126,e=13,s=0,n=0"; unknown keys ignored, so the supervisor can
 * add some without breaking old shims. */
static void parse_flags(struct hs_state *st, const char *s)
{
	while (s && *s) {
		const char *end = strchr(s, ',');
		size_t n = end ? (size_t)(end - s) : strlen(s);
		char val[24];

		if (n > 2 && s[1] == '=' && n - 2 < sizeof(val)) {
			long v;

			memcpy(val, s + 2, n - 2);
			val[n - 2] = '\0';
			v = hs_atol(val);
			if (v >= 0) {
				switch (s[0]) {
				case 'i': st->interest = (unsigned)v; break;
				case 'x': st->deny_exit = (int)v; break;
				case 'e': st->deny_errno = (int)v; break;
				case 's': st->strict = v != 0; break;
				case 'n': st->nested = v != 0; break;
				}
			}
		}
		s = end ? end + 1 : NULL;
	}
}

/* Our own path, for LD_PRELOAD when HOOKSHIM_LIB is missing. */
static void own_path(char *dst, size_t cap)
{
	Dl_info info;

	if (dladdr((void *)own_path, &info) && info.dli_fname &&
	    info.dli_fname[0] == '/' && strlen(info.dli_fname) < cap)
		memcpy(dst, info.dli_fname, strlen(info.dli_fname) + 1);
}

/* The hookshim binary itself runs hooks and wrappers: it must never judge
 * its own children (it marks them itself). Compared by inode, since
 * HOOKSHIM_BIN need not be canonical. */
static bool is_hookshim_binary(const struct hs_state *st)
{
	struct stat a, b;

	return st->bin[0] && stat("/proc/self/exe", &a) == 0 &&
	       stat(st->bin, &b) == 0 && a.st_dev == b.st_dev &&
	       a.st_ino == b.st_ino;
}

static void set_env_str(enum hs_envvar i, const char *name, const char *val)
{
	size_t n = strlen(name), m = strlen(val);

	if (n + m + 2 > sizeof(env_buf[i]))
		return;
	memcpy(env_buf[i], name, n);
	env_buf[i][n] = '=';
	memcpy(env_buf[i] + n + 1, val, m + 1);
	hs_st.env[i] = env_buf[i];
}

void hs_state_init(void)
{
	struct hs_state *st = &hs_st;
	const char *off = getenv(HS_ENV_OFF);
	const char *role = getenv(HS_ENV_ROLE);
	ssize_t n;

	if (__atomic_load_n(&st->loaded, __ATOMIC_ACQUIRE))
		return;
	st->deny_exit = 126;
	st->deny_errno = EACCES;
	st->pid = getpid();
	copy_env(st->sock, sizeof(st->sock), HS_ENV_SOCK);
	copy_env(st->session, sizeof(st->session), HS_ENV_SESSION);
	copy_env(st->root, sizeof(st->root), HS_ENV_ROOT);
	copy_env(st->bin, sizeof(st->bin), HS_ENV_BIN);
	copy_env(st->lib, sizeof(st->lib), HS_ENV_LIB);
	copy_env(st->write, sizeof(st->write), HS_ENV_WRITE);
	if (!st->lib[0])
		own_path(st->lib, sizeof(st->lib));
	parse_flags(st, getenv(HS_ENV_FLAGS));
	st->role = role && strcmp(role, "tool") == 0 ? HS_ROLE_TOOL
						     : HS_ROLE_AGENT;
	n = readlink("/proc/self/exe", st->exe, sizeof(st->exe) - 1);
	st->exe[n > 0 ? n : 0] = '\0';
	st->exe_base = hs_basename(st->exe);
	st->shell = hs_is_shell_name(st->exe_base);

	st->inert = (off && off[0] && strcmp(off, "0") != 0) ||
		    is_hookshim_binary(st);
	st->active = !st->inert && st->sock[0];

	set_env_str(HS_EV_SOCK, HS_ENV_SOCK, st->sock);
	set_env_str(HS_EV_SESSION, HS_ENV_SESSION, st->session);
	set_env_str(HS_EV_ROOT, HS_ENV_ROOT, st->root);
	set_env_str(HS_EV_BIN, HS_ENV_BIN, st->bin);
	set_env_str(HS_EV_LIB, HS_ENV_LIB, st->lib);
	set_env_str(HS_EV_FLAGS, HS_ENV_FLAGS,
		    getenv(HS_ENV_FLAGS) ? getenv(HS_ENV_FLAGS) : "");
	if (getenv(HS_ENV_WRITE))
		set_env_str(HS_EV_WRITE, HS_ENV_WRITE, st->write);
	set_env_str(HS_EV_URING, "UV_USE_IO_URING", "0");
	__atomic_store_n(&st->loaded, true, __ATOMIC_RELEASE);
}

bool hs_exec_interest(const struct hs_state *st)
{
	return st->interest & (HS_INTEREST_EXEC_PRE | HS_INTEREST_EXEC_POST);
}

bool hs_nested_enabled(const struct hs_state *st)
{
	return st->nested || (st->interest & HS_INTEREST_EXEC_NESTED);
}

bool hs_is_shell_name(const char *name)
{
	static const char *const shells[] = { "sh", "bash", "dash", "zsh",
					      "ksh", "ash" };

	if (name[0] == '-') /* login shell argv[0] */
		name++;
	for (size_t i = 0; i < sizeof(shells) / sizeof(shells[0]); i++)
		if (strcmp(name, shells[i]) == 0)
			return true;
	return false;
}

const char *hs_basename(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

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
	size_t n = strlen(s);

	while (n > 0) {
		ssize_t r = write(fd, s, n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return;
		s += r;
		n -= (size_t)r;
	}
}
