/* One notified write, read out of the stopped caller and classified the
 * way the shim classifies the same libc call (shim/write_event.c): which
 * path, which operation, and whether a pre hook may care. The rules are
 * the shim's so that a static program and a dynamic one writing the same
 * file fire the same event:
 *   - an open fires only when it will write a regular file: "create"
 *     (O_CREAT, the file absent), "overwrite" (O_TRUNC), "append",
 *     "modify"; O_EXCL on an existing file, fifos, devices, O_TMPFILE
 *     and O_PATH fire nothing;
 *   - a new file whose name looks like a temp file (engine/temp_name.h)
 *     fires nothing unless writes.judge_temp_files names its place; its
 *     publishing rename does, as a create/overwrite of the target;
 *   - a rename of a watched file is a "rename" (new_path the target),
 *     plus the target's own create/overwrite when a pre hook watches it.
 * Everything is looked at, never touched: lstat/stat, readlink.
 * Over 600 lines: the whole rule in one place, to be read beside the
 * shim's (shim/write_classify.c) until both share one in common/ (issue
 * 23 item 7); its arguments' decoding (floor_decode.c) and temp names
 * (floor_temps.c) are out already. */
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

#include "../common/plainstr.h"
#include "../common/shellargv.h"
#include "../common/temp_name.h"
#include "../common/wire.h"
#include "floor.h"
#include "floor_call.h"

#ifndef __O_TMPFILE
#define __O_TMPFILE 020000000
#endif
#ifndef __O_SYNC
#define __O_SYNC 04000000
#endif


/* lstat, or stat when following: 1 exists, 0 not, -1 error. */
static int look(const char *abs, bool follow, struct stat *sb)
{
	if ((follow ? stat(abs, sb) : lstat(abs, sb)) == 0)
		return 1;
	return errno == ENOENT ? 0 : -1;
}

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
	 * PATH_MAX + 1 bytes as the caller passed it */
	snprintf(e->path, sizeof(e->path), "%.*s", (int)sizeof(e->path) - 1,
		 path);
	e->has_new = new_path != NULL;
	e->temp_is = HS_FL_TEMP_NONE;
	if (new_path)
		snprintf(e->new_path, sizeof(e->new_path), "%s", new_path);
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
	snprintf(e->temp, sizeof(e->temp), "%s", temp);
}

/* The shim's replace_op (shim/write_event.c): an in-place change of a
 * non-empty file is "edit" (the tool name Edit) when the agent's own
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
	    (hs_fl_environ(tid, "HOOKSHIM_ROLE", buf, sizeof(buf)) &&
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

static const char *open_op(const struct hs_floor_ctx *x, pid_t tid,
			   const char *abs, uint64_t fl, bool follow)
{
	struct stat sb;
	int e = look(abs, follow, &sb);

	if (e < 0)
		return NULL;
	if (e == 0) {
		if (!(fl & O_CREAT) || hs_fl_temp_silent(x, abs))
			return NULL;
		return "create";
	}
	if ((fl & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL) ||
	    !S_ISREG(sb.st_mode))
		return NULL;
	if (fl & O_TRUNC)
		return replace_op(tid, &sb);
	return fl & O_APPEND ? "append" : "modify";
}

/* A new temp file whose name says which file its atomic save publishes
 * (hs_temp_final): the Write of that file, fired here, so that a denial
 * keeps even the temp file off the disk; the rename is then answered
 * from this verdict (supervisor/atomic_save.h). The shim's temp_create.
 * A content hook waits for the rename, where the content is. */
static bool temp_create(const struct hs_floor_ctx *x, struct hs_fl_call *c,
			const struct call *k, pid_t tid, const char *a)
{
	char fin[PATH_MAX];
	struct stat sb;
	int e;

	if (!(k->flags & O_CREAT) || !hs_temp_name(a) ||
	    !hs_temp_final(a, fin, sizeof(fin)) ||
	    !hs_fscope_pre(x->scope, fin) || hs_fscope_stage(x->scope, fin) ||
	    look(a, hs_fscope_follow(x->scope), &sb) != 0 ||
	    (e = look(fin, false, &sb)) < 0)
		return false;
	event(c, e ? replace_op(tid, &sb) : "create", fin, NULL);
	temp_of(c, HS_FL_TEMP_CREATE, a);
	return true;
}

/* hs_fl_abs, and without following, a path through the root's logical
 * name named under the root (as the shim names it). A name too long to
 * hold is remembered in k: the call is denied whatever else it does.
 * Each name is built once for both sides. */
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
	if (k->kind == K_OPEN && path == k->path && follow &&
	    (k->how.resolve & RESOLVE_IN_ROOT))
		r = hs_fl_abs_in_root(tid, dirfd, path, follow, k->how.resolve,
				      out);
	else
		r = hs_fl_abs(tid, dirfd, path, follow, out);
	if (r == HS_PATH_TOOLONG && !k->unnamed)
		k->unnamed = path;
	r = r < 0 ? -1 : 0;
	if (r == 0 && !follow)
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
 * to judge. The shim's link_source (shim/write_event.c). */
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

/* renameat2(RENAME_EXCHANGE): each name's content is replaced by the
 * other's, and each is moved away. The shim's exchanged
 * (shim/write_event.c): an "exchange" event at each name a pre hook
 * watches or that is pinned (path = that name, new_path = the other),
 * posted at the first a post hook watches. */
static void exchanged(struct hs_fl_call *c, const char *a, const char *b,
		      bool post, const struct hs_fscope *sc)
{
	struct stat sb;

	if (lstat(b, &sb) != 0)
		return; /* ENOENT */
	if (post) {
		if (hs_fscope_post(sc, a))
			emit(c, true, HS_FL_SEEN_MOVE, "exchange", a, b);
		else if (hs_fscope_post(sc, b))
			emit(c, true, HS_FL_SEEN_MOVE, "exchange", b, a);
		return;
	}
	if (hs_fscope_pre(sc, a) || hs_fscope_pinned(sc, a))
		event(c, "exchange", a, b);
	if (hs_fscope_pre(sc, b) || hs_fscope_pinned(sc, b))
		event(c, "exchange", b, a);
}

/* May a hook of this side fire for abs? */
static bool side(const struct hs_fscope *sc, bool post, const char *abs)
{
	return post ? hs_fscope_post(sc, abs) : hs_fscope_pre(sc, abs);
}

/* A new object at abs (a symlink, a link, a directory renamed there)
 * above a protected name would send the hooks' lookups elsewhere
 * (engine/protect.h): a pre of its own (the shim's above_policy). */
static bool above_policy(const struct hs_fscope *sc, bool post,
			 const char *abs)
{
	return !post && hs_fscope_pinned(sc, abs);
}

/* The pre events of k into c (c->nev of them), or with `post` its post
 * event into c->post: the shim's rules (shim/write_event.c classify),
 * the same operation on both sides, each for paths its hooks' globs
 * name. */
static void classify(const struct hs_floor_ctx *x, struct hs_fl_call *c,
		     struct call *k, pid_t tid, bool post)
{
	const struct hs_fscope *sc = x->scope;
	bool follow = hs_fscope_follow(sc);
	/* the calls that never follow their last component: their
	 * directories are resolved all the same (the shim's rule) */
	int parents = follow ? HS_FL_PARENTS : 0;
	char a[PATH_MAX], b[PATH_MAX];
	struct stat sb;
	const char *op;
	bool last, prot;
	int e;

	switch (k->kind) {
	case K_OPEN:
		last = !(k->flags & O_NOFOLLOW) &&
		       (k->flags & (O_CREAT | O_EXCL)) != (O_CREAT | O_EXCL);
		if (name_of(x, k, tid, k->dirfd, k->path,
			    last ? follow : parents, a) < 0)
			return;
		if (!post) /* what an emulated open is held to */
			memcpy(c->open.judged, a, strlen(a) + 1);
		hs_fl_shim_mkstemp(x, c, k->flags, a);
		if ((k->flags & O_PATH) || (k->flags & __O_TMPFILE) ||
		    (!post && temp_create(x, c, k, tid, a)))
			return;
		/* a name that leads to a protected file (a symlink made
		 * before the session, a symlinked directory above it) is a
		 * write to that file: the built-in rule's, whatever the
		 * name's scope (the shim's prot_target) */
		prot = !post && last && hs_fscope_protected_target(sc, a);
		if (!prot && !side(sc, post, a))
			return;
		if ((op = open_op(x, tid, a, k->flags, (follow || prot) && last)))
			emit(c, post, HS_FL_SEEN_CLOSE, op, a, NULL);
		return;
	case K_TRUNC:
		if (name_of(x, k, tid, AT_FDCWD, k->path, follow, a) == 0 &&
		    (side(sc, post, a) ||
		     (!post && hs_fscope_protected_target(sc, a))) &&
		    look(a, follow, &sb) == 1)
			emit(c, post, HS_FL_SEEN_MODIFY, "truncate", a, NULL);
		return;
	case K_UNLINK:
		if (name_of(x, k, tid, k->dirfd, k->path, parents, a) == 0 &&
		    side(sc, post, a) && lstat(a, &sb) == 0 &&
		    !hs_fl_is_temp(a))
			emit(c, post, HS_FL_SEEN_DELETE,
			     k->flags & AT_REMOVEDIR ? "rmdir" : "delete", a,
			     NULL);
		return;
	case K_MKDIR:
		if (name_of(x, k, tid, k->dirfd, k->path, parents, a) == 0 &&
		    side(sc, post, a) && lstat(a, &sb) != 0)
			emit(c, post, HS_FL_SEEN_CREATE, "mkdir", a, NULL);
		return;
	case K_MKNOD:
		/* a regular file made by mknod is a create like O_CREAT|O_EXCL;
		 * fifos, sockets and devices are "mknod" */
		if (name_of(x, k, tid, k->dirfd, k->path, parents, a) < 0 ||
		    !side(sc, post, a) || lstat(a, &sb) == 0)
			return;
		if ((k->mode & S_IFMT) == 0 || S_ISREG(k->mode)) {
			if (!hs_fl_temp_silent(x, a))
				emit(c, post, HS_FL_SEEN_CREATE, "create", a,
				     NULL);
		} else {
			emit(c, post, HS_FL_SEEN_CREATE, "mknod", a, NULL);
		}
		return;
	case K_SYMLINK:
		/* path = the link made; new_path = its text, as written */
		if (name_of(x, k, tid, k->dirfd2, k->path2, parents, a) == 0 &&
		    (side(sc, post, a) || above_policy(sc, post, a) ||
		     (!post && hs_fscope_link_to_policy(sc, a, k->path))) &&
		    lstat(a, &sb) != 0)
			emit(c, post, HS_FL_SEEN_CREATE, "symlink", a, k->path);
		return;
	case K_LINK:
		if (name_of(x, k, tid, k->dirfd2, k->path2, parents, a) < 0 ||
		    lstat(a, &sb) == 0)
			return;
		/* the source as what it is (link_source); none: a publish */
		e = link_source(x, k, tid, parents, b);
		if (e < 0)
			return;
		if (!side(sc, post, a) && !above_policy(sc, post, a)) {
			/* an unwatched new name for a protected file is a
			 * write to that file: judged at the source (a pre
			 * of its own, no post: the shim's) */
			if (!post && e > 0 && hs_fscope_pre(sc, b))
				event(c, "link", b, a);
			return;
		}
		/* an O_TMPFILE or temp source published: a create */
		if (e == 0 || hs_fl_is_temp(b)) {
			emit(c, post, HS_FL_SEEN_CREATE, "create", a, NULL);
			return;
		}
		emit(c, post, HS_FL_SEEN_CREATE, "link", a, b);
		/* and at the source, when a pre hook watches it too */
		if (!post && hs_fscope_pre(sc, b))
			event(c, "link", b, a);
		return;
	case K_RENAME: {
		bool m, m2;

		if (name_of(x, k, tid, k->dirfd, k->path, parents, a) < 0 ||
		    name_of(x, k, tid, k->dirfd2, k->path2, parents, b) < 0 ||
		    lstat(a, &sb) != 0)
			return;
		if (k->flags & RENAME_EXCHANGE) {
			exchanged(c, a, b, post, sc);
			return;
		}
		m = (!hs_fl_is_temp(a) && hs_fscope_pre(sc, a)) ||
		    hs_fscope_pinned(sc, a);
		if (post) {
			/* the shim's: a source any hook watches makes it a
			 * "rename", posted if a post hook watches the source;
			 * else a watched target is created or overwritten */
			m2 = hs_fscope_post(sc, b);
			if (m || (!hs_fl_is_temp(a) && hs_fscope_post(sc, a))) {
				if (!hs_fl_is_temp(a) && hs_fscope_post(sc, a))
					emit(c, true, HS_FL_SEEN_MOVE, "rename",
					     a, b);
			} else if (m2 && (e = look(b, false, &sb)) >= 0) {
				emit(c, true, HS_FL_SEEN_MOVE,
				     e ? replace_op(tid, &sb) : "create", b,
				     NULL);
			}
			return;
		}
		m2 = hs_fscope_pre(sc, b) || above_policy(sc, false, b);
		e = m2 ? look(b, false, &sb) : -1;
		if (e > 0 && (k->flags & RENAME_NOREPLACE))
			e = 0; /* never replaces: EEXIST */
		if (m) {
			event(c, "rename", a, b);
			if (e >= 0)
				event(c, e ? "overwrite" : "create", b, NULL);
		} else if (e >= 0) {
			/* a publish: the shim's replace_op */
			event(c, e ? replace_op(tid, &sb) : "create", b, NULL);
			if (hs_temp_name(a))
				temp_of(c, HS_FL_TEMP_PUBLISH, a);
		}
		return;
	}
	case K_ATTR:
		/* a protected file's alone: the built-in rule denies it,
		 * and no other file's mode or owner is an event (the shim's
		 * rule, shim/write_event.c): nothing to post. A descriptor by
		 * the caller's /proc name for it. */
		if (post)
			return;
		if (!k->path[0] && (k->flags & AT_EMPTY_PATH))
			snprintf(k->path, sizeof(k->path), "/proc/self/fd/%d",
				 k->dirfd);
		if (name_of(x, k, tid, k->dirfd, k->path,
			    !(k->flags & AT_SYMLINK_NOFOLLOW), a) == 0 &&
		    hs_fscope_protected_file(sc, a))
			event(c, k->attr, a, NULL);
		return;
	case K_NONE:
		return;
	}
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

enum hs_fl_verdict hs_fl_classify(const struct hs_floor_ctx *x,
				  struct hs_fl_call *c)
{
	pid_t tid = (pid_t)c->n.pid;
	struct call k;
	int e;

	c->nev = 0;
	c->post.want = false;
	if (c->n.data.nr == SYS_landlock_restrict_self) {
		hs_fl_open_sandboxed(x);
		return HS_FL_CONTINUE;
	}
	if (hs_fl_refused(x, &c->n, &c->refusal))
		return hs_fl_refuse(x, c);
	if (c->n.data.nr == SYS_execve || c->n.data.nr == SYS_execveat)
		return hs_fl_exec(x, c);
	k.kind = hs_fl_decode(c, &k, tid, x->listener);
	if (k.kind == K_NONE)
		return HS_FL_CONTINUE;
	k.path[0] = k.path2[0] = '\0';
	c->open.on = false;
	c->open.judged[0] = '\0';
	c->open.read_err = 0;
	/* An unreadable path: the kernel will fail the call itself (EFAULT)
	 * unless the caller can read what we cannot. */
	e = 0;
	if (k.p1)
		e = hs_fl_read_str(tid, k.p1, k.path, sizeof(k.path));
	else if (k.kind != K_ATTR)
		e = -EFAULT;
	if (e >= 0 && k.p2)
		e = hs_fl_read_str(tid, k.p2, k.path2, sizeof(k.path2));
	/* an open for reading is a Read or nothing (floor_read.c), never
	 * done by us */
	if (k.kind == K_OPEN && !(k.flags & HS_FLOOR_WRITE_FLAGS)) {
		if (e < 0)
			return HS_FL_CONTINUE;
		if (k.how.resolve & RESOLVE_IN_ROOT)
			hs_fl_in_root(k.path, sizeof(k.path));
		return hs_fl_open_read(x, c, k.dirfd, k.path, k.flags,
				       k.how.resolve);
	}
	if (e < 0) {
		if (k.kind != K_OPEN)
			return HS_FL_CONTINUE;
		/* an open answered from what we read: the kernel's reading
		 * again could find other bytes there by then */
		c->open.read_err = -e;
	}
	if (k.kind == K_OPEN) {
		/* an O_PATH descriptor cannot be handed over (ADDFD wants
		 * a file); it writes nothing anyway */
		c->open.on = k.how_whole && !(k.how.flags & O_PATH);
		c->open.dirfd = k.dirfd;
		c->open.how = k.how;
		memcpy(c->open.path, k.path, sizeof(k.path));
		if (c->open.read_err)
			return HS_FL_CONTINUE;
		/* named as the kernel resolves it; opened as the caller
		 * asked (c->open.path, with its resolve flags) */
		if (k.how.resolve & RESOLVE_IN_ROOT)
			hs_fl_in_root(k.path, sizeof(k.path));
	}
	k.unnamed = NULL;
	k.nnamed = 0;
	/* a block device, /proc/sys, /sys: refused whatever the hooks say
	 * (floor_refuse.c), by the name the kernel follows; one stat more
	 * for every notified write-class open (about 3 us of its round
	 * trip), none for O_CREAT|O_EXCL, which opens nothing that exists */
	if (k.kind == K_OPEN && x->allow != HS_FA_ALL &&
	    (k.flags & (O_CREAT | O_EXCL)) != (O_CREAT | O_EXCL)) {
		char a[PATH_MAX];

		if (name_of(x, &k, tid, k.dirfd, k.path, 0, a) != 0)
			a[0] = '\0'; /* a descriptor's link may still tell */
		if (hs_fl_refused_open(x, tid, k.path, a, k.flags & O_NOFOLLOW,
				       &c->refusal))
			return hs_fl_refuse(x, c);
	}
	/* into the supervisor's or a hook's /proc (floor_reach.c) */
	if (k.kind == K_OPEN && name_of(x, &k, tid, k.dirfd, k.path, 0,
					c->open.judged) == 0 &&
	    hs_fl_reach_open(tid, c->open.judged, c->reach_why,
			     sizeof(c->reach_why)))
		return hs_fl_valid(x->listener, c->n.id) ? HS_FL_REFUSED
							 : HS_FL_GONE;
	classify(x, c, &k, tid, false);
	if (k.unnamed) { /* judged by nobody: denied, and logged as such */
		c->nev = 0;
		event(c, HS_OPERATION_UNNAMED, k.unnamed, NULL);
	} else if (hs_fscope_any_post(x->scope)) {
		classify(x, c, &k, tid, true);
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
		if (hs_fl_environ(c->tgid, "HOOKSHIM_ROLE", role, sizeof(role)) &&
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
	c->open.judged[0] = '\0';
	c->tgid = 0;
	c->nev = 0;
	c->post.want = false;
	c->post.id[0] = '\0';
	c->argv = NULL;
	c->exe[0] = '\0';
	c->nested = 0;
	c->cwd[0] = '\0';
	c->asked = false;
	c->notice = NULL;
	c->refused = false;
}

void hs_fl_call_free(struct hs_fl_call *c)
{
	if (c->argv) {
		for (char **a = c->argv; *a; a++)
			free(*a);
		free(c->argv);
	}
	c->argv = NULL;
	free(c->notice);
	c->notice = NULL;
}
