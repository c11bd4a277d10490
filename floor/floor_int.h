/* Internal interface between the floor's files (floor.h is the public
 * one): reading a stopped caller (floor_path.c), the write filter
 * (floor_scope.c), one notification turned into events (floor_event.c)
 * and the loop that serves them (floor.c). */
#ifndef HOOKSHIM_SUPERVISOR_FLOOR_INT_H
#define HOOKSHIM_SUPERVISOR_FLOOR_INT_H

#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <linux/openat2.h>
#include <linux/seccomp.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "../common/proclink.h"

#ifndef SYS_landlock_restrict_self
#define SYS_landlock_restrict_self 446
#endif
#ifndef SYS_fchmodat2
#define SYS_fchmodat2 452
#endif

/* The receiver's stop nudge (floor.c): a handler without SA_RESTART,
 * so that it ends the receiver's wait in SECCOMP_IOCTL_NOTIF_RECV. No
 * process of the session may send it (floor_reach.c). */
#define HS_FL_STOP_SIGNAL (SIGRTMIN + 2)

/* The kernel's own O_TMPFILE bit: glibc's __O_TMPFILE includes
 * O_DIRECTORY, which every opendir() passes. */
#define HS_O_TMPFILE_BIT 020000000

/* ---- floor_path.c: the stopped caller: its memory, names, descriptors,
 * environment, and its notification ---- */

/* A NUL-terminated string at addr in tid's memory into buf (cap bytes).
 * -EFAULT when unreadable, -EPERM when tid may not be read at all (a
 * non-dumpable process, where the kernel lets us not), -ENAMETOOLONG
 * when longer than cap - 1. */
int hs_fl_read_str(pid_t tid, uint64_t addr, char *buf, size_t cap);
/* n bytes at addr. -1 unless all were read, errno EFAULT where part of
 * them is unmapped (EPERM, EACCES: tid may not be read at all). */
int hs_fl_read(pid_t tid, uint64_t addr, void *buf, size_t n);
/* n bytes of buf to addr in the caller tid, as the kernel's copy out of a
 * call it answers (a page it may not write: EFAULT; no FOLL_FORCE),
 * checked first to be the caller of the notification id still waiting:
 * 0, or -1 and errno. */
int hs_fl_write(pid_t tid, int listener, uint64_t id, uint64_t addr,
		const void *buf, size_t n);
/* The NULL-terminated pointer array at addr (an argv, an envp), up to
 * 4,096 entries, malloc'd with its terminator; *n entries. NULL when
 * unreadable. */
uint64_t *hs_fl_read_ptrs(pid_t tid, uint64_t addr, size_t *n);
/* c->argv read from the stopped exec's arguments, when not yet; false
 * when unreadable (errno E2BIG: an argument longer than the kernel
 * takes). */
struct hs_fl_call;
bool hs_fl_exec_argv(struct hs_fl_call *c);
/* Does a HOOKSHIM_FLAGS value ("i=..,c=<n>,..") carry this cookie? */
bool hs_fl_flags_have_cookie(const char *flags, uint64_t cookie);
/* Has the process (tid of thread group tgid) a shim of this session
 * mapped? */
bool hs_fl_has_shim(pid_t tid, pid_t tgid, uint64_t cookie);
/* -errno e of one of our own steps as the call's result: an error of our
 * own descriptors or memory (EMFILE, ENFILE, ENOMEM: hs_fl_scarce) is
 * not the caller's -- in guard mode its call is then the kernel's
 * (HS_FL_KERNEL); in enforce mode (hs_fl_ours_closed) it fails, ENFILE
 * or ENOMEM, rather than go to a kernel that reads its path again (a
 * session that drove the supervisor out of descriptors would otherwise
 * have its decoys land) -- any other is. */
long hs_fl_ours(long e);
/* A step of ours that failed with -errno e where no other error is the
 * caller's: hs_fl_ours(e) for ours (hs_fl_scarce), `otherwise` for any
 * other. */
long hs_fl_ours_or(long e, long otherwise);
bool hs_fl_scarce(long e);
void hs_fl_ours_closed(bool closed);
/* The test suite's scarcity (HOOKSHIM_TEST_FLOOR_SCARCE, read by
 * hs_floor_start, never by the session's processes: "ctty", "umask",
 * "task"): steps a session cannot drive out of descriptors or memory on
 * its own at will, or only by chance -- the caller's terminal looked up,
 * a receiver's umask of its own, a caller's /proc/<tid> opened
 * (floor_task.c) -- fail as if we were, so that what each mode makes of
 * that (hs_fl_ours) is tested. */
#define HS_ENV_TEST_FLOOR_SCARCE "HOOKSHIM_TEST_FLOOR_SCARCE"
enum { HS_FL_SCARCE_CTTY = 1u, HS_FL_SCARCE_UMASK = 2u, HS_FL_SCARCE_TASK = 4u };
void hs_fl_scarce_test(const char *spec);
bool hs_fl_scarce_now(unsigned step);
/* Is thread tid's namespace ns ("mnt", "cgroup") ours? 1, 0, or -1
 * where either cannot be looked at. */
int hs_fl_ns_same(pid_t tid, const char *ns);
/* Is the notification still pending (the caller still waiting)? */
bool hs_fl_valid(int listener, uint64_t id);
/* Sends the answer r, retried on EINTR. False when the caller was no
 * longer waiting for it (ENOENT: it died or was interrupted meanwhile;
 * nothing to answer). */
bool hs_fl_send(int lfd, struct seccomp_notif_resp *r);
/* The caller's descriptor fd (its stderr: 2), the same open file, or
 * -1. */
int hs_fl_caller_fd(pid_t tgid, int fd);
/* n bytes of msg to the caller's descriptor fd (hs_fl_caller_fd), at
 * once or not at all, never our SIGPIPE (engine/nopipe.h: a stderr
 * whose reader is gone, or full, neither kills nor holds us). True when
 * all of it went. */
bool hs_fl_caller_say(pid_t tgid, int fd, const char *msg, size_t n);
/* `path` (as the caller passed it, relative to dirfd or its working
 * directory) as an absolute, folded path in out (PATH_MAX): /proc/self
 * and /dev/fd links name the caller's descriptors. With `follow`
 * (writes.follow_symlinks), symlinks are resolved: HS_FL_FOLLOW all,
 * HS_FL_PARENTS all but the last component (unlink, rename, O_NOFOLLOW:
 * the calls that do not follow it); without, HS_FL_NOLAST says the call
 * does not follow its last component (else /dev/stdout is named as the
 * caller's descriptor 1, common/proclink.h). -1 when the call fails in
 * the kernel anyway, HS_PATH_TOOLONG (common/proclink.h) when it has a
 * name too long for us. */
#define HS_FL_FOLLOW 1
#define HS_FL_PARENTS 2
#define HS_FL_HOW 3    /* the two above */
#define HS_FL_NOLAST 4
int hs_fl_abs(pid_t tid, int dirfd, const char *path, int follow, char *out);
/* The same with the directory a relative path starts from read already
 * (hs_fl_dir_of's, `dir`; NULL: read here): a call's names, built from
 * one reading of it (floor_event.c). */
int hs_fl_abs_from(pid_t tid, int dirfd, const char *dir, const char *path,
		   int follow, char *out);
/* The caller's directory dirfd names (AT_FDCWD: its working directory),
 * or -1 (HS_PATH_TOOLONG: too deep). */
int hs_fl_dir_of(pid_t tid, int dirfd, char *out);
/* An openat2 path under RESOLVE_IN_ROOT, rewritten in place (cap bytes)
 * as the relative path it names from its directory: the kernel resolves
 * it as if that directory were "/", so "/secrets/f" and "../../secrets/f"
 * are both "secrets/f" there (lexically: ".." never climbs above it). */
void hs_fl_in_root(char *p, size_t cap);
/* hs_fl_abs with writes.follow_symlinks for an openat2 whose `resolve`
 * has RESOLVE_IN_ROOT (path already hs_fl_in_root's): the kernel walks
 * it, from the caller's directory, with the caller's resolve flags, so
 * a symlink inside whose target is absolute is named inside the root as
 * the call will reach it. A name not there yet: its directory so, and
 * the name in it (a dangling symlink there followed one hop). */
int hs_fl_abs_in_root(pid_t tid, int dirfd, const char *path, int follow,
		      uint64_t resolve, char *out);
/* The number after `key` ("\nTgid:") in a small /proc file, or -1. */
long hs_fl_proc_field(const char *path, const char *key);
/* A small file (a /proc entry) into buf, NUL-terminated: the bytes read,
 * or -1 when it cannot be opened or read. */
ssize_t hs_fl_read_small(const char *path, char *buf, size_t cap);
/* The same from a directory (a kept /proc/<tid>: that task's file). */
ssize_t hs_fl_read_small_at(int dirfd, const char *path, char *buf,
			    size_t cap);
/* The caller's working directory, or -1 (HS_PATH_TOOLONG: too deep). */
int hs_fl_cwd(pid_t tid, char *out);
/* stat (follow) or lstat of an absolute path, as those do (errno set).
 * Between hs_fl_stat_begin and _end (one classification, on one thread)
 * an answer is kept for the rest of it: a write is looked at by name
 * three or four times (refused devices, the supervisor's /proc,
 * protected identities, the rule's own look), each a walk of the same
 * path. Anywhere else (a decision thread after its hooks ran, the
 * server's threads asking an outer session) it is plain stat/lstat. */
struct stat;
int hs_fl_stat(const char *path, bool follow, struct stat *sb);
void hs_fl_stat_begin(void);
void hs_fl_stat_end(void);
/* Value of NAME in the process's initial environment (/proc/pid/environ)
 * into out; false when absent. */
bool hs_fl_environ(pid_t pid, const char *name, char *out, size_t cap);
/* A file (a /proc entry) from dirfd, whole and NUL-terminated, its length
 * in *len; NULL when it cannot be opened or read whole, or grows past
 * max bytes. */
char *hs_fl_read_all_at(int dirfd, const char *path, size_t max,
			size_t *len);
/* The same from a directory's file: 1 found, 0 not there, -1 unreadable
 * (a partial read included). */
int hs_fl_environ_at(int dirfd, const char *path, const char *name,
		     char *out, size_t cap);

/* ---- floor_lineage.c: whose claim to be a command's is true ---------- */

/* At the floor's start: enforce mode checks the claims (guard mode
 * believes them); env is the agent's starting environment. */
void hs_fl_lineage_start(bool enforce, char *const *env);
bool hs_fl_lineage_on(void);
/* Are a command's nested execs judged (`"nested_exec": true`, or a hook
 * on them)? Set once at the start, before any receiver; asked (enforce
 * mode only) where a command's processes would otherwise pass for the
 * agent's: its fork children across its exec (floor_lineage.c), its
 * reach into the agent's (floor_reach.c). */
void hs_fl_lineage_nested(bool judged);
bool hs_fl_lineage_nested_on(void);

/* Enforce mode: is the process tgid a command's -- made one by an exec
 * the supervisor allowed as a tool call, or that process's image's fork
 * child (and theirs)? Recorded so when it is. */
bool hs_fl_lineage_command(pid_t tgid);
/* The same as a kind: 0 not a command's, 1 a command's, 2 a hand-off's
 * (its tool call's environment carried code its hook did not see: every
 * program it starts is a tool call of its own). */
int hs_fl_lineage_kind(pid_t tgid);
/* Was any hand-off granted (then a process that claims no role is looked
 * up too)? */
bool hs_fl_lineage_handoffs(void);
/* The role to go by for a process of that kind that claims `claim`. */
const char *hs_fl_lineage_role(int kind, const char *claim);
/* A process of the session that is not a command's reached into tgid
 * (floor_reach.c): a grant of its next image, pending, is dropped. */
void hs_fl_lineage_reached(pid_t tgid);
/* tgid is stopped in an exec: the image a grant of it made, if any, is
 * confirmed now -- or dropped, its exec having failed or made another
 * image -- never later. Its kind (hs_fl_lineage_kind) where that was
 * looked up on the way (a hand-off granted in the session, or nested
 * execs judged), else -1: the caller need not ask again. */
int hs_fl_lineage_exec(pid_t tgid);
/* tgid, stopped in an exec (notification id on listener) of exe with
 * argv allowed as a tool call: its next image is a command's -- a
 * hand-off's with handoff (what it runs is judged too, whatever its
 * environment then claims) -- if it is that program with those
 * arguments, and exe the program the command names (a system shell for
 * a command string); this one is not. A command's process granted again
 * stays one until the exec is made, and if it fails. False when nothing
 * was granted. */
bool hs_fl_lineage_granted(pid_t tgid, const char *exe, char *const argv[],
			   bool handoff, int listener, uint64_t id);
/* A command's process tgid is a hand-off's from now on (its image to
 * be a git command that is a script: what its settings name runs). */
void hs_fl_lineage_handoff(pid_t tgid);

/* ---- floor_orphans.c: the session's orphans (enforce mode) ---------- */

/* Is tgid, whose parent is ppid, an orphan of the session (its parent
 * the supervisor, and it not the agent): a hand-off's, not known whose? */
bool hs_fl_orphan(pid_t tgid, long ppid);
/* The watchdog's tick: ended orphans reaped. */
void hs_fl_orphans_reap(void);

/* ---- floor_handoff.c: what makes a granted tool call a hand-off ---- */

/* At the floor's start (floor_lineage.c): the agent's starting
 * environment, the user's; the shells' start-up files watched from now
 * (watch_files: enforce mode). */
void hs_fl_handoff_start(char *const *env, bool watch_files);
/* Does the confirmed tool call tgid's environment carry code its hook
 * did not see, that the user's did not (BASH_ENV, LD_PRELOAD,
 * PYTHONPATH, ...)? */
bool hs_fl_handoff_carries(pid_t tgid);
/* Has a shell's start-up file (~/.bash_profile, /etc/profile, ...)
 * changed since the session started? Then every command's process is a
 * hand-off's. Sticky; said once on stderr. */
bool hs_fl_handoff_dirty(void);

/* ---- floor_task.c: a caller task's facts, kept between its calls ---- */

/* The process (thread group) tid belongs to, or -1. */
pid_t hs_fl_tgid(pid_t tid);
/* A copy of thread tid's descriptor fd, the same open file, through a
 * pidfd of the thread (PIDFD_THREAD, 6.9) or of its process -- before
 * 6.9, when not `exact`, or where the thread's descriptor table is its
 * leader's (kcmp): a thread may have one of its own; -1 and errno
 * otherwise (EBADF: no such descriptor; EMFILE, ENFILE, ENOMEM: ours,
 * hs_fl_scarce; ESRCH: not to be had). Never opens the caller's
 * descriptor by name (a FIFO would block). A tid may be another task's
 * by then: the call must still be pending after (hs_fl_valid). Made
 * with our own credentials (pidfd_getfd checks the real ids). */
int hs_fl_thread_fd(pid_t tid, int fd, bool exact);
/* Its HOOKSHIM_ROLE into out ("" and false when it has none); in enforce
 * mode a "tool" the floor did not see made is none (floor_lineage.c):
 * for what a command's role judges less (its execs nested, its reads and
 * agent_only writes no events). */
bool hs_fl_role(pid_t tid, char *out, size_t cap);
/* The same, with its lineage's kind already known (>= 0; -1: look it up
 * where it is needed). */
bool hs_fl_role_known(pid_t tid, int kind, char *out, size_t cap);
/* What its environment claims, unchecked: for what a command's role
 * judges more (its connections: the agent's own are no events). */
bool hs_fl_role_claimed(pid_t tid, char *out, size_t cap);
/* Its thread group's name (/proc/TGID/comm) into out, "" unknown. */
void hs_fl_comm(pid_t tid, char *out, size_t cap);
/* Every notification, its syscall, first, on the receiver that took it:
 * an exec's marks what it changes for tid's thread group, any other call
 * of tid says it is past one. It also vouches for tid until the next
 * notification: tid is stopped in its call until answered, so the
 * receiver checks its entry live once (floor_task.c, now_tid). */
void hs_fl_task_seen(pid_t tid, int nr);

/* ---- floor_net.c: a connection the floor sees (docs/network.md) ---- */

#define HS_FL_NET_DESTS 8

struct hs_fl_net {
	pid_t tid, tgid;
	int fd;
	int ndest; /* destinations, each once (a sendmmsg may have several) */
	struct {
		char address[64]; /* numeric */
		int port;
	} dest[HS_FL_NET_DESTS];
	bool send;       /* sendto, sendmsg, sendmmsg: a datagram's */
	bool fastopen;   /* ... with MSG_FASTOPEN: a stream socket's connect */
	char qname[256]; /* the name a DNS query sent asks for, or "" */
	bool udp;        /* a datagram socket (or raw; a send's of a type
			  * that cannot be told) */
	bool stream;     /* a stream socket, known to be one */
	bool raw;        /* a raw one: its packets carry their own ports */
	bool agent; /* the agent's own connection (not an event) */
};

/* On the receiver: notification n's destinations, read from the
 * caller's sockaddrs (a connect's; a send's, by sendto, sendmsg or each
 * message of a sendmmsg), and the name a DNS query in what is sent asks
 * for. 1: some destination with an IPv4/IPv6 address, into out; 0: none
 * to judge (another family, a length the kernel refuses, a send with no
 * destination -- out->qname may still be set); -1: what is needed cannot
 * be read, or more than HS_FL_NET_DESTS destinations (refuse it). */
int hs_fl_net_read(const struct seccomp_notif *n, struct hs_fl_net *out);
/* On the deciding thread: the rest of d -- its thread group, its
 * socket's type (TCP when it cannot be told), whether it is the agent's
 * own (known only through its parents: agent is the agent's pid; with
 * agent_too never). */
void hs_fl_net_finish(struct hs_fl_net *d, pid_t agent, bool agent_too);

/* The names the session's DNS queries asked for (the last 64, by thread
 * group), for the host of a later connect: the floor sees no answer, so
 * a name is taken only when the supervisor's own resolver leads from it
 * to the address (as the shim's getaddrinfo names are,
 * supervisor/net_cache.h). And the destinations of the datagrams lately
 * allowed (64, by thread), so that a static program's thousandth
 * sendmsg to one destination is answered on the receiver, without a
 * thread: forgotten when a new name is learned (it might name one of
 * them otherwise), kept keep seconds (network_cache: -1 the session, 0
 * never kept). */
struct hs_fl_netmem;
struct hs_fl_netmem *hs_fl_netmem_new(void);
void hs_fl_netmem_free(struct hs_fl_netmem *t);
void hs_fl_names_add(struct hs_fl_netmem *t, pid_t tgid, const char *name);
/* The newest name tgid asked for that leads to address, into out (256
 * bytes); false when none does. */
bool hs_fl_names_host(struct hs_fl_netmem *t, pid_t tgid, const char *address,
		      char *out);
/* Is thread tid's socket fd connected to a port 53 (a DNS server)? For
 * the names of queries sent without a destination. */
bool hs_fl_net_dns_peer(pid_t tid, int fd);
/* Was every destination of d, a datagram send (no Fast Open), allowed to
 * its thread lately? */
bool hs_fl_sent_allowed(struct hs_fl_netmem *t, const struct hs_fl_net *d,
			int keep);
/* d's destinations were allowed: kept, for a UDP send. */
void hs_fl_sent_keep(struct hs_fl_netmem *t, const struct hs_fl_net *d,
		     int keep);

/* ---- floor_scope.c: the shim's write filter, for the supervisor ---- */

struct hs_fscope;
/* Parses HOOKSHIM_WRITE text (shim/write_scope.h); NULL text means every
 * write in the root. */
struct hs_fscope *hs_fscope_new(const char *text, const char *root);
void hs_fscope_free(struct hs_fscope *sc);
/* Is abs inside the scope (include, exclude, never /proc, /sys, /dev),
 * whatever the hooks' globs? The agent's reads are judged there too. */
bool hs_fscope_in_scope(const struct hs_fscope *sc, const char *abs);
/* May a pre (post) hook fire for a write to abs? */
bool hs_fscope_pre(const struct hs_fscope *sc, const char *abs);
/* The sides (HS_WR_PRE, HS_WR_POST, HS_WR_STAGE: common/write_rule.h) of
 * want that may fire for a write to abs. agent: the writer is the
 * agent's own process and that its name (/proc/PID/comm; "" unknown),
 * whose writes beyond the scope are events too (writes.agent_anywhere,
 * but its own places: common/agent_place.h); NULL: any other process. */
unsigned hs_fscope_sides(const struct hs_fscope *sc, const char *abs,
			 unsigned want, const char *agent);
/* Are the agent's own writes events beyond the scope ('A' lines)? */
bool hs_fscope_agent_any(const struct hs_fscope *sc);
/* Could who writes abs change hs_fscope_sides' answer for want: a hook
 * glob of a wanted side names abs, beyond the scope? Else the writer's
 * role and name need not be read. */
bool hs_fscope_agent_matters(const struct hs_fscope *sc, const char *abs,
			     unsigned want);
bool hs_fscope_post(const struct hs_fscope *sc, const char *abs);
/* May a Read hook fire for the agent's open for reading of abs: in scope
 * as writes are, and matching a '(' line (the shim's hs_rscope_match)? */
bool hs_fscope_read(const struct hs_fscope *sc, const char *abs);
/* Has any Read hook a glob at all (is there a Read hook)? */
bool hs_fscope_any_read(const struct hs_fscope *sc);
/* Has any post hook on writes a glob at all? */
bool hs_fscope_any_post(const struct hs_fscope *sc);
/* Is abs a protected file ('!' lines, engine/protect.h)? */
bool hs_fscope_protected_file(const struct hs_fscope *sc, const char *abs);
/* Is what abs leads to now (its directories followed, and its last
 * component with `follow`) a protected file by its identity ('@' lines),
 * whatever its name? The shim's hs_wscope_protected_target. */
bool hs_fscope_protected_target(const struct hs_fscope *sc, const char *abs,
				bool follow);
/* Is the directory abs's last component is in a protected tree's, by
 * its identity ("@DEV:INO/" lines), however abs names it? The shim's
 * hs_wscope_in_tree. */
bool hs_fscope_in_tree(const struct hs_fscope *sc, const char *abs);
/* The same as hs_fscope_protected_target for an open descriptor: what an
 * open on the caller's behalf reached (floor_open.c). */
bool hs_fscope_protected_fd(const struct hs_fscope *sc, int fd);
/* Is abs the root, a protected file, or a directory above either (a
 * rename of it is the built-in rule's)? */
bool hs_fscope_pinned(const struct hs_fscope *sc, const char *abs);
/* Would a symlink at `link` with text `text` name a protected file or
 * lead into a protected tree (the shim's hs_wscope_link_to_policy)? */
bool hs_fscope_link_to_policy(const struct hs_fscope *sc, const char *link,
			      const char *text);
/* Does a pre hook's own path glob name abs (writes.judge_temp_files)? */
bool hs_fscope_protected(const struct hs_fscope *sc, const char *abs);
/* abs through the root's logical name rewritten under the root (what
 * the shim's hs_path_abs does without following). */
void hs_fscope_unalias(const struct hs_fscope *sc, char *abs);
bool hs_fscope_follow(const struct hs_fscope *sc);
bool hs_fscope_quiet(const struct hs_fscope *sc);
bool hs_fscope_agent_only(const struct hs_fscope *sc);
bool hs_fscope_judge_temps(const struct hs_fscope *sc);
/* "oc": does the writer's own name (its comm) name the agent's own
 * places? Guard mode only. */
bool hs_fscope_own_name(const struct hs_fscope *sc);

/* ---- floor_event.c: what one notification asks ---- */

/* Up to two pre events (a rename into watched ground: the rename, and
 * the target's create/overwrite), as the shim would send them. */
struct hs_fl_event {
	const char *op;        /* "write", "exec" or "read" */
	const char *operation; /* create, overwrite, ... (writes) */
	char path[PATH_MAX];
	char new_path[PATH_MAX];
	bool has_new;
	/* an atomic save's temp file (supervisor/atomic_save.h): the Write
	 * of path fired at its creation, or its publishing rename */
	enum { HS_FL_TEMP_NONE, HS_FL_TEMP_CREATE, HS_FL_TEMP_PUBLISH } temp_is;
	char temp[PATH_MAX];
};

/* Where the floor sees a call it let continue end (floor_post.c): the
 * kernel tells no more, so the file system's own notice of the change
 * marks it -- the last close of the file written, the name created,
 * moved in or deleted. */
enum hs_fl_seen {
	HS_FL_SEEN_CLOSE,  /* an open: IN_CLOSE_WRITE of the file */
	HS_FL_SEEN_CREATE, /* mkdir, mknod, link, symlink: IN_CREATE */
	HS_FL_SEEN_MOVE,   /* rename: IN_MOVED_TO at the target */
	HS_FL_SEEN_DELETE, /* unlink, rmdir: IN_DELETE */
	HS_FL_SEEN_MODIFY, /* truncate: IN_MODIFY */
};

/* The post event the shim would fire after the same call. */
struct hs_fl_post {
	bool want;
	enum hs_fl_seen seen;
	struct hs_fl_event ev;
	char id[160]; /* the pre's tool_use_id, when a pre was asked */
};

/* An open the floor may do itself (floor_open.c): what was read and
 * judged, so that exactly that is opened. */
struct hs_fl_open {
	bool on;               /* an open the floor can emulate */
	int dirfd;
	struct open_how how;   /* flags, mode, resolve as the kernel takes them */
	int read_err;          /* reading the path failed: this errno */
	int tries;             /* rounds lost to a file system that changed */
	int fifo;              /* a fifo or device to open waiting: floor_fifo.c */
	/* the caller's O_TRUNC, made once its descriptor is installed
	 * (hs_fl_inject_trunc): on the descriptor given (trunc_fd -1), or
	 * on trunc_fd (O_RDONLY|O_TRUNC's write check) */
	bool trunc;
	int trunc_fd;
	char path[PATH_MAX + 1]; /* the string copied from the caller */
	char judged[PATH_MAX]; /* its name as judged ("" when unnamed) */
};

/* ---- floor_refuse.c: calls no path check can judge ---- */

/* How floor_bpf.c picks a refused call out: always, by CLONE_NEWNS,
 * CLONE_NEWUSER or CLONE_NEWCGROUP in args[0] (clone, unshare), setns's
 * args[1] (0, or one of those), ioctl's USERFAULTFD_IOC_NEW, prctl's
 * PR_SET_MM, personality's ADDR_NO_RANDOMIZE, or ENOSYS without a word. */
enum hs_rc_test { HS_RC_ALWAYS, HS_RC_NS_ARG0, HS_RC_SETNS, HS_RC_IOCTL_UFFD,
		  HS_RC_PRCTL_MM, HS_RC_NORANDOM, HS_RC_ENOSYS };
struct hs_fl_rcall {
	int nr;
	int group; /* HS_FA_BIT_* (config/model.h) */
	enum hs_rc_test test;
	const char *call;
};
extern const struct hs_fl_rcall hs_fl_rcalls[];
extern const size_t hs_fl_nrcalls;

/* A refusal: what to say and log. */
struct hs_fl_refusal {
	int group;
	char call[32];
	char path[PATH_MAX]; /* "" for a call without one */
	char reason[256];    /* why, and the setting that allows it */
};

struct hs_floor_ctx;
/* Is n a call refused by its number or flags (one floor_bpf.c notified
 * for that alone)? Then r says why. */
bool hs_fl_refused(const struct hs_floor_ctx *x, const struct seccomp_notif *n,
		   struct hs_fl_refusal *r);
struct hs_fl_call;
/* c was refused (c->refusal says why): HS_FL_DECIDE with no event, for a
 * thread to say and log it (floor.c), no hook asked; or HS_FL_GONE. */
enum hs_fl_verdict hs_fl_refuse(const struct hs_floor_ctx *x,
				struct hs_fl_call *c);
/* Is a write-class open of abs (`path` as tid passed it, named as the
 * supervisor sees it; the last component not followed with `nofollow`) a
 * block device, /dev/userfaultfd or a file of /proc/sys or /sys, not
 * allowed? A descriptor's link is looked at through /proc/<pid>/fd. */
bool hs_fl_refused_open(const struct hs_floor_ctx *x, pid_t tid,
			const char *path, const char *abs, bool nofollow,
			struct hs_fl_refusal *r);
/* Is real (a procfs file's name, resolved) one of the kernel's own
 * settings, which "proc_sys" guards: /proc/sys/..., /proc/sysrq-trigger
 * (a process's own /proc/self/... files are not)? */
bool hs_fl_kernel_setting(const char *real);

/* The largest address a bind passes (the kernel's struct
 * sockaddr_storage: EINVAL beyond). */
#define HS_FL_SA_CAP 128

/* A path call the floor can make itself (floor_pathop.c), as decoded
 * and read once: the kernel never reads its strings again. */
struct hs_fl_pathop {
	bool on;
	int nr;                /* the syscall */
	pid_t tid;             /* whose */
	int dirfd, dirfd2;     /* path's, path2's */
	uint64_t flags;        /* AT_*, RENAME_* */
	uint64_t arg;          /* truncate's length, mknod's device */
	unsigned mode;         /* mkdir's, mknod's */
	/* bind's socket, and its address as read (a name: path) */
	int sockfd;
	int sock;              /* our copy of it (floor_decode.c), or -1 */
	unsigned salen;
	unsigned char sa[HS_FL_SA_CAP];
	int read_err;          /* reading a path failed: this errno */
	char path[PATH_MAX + 1], path2[PATH_MAX + 1];
	/* their names as judged ("" when unnamed) */
	char judged[PATH_MAX], judged2[PATH_MAX];
};

struct hs_fl_call {
	struct seccomp_notif n; /* copied out of the kernel's buffer */
	bool refused;           /* floor_refuse.c: EPERM, with refusal's words */
	struct hs_fl_refusal refusal;
	struct hs_fl_open open;
	struct hs_fl_pathop pop;
	pid_t tgid;
	int nev;
	struct hs_fl_event ev[2];
	struct hs_fl_post post;
	/* execs */
	char **argv;
	char exe[PATH_MAX];
	int nested;            /* hs_msg.nested */
	bool beneath;          /* hs_msg.beneath: a handoff-role caller */
	bool in_handoff;       /* ... by its role, not as git's child is */
	char cwd[PATH_MAX];
	bool asked; /* the shim's question (floor_exec.c): answered, never run */
	bool handoff; /* decided: allowed, and what it runs is judged too */
	char *notice; /* floor_pending.c: written to the caller's notice_fd
		       * (its stderr, or the descriptor a question names)
		       * first */
	int notice_fd;
	char reach_why[320]; /* HS_FL_REFUSED: the reason (floor_reach.c) */
	int fail;            /* HS_FL_FAIL: the errno */
	bool said;           /* a denial's reason reached its stderr */
};

/* Verdicts of hs_fl_classify. */
enum hs_fl_verdict {
	HS_FL_CONTINUE,  /* nothing a hook can care about: let it run */
	HS_FL_DECIDE,    /* c->ev[0..nev) go to the hooks */
	HS_FL_GONE,      /* the caller died or the id expired meanwhile */
	HS_FL_ENOSYS,    /* a call the floor refuses outright */
	HS_FL_REFUSED,   /* EPERM, c->reach_why says why (floor_reach.c) */
	HS_FL_FAIL,      /* failed with c->fail, an errno: what the caller
			  * passed could not be read or named here, and the
			  * kernel reading it again could find other bytes */
	HS_FL_ANSWER,    /* failed with c->fail, the kernel's own answer,
			  * given by us and nothing said: floor_exec.c's
			  * exec of a name that is not there */
};

struct hs_inflight;
struct hs_floor_ctx {
	const struct hs_fscope *scope;
	const struct hs_config *cfg;
	int listener;
	uint64_t cookie; /* the session's (hs_floor_plan): whose shim is ours */
	bool exec_hooks; /* execs are notified for a pre hook, not only for
			  * floor_pending.c */
	struct hs_fl_pending *pending;
	const struct hs_fl_self *self; /* floor_identity.c: who the supervisor is */
	int *sandboxed; /* set once a process of the session entered a
			 * Landlock domain: no open is done for it any more */
	bool enforce;   /* enforce mode: no caller decides for itself */
	bool emulate_paths; /* path calls made by the supervisor (enforce
			     * mode, floor_pathop.c) */
	pid_t agent;    /* whose first exec (hookshim run's own) ... */
	int *agent_started; /* ... is let through once */
	unsigned allow; /* settings.floor_allow: HS_FA_* groups let through */
	bool no_core;   /* hs_floor_plan's: RLIMIT_CORE raises refused */
	bool sandbox_mounts; /* and mounts in another mount namespace */
	const int *stopping; /* hs_floor_stop began (atomic) */
	struct hs_inflight *waiting; /* fifo opens waiting (floor_fifo.c,
				      * supervisor/inflight.h) */
};

/* Reads and classifies; c->n is filled by the caller. Every read of the
 * caller's memory or of its /proc opened by number is followed by an id
 * check (floor_identity.c's kept entries need none). With c->post.want
 * (HS_FL_CONTINUE or HS_FL_DECIDE), a post hook waits for the call's end:
 * c->tgid and c->cwd are filled. */
enum hs_fl_verdict hs_fl_classify(const struct hs_floor_ctx *x,
				  struct hs_fl_call *c);
/* A call as it starts, fresh or reused (53 KB: zeroing it all for every
 * notification would cost more than a notification round trip's tenth). */
void hs_fl_call_reset(struct hs_fl_call *c);
void hs_fl_call_free(struct hs_fl_call *c);
/* An open for reading (open, openat, openat2 without write-class flags) of
 * path (read out of the caller) relative to dirfd (floor_read.c): a Read
 * event in c->ev[0] (HS_FL_DECIDE) for an agent-role caller's read of an
 * existing regular file a Read hook's glob names; else HS_FL_CONTINUE. */
enum hs_fl_verdict hs_fl_open_read(const struct hs_floor_ctx *x,
				   struct hs_fl_call *c, int dirfd,
				   const char *path, uint64_t flags,
				   uint64_t resolve);
/* Temp files to the floor (floor_temps.c): a temp-looking or, in
 * enforce mode, a shim-made mkstemp name; silent when no hook's path
 * filter names it; an open the shim's mkstemp made, remembered. */
bool hs_fl_is_temp(const char *abs);
bool hs_fl_temp_silent(const struct hs_floor_ctx *x, const char *abs);
void hs_fl_shim_mkstemp(const struct hs_floor_ctx *x,
			const struct hs_fl_call *c, uint64_t flags,
			const char *abs);
/* Did the agent start c's caller to run the command c is (a tool call)?
 * One thread, its parent's executable (a fork, or the agent started
 * again as a helper, as Codex does), not the agent's own process: the
 * agent's spawn, whose exec is all it was made for. A denied one is
 * ended (floor.c) rather than failed: agents that spawn with pipes
 * (Rust's and Go's std) drop what a child whose exec failed wrote, and
 * the model would read "Permission denied" without the reason. */
bool hs_fl_spawned_tool_call(const struct hs_floor_ctx *x,
			     const struct hs_fl_call *c);
/* An execve/execveat (floor_exec.c): decided only where no shim will. */
enum hs_fl_verdict hs_fl_exec(const struct hs_floor_ctx *x,
			      struct hs_fl_call *c);
/* At the floor's start: the session's start, after which a program
 * its processes wrote is theirs (floor_exec.c, a system program's name
 * taken). */
void hs_fl_exec_start(void);

/* ---- floor_reach.c: the supervisor and its hooks out of reach ---- */

/* The name of n's call when it is one of those that reach into another
 * process (ptrace, process_vm_*, pidfd_getfd, prlimit64, the signals, a
 * descriptor's owner set by fcntl or ioctl), notified for this alone;
 * else NULL. */
const char *hs_fl_reach_call(const struct seccomp_notif *n);
/* 0 when notification n may continue; EPERM, with why filled, when its
 * target is the supervisor or a hook -- or, in enforce mode, a judged
 * command's process that n's caller, not one itself, would attach to,
 * read or write the memory of, or sample (perf_event_open: any by such
 * a caller). Cheap: the receiver answers it. Not for pidfd_getfd
 * (hs_fl_getfd). */
int hs_fl_reach(const struct seccomp_notif *n, char *why, size_t cap);
/* A call into one process's memory, descriptors or control (not a
 * signal) by caller tid, its target named in our pid namespace: EPERM,
 * why filled, for the supervisor's and its hooks', then (enforce mode) a
 * judged command's; else 0. */
int hs_fl_reach_into(pid_t tid, pid_t target, const char *call, char *why,
		     size_t cap);
/* The same into a process outside the session (a call, or an open for
 * writing of path, its /proc/<pid>/mem): EPERM, why filled, unless
 * "floor_allow" names "outside_processes" (hs_fl_reach_start, with the
 * session's groups, once before any call); else 0. */
int hs_fl_reach_outside(pid_t tid, pid_t target, const char *call,
			const char *path, char *why, size_t cap);
void hs_fl_reach_start(unsigned allow);
/* pidfd_getfd done for notification n's caller (floor_getfd.c), on a
 * thread that may wait: the descriptor taken (ours, to hand over),
 * -errno to answer, or HS_FL_REACH (refused, EPERM: why says why). */
long hs_fl_getfd(const struct hs_floor_ctx *x, const struct seccomp_notif *n,
		 char *why, size_t cap);
/* A setrlimit or prlimit64 of RLIMIT_CORE where core files are refused
 * (floor_refuse.c): HS_FL_KERNEL (not ours, or the kernel refuses a raise
 * itself), 0 (set to none by us), a positive errno refused with *why,
 * or -errno to answer. */
long hs_fl_core_limit(const struct hs_floor_ctx *x,
		      const struct seccomp_notif *n, char *why, size_t cap);
/* Who is whose, for floor_reach_proc.c: thread group pid is the
 * supervisor (2), a hook or below one (1), or neither (0); what that is
 * called; is thread tid in our pid namespace (its /proc is ours); caller
 * tid reaching into target (a call, or an open of path, our_name: the
 * name our own open reached) refused in enforce mode -- a judged
 * command's process by one that is not a command's, the agent's by a
 * hand-off's: EPERM, why filled, else 0; is tgid a command's (or, once a
 * start-up file changed, a hand-off's)? */
int hs_fl_reach_ours(pid_t pid);
const char *hs_fl_reach_who(int o);
bool hs_fl_reach_own_pidns(pid_t tid);
int hs_fl_reach_command(pid_t tid, pid_t target, const char *call,
			const char *path, bool our_name, char *why,
			size_t cap);
bool hs_fl_reach_command_or_dirty(pid_t tgid);

/* ---- floor_reach_proc.c: opens that reach into a process ---- */

/* Refused (EPERM, why filled) or not (0), as hs_fl_reach: an open of
 * abs (the caller's name for it, as the floor built it): /proc/<pid>/...
 * of the supervisor or a hook, or a judged command's /proc/<pid>/mem,
 * fd/N or map_files/ (enforce mode). */
int hs_fl_reach_open(pid_t tid, const char *abs, char *why, size_t cap);
/* The same for an open for reading of abs, or for any open of a name of
 * our own /proc (our_name: the name of what our open reached): a judged
 * command's /proc/<pid>/mem, fd/N or map_files/ alone (enforce mode). */
int hs_fl_reach_inner(pid_t tid, const char *abs, bool our_name, char *why,
		      size_t cap);

/* Enforce mode: is our O_PATH descriptor fd, reopened for writing by
 * thread tid through descriptor num of process holder
 * (/proc/<holder>/fd/<num>), a pipe's writing end gained -- that
 * descriptor read-only or O_PATH, no writing end of that pipe held by the
 * caller, which is not a command's? A read-only open is not notified
 * without a Read hook, /proc/<pid>/fd/0 of a judged command's script pipe
 * among them. EPERM, why filled; else 0. */
int hs_fl_reach_pipe(int fd, pid_t tid, pid_t holder, int num, char *why,
		     size_t cap);

/* ---- floor_pending.c: the floor's denials of an agent, for its next
 * tool call ---- */

struct hs_fl_pending;
struct hs_fl_pending *hs_fl_pending_new(void);
void hs_fl_pending_free(struct hs_fl_pending *p);
/* The floor denied c's write to or read of path (op "read"; the caller
 * still waits): kept for the agent's next tool call when the caller is
 * an agent-role process -- without this session's shim (for the topmost
 * such ancestor), or with it (for itself: its shim never saw this). */
void hs_fl_pending_denied(const struct hs_floor_ctx *x,
			  const struct hs_fl_call *c, const char *op,
			  const char *path, const char *reason);
/* An exec hs_fl_exec classified v: when it is a tool call by the agent
 * whose denials wait, they move to c->notice (once) and a CONTINUE
 * becomes a DECIDE with no event, so that a worker writes them. */
/* Is notification n an exec that only floor_pending.c could want, while
 * no denial waits (guard mode)? Then it continues, nothing read. */
bool hs_fl_exec_idle(const struct hs_floor_ctx *x, const struct seccomp_notif *n);
enum hs_fl_verdict hs_fl_pending_exec(const struct hs_floor_ctx *x,
				      struct hs_fl_call *c,
				      enum hs_fl_verdict v);
/* Is n the question of an agent with the shim (shim/floor_calls.h
 * hs_floor_take) for the floor's denials of its raw calls? */
bool hs_fl_take_question(const struct hs_floor_ctx *x,
			 const struct seccomp_notif *n);
/* Answers that question: when it is a tool call by the agent whose
 * denials wait (the asking process or its parent), they move to
 * c->notice for the descriptor it names (HS_FL_DECIDE, no event);
 * else HS_FL_CONTINUE (the kernel's EINVAL). */
enum hs_fl_verdict hs_fl_pending_take(const struct hs_floor_ctx *x,
				      struct hs_fl_call *c);

/* ---- floor_identity.c: would our open be the caller's own? ---- */

/* The supervisor's own identity (credentials, namespaces), against which
 * a caller is compared: NULL when emulation is off (a kernel without
 * killable waits, where an interrupted caller would retry an open that
 * already happened). */
struct hs_fl_self;
/* `userns`: the agent's user namespace's link text ("user:[N]",
 * floor_userns.c), taken for the supervisor's own: the session's
 * processes are in it; NULL or "" for none. `fixed_place`: the floor
 * refuses every call that could give a caller other namespaces or
 * another root (mount, chroot, namespaces: none in "floor_allow"). */
struct hs_fl_self *hs_fl_self_new(unsigned long filter_flags,
				  const char *userns, bool fixed_place);
void hs_fl_self_free(struct hs_fl_self *s);
/* Is the session's place fixed: no process of it may take another mount
 * namespace or root (hs_fl_self_new's fixed_place)? */
bool hs_fl_self_fixed_place(const struct hs_fl_self *s);
/* The nth number (from 0, in base) of thread tid's status line "name:"
 * ("Uid" 1: its effective uid; "CapEff" 0, base 16), or -1. */
long hs_fl_status_num(pid_t tid, const char *name, int nth, int base);
/* Has thread tid capability cap in its effective set (CapEff)? 1, 0, or
 * -1 where its status cannot be read. */
int hs_fl_has_cap(pid_t tid, int cap);
/* Credentials a supervisor thread takes on for a call (hs_fl_become):
 * a caller's fs uid and gid, groups and effective capabilities, where
 * only these differ from ours and ours may be lowered to them. */
#define HS_FL_AS_GROUPS 64
struct hs_fl_as {
	bool on; /* the caller's differ: become it for the call */
	uid_t fsuid;
	gid_t fsgid;
	int ngroups;
	gid_t groups[HS_FL_AS_GROUPS];
	uint32_t capeff[2];
};
/* Would an open by us be thread tid's own? Its umask into *umask_out.
 * True also where only its credentials differ and we may take them on
 * (root: a process of the session that changed its uid, groups or
 * capabilities): then as->on, and the call is made by a thread that
 * became the caller (hs_fl_become); as->on false otherwise. `keep`: the
 * calling thread is long-lived (the receiver) and may keep the caller's
 * /proc entries open between calls, until hs_fl_open_forget(). What it
 * read is tid's, the caller's: read through entries kept from an earlier
 * call (which fail once their task is gone), or opened now and so only
 * while notification `id` of `listener` is pending. 1 ours, 0 not (the
 * call is the kernel's), or what hs_fl_ours makes of our own failure to
 * open its entries (EMFILE: -ENFILE in enforce mode). */
int hs_fl_same_identity(const struct hs_fl_self *s, pid_t tid, bool keep,
			int listener, uint64_t id, mode_t *umask_out,
			struct hs_fl_as *as);
/* The calling thread takes on as's credentials (nothing when !as->on):
 * its own, per thread (raw setgroups, setfsgid, setfsuid, capset), so
 * that every check the kernel makes of what it then walks, opens and
 * makes is the caller's. False, and the thread unchanged, when one
 * could not be taken. hs_fl_become_back restores ours; a thread that
 * cannot get them back is ended with the session's supervisor (abort:
 * it must not go on with a caller's credentials). */
bool hs_fl_become(const struct hs_fl_as *as);
void hs_fl_become_back(const struct hs_fl_as *as);
/* openat(dir, path, flags) with the supervisor's own credentials, also
 * in a thread that holds a caller's: for the caller's own /proc/<tid>
 * links, which the kernel lets the caller through without a check but
 * would check a thread of ours against (a caller that is not dumpable). */
int hs_fl_open_ours(int dir, const char *path, int flags);
/* The kept descriptor of /proc/<tid> this thread's last
 * hs_fl_same_identity (with `keep`) read and found ours, or -1: whatever
 * is opened through it is that task's, the caller's, or fails once it is
 * gone -- never another's that took its number. */
int hs_fl_kept_proc(pid_t tid);
void hs_fl_open_forget(void);
/* Would the kernel let thread tid (of our identity, hs_fl_same_identity)
 * through /proc/<pid>/<what> (what: len bytes, "cwd", "root", "fd/N")
 * of another process? 0, or -EACCES, the kernel's answer otherwise. */
int hs_fl_may_trace(pid_t tid, pid_t pid, const char *what, size_t len);

/* ---- floor_start.c: where a call done for the caller starts ---- */

/* What the floor did with a call it may do for the caller (floor_open.c,
 * floor_pathop.c). */
enum hs_fl_open_result {
	HS_FL_OPEN_ANSWERED, /* the descriptor was injected, or the errno sent */
	HS_FL_OPEN_CONTINUE, /* not emulated: let the kernel run the call */
	HS_FL_OPEN_AGAIN,    /* the path changed since it was judged */
	HS_FL_OPEN_LATER,    /* a thread of its own answers it (floor_fifo.c) */
	HS_FL_OPEN_REFUSED,  /* EPERM, c->reach_why says why: floor.c answers
			      * and says so (floor_reach.c) */
};

/* Results of an emulation's steps besides a descriptor (>= 0) or
 * -errno: */
#define HS_FL_KERNEL (-100000) /* not ours to do: let the call continue */
#define HS_FL_AGAIN (-100001)  /* changed since it was judged: judge again */
#define HS_FL_ENXIO (-100002) /* ENXIO, answered so (a socket, no ctty) */
#define HS_FL_WAITS (-100004)  /* a fifo's open that waits: floor_fifo.c */
#define HS_FL_CTTY (-100005)   /* /dev/tty: hs_fl_ctty_open */
#define HS_FL_DEVICE (-100006) /* a device opened by a thread that waits */
/* into a process out of the caller's reach, the call's reach_why says
 * why (floor_reach.c): HS_FL_OPEN_REFUSED */
#define HS_FL_REACH (-100007)
/* openat2(2) with these fields of its struct: a descriptor, or -errno. */
long hs_fl_openat2(int dirfd, const char *path, uint64_t flags,
		   uint64_t mode, uint64_t resolve);
/* An ELOOP from a walk of path from dir that refused magic links: the
 * caller's own (a loop, `nofollow` O_NOFOLLOW on a symlink, its
 * `resolve` flags) is its answer, -ELOOP; one that only our refusal made
 * is the kernel's, HS_FL_KERNEL. */
long hs_fl_eloop_whose(int dir, const char *path, uint64_t nofollow,
		       uint64_t resolve);
/* What the kernel answers an openat2 with resolve flags of an absolute
 * path through a /proc magic link (EXDEV: another mount; ELOOP: a
 * symlink; EAGAIN: not cached), before any walk of ours; 0 when it walks
 * it. (RESOLVE_IN_ROOT and RESOLVE_BENEATH make no such path one.) */
int hs_fl_magic_refused(uint64_t resolve);
/* The kernel's name of our descriptor fd (PATH_MAX): 0, or -1. */
int hs_fl_fd_name(int fd, char *out);
struct hs_fl_start {
	int fd;           /* AT_FDCWD (our root, the caller's too) or pinned */
	bool pinned;      /* the caller's directory, judged by its name */
	/* pinned by the caller's number (/proc/<tid>/cwd), which may have
	 * been another task's by then: the call must still be pending */
	bool by_number;
	/* the path is a magic link itself (/proc/self/fd/N, /proc/self/cwd)
	 * that the call does not follow: fd is the caller's /proc directory
	 * that holds it, rest its name there, which nothing can be made,
	 * removed or renamed at (the kernel's EEXIST, EPERM, EXDEV), whatever
	 * name was judged */
	bool link_itself;
	bool own_fds; /* ... in the caller's own fd directory, which lets the
		       * caller in (proc_fd_permission), not us */
	const char *rest; /* the path from there */
	char buf[PATH_MAX]; /* rest's, where it is not the path's own */
};
/* Where thread tid's walk of path p (relative to its dirfd; `resolve`:
 * an openat2's RESOLVE_* flags, else 0) starts: our root for an absolute
 * path, else the caller's cwd or dirfd pinned (/proc/self/fd/N/... as
 * its N, another process's only where the kernel would let it there).
 * `whole_ok`: a path that is all a descriptor's link ("/proc/self/fd/N")
 * pins that descriptor's file, rest ""; else it is HS_FL_KERNEL. 0 with
 * *s, -errno to answer, or HS_FL_KERNEL. */
int hs_fl_start_of(pid_t tid, const char *p, int dirfd, uint64_t resolve,
		   bool whole_ok, struct hs_fl_start *s);
void hs_fl_start_free(struct hs_fl_start *s);
/* Without following: is the pinned directory still the one whose name
 * was judged (no chdir, dup2 or rename since), its rest appended and
 * folded as the judging named it? True when nothing was judged. */
bool hs_fl_start_is_judged(const struct hs_floor_ctx *x,
			   const struct hs_fl_start *s, uint64_t resolve,
			   const char *judged);
/* Is the call ours to make for the caller (hs_fl_same_identity, its
 * umask into *um, the credentials to take on into *as)? True to go on;
 * else *v says what became of it: the kernel's (HS_FL_OPEN_CONTINUE), or
 * answered with our own failure (enforce mode: hs_fl_ours). */
bool hs_fl_ours_to_make(const struct hs_floor_ctx *x, struct hs_fl_call *c,
			bool keep, mode_t *um, struct hs_fl_as *as,
			enum hs_fl_open_result *v);
/* A call we will not make, r why: the kernel's (HS_FL_KERNEL, or no
 * error) -- HS_FL_OPEN_CONTINUE --, or answered -r, our own failure
 * (enforce mode: hs_fl_ours) -- HS_FL_OPEN_ANSWERED. */
enum hs_fl_open_result hs_fl_not_made(const struct hs_floor_ctx *x,
				      const struct hs_fl_call *c, long r);
/* Sets this thread's umask to the caller's um, in a file system state of
 * the thread's own (the other threads keep ours); *old gets what
 * hs_fl_umask_again restores (a hook this thread runs later must not
 * inherit the caller's). 0; or, where it cannot have one of its own,
 * hs_fl_ours(-ENOMEM): HS_FL_KERNEL in guard mode, -ENOMEM the call's
 * answer in enforce mode (the kernel would create with a umask nobody
 * judged no worse, but would walk the path again). */
long hs_fl_caller_umask(mode_t um, mode_t *old);
void hs_fl_umask_again(mode_t um, mode_t ours);
/* What a call done for the caller comes to, from its steps' result *r
 * (a descriptor or 0, -errno, HS_FL_KERNEL, HS_FL_AGAIN): CONTINUE, AGAIN
 * (a round lost to a file system changing under it, counted in *tries),
 * or ANSWERED: *r is the answer, -ELOOP once the rounds are spent (a
 * call flipping under us fails, never lands). */
enum hs_fl_open_result hs_fl_settle(long *r, int *tries);
/* Answers the notification: 0 for e == 0, else fails it with errno e. */
void hs_fl_answer(int lfd, uint64_t id, int e);
/* Installs our descriptor fd in the caller (SECCOMP_IOCTL_NOTIF_ADDFD,
 * O_CLOEXEC when `cloexec`) and answers with its number; the install's
 * errno where it fails (EMFILE), nothing where the caller is gone. fd is
 * closed. */
void hs_fl_inject(int lfd, uint64_t id, int fd, bool cloexec);
/* The same, with the caller's O_TRUNC made once fd is installed (on
 * trunc_fd where that is not -1): an open whose install fails (EMFILE)
 * truncates nothing. (An ftruncate that fails then answers its errno,
 * the descriptor already in the caller's table: a file system's error
 * alone.) */
void hs_fl_inject_trunc(int lfd, uint64_t id, int fd, bool cloexec,
			bool trunc, int trunc_fd);

/* ---- floor_device.c: which devices the supervisor opens ---- */

/* The caller's flags for our own open: never our controlling terminal,
 * never blocking the receiver on a fifo (cleared again after) -- but
 * for O_CREAT|O_EXCL, which opens nothing that exists: no fifo, no
 * lease, nothing to clear. */
static inline uint64_t hs_fl_our_flags(uint64_t fl)
{
	if (fl & O_PATH) /* takes no other flags */
		return fl | O_CLOEXEC;
	if ((fl & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL))
		return fl | O_CLOEXEC | O_NOCTTY;
	return fl | O_CLOEXEC | O_NOCTTY | O_NONBLOCK;
}

/* What a device, fifo or socket (sb) is to an open with the caller's
 * flags fl by thread tid: 0, ours to open; HS_FL_KERNEL; a socket's
 * HS_FL_ENXIO; /dev/tty's HS_FL_CTTY; HS_FL_DEVICE, ours to open on a
 * thread that waits as the caller's open would (hs_fl_fifo_wait). */
struct stat;
long hs_fl_special(const struct stat *sb, uint64_t fl, pid_t tid);
/* /dev/tty opened for tid as its controlling terminal: fd, -errno,
 * HS_FL_ENXIO (it has none) or HS_FL_KERNEL. */
long hs_fl_ctty_open(pid_t tid, uint64_t fl);

/* ---- floor_procfs.c: a file of /proc opened for the caller ---- */

/* Our descriptor fd of a /proc file, opened for thread tid's open with
 * flags fl of the path `written`: fd to hand over; another descriptor,
 * the caller's own file (a read that our walk took through "self" to
 * ours); HS_FL_AGAIN (a write into our /proc); -EACCES for a file of
 * ours by number that not everyone may read, or another process's mem
 * the caller may not attach to (Yama); HS_FL_REACH, why (cap bytes)
 * saying why, for a judged command's memory (enforce mode). fd closed
 * but when returned. */
long hs_fl_proc_fit(int fd, pid_t tid, uint64_t fl, const char *written,
		    char *why, size_t cap);
/* Our descriptor fd of a cgroup's file (v1: a cgroup v1 hierarchy's),
 * opened for thread tid's open with flags fl: fd, where that open is the
 * caller's own -- a read, or a write by a caller in our cgroup namespace
 * (and, for v1's cgroup.procs and tasks, of our effective uid); -EACCES
 * for such a v1 write by a caller of another effective uid; HS_FL_KERNEL
 * from another cgroup namespace. fd closed but when returned. */
long hs_fl_cgroup_fit(int fd, pid_t tid, uint64_t fl, bool v1);

/* ---- floor_fifo.c: a fifo's open that waits for its other end ---- */

/* A fifo or a pipe, our O_PATH descriptor opath of it, for the caller's
 * open flags fl: our descriptor opened at once where its open does not
 * wait (a pipe's never does; O_RDWR, O_NONBLOCK, O_WRONLY with a reader),
 * -errno, or HS_FL_WAITS with c->open.fifo our descriptor of it, for
 * hs_fl_fifo_wait. */
long hs_fl_fifo_open(struct hs_fl_call *c, int opath, uint64_t fl);
/* What our O_PATH descriptor opath is, to be opened on a thread that
 * waits (a fifo, a device, a leased file): HS_FL_WAITS with
 * c->open.fifo our descriptor of it, for hs_fl_fifo_wait; -errno. */
long hs_fl_wait_for(struct hs_fl_call *c, int opath);

/* Waits on a thread of its own for the open of the fifo or device our
 * O_PATH descriptor opath is (taken over: closed), with the caller's
 * flags fl, as the caller's (thread `caller`) open would, and
 * answers the notification id: the descriptor installed, the open's
 * errno, or ERESTARTSYS for a signal the caller must take meanwhile.
 * The waiting thread takes on as's credentials (hs_fl_become) first.
 * False (opath closed, the notification answered ENFILE) where no thread
 * may start: too many waits at once, or none can be made. */
bool hs_fl_fifo_wait(const struct hs_floor_ctx *x, uint64_t id, pid_t caller,
		     int opath, uint64_t fl, const struct hs_fl_as *as);

/* ---- floor_open.c: allowed opens done on the caller's behalf ---- */

/* Opens c->open for the caller and answers the notification. `keep`:
 * the calling thread is long-lived (the receiver) and may keep the
 * callers' /proc entries open between calls, until hs_fl_open_forget(). */
enum hs_fl_open_result hs_fl_open(const struct hs_floor_ctx *x,
				  struct hs_fl_call *c, bool keep);
/* A process of the session calls landlock_restrict_self (notified for
 * this alone): from now on every open continues in the kernel, where
 * the caller's own domain applies. */
void hs_fl_open_sandboxed(const struct hs_floor_ctx *x);

/* ---- floor_pathop.c: allowed path calls done on the caller's behalf ---- */

/* Makes c->pop (rename, link, symlink, unlink, rmdir, mkdir, mknod,
 * truncate) for the caller, by the strings the floor read and judged, and
 * answers the notification; the same results and conditions as
 * hs_fl_open. */
enum hs_fl_open_result hs_fl_pathop(const struct hs_floor_ctx *x,
				    struct hs_fl_call *c, bool keep);

/* ---- floor_fdpass.c: an int and a descriptor, child to parent ---- */

/* result, and fd with it when fd >= 0 (async-signal-safe); false when
 * it could not be sent. */
bool hs_fl_send_result(int sock, int result, int fd);
/* The other side: the result, *fd the descriptor (or -1). -EPIPE when
 * the sender died before saying anything. */
int hs_fl_recv_result(int sock, int *fd);

/* ---- floor_userns.c: the agent in a user namespace of its own ---- */

struct hs_floor_plan;
struct hs_settings;

/* p->userns and the namespace to enter, when the settings and who we
 * are want one (made now if hs_floor_userns_hold was not called). */
void hs_floor_userns_plan(struct hs_floor_plan *p,
			  const struct hs_settings *s);
/* Child side, async-signal-safe: into p's namespace. 0, or
 * -(HS_FLOOR_USERNS_ERR + errno). */
int hs_floor_userns_enter(const struct hs_floor_plan *p);
/* The probe could not enter it (r: hs_floor_userns_enter's): p->userns
 * off, p->userns_why said. */
void hs_floor_userns_failed(struct hs_floor_plan *p, int r);

#endif
