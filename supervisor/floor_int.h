/* Internal interface between the floor's files (floor.h is the public
 * one): reading a stopped caller (floor_path.c), the write filter
 * (floor_scope.c), one notification turned into events (floor_event.c)
 * and the loop that serves them (floor.c). */
#ifndef HOOKSHIM_SUPERVISOR_FLOOR_INT_H
#define HOOKSHIM_SUPERVISOR_FLOOR_INT_H

#include <limits.h>
#include <linux/openat2.h>
#include <linux/seccomp.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/* The kernel's own O_TMPFILE bit: glibc's __O_TMPFILE includes
 * O_DIRECTORY, which every opendir() passes. */
#define HS_O_TMPFILE_BIT 020000000

/* ---- floor_path.c: the caller's memory and names ---- */

/* A NUL-terminated string at addr in tid's memory into buf (cap bytes).
 * -EFAULT when unreadable, -ENAMETOOLONG when longer than cap - 1. */
int hs_fl_read_str(pid_t tid, uint64_t addr, char *buf, size_t cap);
/* n bytes at addr. -1 unless all were read. */
int hs_fl_read(pid_t tid, uint64_t addr, void *buf, size_t n);
/* `path` (as the caller passed it, relative to dirfd or its working
 * directory) as an absolute, folded path in out (PATH_MAX): /proc/self
 * and /dev/fd links name the caller's descriptors. With `follow`,
 * symlinks are resolved. -1 when it cannot be named. */
int hs_fl_abs(pid_t tid, int dirfd, const char *path, bool follow, char *out);
/* The process (thread group) tid belongs to, or -1. */
pid_t hs_fl_tgid(pid_t tid);
/* The caller's working directory, or -1. */
int hs_fl_cwd(pid_t tid, char *out);
/* Value of NAME in the process's initial environment (/proc/pid/environ)
 * into out; false when absent. */
bool hs_fl_environ(pid_t pid, const char *name, char *out, size_t cap);

/* ---- floor_scope.c: the shim's write filter, for the supervisor ---- */

struct hs_fscope;
/* Parses HOOKSHIM_WRITE text (shim/write_scope.h); NULL text means every
 * write in the root. */
struct hs_fscope *hs_fscope_new(const char *text, const char *root);
void hs_fscope_free(struct hs_fscope *sc);
/* May a pre (post) hook fire for a write to abs? */
bool hs_fscope_pre(const struct hs_fscope *sc, const char *abs);
bool hs_fscope_post(const struct hs_fscope *sc, const char *abs);
/* Is abs a protected file ('!' lines, engine/protect.h)? */
bool hs_fscope_protected_file(const struct hs_fscope *sc, const char *abs);
/* Is abs the root, a protected file, or a directory above either (a
 * rename of it is the built-in rule's)? */
bool hs_fscope_pinned(const struct hs_fscope *sc, const char *abs);
/* Does a pre hook's own path glob name abs (writes.judge_temp_files)? */
bool hs_fscope_protected(const struct hs_fscope *sc, const char *abs);
/* abs through the root's logical name rewritten under the root (what
 * the shim's hs_path_abs does without following). */
void hs_fscope_unalias(const struct hs_fscope *sc, char *abs);
bool hs_fscope_follow(const struct hs_fscope *sc);
bool hs_fscope_quiet(const struct hs_fscope *sc);
bool hs_fscope_agent_only(const struct hs_fscope *sc);
bool hs_fscope_judge_temps(const struct hs_fscope *sc);

/* ---- floor_event.c: what one notification asks ---- */

/* Up to two pre events (a rename into watched ground: the rename, and
 * the target's create/overwrite), as the shim would send them. */
struct hs_fl_event {
	const char *op;        /* "write" or "exec" */
	const char *operation; /* create, overwrite, ... (writes) */
	char path[PATH_MAX];
	char new_path[PATH_MAX];
	bool has_new;
};

/* An open the floor may do itself (floor_open.c): what was read and
 * judged, so that exactly that is opened. */
struct hs_fl_open {
	bool on;               /* an open the floor can emulate */
	int dirfd;
	struct open_how how;   /* flags, mode, resolve as the kernel takes them */
	int read_err;          /* reading the path failed: this errno */
	int tries;             /* rounds lost to a file system that changed */
	char path[PATH_MAX + 1]; /* the string copied from the caller */
	char judged[PATH_MAX]; /* its name as judged ("" when unnamed) */
};

struct hs_fl_call {
	struct seccomp_notif n; /* copied out of the kernel's buffer */
	struct hs_fl_open open;
	pid_t tgid;
	int nev;
	struct hs_fl_event ev[2];
	/* execs */
	char **argv;
	char exe[PATH_MAX];
	int nested;            /* hs_msg.nested */
	char cwd[PATH_MAX];
};

/* Verdicts of hs_fl_classify. */
enum hs_fl_verdict {
	HS_FL_CONTINUE,  /* nothing a hook can care about: let it run */
	HS_FL_DECIDE,    /* c->ev[0..nev) go to the hooks */
	HS_FL_GONE,      /* the caller died or the id expired meanwhile */
	HS_FL_ENOSYS,    /* a call the floor refuses outright */
};

struct hs_floor_ctx {
	const struct hs_fscope *scope;
	const struct hs_config *cfg;
	int listener;
	uint64_t cookie; /* the session's (hs_floor_plan): whose shim is ours */
	const struct hs_fl_self *self; /* floor_open.c: who the supervisor is */
};

/* Reads and classifies; c->n is filled by the caller. Every read of the
 * caller's memory or /proc is followed by an id check. */
enum hs_fl_verdict hs_fl_classify(const struct hs_floor_ctx *x,
				  struct hs_fl_call *c);
void hs_fl_call_free(struct hs_fl_call *c);
/* An execve/execveat (floor_exec.c): decided only where no shim will. */
enum hs_fl_verdict hs_fl_exec(const struct hs_floor_ctx *x,
			      struct hs_fl_call *c);
/* Is the notification still pending (the caller still waiting)? */
bool hs_fl_valid(int listener, uint64_t id);

/* ---- floor_open.c: allowed opens done on the caller's behalf ---- */

/* The supervisor's own identity (credentials, namespaces), against which
 * a caller is compared: NULL when emulation is off (a kernel without
 * killable waits, where an interrupted caller would retry an open that
 * already happened). */
struct hs_fl_self;
struct hs_fl_self *hs_fl_self_new(unsigned long filter_flags);
void hs_fl_self_free(struct hs_fl_self *s);

enum hs_fl_open_result {
	HS_FL_OPEN_ANSWERED, /* the descriptor was injected, or the errno sent */
	HS_FL_OPEN_CONTINUE, /* not emulated: let the kernel run the call */
	HS_FL_OPEN_AGAIN,    /* the path changed since it was judged */
};
/* Opens c->open for the caller and answers the notification. `keep`:
 * the calling thread is long-lived (the receiver) and may keep the
 * callers' /proc entries open between calls, until hs_fl_open_forget(). */
enum hs_fl_open_result hs_fl_open(const struct hs_floor_ctx *x,
				  struct hs_fl_call *c, bool keep);
void hs_fl_open_forget(void);

#endif
