/* Which writes may fire an event: the HOOKSHIM_WRITE filter, parsed once.
 *
 * HOOKSHIM_WRITE (computed by engine/write_filter.c) is lines separated by
 * '\n', the first "hsw1":
 *   +GLOB  scope include (absolute path glob; none = the session root)
 *   -GLOB  scope exclude
 *   <GLOB  some pre hook may fire for a path matching GLOB ("<*" = any)
 *   %GLOB  the same for a pre hook that reads the content: an open for
 *          writing there is staged (write_stage.h)
 *   >GLOB  same for post hooks
 *   !PATH  a protected file (engine/protect.h): a literal absolute path,
 *          whose writes are always asked about, in scope or not, from
 *          any role
 *   @D:I   the identity (st_dev:st_ino, decimal) of a protected file that
 *          had other names (hard links) at session start: a write to any
 *          name with that identity is asked about as the file's own
 *   ^PATH  a protected tree (engine/hook_runtime.h: a hook script's
 *          directory, an interpreter's start-up directory): PATH and
 *          everything below it, asked about as protected files are
 *   &/DIR  a directory of the hooks' PATH, and
 *   &NAME  a program the hooks run by that name: DIR/NAME, for every
 *          such DIR and NAME, is asked about as a protected file (a
 *          program made there would run instead of the hook's)
 *   (GLOB  some pre hook on the read tool may fire for an open for
 *          reading of GLOB (the agent's own reads only: hs_st.reads)
 *   oa     only the agent's own writes (role "agent"), not its tools'
 *   of     follow symlinks before deciding
 *   oq     quiet: no denial message on a terminal stderr
 *   oc     the writing program's own name names the agent's own places
 *          too (guard mode only: a process sets its name itself)
 *   =PATH  the session root's logical name (a literal path): absolute
 *          paths through it are judged as under the root (shim/path.h)
 * The agent's own writes beyond the scope (writes.agent_anywhere):
 *   AGLOB  the agent's own process (role "agent") writes there as in
 *          scope ("A*": anywhere), but in its own places:
 *   aGLOB  a place of the agent's own (temp directories, the XDG cache
 *          and state trees, writes.agent_state); one above the home
 *          directory does not cover the home (a home in /tmp)
 *   nNAME  a name whose places under home are the agent's own
 *          (common/agent_place.h), as is the writing process's own name
 *   ~PATH  the home directory those places are under (a literal path)
 * Globs use common/glob.c in path mode ("*" stops at '/', "**" does not).
 * A path fires nothing unless it is in scope and matches a < or > line, so
 * a hook narrowed to secrets/ costs other writes one glob match. /dev,
 * /proc and /sys are never in scope. Matching is async-signal-safe. */
#ifndef HOOKSHIM_SHIM_WRITE_SCOPE_H
#define HOOKSHIM_SHIM_WRITE_SCOPE_H

#include <stdbool.h>

#define HS_W_PRE  1u
#define HS_W_POST 2u
/* From hs_wscope_active only: nothing but protected files is wanted
 * (writes.agent_only in a tool's process). */
#define HS_W_PROT 4u
/* From hs_wscope_match, when HS_W_PRE is wanted: a content-reading pre
 * hook may fire ('%' lines); HS_W_PRE then says whether another may. */
#define HS_W_STAGE 8u

struct hs_wopts {
	bool agent_only;
	bool follow;
	bool quiet;
	bool judge_temps; /* writes.judge_temp_files */
	bool own_name;    /* "oc": the writer's own name names its places */
};

/* Parses the filter cached in hs_st into the arena; idempotent, called
 * from the constructor (or the first write interposer that runs before
 * it). */
void hs_wscope_init(void);
/* Forgets it: hs_state_reload refilled the arena. */
void hs_wscope_reset(void);

/* HS_W_PRE|HS_W_POST: what the session wants to hear about writes at
 * all (interest bits and role), before any path is looked at. */
unsigned hs_wscope_active(void);

/* Are the agent's own writes events beyond the scope in this session
 * ('A' lines: writes.agent_anywhere, with a write hook)? Then a shell
 * the agent starts takes role "tool" even with no exec hook, so that its
 * writes are not the agent's. */
bool hs_wscope_beyond(void);

/* What a write to `abs` (absolute, folded) may fire, within `want`.
 * A protected file fires HS_W_PRE whatever the scope says. */
unsigned hs_wscope_match(const char *abs, unsigned want);

/* Are there protected files ('!' lines) to judge, and is this process
 * asked about them? The quick test of the mode, owner and extended
 * attribute calls, which are judged for protected files only. */
bool hs_wscope_policy(void);
/* Is `abs` (absolute, folded or resolved) a protected file, by name, or
 * by identity ('@' lines: one stat)? */
bool hs_wscope_policy_file(const char *abs);
/* Is what `path` (from dirfd, fstatat's atflags) reaches now a protected
 * file by its identity ('@' lines)? For calls that follow a symlink: a
 * name that is not the protected file's may lead to it (a symlink made
 * before the session, a symlinked directory above it). One fstatat. */
bool hs_wscope_protected_target(int dirfd, const char *path, int atflags);
/* Is the directory the last component of `path` (from dirfd) is in a
 * protected tree's, by its identity ("@DEV:INO/" lines, the trees'
 * directories at session start), or is that component a protected name
 * in the directory it is in ("@DEV:INO/NAME": the policy's files, the
 * session root, the directories above them)? A symlinked directory
 * names them otherwise than as written. One fstatat, only in a session
 * with such trees or where the component is such a name. */
bool hs_wscope_in_tree(int dirfd, const char *path);

/* Would a symlink at `link` (absolute, folded) with text `text` name a
 * protected file or lead into a protected tree ('!' and '^' lines)? A
 * new name for it that the shim would judge as written. */
bool hs_wscope_link_to_policy(const char *link, const char *text);

/* Would renaming `abs` away take a protected file or the session root
 * with it (abs is one, or a directory above one)? */
bool hs_wscope_pinned(const char *abs);
/* May the agent's open for reading of `abs` (absolute, folded) fire a
 * read event: in scope as writes are, and matching a '(' line? */
bool hs_rscope_match(const char *abs);

/* Does a pre hook's own path filter (a glob, not a catch-all) name `abs`?
 * With writes.judge_temp_files such a path is protected: a file created
 * there is judged even when its name looks like a temp file, so that
 * `echo x > secrets/k.tmp` cannot slip past a policy on secrets/. */
bool hs_wscope_protected(const char *abs);

/* Can a relative path from the working directory, without "..", fire
 * anything? False only when no include, pre or post glob can match below
 * it: such writes then skip building their absolute path. Cached per
 * working directory; errno may change. */
bool hs_wscope_cwd_live(void);

/* The same for a path relative to directory descriptor `fd`. The verdict
 * is kept until fd is closed or replaced, which write.c reports: */
bool hs_wscope_dirfd_live(int fd);
/* Any verdict kept at all? (close()'s fast path: one relaxed load) */
bool hs_wdir_used(void);
/* fd is about to be, or was just, closed or replaced (both: see
 * write_scope.c); or every descriptor (close_range, closefrom). */
void hs_wdir_forget(int fd);
void hs_wdir_forget_all(void);

/* A descriptor of a file the open that returned it created (O_CREAT |
 * O_EXCL: a new inode, no symlink followed) is no protected file's, so
 * a mode, owner or attribute change through it (tar's fchown and fchmod
 * of every file it extracts) needs no name. hs_wfresh_begin before such
 * an open, hs_wfresh_mark with its descriptor after: the verdict is kept
 * in the descriptor's slot until it is closed or replaced, and not at
 * all when anything was closed in between (another thread's fd number
 * reused). hs_wscope_fd_fresh: is one kept for fd? */
unsigned long hs_wfresh_begin(void);
void hs_wfresh_mark(int fd, unsigned long gen);
bool hs_wscope_fd_fresh(int fd);

const struct hs_wopts *hs_wopts(void);

#endif
