/* The agent's opens for reading by raw syscalls as Read events: what the
 * shim does for libc's opens (shim/read_event.c), for the reads it cannot
 * see -- Bun's file I/O (so Claude Code's own Read tool), static
 * programs.
 *
 * The kernel sends them only in a session with a Read hook (floor_bpf.c,
 * HS_FLOOR_READS), and never the shim's own: its read interposers forward
 * with the cookie (shim/write.c), so a dynamic program's reads are decided
 * once, in-process, without a round trip. Here the shim's rules, in the
 * order that keeps the common case cheap (no hook can care: CONTINUE, in
 * the receiver, no thread):
 *   - O_PATH and O_DIRECTORY read no content (the BPF program already
 *     lets them through; openat2 keeps its flags in a struct);
 *   - the path, named as the shim names it (follow_symlinks), in scope as
 *     writes are and matching a Read hook's glob (the '(' lines of
 *     HOOKSHIM_WRITE, floor_scope.c) -- most reads end at this string
 *     compare;
 *   - an existing regular file;
 *   - an agent-role caller: HOOKSHIM_ROLE in its initial environment is
 *     not "tool", as floor_exec.c reads it. A tool call's `cat .env` is
 *     its command's Bash event, not a Read, as in Claude Code. The role is
 *     read last, only for a read a hook names, so it is not cached: a
 *     cache keyed by pid and start time would also have to see execs,
 *     which change the environment without changing either.
 * A name too long to hold is asked with the caller's text and denied
 * whatever the answer, as the shim does. The answer is CONTINUE or the
 * deny errno; an allowed read is opened by the supervisor in enforce mode
 * (floor_open.c, as writes are), left to the kernel in guard mode. */
#include "floor_int.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "../common/wire.h"

enum hs_fl_verdict hs_fl_open_read(const struct hs_floor_ctx *x,
				   struct hs_fl_call *c, int dirfd,
				   const char *path, uint64_t flags,
				   uint64_t resolve)
{
	struct hs_fl_event *e = &c->ev[0];
	bool follow = hs_fscope_follow(x->scope);
	pid_t tid = (pid_t)c->n.pid;
	struct stat sb;
	char role[16];
	int r;

	/* (openat2 is notified without a Read hook too) */
	if ((flags & (O_PATH | O_DIRECTORY)) || !hs_fscope_any_read(x->scope))
		return HS_FL_CONTINUE;
	/* openat2's RESOLVE_IN_ROOT: path is relative to its root by now
	 * (hs_fl_in_root), and symlinks in it resolve inside it */
	r = follow && (resolve & RESOLVE_IN_ROOT)
		    ? hs_fl_abs_in_root(tid, dirfd, path, HS_FL_FOLLOW, resolve,
					e->path)
		    : hs_fl_abs(tid, dirfd, path, follow, e->path);
	if (r == HS_PATH_TOOLONG) {
		snprintf(e->path, sizeof(e->path), "%s", path);
		e->operation = HS_OPERATION_UNNAMED;
	} else if (r < 0) {
		return HS_FL_CONTINUE; /* the kernel will fail it */
	} else {
		if (!follow)
			hs_fscope_unalias(x->scope, e->path);
		/* a judged command's memory, by a process that is not one's
		 * (enforce mode: floor_reach.c) */
		if (hs_fl_reach_inner(tid, e->path, false, c->reach_why,
				      sizeof(c->reach_why)))
			return hs_fl_valid(x->listener, c->n.id)
				       ? HS_FL_REFUSED
				       : HS_FL_GONE;
		if (!hs_fscope_read(x->scope, e->path) ||
		    stat(e->path, &sb) != 0 || !S_ISREG(sb.st_mode))
			return HS_FL_CONTINUE;
		e->operation = NULL;
	}
	/* what we read is only good while the caller is the one we read */
	if (!hs_fl_valid(x->listener, c->n.id) ||
	    (c->tgid = hs_fl_tgid(tid)) < 0)
		return HS_FL_GONE;
	if (hs_fl_role(c->tgid, role, sizeof(role)) &&
	    strcmp(role, "tool") == 0)
		return HS_FL_CONTINUE;
	if (hs_fl_cwd(tid, c->cwd) < 0)
		c->cwd[0] = '\0';
	e->op = "read";
	e->has_new = false;
	c->nev = 1;
	return hs_fl_valid(x->listener, c->n.id) ? HS_FL_DECIDE : HS_FL_GONE;
}
