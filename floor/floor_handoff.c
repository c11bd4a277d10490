/* What makes a granted tool call a hand-off (enforce mode): code its
 * hook did not see that its shell or interpreter will run, from its
 * environment or from the start-up files shells read. floor_lineage.c
 * asks when it confirms a grant, floor_task.c whenever a command's
 * process is looked up (docs/floor.md, "Exactly once", Roles).
 *
 * The environment is the kernel's copy of what the exec was given
 * (/proc/PID/environ, whole): an entry that carries code
 * (engine/env_code.c) and is not one of the user's -- the agent's
 * starting environment -- byte for byte; git's settings by the
 * environment as a whole, once one of them is not the user's.
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
 * directory each of those that is a symlink leads to; and the files other
 * programs read as code, git's configuration (~/.gitconfig, git/config
 * under $XDG_CONFIG_HOME and ~/.config, /etc/gitconfig: core.fsmonitor
 * runs in a `git status`), less's key files (~/.lesskey, ~/.less,
 * lesskey and less under both, /etc/syslesskey, /etc/sysless) and
 * lesspipe's ~/.lessfilter, and those the user's own GIT_CONFIG_GLOBAL,
 * LESSKEYIN, ... name. One whose directory is not there yet is watched
 * in the nearest that is, for the next one's making, which counts only
 * once the file itself is there (an agent's ~/.config for its own files
 * is no change: nearer). Once any of them
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
#include "../engine/env_code.h"
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
	char *target; /* a directory on the way to it made: only once it is
		       * there (watch_maybe) */
} watch[NWATCH];
static int nwatch;
static int dirty; /* atomic: a start-up file changed */
static const char *maybe_target; /* watch_maybe's, while it adds one */
static pthread_mutex_t queue_lock = PTHREAD_MUTEX_INITIALIZER;

/* The session dirty from now on, said once on stderr. */
static void make_dirty(const char *what)
{
	if (!__atomic_exchange_n(&dirty, 1, __ATOMIC_ACQ_REL))
		fprintf(stderr, "hookshim: %s: every program a command starts "
				"is judged from now on (enforce mode)\n",
			what);
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
	bool yes = false, git_changed = false;

	snprintf(p, sizeof(p), "/proc/%d/environ", (int)tgid);
	if (!(buf = hs_fl_read_all_at(AT_FDCWD, p, ENVIRON_MAX, &len)))
		return true;
	for (e = buf; !yes && e < buf + len; e += strlen(e) + 1) {
		size_t el = strlen(e);
		bool same = false, git = hs_starts(e, "GIT_CONFIG_COUNT=") ||
					 hs_starts(e, "GIT_CONFIG_KEY_") ||
					 hs_starts(e, "GIT_CONFIG_VALUE_");

		if (git || hs_env_code(e, el)) {
			for (size_t k = 0; k < nstart_env && !same; k++)
				same = strlen(start_env[k]) == el &&
				       memcmp(start_env[k], e, el) == 0;
			/* git's settings: judged as a whole, once one of
			 * them is not the user's */
			if (git)
				git_changed |= !same;
			else
				yes = !same;
		}
	}
	if (!yes && git_changed)
		yes = hs_env_git_carries(buf, len);
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
		make_dirty("the start-up files cannot all be watched "
			   "(inotify: no watches left)");
	if (wd < 0)
		return;
	last_wd = snprintf(last, sizeof(last), "%s", dir) < (int)sizeof(last)
			  ? wd
			  : -1;
	for (int i = 0; i < nwatch; i++) /* (one directory's wd, again) */
		if (watch[i].wd == wd && strcmp(watch[i].name, name) == 0 &&
		    (watch[i].target && maybe_target
			     ? strcmp(watch[i].target, maybe_target) == 0
			     : !watch[i].target && !maybe_target))
			return;
	watch[nwatch].wd = wd;
	snprintf(watch[nwatch].name, sizeof(watch[nwatch].name), "%s", name);
	watch[nwatch].target = maybe_target ? strdup(maybe_target) : NULL;
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

/* Watches dir/name, dir made of parts that may not be there yet: the
 * nearest that is, for the making of the next (a ~/.config/git not there
 * yet, whose config git would read once made). */
static void watch_maybe(const char *dir, const char *name)
{
	char d[PATH_MAX], t[PATH_MAX], *slash;
	struct stat sb;

	if (!dir || !dir[0] ||
	    snprintf(d, sizeof(d), "%s", dir) >= (int)sizeof(d) ||
	    snprintf(t, sizeof(t), "%s/%s", dir, name) >= (int)sizeof(t))
		return;
	if (stat(d, &sb) == 0) {
		watch_file(d, name);
		return;
	}
	/* (a ~/.config an agent makes for its own files is no change, until
	 * the file itself is there: counts) */
	while ((slash = strrchr(d, '/')) && slash != d) {
		*slash = '\0';
		if (stat(d, &sb) == 0) {
			maybe_target = t;
			watch_dir(d, slash + 1);
			maybe_target = NULL;
			return;
		}
	}
}

/* Files programs other than shells read as code, in home (and the XDG
 * configuration directory xdg, or home's .config): git's configuration
 * (core.fsmonitor, aliases, a pager: run by a `git status`), less's key
 * files (#env sets LESSOPEN, a command). */
static void watch_config(const char *home, const char *xdg)
{
	char conf[PATH_MAX] = "", git[PATH_MAX];

	if (!home || !home[0])
		return;
	watch_file(home, ".gitconfig");
	watch_file(home, ".lesskey");
	watch_file(home, ".less");       /* less's binary key file */
	watch_file(home, ".lessfilter"); /* lesspipe runs it */
	/* HOME's .config too: git and less read it where XDG_CONFIG_HOME
	 * is unset, or names nothing */
	for (int i = 0; i < 2; i++) {
		const char *d = i ? xdg : conf;

		if (!i && snprintf(conf, sizeof(conf), "%s/.config", home) >=
				  (int)sizeof(conf))
			continue;
		if (!d || !d[0] || (i && strcmp(d, conf) == 0))
			continue;
		watch_maybe(d, "lesskey");
		watch_maybe(d, "less");
		if (snprintf(git, sizeof(git), "%s/git", d) < (int)sizeof(git))
			watch_maybe(git, "config");
	}
}

/* The files the user's own environment names for git and less: watched
 * as theirs (a GIT_CONFIG_GLOBAL of the user's is the file git reads). */
static void watch_named(void)
{
	static const char *const names[] = {
		"GIT_CONFIG_GLOBAL=", "GIT_CONFIG_SYSTEM=", "LESSKEYIN=",
		"LESSKEY=", "LESSKEYIN_SYSTEM=", "LESSKEY_SYSTEM=",
	};
	char d[PATH_MAX], *slash;
	const char *v;

	for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++)
		if ((v = start_value(names[i])) && v[0] == '/' &&
		    snprintf(d, sizeof(d), "%s", v) < (int)sizeof(d) &&
		    (slash = strrchr(d, '/'))) {
			*slash = '\0';
			watch_maybe(d[0] ? d : "/", slash + 1);
		}
}

static void start_watching(void)
{
	static const char *const etc[] = {
		"profile", "bash.bashrc", "bashrc", "bash.bash_logout",
		"zshenv", "zprofile", "zshrc", "zlogin", "zlogout",
		"profile.d", "zsh", "gitconfig", "syslesskey", "sysless",
		"lesskey",
	};
	struct passwd *pw = getpwuid(getuid());

	if ((ifd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC)) < 0) {
		make_dirty("the start-up files cannot be watched "
			   "(inotify: no instance left)");
		return;
	}
	watch_home(start_value("HOME="));
	watch_home(start_value("ZDOTDIR="));
	if (pw)
		watch_home(pw->pw_dir);
	watch_home("/");
	watch_config(start_value("HOME="), start_value("XDG_CONFIG_HOME="));
	if (pw)
		watch_config(pw->pw_dir, NULL);
	watch_named();
	for (size_t i = 0; i < sizeof(etc) / sizeof(*etc); i++)
		watch_file("/etc", etc[i]);
	watch_dir("/etc/profile.d", "");
	watch_dir("/etc/zsh", "");
}

/* A directory on the way to target was made: true when target is there
 * (a change); else watched nearer, in the nearest directory there now,
 * looked at again once that watch is in place, so that nothing made
 * meanwhile goes unseen. */
static bool nearer(const char *target)
{
	char t[PATH_MAX], d[PATH_MAX], *slash;
	struct stat sb;

	if (snprintf(t, sizeof(t), "%s", target) >= (int)sizeof(t))
		return true;
	for (int hops = 0; hops < 16; hops++) {
		if (lstat(t, &sb) == 0)
			return true;
		memcpy(d, t, strlen(t) + 1);
		/* the nearest that is there, and its next component */
		while ((slash = strrchr(d, '/')) && slash != d) {
			*slash = '\0';
			if (stat(d, &sb) == 0)
				break;
		}
		if (!slash || slash == d)
			return true; /* nothing on the way: the safe side */
		maybe_target = t;
		watch_dir(d, slash + 1);
		maybe_target = NULL;
		*slash = '/';
		if (stat(d, &sb) != 0) /* still not made: the watch sees it */
			return false;
	}
	return true;
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
		     (ev->len && strcmp(watch[i].name, ev->name) == 0))) {
			if (!watch[i].target || nearer(watch[i].target))
				return true;
		}
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
					 "a start-up file changed during "
					 "the session (%s)",
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
