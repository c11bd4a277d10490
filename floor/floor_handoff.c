/* What makes a granted tool call a hand-off (enforce mode): code its
 * hook did not see that its shell or interpreter will run, from its
 * environment or from the start-up files shells read. floor_lineage.c
 * asks when it confirms a grant, floor_task.c whenever a command's
 * process is looked up (docs/floor.md, "Exactly once", Roles).
 *
 * The environment is the kernel's copy of what the exec was given
 * (/proc/PID/environ, whole): an entry that carries code (code_entry)
 * and is not one of the user's -- the agent's starting environment --
 * byte for byte.
 *
 * The start-up files: Codex runs its commands as `bash -lc`, Claude Code
 * as `bash -c -l`, and a line the session appended to ~/.bash_profile
 * ran in every later tool call, and in every shell a command started,
 * unjudged. Which shell reads which file, and when (a login, an
 * interactive one, any zsh, bash's `-c` with a socket for stdin, a
 * login's exit), is too many cases to follow, and a change can be made
 * between our look and the shell's read. So they are watched instead
 * (inotify, from the session's start): the user's under HOME, the
 * password database's home and "/" (a HOME unset or empty), the user's
 * ZDOTDIR, the system's (/etc/profile and /etc/profile.d, bash.bashrc,
 * bashrc, zshenv, zprofile, zshrc, zlogin, zlogout, /etc/zsh), and the
 * directory each of those that is a symlink leads to. Once any of them
 * changes, the session is "dirty" for good: every command's process is
 * a hand-off's from then on, every program it starts judged -- more
 * judging, said once on the supervisor's stderr. The watch queue is
 * read where a decision needs it (hs_fl_handoff_dirty), without
 * blocking: the kernel queues an event before the write that makes it
 * returns, so a change made before a decision is seen by it. A file a
 * start-up file sources from elsewhere, one changed in an earlier
 * session, or one shown to the agent by a mount of its own (where
 * floor_allow lets it mount) is not: docs/limits.md. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <pwd.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/plainstr.h"
#include "floor_int.h"

#define ENVIRON_MAX (64u << 20) /* more, and it is taken to carry code */
#define NWATCH 256

/* The agent's starting environment (the user's), against which a tool
 * call's is read for code. Set once, before any receiver runs. */
static char **start_env;
static size_t nstart_env;

/* The start-up files' watches: a directory's (wd) events count for one
 * name in it, or any (name ""). */
static int ifd = -1;
static struct {
	int wd;
	char name[NAME_MAX + 1];
} watch[NWATCH];
static int nwatch;
static int dirty; /* atomic: a start-up file changed */
static pthread_mutex_t queue_lock = PTHREAD_MUTEX_INITIALIZER;

/* The session dirty from now on, said once on stderr. */
static void make_dirty(const char *what)
{
	if (!__atomic_exchange_n(&dirty, 1, __ATOMIC_ACQ_REL))
		fprintf(stderr, "hookshim: %s: every program a command starts "
				"is judged from now on (enforce mode)\n",
			what);
}

/* Does node's NODE_OPTIONS value v (len bytes) hold anything but the
 * options that load no code -- a heap's size, warnings, source maps --
 * (not --require, --import, --loader, --inspect, --env-file,
 * --openssl-config, ..., nor one unknown here)? */
static bool node_options_carry(const char *v, size_t len)
{
	static const char *const inert[] = {
		"--max-old-space-size=", "--max_old_space_size=",
		"--max-semi-space-size=", "--max_semi_space_size=",
		"--stack-size=", "--max-http-header-size=", "--title=",
		"--openssl-legacy-provider",
		"--unhandled-rejections=", "--dns-result-order=",
		"--disable-warning=", "--no-warnings", "--no-deprecation",
		"--trace-warnings", "--trace-deprecation",
		"--trace-uncaught", "--enable-source-maps",
		"--use-openssl-ca", "--use-bundled-ca", "--preserve-symlinks",
	};
	const char *end = v + len;

	while (v < end) {
		size_t n;
		bool ok = false;

		while (v < end && (*v == ' ' || *v == '\t'))
			v++;
		n = (size_t)(end - v);
		for (const char *q = v; q < end; q++)
			if (*q == ' ' || *q == '\t') {
				n = (size_t)(q - v);
				break;
			}
		for (size_t k = 0; n && !ok && k < sizeof(inert) / sizeof(*inert);
		     k++) {
			size_t m = strlen(inert[k]);

			ok = inert[k][m - 1] == '=' ? n > m && !memcmp(v, inert[k], m)
						    : n == m && !memcmp(v, inert[k], m);
		}
		if (n && !ok)
			return true;
		v += n;
	}
	return false;
}

/* Is entry e (NAME=VALUE) one that carries code into a shell or any
 * dynamic program -- a file a shell sources (BASH_ENV, ENV, ZDOTDIR, and
 * HOME's for a login, interactive or zsh shell), exported functions,
 * shell options and prompts that run commands, the dynamic loader's
 * preloads, audits and search paths -- or into an interpreter: the
 * modules python, perl, ruby, lua and node find first or load at start
 * (sitecustomize.py on PYTHONPATH, PERL5OPT's -M, RUBYOPT's -r,
 * NODE_OPTIONS' --require), a JVM's agents and classes, OpenSSL's
 * modules (any program that links it), the configuration a program
 * reads from XDG_CONFIG_HOME as from HOME (git's core.fsmonitor) --
 * with a value? */
static bool code_entry(const char *e, size_t len)
{
	static const char *const names[] = {
		"BASH_ENV=", "ENV=", "ZDOTDIR=", "HOME=", "SHELLOPTS=",
		"BASHOPTS=", "PS4=", "PROMPT_COMMAND=", "LD_PRELOAD=",
		"LD_AUDIT=", "LD_LIBRARY_PATH=", "GCONV_PATH=",
		"PYTHONPATH=", "PYTHONHOME=", "PYTHONSTARTUP=",
		"PYTHONUSERBASE=", "PERL5OPT=", "PERL5LIB=", "PERLLIB=",
		"PERL5DB=", "RUBYOPT=", "RUBYLIB=", "NODE_PATH=",
		"JAVA_TOOL_OPTIONS=", "JDK_JAVA_OPTIONS=", "_JAVA_OPTIONS=",
		"CLASSPATH=", "GEM_HOME=", "GEM_PATH=", "BUNDLE_GEMFILE=",
		"LUA_INIT=", "LUA_PATH=", "LUA_CPATH=", "PYTHONWARNINGS=",
		"OPENSSL_CONF=", "OPENSSL_MODULES=", "OPENSSL_ENGINES=",
		"XDG_CONFIG_HOME=",
	};

	if (len > 10 && strncmp(e, "BASH_FUNC_", 10) == 0)
		return true;
	if (len >= 13 && strncmp(e, "NODE_OPTIONS=", 13) == 0)
		return node_options_carry(e + 13, len - 13);
	for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
		size_t n = strlen(names[k]);

		/* an empty one carries nothing -- but an empty HOME or
		 * ZDOTDIR names "/": its .profile, its .zshenv */
		if (len >= n && strncmp(e, names[k], n) == 0)
			return len > n || !strcmp(names[k], "HOME=") ||
			       !strcmp(names[k], "ZDOTDIR=");
	}
	return false;
}

/* The value of the user's own NAME ("NAME=") in the starting
 * environment, or NULL. */
static const char *start_value(const char *name)
{
	size_t n = strlen(name);

	for (size_t k = 0; k < nstart_env; k++)
		if (strncmp(start_env[k], name, n) == 0)
			return start_env[k] + n;
	return NULL;
}

bool hs_fl_handoff_carries(pid_t tgid)
{
	char p[48], *buf, *e;
	size_t len;
	bool yes = false;

	snprintf(p, sizeof(p), "/proc/%d/environ", (int)tgid);
	if (!(buf = hs_fl_read_all_at(AT_FDCWD, p, ENVIRON_MAX, &len)))
		return true;
	for (e = buf; !yes && e < buf + len; e += strlen(e) + 1) {
		size_t el = strlen(e);
		bool same = false;

		if (code_entry(e, el)) {
			for (size_t k = 0; k < nstart_env && !same; k++)
				same = strlen(start_env[k]) == el &&
				       memcmp(start_env[k], e, el) == 0;
			yes = !same;
		}
	}
	free(buf);
	return yes;
}

/* ---- the start-up files ---- */

/* Watches directory dir for changes to name in it ("": to anything). */
static void watch_dir(const char *dir, const char *name)
{
	/* the directory watched last: a home's names come one after
	 * another, one inotify_add_watch for all */
	static char last[PATH_MAX];
	static int last_wd = -1;
	int wd;

	if (!dir || !dir[0])
		return;
	if (nwatch >= NWATCH) {
		wd = -1;
		errno = ENOSPC;
	} else if (last_wd >= 0 && strcmp(dir, last) == 0) {
		wd = last_wd;
	} else {
		wd = inotify_add_watch(ifd, dir,
				       IN_MODIFY | IN_ATTRIB | IN_CLOSE_WRITE |
					       IN_CREATE | IN_DELETE |
					       IN_MOVED_FROM | IN_MOVED_TO |
					       IN_DELETE_SELF | IN_MOVE_SELF |
					       IN_ONLYDIR);
	}
	/* a directory that is not there (or not ours to read) holds
	 * nothing a shell of ours reads; one we cannot watch for want of
	 * watches or memory might */
	if (wd < 0 && (errno == ENOSPC || errno == ENOMEM))
		make_dirty("the shells' start-up files cannot all be watched "
			   "(inotify: no watches left)");
	if (wd < 0)
		return;
	last_wd = snprintf(last, sizeof(last), "%s", dir) < (int)sizeof(last)
			  ? wd
			  : -1;
	for (int i = 0; i < nwatch; i++) /* (one directory's wd, again) */
		if (watch[i].wd == wd && strcmp(watch[i].name, name) == 0)
			return;
	watch[nwatch].wd = wd;
	snprintf(watch[nwatch].name, sizeof(watch[nwatch].name), "%s", name);
	nwatch++;
}

/* Watches dir/name, and where it is a symlink, each file its links lead
 * to in turn (one not there yet too: its making is a change). */
static void watch_file(const char *dir, const char *name)
{
	char p[PATH_MAX], to[PATH_MAX], d[PATH_MAX], *slash;
	struct stat sb;
	ssize_t n;

	watch_dir(dir, name);
	if (snprintf(p, sizeof(p), "%s/%s", dir, name) >= (int)sizeof(p))
		return;
	for (int hops = 0; hops < 8 && lstat(p, &sb) == 0 &&
			   S_ISLNK(sb.st_mode);
	     hops++) {
		if ((n = readlink(p, to, sizeof(to) - 1)) <= 0)
			return;
		to[n] = '\0';
		snprintf(d, sizeof(d), "%s", p);
		*strrchr(d, '/') = '\0'; /* the link's directory */
		if (to[0] == '/')
			snprintf(p, sizeof(p), "%s", to);
		else if (snprintf(p, sizeof(p), "%s/%s", d[0] ? d : "",
				  to) >= (int)sizeof(p))
			return;
		if (!(slash = strrchr(p, '/')))
			return;
		*slash = '\0';
		watch_dir(p[0] ? p : "/", slash + 1);
		*slash = '/';
	}
}

static void watch_home(const char *home)
{
	static const char *const users[] = {
		".bash_profile", ".bash_login", ".profile", ".bashrc",
		".bash_aliases", ".bash_logout", ".zshenv", ".zprofile",
		".zshrc", ".zlogin", ".zlogout", ".kshrc", ".mkshrc",
	};

	char parent[PATH_MAX], *slash;
	struct stat sb;

	/* a HOME not there yet: its making, in its parent, is a change */
	if (home && home[0] && stat(home, &sb) != 0 &&
	    snprintf(parent, sizeof(parent), "%s", home) < (int)sizeof(parent) &&
	    (slash = strrchr(parent, '/'))) {
		*slash = '\0';
		watch_dir(parent[0] ? parent : "/", slash + 1);
		return;
	}
	for (size_t i = 0; home && home[0] && i < sizeof(users) / sizeof(*users); i++)
		watch_file(home, users[i]);
}

static void start_watching(void)
{
	static const char *const etc[] = {
		"profile", "bash.bashrc", "bashrc", "bash.bash_logout",
		"zshenv", "zprofile", "zshrc", "zlogin", "zlogout",
		"profile.d", "zsh",
	};
	struct passwd *pw = getpwuid(getuid());

	if ((ifd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC)) < 0) {
		make_dirty("the shells' start-up files cannot be watched "
			   "(inotify: no instance left)");
		return;
	}
	watch_home(start_value("HOME="));
	watch_home(start_value("ZDOTDIR="));
	if (pw)
		watch_home(pw->pw_dir);
	watch_home("/");
	for (size_t i = 0; i < sizeof(etc) / sizeof(*etc); i++)
		watch_file("/etc", etc[i]);
	watch_dir("/etc/profile.d", "");
	watch_dir("/etc/zsh", "");
}

/* Does event ev say a start-up file changed? */
static bool counts(const struct inotify_event *ev)
{
	if (ev->mask & (IN_Q_OVERFLOW | IN_DELETE_SELF | IN_MOVE_SELF |
			IN_UNMOUNT | IN_IGNORED))
		return true; /* lost, or the directory itself went */
	for (int i = 0; i < nwatch; i++)
		if (watch[i].wd == ev->wd &&
		    (!watch[i].name[0] ||
		     (ev->len && strcmp(watch[i].name, ev->name) == 0)))
			return true;
	return false;
}

bool hs_fl_handoff_dirty(void)
{
	char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
	ssize_t n;

	if (__atomic_load_n(&dirty, __ATOMIC_ACQUIRE))
		return true;
	if (ifd < 0)
		return false;
	/* one reader at a time: an event another thread has taken off the
	 * queue counts before this one says "unchanged" */
	pthread_mutex_lock(&queue_lock);
	while ((n = read(ifd, buf, sizeof(buf))) > 0)
		for (char *p = buf; p < buf + n;) {
			const struct inotify_event *ev =
				(const struct inotify_event *)p;

			if (counts(ev)) {
				char what[NAME_MAX + 80];

				snprintf(what, sizeof(what),
					 "a shell's start-up file changed "
					 "during the session (%s)",
					 ev->len ? ev->name
						 : "a directory of them");
				make_dirty(what);
			}
			p += sizeof(*ev) + ev->len;
		}
	pthread_mutex_unlock(&queue_lock);
	return __atomic_load_n(&dirty, __ATOMIC_ACQUIRE) != 0;
}

void hs_fl_handoff_start(char *const *env, bool watch_files)
{
	for (size_t i = 0; env && env[i]; i++) {
		char **m = realloc(start_env, (nstart_env + 1) * sizeof(*m));

		if (!m)
			break;
		start_env = m;
		if ((start_env[nstart_env] = strdup(env[i])))
			nstart_env++;
	}
	if (watch_files)
		start_watching();
}
