/* Whether a process that says it is a command's -- HOOKSHIM_ROLE=tool in
 * its environment -- is one (enforce mode).
 *
 * The role decides what an exec is: an agent's shell with a command
 * string is a tool call, judged; a command's execs are nested, judged
 * only where nested execs are events. It decides too whether a read is a
 * Read and a write counts under writes.agent_only. The floor reads it
 * from the caller's initial environment, which the caller wrote: a
 * process exec'd with HOOKSHIM_ROLE=tool by a static program (no shim to
 * rewrite it), or one that rewrites its own environment block after a
 * fork, ran `bash -c` unjudged. In enforce mode nothing the session
 * writes may decide, so the claim is believed only where the supervisor
 * saw it come about:
 *
 *   - an exec it judged a tool call and allowed grants its caller's next
 *     image (hs_fl_lineage_granted), when the program is the one the
 *     command names (names_itself: the system's own shell), recorded with
 *     where the caller's image is before it (/proc/PID/stat: its code,
 *     heap, arguments and environment), the program and the arguments
 *     judged. An exec places those anew, at random; a failed one, after
 *     our answer, leaves them, and the process is still what it was.
 *     Only prctl(PR_SET_MM) and personality(ADDR_NO_RANDOMIZE) would
 *     place them otherwise, refused under the floor (floor_refuse.c,
 *     "process_image");
 *   - the grant is settled at the process's next exec at the latest
 *     (hs_fl_lineage_exec), or when first looked at with its image
 *     moved: its program (/proc/PID/exe) and arguments (/proc/PID/cmdline)
 *     must be the ones judged (another thread's exec, racing the judged
 *     one, may have won) and no process of the session may trace it (a
 *     grant found traced, or whose caller was traced when it was judged,
 *     or reached into by the agent's process while pending, is dropped:
 *     a tracer from before the exec could have the new image exec
 *     anything and let go); then it is a command's for good -- a
 *     hand-off's where the environment the kernel gave it carries code
 *     its hook did not see (floor_handoff.c: BASH_ENV, exported
 *     functions, LD_PRELOAD, PYTHONPATH, a HOME of the session's, ...
 *     not the user's own): role "handoff" whatever it claims, every
 *     program it starts a tool call of its own -- and every command's
 *     once a shell's start-up file changed during the session
 *     (~/.bash_profile: floor_handoff.c);
 *   - a grant is a hand-off's where the shim makes the image one (its
 *     tool call's text runs a string its hook did not see, or a shell or
 *     an interpreter judged beneath a hand-off: shim/exec_decide.c) --
 *     then whoever may write its program -- and the image is one
 *     whatever its environment later says: a fork that rewrites its
 *     role away is still a hand-off's;
 *   - a process with no record is its parent's image while it has its
 *     parent's places (a fork copies them), and taken for what its
 *     parent is; or its parent's image before its last exec (kept from a
 *     grant, and from each exec of a hand-off's), and taken for what that
 *     was: the agent's copy from before the exec that granted a command
 *     is not a command's, a hand-off's copy is a hand-off's. One whose parent is the supervisor, and not the agent,
 *     is an orphan of the session (its parent ended first): a hand-off's
 *     (floor_orphans.c). Anything else -- a process that exec'd while not
 *     a command's, a parent unreadable -- is not;
 *   - a process found a command's is recorded so (its execs from then on,
 *     and its children, are one lookup).
 *
 * A claim not believed makes the caller the agent: its shell with a
 * command string is a tool call, judged -- more judging, never less.
 * Records are keyed by process and start time (a reused pid is another
 * process), in a table of sets of WAYS by pid, each using a gone
 * process's record again first, and growing past its WAYS rather than
 * drop a live one's (only without memory its least recently used).
 * Guard mode believes the claim (its trust model; the shim's own execs
 * are cookied and never seen here, so there would be nothing to check it
 * against).
 *
 * Past 600 lines: one table under one lock -- its records, the grants
 * that change them and the lookups that read them, each of which takes
 * the others' state in the same locked step (a grant settled while a
 * lookup walks the parents); apart, they would share the table's
 * internals through a header. */
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <nettle/sha2.h>

#include "../common/plainstr.h"
#include "../common/shellargv.h"
#include "../common/wire.h"
#include "../engine/child.h"
#include "../engine/command.h"
#include "floor_int.h"

#define NSETS 512
#define WAYS 4
#define MAX_DEPTH 64

enum { FREE, COMMAND, GRANTED };

/* Where an image is (/proc/PID/stat): its code, its heap's start, its
 * arguments, its environment. An exec places each anew, at random
 * (prctl(PR_SET_MM) and personality(ADDR_NO_RANDOMIZE), which could
 * place them at will or where they were, are refused under the floor:
 * floor_refuse.c); a fork keeps them all. */
struct image {
	unsigned long code, brk, arg, env;
};

static struct image image_of(const struct hs_proc_stat *st)
{
	return (struct image){ st->start_code, st->start_brk, st->arg_start,
			       st->env_start };
}

struct lineage {
	pid_t tgid;
	long start;
	unsigned char kind;
	/* GRANTED: the caller's image before the exec we allowed, and what
	 * that exec was to run */
	struct image pre;
	unsigned long long exe_dev, exe_ino;
	uint8_t args_hash[SHA256_DIGEST_SIZE];
	size_t args_len;
	/* a hand-off's (every program it starts is a tool call of its
	 * own): its tool call's text runs a string its hook did not see, it
	 * is a shell or an interpreter judged beneath a hand-off (its code
	 * may come on its stdin or from its environment), or its
	 * environment or the start-up files it reads carry code its hook
	 * did not see (floor_handoff.c). GRANTED: what the image granted is
	 * to be */
	bool handoff;
	/* GRANTED a command's process again (a judged exec beneath a
	 * hand-off, made in the shell's own process): what it was, for as
	 * long as the exec is not made, and for good if it fails */
	bool was_command, was_handoff;
	unsigned long used;
	struct lineage *next; /* its set's overflow, past the WAYS */
};

static struct lineage lines[NSETS][WAYS];
/* A set's records past its WAYS, while every way's process lives: a live
 * process's record is never dropped for another's (a hand-off's forks
 * that fill its set would make it the agent's). Kept for good, and used
 * again once their processes are gone. */
static struct lineage *overflow[NSETS];
static unsigned long clock_;
static bool on; /* enforce mode: hs_fl_lineage_start */
/* a command's nested execs judged ("nested_exec"): a command's fork
 * children are kept as its own across its exec, as a hand-off's are */
static bool nested;
/* the kernel places each exec's image at random (randomize_va_space not
 * 0): else a fork and an exec's image can look alike, and no fork is
 * taken for its parent's image */
static bool randomised = true;
/* Whether any hand-off was granted (then a process claiming no role is
 * looked up too) */
static int handoffs; /* atomic */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

/* The arguments are kept as SHA-256 of what /proc/PID/cmdline holds
 * (each followed by its NUL): an image whose arguments were chosen to
 * match another's digest would need a collision of it. */

static struct lineage *set_of(pid_t tgid)
{
	return lines[(unsigned)tgid % NSETS];
}

/* Locked. */
static struct lineage *find(pid_t tgid, long start)
{
	struct lineage *s = set_of(tgid);

	for (int i = 0; i < WAYS; i++)
		if (s[i].kind != FREE && s[i].tgid == tgid &&
		    s[i].start == start) {
			s[i].used = ++clock_;
			return &s[i];
		}
	for (struct lineage *o = overflow[(unsigned)tgid % NSETS]; o;
	     o = o->next)
		if (o->kind != FREE && o->tgid == tgid && o->start == start)
			return o;
	return NULL;
}

static bool gone(const struct lineage *l)
{
	struct hs_proc_stat st;

	return hs_proc_stat(l->tgid, &st) != 0 || st.start != l->start;
}

/* Locked: a record of the set's overflow that is free or whose process
 * is gone, or a new one; NULL without memory. */
static struct lineage *overflowing(unsigned set)
{
	struct lineage *o;

	for (o = overflow[set]; o; o = o->next)
		if (o->kind == FREE || gone(o))
			return o;
	if ((o = calloc(1, sizeof(*o)))) {
		o->next = overflow[set];
		overflow[set] = o;
	}
	return o;
}

/* Locked: tgid's record, made in its set's free slot, or else in the
 * least recently used one whose process is gone, or else in the set's
 * overflow -- or, without memory for it, in the least recently used. */
static struct lineage *put(pid_t tgid, long start)
{
	struct lineage *l = find(tgid, start), *s = set_of(tgid), *v = NULL;
	struct lineage *order[WAYS], *next;

	if (l)
		return l;
	for (int i = 0; i < WAYS && !v; i++)
		if (s[i].kind == FREE)
			v = &s[i];
	for (int i = 0; i < WAYS && !v; i++) { /* by age, oldest first */
		int j = i;

		for (; j > 0 && order[j - 1]->used > s[i].used; j--)
			order[j] = order[j - 1];
		order[j] = &s[i];
	}
	for (int i = 0; i < WAYS && !v; i++)
		if (gone(order[i]))
			v = order[i];
	if (!v && !(v = overflowing((unsigned)tgid % NSETS)))
		v = order[0];
	next = v->next;
	memset(v, 0, sizeof(*v));
	v->next = next;
	v->tgid = tgid;
	v->start = start;
	v->used = ++clock_;
	return v;
}

/* Known (the kernel shows the places to whoever may trace the process
 * alone, 0 to others) and the same: one image. */
static bool known(const struct image *a)
{
	return a->code && a->arg && a->env;
}

static bool same_image(const struct image *a, const struct image *b)
{
	return known(a) && a->code == b->code && a->brk == b->brk &&
	       a->arg == b->arg && a->env == b->env;
}

/* Is pid one of the session's processes (below the supervisor)? */
static bool in_session(pid_t pid)
{
	struct hs_proc_stat st;

	for (int depth = 0; pid > 1 && depth < MAX_DEPTH; depth++) {
		if (pid == getpid())
			return true;
		if (hs_proc_stat(pid, &st) != 0)
			return true; /* gone: not known to be outside */
		pid = (pid_t)st.ppid;
	}
	return false;
}

/* Is tgid traced by a process of the session (or can that not be
 * read)? Such a tracer -- its parent, after PTRACE_TRACEME before the
 * exec, or one attached before it -- could have it run another exec
 * than the one judged, and detach; strace or gdb outside the session
 * drives nothing of its. */
static bool driven(pid_t tgid)
{
	char p[48];
	long tracer;

	snprintf(p, sizeof(p), "/proc/%d/status", (int)tgid);
	return (tracer = hs_fl_proc_field(p, "\nTracerPid:")) < 0 ||
	       (tracer > 0 && in_session((pid_t)tracer));
}

/* Is tgid's image now the program and arguments l granted? */
static bool granted_image(pid_t tgid, const struct lineage *l)
{
	char p[48], buf[4096];
	struct stat sb;
	uint8_t digest[SHA256_DIGEST_SIZE];
	struct sha256_ctx h;
	size_t len = 0;
	ssize_t n;
	int fd;

	snprintf(p, sizeof(p), "/proc/%d/exe", (int)tgid);
	if (!l->exe_ino || stat(p, &sb) != 0 ||
	    (unsigned long long)sb.st_dev != l->exe_dev ||
	    (unsigned long long)sb.st_ino != l->exe_ino)
		return false;
	snprintf(p, sizeof(p), "/proc/%d/cmdline", (int)tgid);
	if ((fd = open(p, O_RDONLY | O_CLOEXEC)) < 0)
		return false;
	sha256_init(&h);
	/* no more than the arguments judged and a byte: a longer one is
	 * another, however long */
	while (len <= l->args_len &&
	       (n = read(fd, buf,
			 l->args_len + 1 - len < sizeof(buf)
				 ? l->args_len + 1 - len
				 : sizeof(buf))) > 0) {
		sha256_update(&h, (size_t)n, (const uint8_t *)buf);
		len += (size_t)n;
	}
	close(fd);
	sha256_digest(&h, sizeof(digest), digest);
	return len == l->args_len &&
	       memcmp(digest, l->args_hash, sizeof(digest)) == 0;
}

/* A granted image found the one judged: a command's, or a hand-off's
 * where the environment it was given carries code its hook did not see
 * (read from the kernel's copy now: what the caller's memory held when
 * the exec was judged could have changed before the kernel read it).
 * Locked. */
static void confirm(pid_t tgid, struct lineage *l)
{
	l->kind = COMMAND;
	/* (not what the process was: a program judged beneath a hand-off,
	 * run in the shell's own process, is a command's, as in a fork of
	 * it -- the shim's rule too) */
	if ((l->handoff = l->handoff || hs_fl_handoff_carries(tgid)))
		__atomic_store_n(&handoffs, 1, __ATOMIC_RELEASE);
}

/* A GRANTED record whose exec is not made, or failed: what the process
 * was before the grant (a command's, or the agent's, 0). */
static int before_grant(const struct lineage *l)
{
	return !l->was_command ? 0 : l->was_handoff ? 2 : 1;
}

/* A grant dropped (its exec failed, made another image, or the process
 * is traced): what it was before -- a command's process granted again
 * stays one, as it did before grants were made of it (never less
 * judged than it was) -- or nothing. */
static void drop_grant(struct lineage *l)
{
	if (l->was_command)
		l->kind = COMMAND, l->handoff = l->was_handoff;
	else
		l->kind = FREE;
}

/* What the process tgid, whose stat is st, is: 0 not a command's, 1 a
 * command's, 2 a hand-off's. Locked. */
static int command_at(pid_t tgid, const struct hs_proc_stat *st, int depth)
{
	struct lineage *l = find(tgid, st->start), *pl;
	struct image im = image_of(st), pim;
	struct hs_proc_stat ps;

	if (l && l->kind == COMMAND)
		return l->handoff ? 2 : 1;
	/* granted: a command's once the exec judged was made, not before;
	 * never where a process of the session traces it (now: not after it
	 * lets go either) */
	if (l) {
		if (driven(tgid)) {
			drop_grant(l);
			return before_grant(l);
		}
		if (known(&im) && same_image(&im, &l->pre))
			return before_grant(l); /* not made yet */
		if (!known(&im) || !granted_image(tgid, l)) {
			if (!l->was_command)
				return 0; /* the agent's, until its exec */
			drop_grant(l);
			return before_grant(l);
		}
		confirm(tgid, l);
		return l->handoff ? 2 : 1;
	}
	/* its parent ended before it was looked at: not known whose */
	if (hs_fl_orphan(tgid, st->ppid))
		return 2;
	if (!randomised || depth >= MAX_DEPTH || st->ppid <= 1 ||
	    st->ppid == getpid() || !known(&im) ||
	    hs_proc_stat(st->ppid, &ps) != 0 || ps.start > st->start)
		return 0;
	/* forked from the image its parent had before the exec that made
	 * the parent a command's: the agent's copy, not a command */
	pim = image_of(&ps);
	pl = find((pid_t)st->ppid, ps.start);
	/* or from the image before its last exec (a grant's, kept after it
	 * is confirmed; a hand-off's, kept at each exec): what that was */
	if (pl && known(&pl->pre) && same_image(&im, &pl->pre))
		return before_grant(pl);
	return same_image(&im, &pim)
		       ? command_at((pid_t)st->ppid, &ps, depth + 1)
		       : 0;
}

int hs_fl_lineage_kind(pid_t tgid)
{
	struct hs_proc_stat st;
	struct lineage *l;
	int k;

	if (tgid <= 0 || hs_proc_stat(tgid, &st) != 0)
		return 0;
	pthread_mutex_lock(&lock);
	if ((k = command_at(tgid, &st, 0))) {
		l = put(tgid, st.start);
		/* a grant pending is left to be confirmed or dropped */
		if (l->kind != COMMAND && l->kind != GRANTED) {
			l->handoff = k == 2; /* a fork's: its parent's kind */
			l->kind = COMMAND;
		}
	}
	pthread_mutex_unlock(&lock);
	/* a shell's start-up file changed: every command a hand-off */
	return k == 1 && hs_fl_handoff_dirty() ? 2 : k;
}

bool hs_fl_lineage_command(pid_t tgid)
{
	return hs_fl_lineage_kind(tgid) != 0;
}

/* Is path, and every directory above it, root's and written by root
 * alone (what no one else can make into another program)? A symlink's
 * own mode means nothing: its directory says who may replace it. */
static bool roots_alone(const char *path)
{
	char p[PATH_MAX];
	struct stat sb;
	size_t n;

	if (snprintf(p, sizeof(p), "%s", path) >= (int)sizeof(p))
		return false;
	for (;;) {
		if (lstat(p, &sb) != 0 || sb.st_uid != 0 ||
		    (!S_ISLNK(sb.st_mode) && (sb.st_mode & (S_IWGRP | S_IWOTH))))
			return false;
		if ((n = strlen(p)) <= 1)
			return true;
		while (n > 1 && p[n - 1] != '/')
			n--;
		p[n > 1 ? n - 1 : 1] = '\0';
	}
}

/* Is exe, run with argv, the program the judged command names: a shell
 * of the system's for a shell's command string (not a copy of anything
 * called bash; a system busybox runs the applet argv[0] names), the
 * program argv[0] names otherwise (a tool call beneath a hand-off, every
 * exec with tool_calls "every-exec")? "Of the system's": in its
 * directories, by a name and to a file that root alone can change. */
static bool names_itself(const char *exe, char *const argv[])
{
	bool multi = strcmp(hs_base(exe), "busybox") == 0;
	char real[PATH_MAX];

	if (!hs_system_path(exe) || !realpath(exe, real) ||
	    !roots_alone(exe) || !roots_alone(real))
		return false;
	if (hs_command_shell_index(argv) >= 0)
		return hs_shell_name(exe) || (multi && hs_shell_name(argv[0]));
	return multi || strcmp(hs_base(exe), hs_base(argv[0])) == 0;
}

bool hs_fl_lineage_granted(pid_t tgid, const char *exe, char *const argv[],
			   bool handoff, int listener, uint64_t id)
{
	struct hs_proc_stat st;
	struct lineage *l;
	struct image pre;
	struct stat sb;
	uint8_t digest[SHA256_DIGEST_SIZE];
	struct sha256_ctx h;
	size_t len = 0;

	/* (traced by the session now: no grant -- one attaching later is
	 * notified, and drops it: hs_fl_lineage_reached). A hand-off's
	 * image is judged more than any claim makes it, whoever may write
	 * its program (pyenv's python): only a command's must be what its
	 * hook was shown */
	if (!argv || !argv[0] || (!handoff && !names_itself(exe, argv)) ||
	    stat(exe, &sb) != 0 || hs_proc_stat(tgid, &st) != 0 ||
	    driven(tgid))
		return false;
	/* an image we cannot see (0s) could not be told from the next */
	pre = image_of(&st);
	if (!known(&pre))
		return false;
	/* the image before the exec: read while the caller is still
	 * stopped in it (another thread's exec made in the meantime would
	 * have ended it) */
	if (!hs_fl_valid(listener, id))
		return false;
	sha256_init(&h);
	for (size_t i = 0; argv[i]; i++) {
		size_t n = strlen(argv[i]) + 1;

		sha256_update(&h, n, (const uint8_t *)argv[i]);
		len += n;
	}
	sha256_digest(&h, sizeof(digest), digest);
	pthread_mutex_lock(&lock);
	/* a command's too: beneath a hand-off, a shell's last program
	 * judged runs in its process, and its environment is read again
	 * at its confirming (`... GIT_CONFIG_VALUE_0="$(…)" git status`) */
	l = put(tgid, st.start);
	if (l->kind != GRANTED) {
		l->was_command = l->kind == COMMAND;
		l->was_handoff = l->was_command && l->handoff;
	}
	l->kind = GRANTED;
	l->pre = pre;
	l->exe_dev = (unsigned long long)sb.st_dev;
	l->exe_ino = (unsigned long long)sb.st_ino;
	memcpy(l->args_hash, digest, sizeof(digest));
	l->args_len = len;
	l->handoff = handoff;
	pthread_mutex_unlock(&lock);
	/* from now on a process that claims no role is looked up: the
	 * image's fork child may rewrite its claim away */
	if (handoff)
		__atomic_store_n(&handoffs, 1, __ATOMIC_RELEASE);
	return true;
}

/* A hand-off's images: the one about to end in an exec, and the one
 * before its last exec, if that was a hand-off's too (or unknown). */
struct handoff_images {
	struct image now, before;
	bool handoff; /* a hand-off's images, else a command's */
};

/* A fork child c of either of a hand-off's (or, nested execs judged, a
 * command's) images *arg: recorded as its while it has no record and is
 * that image. One that exec'd since is what that exec made it.
 * Unlocked. */
static void child_handoff(long c, void *arg)
{
	const struct handoff_images *h = arg;
	struct hs_proc_stat cs;
	struct image cim;
	struct lineage *l;

	if (hs_proc_stat(c, &cs) != 0)
		return;
	cim = image_of(&cs);
	if (!known(&cim) || (!same_image(&cim, &h->now) &&
			     !(known(&h->before) && same_image(&cim, &h->before))))
		return;
	pthread_mutex_lock(&lock);
	if (!find((pid_t)c, cs.start)) {
		l = put((pid_t)c, cs.start);
		l->kind = COMMAND;
		l->handoff = h->handoff;
	}
	pthread_mutex_unlock(&lock);
}

/* Locked: is a grant of tgid's pending (by its pid alone: a look with
 * no read of its start time)? With drop, each is dropped. */
static bool granted_pid(pid_t tgid, bool drop)
{
	struct lineage *s = set_of(tgid), *o;
	bool any = false;

	for (int i = 0; i < WAYS; i++)
		if (s[i].kind == GRANTED && s[i].tgid == tgid) {
			any = true;
			if (drop)
				drop_grant(&s[i]);
		}
	for (o = overflow[(unsigned)tgid % NSETS]; o; o = o->next)
		if (o->kind == GRANTED && o->tgid == tgid) {
			any = true;
			if (drop)
				drop_grant(o);
		}
	return any;
}

int hs_fl_lineage_exec(pid_t tgid)
{
	struct hs_proc_stat st;
	struct lineage *l;
	struct image im;
	bool any;
	int kind = -1;

	pthread_mutex_lock(&lock);
	any = granted_pid(tgid, false);
	pthread_mutex_unlock(&lock);
	if (hs_proc_stat(tgid, &st) != 0)
		return -1;
	im = image_of(&st);
	/* the image a grant of it made, looked at before it goes: the one
	 * judged, or none -- the granted exec failed where the image has
	 * not moved, and what this exec makes was not judged (a later
	 * image's program and arguments say nothing of it) */
	if (any) {
		pthread_mutex_lock(&lock);
		if ((l = find(tgid, st.start)) && l->kind == GRANTED) {
			if (known(&im) && !same_image(&im, &l->pre) &&
			    !driven(tgid) && granted_image(tgid, l))
				confirm(tgid, l);
			else
				drop_grant(l);
		}
		pthread_mutex_unlock(&lock);
	}
	/* a hand-off's image ending: its fork children, copies of it, are
	 * a hand-off's still, whose parent's next image will not say so
	 * (a python that forked, then exec'd `sh -c 'exec sleep 1'`: its
	 * child, the python it was, rewrote its role away and exec'd). Those
	 * there now are recorded so; the image is kept as the one before its
	 * exec (command_at), for those another thread forks until the exec
	 * is made -- a hook's run, for a judged one -- and looked for again
	 * at its next exec. So too a command's, where its nested execs are
	 * judged: its child, an image no longer its parent's, was the
	 * agent's, whose programs are no events */
	if (known(&im) && (hs_fl_lineage_handoffs() || nested) &&
	    (kind = hs_fl_lineage_kind(tgid)) &&
	    (kind == 2 || nested)) {
		struct handoff_images h = { .now = im, .handoff = kind == 2 };

		pthread_mutex_lock(&lock);
		if ((l = find(tgid, st.start)) && l->kind == COMMAND) {
			if (before_grant(l) == kind)
				h.before = l->pre;
			l->pre = im;
			l->was_command = true;
			l->was_handoff = kind == 2;
		}
		pthread_mutex_unlock(&lock);
		hs_proc_children(tgid, child_handoff, &h);
	}
	return kind;
}

void hs_fl_lineage_handoff(pid_t tgid)
{
	struct hs_proc_stat st;
	struct lineage *l;

	if (tgid <= 0 || hs_proc_stat(tgid, &st) != 0)
		return;
	/* its record made where it has none yet (a process that claims no
	 * role is looked up only once a hand-off was granted), and from now
	 * on every process that claims none is looked up */
	__atomic_store_n(&handoffs, 1, __ATOMIC_RELEASE);
	(void)hs_fl_lineage_kind(tgid);
	pthread_mutex_lock(&lock);
	if ((l = find(tgid, st.start)) && l->kind == COMMAND)
		l->handoff = true;
	else if (l && l->kind == GRANTED) /* the image to be, and before */
		l->handoff = true, l->was_handoff = l->was_command;
	pthread_mutex_unlock(&lock);
}

void hs_fl_lineage_reached(pid_t tgid)
{
	pthread_mutex_lock(&lock);
	(void)granted_pid(tgid, true);
	pthread_mutex_unlock(&lock);
}

void hs_fl_lineage_start(bool enforce, char *const *env)
{
	char v[8];

	on = enforce;
	hs_fl_handoff_start(env, enforce);
	randomised = hs_fl_read_small("/proc/sys/kernel/randomize_va_space",
				      v, sizeof(v)) <= 0 ||
		     v[0] != '0';
}

bool hs_fl_lineage_on(void)
{
	return on;
}

void hs_fl_lineage_nested(bool judged)
{
	nested = judged;
}

bool hs_fl_lineage_nested_on(void)
{
	return on && nested;
}

bool hs_fl_lineage_handoffs(void)
{
	return __atomic_load_n(&handoffs, __ATOMIC_ACQUIRE) != 0 ||
	       hs_fl_handoff_dirty();
}

const char *hs_fl_lineage_role(int kind, const char *claim)
{
	if (kind == 2)
		return "handoff";
	if (strcmp(claim, "tool") == 0)
		return kind == 1 ? "tool" : "";
	return claim;
}
