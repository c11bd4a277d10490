/* One notified write, read out of the stopped caller and classified:
 * its paths named from the caller's /proc (floor_path.c), then its
 * operation and events by the one rule the shim follows for the same
 * libc call (common/write_rule.h), so that a static program and a
 * dynamic one writing the same file fire the same events; what this
 * session's hooks watch is the write filter's (floor_scope.c). Before
 * that, the calls no path check can judge (floor_refuse.c) and those
 * into the supervisor's or its hooks' /proc (floor_reach.c); after, who
 * judges it (writes.agent_only). Everything is looked at, never
 * touched: lstat/stat, readlink. (Over 750 lines: the classification is
 * one sequence of steps over one notification, each needing the names
 * the ones before it built; split, each half would pass the whole call
 * state across.) */
#include "floor_int.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../common/pathfold.h"
#include "../common/plainstr.h"
#include "../common/shellargv.h"
#include "../common/temp_name.h"
#include "../common/wire.h"
#include "../common/write_rule.h"
#include "floor.h"
#include "floor_call.h"

#ifndef __O_TMPFILE
#define __O_TMPFILE 020000000
#endif
#ifndef __O_SYNC
#define __O_SYNC 04000000
#endif



/* One event of k: a pre into c->ev, or the post into c->post with where
 * the call's end will be seen. */
static void emit(struct hs_fl_call *c, bool post, enum hs_fl_seen seen,
		 const char *op, const char *path, const char *new_path)
{
	struct hs_fl_event *e = post ? &c->post.ev : &c->ev[c->nev++];

	if (post) {
		c->post.want = true;
		c->post.seen = seen;
	}
	e->op = "write";
	e->operation = op;
	/* cut, not overrun: an unnamed path (too long to name) is up to
	 * PATH_MAX + 1 bytes as the caller passed it; copied, not printed
	 * (once per notified write) */
	copy_cut(e->path, sizeof(e->path), path);
	e->has_new = new_path != NULL;
	e->temp_is = HS_FL_TEMP_NONE;
	if (new_path)
		copy_cut(e->new_path, sizeof(e->new_path), new_path);
}

static void event(struct hs_fl_call *c, const char *op, const char *path,
		  const char *new_path)
{
	emit(c, false, HS_FL_SEEN_CLOSE, op, path, new_path);
}

/* The last pre event, marked as an atomic save's (atomic_save.h). */
static void temp_of(struct hs_fl_call *c, int is, const char *temp)
{
	struct hs_fl_event *e = &c->ev[c->nev - 1];

	e->temp_is = is;
	copy_cut(e->temp, sizeof(e->temp), temp);
}

/* The shim's replace_op (shim/write_classify.c): an in-place change of
 * a non-empty file is "edit" (the tool name Edit) when the agent's own
 * process makes it, "overwrite" (Write) from a tool call (role "tool") or
 * a shell. The shim names a shell by its executable; a multi-call binary
 * (a static busybox) names no applet there, so its argv[0] counts too, or
 * `busybox`'s first argument. */
static const char *replace_op(pid_t tid, const struct stat *sb)
{
	char p[48], buf[PATH_MAX];
	ssize_t n;
	int fd;

	if (sb->st_size == 0 ||
	    (hs_fl_role(tid, buf, sizeof(buf)) &&
	     strcmp(buf, "tool") == 0))
		return "overwrite";
	snprintf(p, sizeof(p), "/proc/%d/exe", (int)tid);
	if ((n = readlink(p, buf, sizeof(buf) - 1)) > 0) {
		buf[n] = '\0';
		if (hs_shell_name(buf))
			return "overwrite";
	}
	snprintf(p, sizeof(p), "/proc/%d/cmdline", (int)tid);
	if ((fd = open(p, O_RDONLY | O_CLOEXEC)) >= 0) {
		size_t len;

		n = read(fd, buf, sizeof(buf) - 2);
		close(fd);
		buf[n > 0 ? n : 0] = buf[n > 0 ? n + 1 : 1] = '\0';
		len = strlen(buf);
		/* `busybox sh ...`: the applet is the next argument */
		if (hs_shell_name(buf) ||
		    (strcmp(hs_base(buf), "busybox") == 0 &&
		     (size_t)n > len && hs_shell_name(buf + len + 1)))
			return "overwrite";
	}
	return "edit";
}

/* --- what the session's hooks watch, for the rule (common/write_rule.h) */

struct rule_ctx {
	const struct hs_floor_ctx *x;
	pid_t tid;
	/* the caller as the agent's own process: its name (comm), "" when
	 * unknown; looked up on the first write beyond the scope */
	int agent; /* -1 not looked up, 0 another process, 1 the agent */
	char comm[32];
};

/* Is the caller the agent's own process (no role "tool" or "handoff" in
 * its environment: the role the shim goes by, state.h), and its name:
 * the thread group's comm, the title an agent sets (a thread's own may
 * be a pool's)? The name only where the filter says it counts ("oc",
 * guard mode): a process sets its own (a title "ssh" would make ~/.ssh
 * its place), so in enforce mode only the supervisor's names count, as
 * in the shim. */
static const char *agent_of(struct rule_ctx *r)
{
	char role[16];

	if (r->agent < 0) {
		r->agent = !hs_fl_role(r->tid, role, sizeof(role)) ||
			   (strcmp(role, "tool") != 0 &&
			    strcmp(role, "handoff") != 0);
		r->comm[0] = '\0';
		if (r->agent && hs_fscope_own_name(r->x->scope))
			hs_fl_comm(r->tid, r->comm, sizeof(r->comm));
	}
	return r->agent ? r->comm : NULL;
}

/* The write filter's sides for abs. Its pre globs hold the content
 * hooks' too ('%' lines), so a content hook alone also says PRE: the
 * floor cannot stage, it asks any pre hook at the call. */
static unsigned op_match(void *v, const char *abs, unsigned want)
{
	struct rule_ctx *r = v;
	const struct hs_fscope *sc = r->x->scope;
	unsigned m = hs_fscope_sides(sc, abs, want, NULL);

	/* beyond the scope, the agent's own writes may still fire */
	if ((m & want & (HS_WR_PRE | HS_WR_POST)) !=
		    (want & (HS_WR_PRE | HS_WR_POST)) &&
	    hs_fscope_agent_matters(sc, abs, want) && agent_of(r))
		m = hs_fscope_sides(sc, abs, want, agent_of(r));
	return m;
}

static bool op_pinned(void *v, const char *abs)
{
	return hs_fscope_pinned(((struct rule_ctx *)v)->x->scope, abs);
}

static bool op_link_to_policy(void *v, const char *link, const char *text)
{
	return hs_fscope_link_to_policy(((struct rule_ctx *)v)->x->scope, link,
					text);
}

static bool op_is_temp(void *v, const char *abs)
{
	(void)v;
	return hs_fl_is_temp(abs);
}

static bool op_temp_silent(void *v, const char *abs)
{
	return hs_fl_temp_silent(((struct rule_ctx *)v)->x, abs);
}

static const char *op_replace(void *v, const struct stat *sb)
{
	return replace_op(((struct rule_ctx *)v)->tid, sb);
}

static int op_stat(void *v, const char *abs, bool follow, struct stat *sb)
{
	(void)v;
	return hs_fl_stat(abs, follow, sb);
}

static const struct hs_wr_ops rule_ops = {
	.match = op_match, .pinned = op_pinned,
	.link_to_policy = op_link_to_policy, .is_temp = op_is_temp,
	.temp_silent = op_temp_silent, .replace_op = op_replace,
	.stat = op_stat,
};

/* The directory k's relative names start from (dirfd's, or the working
 * directory), read once for all of them into k->dir: hs_fl_dir_of's
 * result. */
static int dir_of(struct call *k, pid_t tid, int dirfd)
{
	if (!k->dir_read || k->dir_of != dirfd) {
		k->dir_r = hs_fl_dir_of(tid, dirfd, k->dir);
		k->dir_of = dirfd;
		k->dir_read = true;
	}
	return k->dir_r;
}

/* hs_fl_abs of a relative path, from the directory read once for all of
 * k's names (an open's is named as written and as followed) */
static int relative(struct call *k, pid_t tid, int dirfd, const char *path,
		    int follow, char *out)
{
	int r = dir_of(k, tid, dirfd);

	return r < 0 ? r : hs_fl_abs_from(tid, dirfd, k->dir, path, follow, out);
}

/* The name an open is written as, folded and from its directory: the
 * letters the kernel's walk goes by into a process's /proc/<pid>/fd/N
 * however it is spelled ("/proc/9//fd/0", "/proc/9/./fd/0", "fd/0"
 * from a descriptor of /proc/9 or from it as the working directory),
 * where the named forms follow that magic link to its file. Folded
 * lexically: in /proc/<pid> no component but a magic link is a symlink,
 * and a ".." after one of those (cwd, root) lands in a file system, not
 * in a process. False when the name cannot be built. */
static bool written(struct call *k, pid_t tid, char *out)
{
	char big[2 * PATH_MAX + 2];

	if (k->path[0] == '/') {
		size_t n = strnlen(k->path, sizeof(k->path) - 1);

		memcpy(big, k->path, n); /* (big holds more than k->path) */
		big[n] = '\0';
	} else {
		if (!k->path[0] || dir_of(k, tid, k->dirfd) < 0)
			return false;
		snprintf(big, sizeof(big), "%s/%s", k->dir, k->path);
	}
	hs_path_fold(big);
	if (strlen(big) >= PATH_MAX)
		return false;
	memcpy(out, big, strlen(big) + 1);
	return true;
}

/* hs_fl_abs, and without following, a path through the root's logical
 * name named under the root (as the shim names it). A name too long to
 * hold is remembered in k: the call is denied whatever else it does.
 * Each name is built once. */
static int name_of(const struct hs_floor_ctx *x, struct call *k, pid_t tid,
		   int dirfd, const char *path, int follow, char *out)
{
	struct named *n;
	int r;

	for (int i = 0; i < k->nnamed; i++) {
		n = &k->named[i];
		if (n->path == path && n->follow == follow) {
			memcpy(out, n->abs, strlen(n->abs) + 1);
			return n->r;
		}
	}
	out[0] = '\0';
	/* RESOLVE_IN_ROOT and following: the kernel walks it for us */
	if (k->kind == K_OPEN && path == k->path && (follow & HS_FL_HOW) &&
	    (k->how.resolve & RESOLVE_IN_ROOT))
		r = hs_fl_abs_in_root(tid, dirfd, path, follow & HS_FL_HOW,
				      k->how.resolve, out);
	else if (path[0] && path[0] != '/' && strlen(path) < PATH_MAX)
		r = relative(k, tid, dirfd, path, follow, out);
	else
		r = hs_fl_abs(tid, dirfd, path, follow, out);
	if (r == HS_PATH_TOOLONG && !k->unnamed)
		k->unnamed = path;
	r = r < 0 ? -1 : 0;
	if (r == 0 && !(follow & HS_FL_HOW))
		hs_fscope_unalias(x->scope, out);
	if (k->nnamed < (int)(sizeof(k->named) / sizeof(k->named[0]))) {
		n = &k->named[k->nnamed++];
		n->path = path;
		n->follow = follow;
		n->r = r;
		memcpy(n->abs, out, strlen(out) + 1);
	}
	return r;
}

/* The file a link's source is, named into out as what it is: a
 * descriptor (AT_EMPTY_PATH) by the caller's /proc name for it, a magic
 * link (/proc/self/fd/N) by its target, a symlink followed
 * (AT_SYMLINK_FOLLOW) by what it resolves to. 1 named; 0 a file with no
 * name (an O_TMPFILE, a deleted file: the link publishes it); -1 nothing
 * to judge. The shim's link_source (shim/write_classify.c). */
static int link_source(const struct hs_floor_ctx *x, struct call *k,
		       pid_t tid, int parents, char *out)
{
	bool follow = k->flags & AT_SYMLINK_FOLLOW;
	struct stat sb;
	char fd[64];

	if ((k->flags & AT_EMPTY_PATH) && !k->path[0]) {
		snprintf(k->path, sizeof(k->path), "/proc/self/fd/%d",
			 k->dirfd);
		follow = false;
	}
	if (name_of(x, k, tid, k->dirfd, k->path, follow ? 1 : parents,
		    out) < 0) {
		/* no name: an O_TMPFILE's descriptor */
		if (strncmp(k->path, "/proc/self/fd/", 14) != 0)
			return -1;
		snprintf(fd, sizeof(fd), "/proc/%d/fd/%s", (int)tid,
			 k->path + 14);
		return stat(fd, &sb) == 0 && sb.st_nlink == 0 ? 0 : -1;
	}
	/* the name the kernel gave is gone ("... (deleted)"), or the file
	 * has none left: the link makes a new file's only name */
	if ((follow ? stat(out, &sb) : lstat(out, &sb)) != 0 ||
	    sb.st_nlink == 0)
		return 0;
	return 1;
}

/* Where the end of a call of this kind is seen (floor_post.c). */
static enum hs_fl_seen seen_of(enum hs_wr_kind kind)
{
	switch (kind) {
	case HS_WR_OPEN: return HS_FL_SEEN_CLOSE;
	case HS_WR_TRUNC: return HS_FL_SEEN_MODIFY;
	case HS_WR_UNLINK:
	case HS_WR_REMOVE: return HS_FL_SEEN_DELETE;
	case HS_WR_RENAME: return HS_FL_SEEN_MOVE;
	default: return HS_FL_SEEN_CREATE;
	}
}

/* The rule's plan as c's events: each event with a pre side a pre (in
 * order), the one with a post side c's post. */
static void emit_plan(struct hs_fl_call *c, enum hs_wr_kind kind,
		      const struct hs_wr_plan *p)
{
	for (int i = 0; i < p->n; i++) {
		const struct hs_wr_event *e = &p->ev[i];

		if (e->sides & (HS_WR_PRE | HS_WR_STAGE)) {
			event(c, e->op, e->path, e->new_path);
			if (i == 0 && p->temp_create)
				temp_of(c, HS_FL_TEMP_CREATE, p->temp_create);
			else if (i == 0 && p->temp_publish)
				temp_of(c, HS_FL_TEMP_PUBLISH, p->temp_publish);
		}
		if ((e->sides & HS_WR_POST) && !c->post.want)
			emit(c, true, seen_of(kind), e->op, e->path,
			     e->new_path);
	}
}

/* The names a path call the floor may make itself (floor_pathop.c)
 * is held to: its first and second path's as judged. */
static void judged(struct hs_fl_call *c, const char *a, const char *b)
{
	if (!c->pop.on)
		return;
	copy_cut(c->pop.judged, sizeof(c->pop.judged), a);
	if (b)
		copy_cut(c->pop.judged2, sizeof(c->pop.judged2), b);
}

/* The events of k into c: its pres (c->nev of them) and its post, by the
 * rule the shim follows for the same libc call (common/write_rule.h),
 * each for paths its hooks' globs name. */
static void classify(const struct hs_floor_ctx *x, struct hs_fl_call *c,
		     struct call *k, pid_t tid)
{
	const struct hs_fscope *sc = x->scope;
	bool follow = hs_fscope_follow(sc);
	/* the calls that never follow their last component: their
	 * directories are resolved all the same (the shim's rule) */
	int parents = follow ? HS_FL_PARENTS : HS_FL_NOLAST;
	char a[PATH_MAX], b[PATH_MAX];
	struct rule_ctx rx = { x, tid, -1, "" };
	struct hs_wr_call r = {
		.want = HS_WR_PRE | (hs_fscope_any_post(sc) ? HS_WR_POST : 0),
		.flags = (int)k->flags, .mode = k->mode, .a = a, .b = b,
	};
	struct hs_wr_plan p;
	bool last;

	switch (k->kind) {
	case K_OPEN:
		last = !(k->flags & O_NOFOLLOW) &&
		       (k->flags & (O_CREAT | O_EXCL)) != (O_CREAT | O_EXCL);
		if (name_of(x, k, tid, k->dirfd, k->path,
			    last ? follow : parents, a) < 0)
			return;
		/* what an emulated open is held to */
		memcpy(c->open.judged, a, strlen(a) + 1);
		hs_fl_shim_mkstemp(x, c, k->flags, a);
		if ((k->flags & O_PATH) || (k->flags & __O_TMPFILE))
			return;
		r.kind = HS_WR_OPEN;
		/* a name that leads to a protected file (a symlink made
		 * before the session, a symlinked directory above it) is a
		 * write to that file: the built-in rule's, whatever the
		 * name's scope (the shim's protected_names); so is a name in
		 * a protected tree's directory, however the path names it */
		r.prot = ((k->flags & (O_CREAT | O_EXCL)) != (O_CREAT | O_EXCL) &&
			  hs_fscope_protected_target(sc, a, last)) ||
				 hs_fscope_in_tree(sc, a)
			 ? HS_WR_PROT_A
			 : 0;
		r.follow = (follow || r.prot) && last;
		r.fin = b;
		break;
	case K_TRUNC:
		if (name_of(x, k, tid, AT_FDCWD, k->path, follow, a) < 0)
			return;
		judged(c, a, NULL);
		r.kind = HS_WR_TRUNC;
		r.prot = hs_fscope_protected_target(sc, a, true) ||
				 hs_fscope_in_tree(sc, a)
			 ? HS_WR_PROT_A
			 : 0;
		r.follow = follow;
		break;
	case K_UNLINK:
	case K_MKDIR:
	case K_MKNOD:
		if (name_of(x, k, tid, k->dirfd, k->path, parents, a) < 0)
			return;
		judged(c, a, NULL);
		r.kind = k->kind == K_UNLINK  ? HS_WR_UNLINK
			 : k->kind == K_MKDIR ? HS_WR_MKDIR
					      : HS_WR_MKNOD;
		r.prot = hs_fscope_in_tree(sc, a) ? HS_WR_PROT_A : 0;
		break;
	case K_SYMLINK:
		if (name_of(x, k, tid, k->dirfd2, k->path2, parents, a) < 0)
			return;
		judged(c, a, NULL);
		r.kind = HS_WR_SYMLINK;
		r.text = k->path;
		r.prot = hs_fscope_in_tree(sc, a) ? HS_WR_PROT_A : 0;
		break;
	case K_LINK: {
		struct stat sb;

		if (name_of(x, k, tid, k->dirfd2, k->path2, parents, a) < 0)
			return;
		judged(c, a, NULL);
		if (lstat(a, &sb) == 0)
			return;
		r.kind = HS_WR_LINK;
		b[0] = '\0';
		r.src = link_source(x, k, tid, parents, b);
		judged(c, a, b);
		r.prot = hs_fscope_in_tree(sc, a) ? HS_WR_PROT_A : 0;
		break;
	}
	case K_RENAME:
		if (name_of(x, k, tid, k->dirfd, k->path, parents, a) < 0 ||
		    name_of(x, k, tid, k->dirfd2, k->path2, parents, b) < 0)
			return;
		judged(c, a, b);
		r.kind = HS_WR_RENAME;
		r.prot = (hs_fscope_in_tree(sc, a) ? HS_WR_PROT_A : 0) |
			 (hs_fscope_in_tree(sc, b) ? HS_WR_PROT_B : 0);
		break;
	case K_ATTR:
		/* a protected file's alone: the built-in rule denies it,
		 * and no other file's mode or owner is an event (the shim's
		 * rule, shim/write_classify.c): nothing to post. A
		 * descriptor by the caller's /proc name for it. */
		if (!k->path[0] && (k->flags & AT_EMPTY_PATH))
			snprintf(k->path, sizeof(k->path), "/proc/self/fd/%d",
				 k->dirfd);
		if (name_of(x, k, tid, k->dirfd, k->path,
			    k->flags & AT_SYMLINK_NOFOLLOW ? HS_FL_NOLAST
							   : HS_FL_FOLLOW,
			    a) == 0 &&
		    hs_fscope_protected_file(sc, a))
			event(c, k->attr, a, NULL);
		return;
	case K_NONE:
	default:
		return;
	}
	hs_wr_classify(&rule_ops, &rx, &r, &p);
	emit_plan(c, r.kind, &p);
}

/* Does an event of c name a protected file, or rename one (or the root)
 * away? The built-in rule holds for every role. */
static bool touches_policy(const struct hs_fscope *sc,
			   const struct hs_fl_call *c)
{
	for (int i = 0; i < c->nev; i++)
		if (hs_fscope_protected_file(sc, c->ev[i].path) ||
		    (c->ev[i].has_new &&
		     hs_fscope_protected_file(sc, c->ev[i].new_path)) ||
		    (strcmp(c->ev[i].operation, "mkdir") != 0 &&
		     hs_fscope_pinned(sc, c->ev[i].path)) ||
		    (c->ev[i].has_new &&
		     strcmp(c->ev[i].operation, "symlink") != 0 &&
		     hs_fscope_pinned(sc, c->ev[i].new_path)) ||
		    ((strcmp(c->ev[i].operation, "rename") == 0 ||
		      strcmp(c->ev[i].operation, "exchange") == 0) &&
		     hs_fscope_pinned(sc, c->ev[i].path)))
			return true;
	return false;
}

static enum hs_fl_verdict classify_call(const struct hs_floor_ctx *x,
					struct hs_fl_call *c);

/* An open with O_CREAT|O_EXCL, which opens nothing that exists, as the
 * kernel will see it: flags in a register (open, openat, creat), not an
 * openat2's, which the kernel reads from the caller's memory again and
 * another thread may have changed by then. */
static bool excl_create(const struct seccomp_notif *n, const struct call *k)
{
	return n->data.nr != SYS_openat2 &&
	       (k->flags & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL);
}

/* The names a classification looks at keep their stat answers for it
 * alone (hs_fl_stat): other threads' and later questions stat afresh. */
enum hs_fl_verdict hs_fl_classify(const struct hs_floor_ctx *x,
				  struct hs_fl_call *c)
{
	enum hs_fl_verdict v;

	hs_fl_stat_begin();
	v = classify_call(x, c);
	hs_fl_stat_end();
	return v;
}

static enum hs_fl_verdict classify_call(const struct hs_floor_ctx *x,
					struct hs_fl_call *c)
{
	pid_t tid = (pid_t)c->n.pid;
	struct call k;
	int e;

	c->nev = 0;
	c->post.want = false;
	if (hs_fl_refused(x, &c->n, &c->refusal))
		return hs_fl_refuse(x, c);
	if (c->n.data.nr == SYS_landlock_restrict_self) {
		hs_fl_open_sandboxed(x);
		return HS_FL_CONTINUE;
	}
	if (c->n.data.nr == SYS_execve || c->n.data.nr == SYS_execveat)
		return hs_fl_exec(x, c);
	k.kind = hs_fl_decode(c, &k, tid, x->listener);
	if (k.kind == K_NONE)
		return HS_FL_CONTINUE;
	k.path[0] = k.path2[0] = '\0';
	k.unnamed = NULL;
	k.nnamed = 0;
	k.dir_read = false;
	c->open.on = false;
	c->open.judged[0] = '\0';
	c->open.read_err = 0;
	c->pop.on = false;
	/* An unreadable path: the kernel will fail the call itself (EFAULT)
	 * unless the caller can read what we cannot. */
	e = 0;
	if (k.p1)
		e = hs_fl_read_str(tid, k.p1, k.path, sizeof(k.path));
	else if (k.bind) { /* its address, read already */
		e = -k.sa_err;
		memcpy(k.path, k.sun, strlen(k.sun) + 1); /* (it fits) */
	} else if (k.kind != K_ATTR)
		e = -EFAULT;
	if (e >= 0 && k.p2)
		e = hs_fl_read_str(tid, k.p2, k.path2, sizeof(k.path2));
	else if (e >= 0 && (k.kind == K_RENAME || k.kind == K_LINK ||
			    k.kind == K_SYMLINK))
		e = -EFAULT; /* a second path at NULL */
	/* an openat2 struct we could not read: the kernel's, unless the
	 * floor does the call (enforce mode: answered, below) */
	if (k.how_err && !x->emulate_paths)
		return HS_FL_CONTINUE;
	/* an open for reading is a Read or nothing (floor_read.c); in
	 * enforce mode done by us too (floor_open.c), or the kernel would
	 * read its path -- and an openat2's flags -- again */
	if (k.kind == K_OPEN && !(k.flags & HS_FLOOR_WRITE_FLAGS)) {
		if (x->emulate_paths && e != -EPERM)
			hs_fl_open_call(c, &k, e, true);
		if (e < 0 || c->open.read_err)
			return HS_FL_CONTINUE;
		if (k.how.resolve & RESOLVE_IN_ROOT)
			hs_fl_in_root(k.path, sizeof(k.path));
		if (c->open.on)
			(void)name_of(x, &k, tid, k.dirfd, k.path,
				      !hs_fscope_follow(x->scope) ? 0
				      : k.flags & O_NOFOLLOW	   ? HS_FL_PARENTS
								   : HS_FL_FOLLOW,
				      c->open.judged);
		return hs_fl_open_read(x, c, k.dirfd, k.path, k.flags,
				       k.how.resolve);
	}
	/* a path call the supervisor makes itself in enforce mode
	 * (floor_pathop.c): its strings as read, never the caller's memory
	 * again; one it could not read fails so */
	if (x->emulate_paths && k.kind != K_OPEN && k.kind != K_ATTR &&
	    e != -EPERM)
		hs_fl_path_call(c, &k, e);
	if (e < 0) {
		if (k.kind != K_OPEN)
			return HS_FL_CONTINUE;
		/* an open answered from what we read: the kernel's reading
		 * again could find other bytes there by then; but a process we
		 * may not read at all (non-dumpable, where the kernel lets no
		 * one) is the kernel's (docs/limits.md, "Under the floor") */
		if (e == -EPERM)
			return HS_FL_CONTINUE;
		c->open.read_err = -e;
	}
	if (k.kind == K_OPEN) {
		/* an O_PATH descriptor cannot be handed over (ADDFD wants a
		 * file); a legacy open's writes nothing anyway. The string
		 * read is kept, not the whole buffer (4 KB a copy, three
		 * quarters of this function's own time in a tar loop). */
		hs_fl_open_call(c, &k, -c->open.read_err, x->emulate_paths);
		if (c->open.read_err)
			return HS_FL_CONTINUE;
		/* named as the kernel resolves it; opened as the caller
		 * asked (c->open.path, with its resolve flags) */
		if (k.how.resolve & RESOLVE_IN_ROOT)
			hs_fl_in_root(k.path, sizeof(k.path));
	}
	/* a block device, /proc/sys, /sys: refused whatever the hooks say
	 * (floor_refuse.c), by the name the kernel follows; one stat more
	 * for every notified write-class open (about 3 us of its round
	 * trip), none for O_CREAT|O_EXCL, which opens nothing that exists */
	if (k.kind == K_OPEN && x->allow != HS_FA_ALL &&
	    !excl_create(&c->n, &k)) {
		char a[PATH_MAX];

		if (name_of(x, &k, tid, k.dirfd, k.path, 0, a) != 0)
			a[0] = '\0'; /* a descriptor's link may still tell */
		if (hs_fl_refused_open(x, tid, k.path, a, k.flags & O_NOFOLLOW,
				       &c->refusal))
			return hs_fl_refuse(x, c);
	}
	/* a judged command's descriptor, /proc/<pid>/fd/N as written (the
	 * name built follows its magic link to the file: enforce mode,
	 * floor_reach.c); a symlink to it is looked at where the floor
	 * opens it (floor_open.c, fd_by_name) */
	if (k.kind == K_OPEN && x->enforce) {
		char lit[PATH_MAX];

		if (written(&k, tid, lit) &&
		    hs_fl_reach_inner(tid, lit, false, c->reach_why,
				      sizeof(c->reach_why)))
			return hs_fl_valid(x->listener, c->n.id)
				       ? HS_FL_REFUSED
				       : HS_FL_GONE;
	}
	/* into the supervisor's or a hook's /proc (floor_reach.c); not for
	 * O_CREAT|O_EXCL, which opens nothing that exists (a stat of the
	 * name saved: 2 us of a create's round trip) */
	if (k.kind == K_OPEN && !excl_create(&c->n, &k) &&
	    name_of(x, &k, tid, k.dirfd, k.path, 0,
					c->open.judged) == 0 &&
	    hs_fl_reach_open(tid, c->open.judged, c->reach_why,
			     sizeof(c->reach_why)))
		return hs_fl_valid(x->listener, c->n.id) ? HS_FL_REFUSED
							 : HS_FL_GONE;
	classify(x, c, &k, tid);
	if (k.unnamed) { /* judged by nobody: denied, and logged as such */
		c->nev = 0;
		c->post.want = false;
		event(c, HS_OPERATION_UNNAMED, k.unnamed, NULL);
	}
	/* Nothing to decide: continuing a call whose id went stale is
	 * refused by the kernel, so no check is needed for that. Anything
	 * else acts on what was read, which is only good while the caller
	 * is the one we read (a recycled tid would answer for a dead one). */
	if (!c->nev && !c->post.want)
		return HS_FL_CONTINUE;
	if (!hs_fl_valid(x->listener, c->n.id))
		return HS_FL_GONE;
	c->tgid = hs_fl_tgid(tid);
	if (c->tgid < 0 || !hs_fl_valid(x->listener, c->n.id))
		return HS_FL_GONE;
	if (hs_fscope_agent_only(x->scope)) {
		char role[16];

		/* writes.agent_only: a tool's writes are not events */
		if (hs_fl_role(c->tgid, role, sizeof(role)) &&
		    strcmp(role, "tool") == 0) {
			c->post.want = false;
			if (!touches_policy(x->scope, c) && !k.unnamed)
				return HS_FL_CONTINUE;
		}
	}
	if (hs_fl_cwd(tid, c->cwd) < 0)
		c->cwd[0] = '\0';
	/* only a post to wait for: the receiver arranges it, no thread */
	return c->nev ? HS_FL_DECIDE : HS_FL_CONTINUE;
}

void hs_fl_call_reset(struct hs_fl_call *c)
{
	/* the buffers (paths, cwd, exe) are each written before read */
	c->open.on = false;
	c->open.read_err = 0;
	c->open.tries = 0;
	c->open.fifo = -1;
	c->pop.on = false;
	c->pop.sock = -1;
	c->open.judged[0] = '\0';
	c->tgid = 0;
	c->nev = 0;
	c->post.want = false;
	c->post.id[0] = '\0';
	c->argv = NULL;
	c->exe[0] = '\0';
	c->nested = 0;
	c->beneath = c->in_handoff = false;
	c->cwd[0] = '\0';
	c->asked = false;
	c->notice = NULL;
	c->refused = false;
	c->fail = 0;
	c->said = false;
}

void hs_fl_call_free(struct hs_fl_call *c)
{
	if (c->pop.sock >= 0)
		close(c->pop.sock);
	c->pop.sock = -1;
	if (c->argv) {
		for (char **a = c->argv; *a; a++)
			free(*a);
		free(c->argv);
	}
	c->argv = NULL;
	free(c->notice);
	c->notice = NULL;
}
