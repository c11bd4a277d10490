/* The write interposers: every libc entry point that creates, changes or
 * removes a path, each described once in WRITE_TABLE.
 *
 * A row gives the signature, how to cheaply tell whether the call could
 * be a watched write (QUICK: for opens, the flags are tested before
 * anything else, so reads pay one AND, a flag test and a branch), and how the call
 * maps onto a struct hs_wcall. DEFINE_WRAPPER turns a row into two
 * functions: the exported one, which forwards at once unless QUICK says
 * otherwise, and a noinline slow path whose big stack frame (two
 * PATH_MAX buffers) the fast path never touches. The policy lives in
 * write_event.c. Each row's name is also a row of interposed.h, which
 * gives it its real-function slot (HS_REAL).
 *
 * glibc's own fopen/remove/mkstemp open and unlink through hidden aliases,
 * so each entry point is wrapped itself and none fires twice.
 *
 * bind, whose unix socket's name is a mknod of a socket, is the one write
 * written by hand beside the table (DEFINE_WATCHED, its slow path alone:
 * its fast path copies the address first). Over 600 lines: the table,
 * each row's forwarding under the floor and the calls that end a write
 * belong together (a write entry point missed is a write unseen). */
#undef _FORTIFY_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "../common/plainstr.h"
#include "../common/sunpath.h"
#include "fdcarry.h"
#include "floor_calls.h"
#include "fdtrack.h"
#include "net.h"
#include "path.h"
#include "real.h"
#include "state.h"
#include "write.h"
#include "write_pin.h"
#include "write_scope.h"

/* Fortify and LFS entry points the headers declare only sometimes. */
int __open_2(const char *, int);
int __open64_2(const char *, int);
int __openat_2(int, const char *, int);
int __openat64_2(int, const char *, int);
/* Exported aliases no header declares (interposed.h). */
int __open(const char *, int, ...);
int __open64(const char *, int, ...);
FILE *_IO_fopen(const char *, const char *); /* fopen's old name */
/* mknod before glibc 2.33: what programs built against older headers
 * still call. */
int __xmknod(int, const char *, mode_t, dev_t *);
int __xmknodat(int, int, const char *, mode_t, dev_t *);

/* Argument shapes. */
#define WC(k, d, p, d2, p2, fl) \
	((struct hs_wcall){ (k), (d), (p), (d2), (p2), (fl), 0, 0, 0, false })
/* An open that may create: its mode is kept for a staged write. */
#define WCM(d, p, fl, m) \
	((struct hs_wcall){ HS_WK_OPEN, (d), (p), 0, 0, (fl), (m), 0, 0, false })
/* fopen: its mode kept for the stream of a pinned open (write_pin.h). */
#define WCF(p, m)                                                       \
	((struct hs_wcall){ HS_WK_OPEN, AT_FDCWD, (p), 0, 0,            \
			    hs_fmode_flags(m), 0666, (m), 0, false })
/* truncate and mkdir: the length and the mode, for a pinned call. */
#define WCT(p, n) \
	((struct hs_wcall){ HS_WK_TRUNC, AT_FDCWD, (p), 0, 0, 0, 0, 0, (n), false })
#define WCD(d, p, m) \
	((struct hs_wcall){ HS_WK_MKDIR, (d), (p), 0, 0, 0, (m), 0, 0, false })
/* mknod: the device too. */
#define WCN(d, p, m, dv)                                                \
	((struct hs_wcall){ HS_WK_MKNOD, (d), (p), 0, 0, (int)(m), 0, 0, \
			    (off_t)(dv), false })
#define AT AT_FDCWD
#define VA_MODE(last)                                                  \
	mode_t mode = 0;                                               \
	if (__OPEN_NEEDS_MODE(last)) {                                 \
		va_list ap;                                            \
		va_start(ap, last);                                    \
		mode = (mode_t)va_arg(ap, int);                        \
		va_end(ap);                                            \
	}
#define NONE
#define ACTIVE hs_wscope_active()
/* A mode, owner or attribute change is judged only when protected files
 * exist (write_event.c): elsewhere a chmod costs this test. */
#define POLICY hs_wscope_policy()
#define NOFOLLOW AT_SYMLINK_NOFOLLOW
/* An open is watched when it writes and writes are, or when it only
 * reads and the agent's reads are events (read_event.c) or the floor
 * notifies reads (forwarded with the cookie: state.h reads_slow): a
 * read-only open in a session without read hooks tests one flag more. */
#define WRITING(fl) (((fl) & HS_WFLAGS) ? hs_wscope_active() : hs_st.reads_slow)
#define FWRITING(m) (hs_fmode_flags(m) ? hs_wscope_active() : hs_st.reads_slow)
/* glibc's fortified opens (__open_2: open() in a program built with
 * _FORTIFY_SOURCE) take no mode: given O_CREAT or O_TMPFILE they abort
 * the program, which only the real function does */
#define FWRITING_2(fl) (!__OPEN_NEEDS_MODE(fl) && WRITING(fl))
#define FILE_FD(f) ((f) ? fileno(f) : -1)
/* freopen(NULL, mode, s) reopens s's own file in the new mode (glibc:
 * through /proc/self/fd/N, by its own open), "w" truncating it: judged as
 * a reopen of that name */
#define REOPENED(p, s) \
	((p) ? (p) : hs_self_fd_name(fileno(s), (char[HS_SELF_FD_CAP]){ 0 }))
/* freopen keeps its stream's descriptor number for another file (glibc
 * dup3s onto it), read mode too: whatever was known about that number
 * is dropped first (write_scope.h). */
#define REOPENS(s)                          \
	if (hs_wdir_used() && (s))          \
		hs_wdir_forget(fileno(s));

/* X(ret, name, params, slow-path params, args, failure value, prologue,
 *   quick test, call description, resulting descriptor) */
#define WRITE_TABLE(X)                                                         \
	X(int, open, (const char *p, int fl, ...), (const char *p, int fl, mode_t mode), \
	  (p, fl, mode), -1, VA_MODE(fl), WRITING(fl),                         \
	  WCM(AT, p, fl, mode), r)                                  \
	X(int, open64, (const char *p, int fl, ...), (const char *p, int fl, mode_t mode), \
	  (p, fl, mode), -1, VA_MODE(fl), WRITING(fl),                         \
	  WCM(AT, p, fl, mode), r)                                  \
	X(int, __open, (const char *p, int fl, ...), (const char *p, int fl, mode_t mode), \
	  (p, fl, mode), -1, VA_MODE(fl), WRITING(fl),                         \
	  WCM(AT, p, fl, mode), r)                                  \
	X(int, __open64, (const char *p, int fl, ...), (const char *p, int fl, mode_t mode), \
	  (p, fl, mode), -1, VA_MODE(fl), WRITING(fl),                         \
	  WCM(AT, p, fl, mode), r)                                  \
	X(int, __open_2, (const char *p, int fl), (const char *p, int fl),     \
	  (p, fl), -1, NONE, FWRITING_2(fl), WC(HS_WK_OPEN, AT, p, 0, 0, fl), r)  \
	X(int, __open64_2, (const char *p, int fl), (const char *p, int fl),   \
	  (p, fl), -1, NONE, FWRITING_2(fl), WC(HS_WK_OPEN, AT, p, 0, 0, fl), r)  \
	X(int, openat, (int d, const char *p, int fl, ...),                    \
	  (int d, const char *p, int fl, mode_t mode), (d, p, fl, mode), -1,   \
	  VA_MODE(fl), WRITING(fl), WCM(d, p, fl, mode), r)         \
	X(int, openat64, (int d, const char *p, int fl, ...),                  \
	  (int d, const char *p, int fl, mode_t mode), (d, p, fl, mode), -1,   \
	  VA_MODE(fl), WRITING(fl), WCM(d, p, fl, mode), r)         \
	X(int, __openat_2, (int d, const char *p, int fl),                     \
	  (int d, const char *p, int fl), (d, p, fl), -1, NONE, FWRITING_2(fl),   \
	  WC(HS_WK_OPEN, d, p, 0, 0, fl), r)                                   \
	X(int, __openat64_2, (int d, const char *p, int fl),                   \
	  (int d, const char *p, int fl), (d, p, fl), -1, NONE, FWRITING_2(fl),   \
	  WC(HS_WK_OPEN, d, p, 0, 0, fl), r)                                   \
	X(int, creat, (const char *p, mode_t m), (const char *p, mode_t m),    \
	  (p, m), -1, NONE, ACTIVE,                                            \
	  WCM(AT, p, O_WRONLY | O_CREAT | O_TRUNC, m), r)        \
	X(int, creat64, (const char *p, mode_t m), (const char *p, mode_t m),  \
	  (p, m), -1, NONE, ACTIVE,                                            \
	  WCM(AT, p, O_WRONLY | O_CREAT | O_TRUNC, m), r)        \
	X(FILE *, fopen, (const char *p, const char *m),                       \
	  (const char *p, const char *m), (p, m), NULL, NONE, FWRITING(m),     \
	  WCF(p, m), FILE_FD(r))          \
	X(FILE *, _IO_fopen, (const char *p, const char *m),                   \
	  (const char *p, const char *m), (p, m), NULL, NONE, FWRITING(m),     \
	  WCF(p, m), FILE_FD(r))          \
	X(FILE *, fopen64, (const char *p, const char *m),                     \
	  (const char *p, const char *m), (p, m), NULL, NONE, FWRITING(m),     \
	  WCF(p, m), FILE_FD(r))          \
	X(FILE *, freopen, (const char *p, const char *m, FILE *s),            \
	  (const char *p, const char *m, FILE *s), (p, m, s), NULL, REOPENS(s), \
	  (p || s) && FWRITING(m),                                             \
	  WC(HS_WK_REOPEN, AT, REOPENED(p, s), 0, 0, hs_fmode_flags(m)),       \
	  FILE_FD(r))                                                          \
	X(FILE *, freopen64, (const char *p, const char *m, FILE *s),          \
	  (const char *p, const char *m, FILE *s), (p, m, s), NULL, REOPENS(s), \
	  (p || s) && FWRITING(m),                                             \
	  WC(HS_WK_REOPEN, AT, REOPENED(p, s), 0, 0, hs_fmode_flags(m)),       \
	  FILE_FD(r))                                                          \
	X(int, truncate, (const char *p, off_t n), (const char *p, off_t n),   \
	  (p, n), -1, NONE, ACTIVE, WCT(p, n), -1)                             \
	X(int, truncate64, (const char *p, off64_t n),                         \
	  (const char *p, off64_t n), (p, n), -1, NONE, ACTIVE,                \
	  WCT(p, n), -1)                                                       \
	X(int, rename, (const char *a, const char *b),                         \
	  (const char *a, const char *b), (a, b), -1, NONE, ACTIVE,            \
	  WC(HS_WK_RENAME, AT, a, AT, b, 0), -1)                               \
	X(int, renameat, (int da, const char *a, int db, const char *b),       \
	  (int da, const char *a, int db, const char *b), (da, a, db, b), -1,  \
	  NONE, ACTIVE, WC(HS_WK_RENAME, da, a, db, b, 0), -1)                 \
	X(int, renameat2,                                                      \
	  (int da, const char *a, int db, const char *b, unsigned f),          \
	  (int da, const char *a, int db, const char *b, unsigned f),          \
	  (da, a, db, b, f), -1, NONE, ACTIVE,                                 \
	  WC(HS_WK_RENAME, da, a, db, b, (int)f), -1)                          \
	X(int, link, (const char *a, const char *b),                           \
	  (const char *a, const char *b), (a, b), -1, NONE, ACTIVE,            \
	  WC(HS_WK_LINK, AT, a, AT, b, 0), -1)                                 \
	X(int, linkat, (int da, const char *a, int db, const char *b, int f),  \
	  (int da, const char *a, int db, const char *b, int f),               \
	  (da, a, db, b, f), -1, NONE, ACTIVE,                                 \
	  WC(HS_WK_LINK, da, a, db, b, f), -1)                                 \
	X(int, symlink, (const char *t, const char *l),                        \
	  (const char *t, const char *l), (t, l), -1, NONE, ACTIVE,            \
	  WC(HS_WK_SYMLINK, AT, t, AT, l, 0), -1)                              \
	X(int, symlinkat, (const char *t, int d, const char *l),               \
	  (const char *t, int d, const char *l), (t, d, l), -1, NONE, ACTIVE,  \
	  WC(HS_WK_SYMLINK, AT, t, d, l, 0), -1)                               \
	X(int, unlink, (const char *p), (const char *p), (p), -1, NONE,        \
	  ACTIVE, WC(HS_WK_UNLINK, AT, p, 0, 0, 0), -1)                        \
	X(int, unlinkat, (int d, const char *p, int f),                        \
	  (int d, const char *p, int f), (d, p, f), -1, NONE, ACTIVE,          \
	  WC(HS_WK_UNLINK, d, p, 0, 0, f), -1)                                 \
	X(int, rmdir, (const char *p), (const char *p), (p), -1, NONE, ACTIVE, \
	  WC(HS_WK_UNLINK, AT, p, 0, 0, AT_REMOVEDIR), -1)                     \
	X(int, remove, (const char *p), (const char *p), (p), -1, NONE,        \
	  ACTIVE, WC(HS_WK_REMOVE, AT, p, 0, 0, 0), -1)                        \
	X(int, mkdir, (const char *p, mode_t m), (const char *p, mode_t m),    \
	  (p, m), -1, NONE, ACTIVE, WCD(AT, p, m), -1)                         \
	X(int, mkdirat, (int d, const char *p, mode_t m),                      \
	  (int d, const char *p, mode_t m), (d, p, m), -1, NONE, ACTIVE,       \
	  WCD(d, p, m), -1)                                                    \
	X(int, mknod, (const char *p, mode_t m, dev_t dv),                     \
	  (const char *p, mode_t m, dev_t dv), (p, m, dv), -1, NONE, ACTIVE,   \
	  WCN(AT, p, m, dv), -1)                                               \
	X(int, mknodat, (int d, const char *p, mode_t m, dev_t dv),            \
	  (int d, const char *p, mode_t m, dev_t dv), (d, p, m, dv), -1, NONE, \
	  ACTIVE, WCN(d, p, m, dv), -1)                                        \
	X(int, __xmknod, (int v, const char *p, mode_t m, dev_t *dv),          \
	  (int v, const char *p, mode_t m, dev_t *dv), (v, p, m, dv), -1, NONE, \
	  ACTIVE, WCN(AT, p, m, *dv), -1)                                      \
	X(int, __xmknodat, (int v, int d, const char *p, mode_t m, dev_t *dv), \
	  (int v, int d, const char *p, mode_t m, dev_t *dv), (v, d, p, m, dv), \
	  -1, NONE, ACTIVE, WCN(d, p, m, *dv), -1)                             \
	X(int, mkfifo, (const char *p, mode_t m), (const char *p, mode_t m),   \
	  (p, m), -1, NONE, ACTIVE,                                            \
	  WCN(AT, p, m | S_IFIFO, 0), -1)                                      \
	X(int, mkfifoat, (int d, const char *p, mode_t m),                     \
	  (int d, const char *p, mode_t m), (d, p, m), -1, NONE, ACTIVE,       \
	  WCN(d, p, m | S_IFIFO, 0), -1)                                       \
	X(int, mkstemp, (char *t), (char *t), (t), -1, NONE, ACTIVE,           \
	  WC(HS_WK_MKTEMP, AT, t, 0, 0, 0), -1)                                \
	X(int, mkstemp64, (char *t), (char *t), (t), -1, NONE, ACTIVE,         \
	  WC(HS_WK_MKTEMP, AT, t, 0, 0, 0), -1)                                \
	X(int, mkostemp, (char *t, int fl), (char *t, int fl), (t, fl), -1,    \
	  NONE, ACTIVE, WC(HS_WK_MKTEMP, AT, t, 0, 0, 0), -1)                  \
	X(int, mkostemp64, (char *t, int fl), (char *t, int fl), (t, fl), -1,  \
	  NONE, ACTIVE, WC(HS_WK_MKTEMP, AT, t, 0, 0, 0), -1)                  \
	X(int, mkstemps, (char *t, int sl), (char *t, int sl), (t, sl), -1,    \
	  NONE, ACTIVE, WC(HS_WK_MKTEMP, AT, t, 0, 0, 0), -1)                  \
	X(int, mkstemps64, (char *t, int sl), (char *t, int sl), (t, sl), -1,  \
	  NONE, ACTIVE, WC(HS_WK_MKTEMP, AT, t, 0, 0, 0), -1)                  \
	X(int, mkostemps, (char *t, int sl, int fl), (char *t, int sl, int fl), \
	  (t, sl, fl), -1, NONE, ACTIVE, WC(HS_WK_MKTEMP, AT, t, 0, 0, 0), -1) \
	X(int, mkostemps64, (char *t, int sl, int fl),                         \
	  (char *t, int sl, int fl), (t, sl, fl), -1, NONE, ACTIVE,            \
	  WC(HS_WK_MKTEMP, AT, t, 0, 0, 0), -1)                                \
	X(char *, mkdtemp, (char *t), (char *t), (t), NULL, NONE, ACTIVE,      \
	  WC(HS_WK_MKTEMP, AT, t, 0, 0, 0), -1)                                \
	X(int, chmod, (const char *p, mode_t m), (const char *p, mode_t m),    \
	  (p, m), -1, NONE, POLICY, WC(HS_WK_CHMOD, AT, p, 0, 0, 0), -1)       \
	X(int, fchmod, (int fd, mode_t m), (int fd, mode_t m), (fd, m), -1,    \
	  NONE, POLICY, WC(HS_WK_CHMOD, fd, "", 0, 0, AT_EMPTY_PATH), -1)      \
	X(int, fchmodat, (int d, const char *p, mode_t m, int f),              \
	  (int d, const char *p, mode_t m, int f), (d, p, m, f), -1, NONE,     \
	  POLICY, WC(HS_WK_CHMOD, d, p, 0, 0, f), -1)                          \
	X(int, chown, (const char *p, uid_t u, gid_t g),                       \
	  (const char *p, uid_t u, gid_t g), (p, u, g), -1, NONE, POLICY,      \
	  WC(HS_WK_CHOWN, AT, p, 0, 0, 0), -1)                                 \
	X(int, lchown, (const char *p, uid_t u, gid_t g),                      \
	  (const char *p, uid_t u, gid_t g), (p, u, g), -1, NONE, POLICY,      \
	  WC(HS_WK_CHOWN, AT, p, 0, 0, NOFOLLOW), -1)                          \
	X(int, fchown, (int fd, uid_t u, gid_t g), (int fd, uid_t u, gid_t g), \
	  (fd, u, g), -1, NONE, POLICY,                                        \
	  WC(HS_WK_CHOWN, fd, "", 0, 0, AT_EMPTY_PATH), -1)                    \
	X(int, fchownat, (int d, const char *p, uid_t u, gid_t g, int f),      \
	  (int d, const char *p, uid_t u, gid_t g, int f), (d, p, u, g, f),    \
	  -1, NONE, POLICY, WC(HS_WK_CHOWN, d, p, 0, 0, f), -1)                \
	X(int, setxattr, (const char *p, const char *n, const void *v,         \
	  size_t z, int f), (const char *p, const char *n, const void *v,      \
	  size_t z, int f), (p, n, v, z, f), -1, NONE, POLICY,                 \
	  WC(HS_WK_XATTR, AT, p, 0, 0, 0), -1)                                 \
	X(int, fsetxattr, (int fd, const char *n, const void *v, size_t z,     \
	  int f), (int fd, const char *n, const void *v, size_t z, int f),     \
	  (fd, n, v, z, f), -1, NONE, POLICY,                                  \
	  WC(HS_WK_XATTR, fd, "", 0, 0, AT_EMPTY_PATH), -1)

/* Each row's forwarding under the syscall floor (floor_calls.h): the same
 * call as a syscall carrying the cookie, so the kernel does not send it to
 * the supervisor a second time. freopen keeps libc's (its open is matched
 * to the shim's own request in the supervisor). */
#define CK_AT(d, p, fl, m) \
	((int)hs_ck_call(SYS_openat, (d), (long)(p), (fl), (long)(m), 0))
#define CK_open(p, fl, m) CK_AT(AT, p, fl, m)
#define CK_open64(p, fl, m) CK_AT(AT, p, fl, m)
#define CK___open(p, fl, m) CK_AT(AT, p, fl, m)
#define CK___open64(p, fl, m) CK_AT(AT, p, fl, m)
#define CK___open_2(p, fl) CK_AT(AT, p, fl, 0)
#define CK___open64_2(p, fl) CK_AT(AT, p, fl, 0)
#define CK_openat(d, p, fl, m) CK_AT(d, p, fl, m)
#define CK_openat64(d, p, fl, m) CK_AT(d, p, fl, m)
#define CK___openat_2(d, p, fl) CK_AT(d, p, fl, 0)
#define CK___openat64_2(d, p, fl) CK_AT(d, p, fl, 0)
#define CK_creat(p, m) CK_AT(AT, p, O_WRONLY | O_CREAT | O_TRUNC, m)
#define CK_creat64(p, m) CK_AT(AT, p, O_WRONLY | O_CREAT | O_TRUNC, m)
#define CK_fopen(p, m) hs_ck_fopen(p, m)
#define CK_fopen64(p, m) hs_ck_fopen(p, m)
#define CK__IO_fopen(p, m) hs_ck_fopen(p, m)
#define CK_freopen(p, m, s) HS_REAL(freopen)(p, m, s)
#define CK_freopen64(p, m, s) HS_REAL(freopen64)(p, m, s)
#define CK_2(nr, a, b, c, d, e) \
	((int)hs_ck_call(nr, (long)(a), (long)(b), (long)(c), (long)(d), (long)(e)))
#define CK_truncate(p, n) CK_2(SYS_truncate, p, n, 0, 0, 0)
#define CK_truncate64(p, n) CK_2(SYS_truncate, p, n, 0, 0, 0)
#define CK_rename(a, b) CK_2(SYS_renameat, AT, a, AT, b, 0)
#define CK_renameat(da, a, db, b) CK_2(SYS_renameat, da, a, db, b, 0)
#define CK_renameat2(da, a, db, b, f) CK_2(SYS_renameat2, da, a, db, b, f)
#define CK_link(a, b) CK_2(SYS_linkat, AT, a, AT, b, 0)
#define CK_linkat(da, a, db, b, f) CK_2(SYS_linkat, da, a, db, b, f)
#define CK_symlink(t, l) CK_2(SYS_symlinkat, t, AT, l, 0, 0)
#define CK_symlinkat(t, d, l) CK_2(SYS_symlinkat, t, d, l, 0, 0)
#define CK_unlink(p) CK_2(SYS_unlinkat, AT, p, 0, 0, 0)
#define CK_unlinkat(d, p, f) CK_2(SYS_unlinkat, d, p, f, 0, 0)
#define CK_rmdir(p) CK_2(SYS_unlinkat, AT, p, AT_REMOVEDIR, 0, 0)
#define CK_remove(p) hs_ck_remove(p)
#define CK_mkdir(p, m) CK_2(SYS_mkdirat, AT, p, m, 0, 0)
#define CK_mkdirat(d, p, m) CK_2(SYS_mkdirat, d, p, m, 0, 0)
#define CK_mknod(p, m, dv) CK_2(SYS_mknodat, AT, p, m, dv, 0)
#define CK_mknodat(d, p, m, dv) CK_2(SYS_mknodat, d, p, m, dv, 0)
#define CK___xmknod(v, p, m, dv) CK_2(SYS_mknodat, AT, p, m, *(dv), 0)
#define CK___xmknodat(v, d, p, m, dv) CK_2(SYS_mknodat, d, p, m, *(dv), 0)
#define CK_mkfifo(p, m) CK_2(SYS_mknodat, AT, p, (m) | S_IFIFO, 0, 0)
#define CK_mkfifoat(d, p, m) CK_2(SYS_mknodat, d, p, (m) | S_IFIFO, 0, 0)
#define CK_mkstemp(t) hs_ck_mkostemps(t, 0, 0)
#define CK_mkstemp64(t) hs_ck_mkostemps(t, 0, 0)
#define CK_mkostemp(t, fl) hs_ck_mkostemps(t, 0, fl)
#define CK_mkostemp64(t, fl) hs_ck_mkostemps(t, 0, fl)
#define CK_mkstemps(t, sl) hs_ck_mkostemps(t, sl, 0)
#define CK_mkstemps64(t, sl) hs_ck_mkostemps(t, sl, 0)
#define CK_mkostemps(t, sl, fl) hs_ck_mkostemps(t, sl, fl)
#define CK_mkostemps64(t, sl, fl) hs_ck_mkostemps(t, sl, fl)
#define CK_mkdtemp(t) hs_ck_mkdtemp(t)
#define CK_chmod(p, m) CK_2(SYS_fchmodat, AT, p, m, 0, 0)
#define CK_fchmod(fd, m) CK_2(SYS_fchmod, fd, m, 0, 0, 0)
#define CK_fchmodat(d, p, m, f) \
	((f) ? ck_fchmodat_flags(d, p, m, f) : CK_2(SYS_fchmodat, d, p, m, 0, 0))
#define CK_chown(p, u, g) CK_2(SYS_fchownat, AT, p, u, g, 0)
#define CK_lchown(p, u, g) CK_2(SYS_fchownat, AT, p, u, g, NOFOLLOW)
#define CK_fchown(fd, u, g) CK_2(SYS_fchown, fd, u, g, 0, 0)
#define CK_fchownat(d, p, u, g, f) CK_2(SYS_fchownat, d, p, u, g, f)
#define CK_setxattr(p, n, v, z, f) CK_2(SYS_setxattr, p, n, v, z, f)
#define CK_fsetxattr(fd, n, v, z, f) CK_2(SYS_fsetxattr, fd, n, v, z, f)

#ifndef SYS_fchmodat2
#define SYS_fchmodat2 452
#endif
/* fchmodat's flags (AT_SYMLINK_NOFOLLOW: GNU tar's, for each directory
 * it made) are the fchmodat2 syscall's (Linux 6.6), which takes the
 * cookie too; before it, glibc emulates them (an O_PATH open, then chmod
 * of /proc/self/fd/N), which the floor sees again, uncookied: a round
 * trip to find the same unprotected file. An EPERM may be a container
 * profile's answer to a call it does not know (Docker's before 2024):
 * glibc's way then, which gives the same answer where it is the file's. */
static int ck_fchmodat_flags(int d, const char *p, mode_t m, int f)
{
	static int no_fchmodat2;

	if (!__atomic_load_n(&no_fchmodat2, __ATOMIC_RELAXED)) {
		long r = hs_ck_call(SYS_fchmodat2, d, (long)p, m, f, 0);

		if (r != -1 || (errno != ENOSYS && errno != EPERM))
			return (int)r;
		if (errno == ENOSYS)
			__atomic_store_n(&no_fchmodat2, 1, __ATOMIC_RELAXED);
	}
	return HS_REAL(fchmodat)(d, p, m, f);
}

/* A staged open's result (write_stage.h): only opens are staged. */
#define STAGED_RESULT(r, t) \
	_Generic((r), int: (t)->sfd, FILE *: hs_wstaged_file(t), default: 0)

/* A pinned call's result (write_pin.h): opens, truncate and mkdir. */
#define PINNED_RESULT(r, f, c) \
	_Generic((r), int: (f), FILE *: hs_wpin_fdopen((f), (c)), default: 0)

/* An open that creates its file or fails (O_CREAT | O_EXCL): what it
 * returns is a new inode's descriptor (write_scope.h hs_wfresh_mark). */
#define FRESH(c)                                  \
	((c)->kind == HS_WK_OPEN &&               \
	 ((c)->flags & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL))

/* Guard mode's open that creates its file unless the name is there,
 * returning a descriptor, is made O_CREAT|O_EXCL first when nothing but
 * the look for a protected file behind its name stood in its way
 * (write_event.c to_protected: hs_wticket.excl_skipped): what it makes is
 * a new file, no protected one, and a name that is there (EEXIST: a file,
 * a symlink, a directory) is judged again with the look, then opened as
 * asked. For a new file this saves that look, a walk to a name that is
 * not there (about a fifth of creating a small file on tmpfs). Not
 * under a preloaded library after ours, which must see the call as the
 * program made it (floor_calls.h). A device is not tried (its name is
 * there), and a process that mostly finds its names there (one rewriting
 * its files) soon pays the failed open only once in EXCL_PAUSE + 1 such
 * calls. */
#define EXCL_FIRST(r, c)                                                     \
	_Generic((r), int: (c)->kind == HS_WK_OPEN &&                        \
			       ((c)->flags & (O_CREAT | O_EXCL)) == O_CREAT && \
			       ((c)->flags & O_TMPFILE) != O_TMPFILE &&         \
			       !hs_st.enforce && !hs_next_foreign &&            \
			       (c)->path && excl_worth((c)->path),              \
		 default: false)
#define EXCL_MAX 16
#define EXCL_PAUSE 32
static int excl_score = EXCL_MAX; /* tries while >= 0 (relaxed: a hint) */

static bool excl_worth(const char *p)
{
	int s = __atomic_load_n(&excl_score, __ATOMIC_RELAXED);

	/* a device's name is there: a shell's "> /dev/null" would fail
	 * EEXIST every time (/dev/shm holds files) */
	if (hs_starts(p, "/dev/") && !hs_starts(p, "/dev/shm/"))
		return false;
	if (s >= 0)
		return true;
	__atomic_store_n(&excl_score, s + 1, __ATOMIC_RELAXED);
	return false;
}

/* c made O_EXCL: its result, or -2 for "its name is there" (errno as
 * it was before the call, `saved`). */
static int excl_open(const struct hs_wcall *c, int saved)
{
	int fl = c->flags | O_EXCL, s;
	int fd = hs_ck_on() ? CK_AT(c->dirfd, c->path, fl, c->mode)
			    : HS_REAL(openat)(c->dirfd, c->path, fl, c->mode);
	bool there = fd < 0 && errno == EEXIST;

	s = __atomic_load_n(&excl_score, __ATOMIC_RELAXED);
	s = there ? (s >= 4 ? s - 4 : -EXCL_PAUSE) : s < EXCL_MAX ? s + 1 : s;
	__atomic_store_n(&excl_score, s, __ATOMIC_RELAXED);
	if (!there)
		return fd;
	errno = saved;
	return -2;
}
#define EXCL_RESULT(r, f) _Generic((r), int: (f), default: 0)

/* A call whose name a symlink flip changed since it was judged is judged
 * again (hs_wpin_call), HS_WPIN_ROUNDS times at most. */
#define DEFINE_WATCHED(ret, name, iparams, args, fail, call, fd)        \
	static __attribute__((noinline)) ret name##_watched iparams     \
	{                                                               \
		struct hs_wcall hs_c_ = call;                           \
		struct hs_wticket hs_t_;                                \
		int hs_go_, hs_round_ = 0, hs_f_;                       \
		bool hs_new_ = FRESH(&hs_c_);                           \
		unsigned long hs_gen_ = hs_new_ ? hs_wfresh_begin() : 0; \
		ret r;                                                  \
                                                                        \
		hs_c_.excl_first = EXCL_FIRST(r, &hs_c_);               \
	hs_again_:                                                      \
		hs_go_ = hs_wbegin(&hs_c_, &hs_t_);                     \
		if (hs_go_ < 0)                                         \
			return fail;                                    \
		if (hs_go_ == 3) /* for the floor to judge */         \
			return HS_REAL(name) args;                      \
		if (hs_go_ == 2) {                                      \
			r = STAGED_RESULT(r, &hs_t_);                   \
		} else if (hs_wpinned(&hs_t_)) {                        \
			hs_f_ = hs_wpin_call(&hs_c_, &hs_t_,            \
					     ++hs_round_ < HS_WPIN_ROUNDS); \
			if (hs_f_ == HS_WPIN_AGAIN)                     \
				goto hs_again_;                         \
			r = PINNED_RESULT(r, hs_f_, &hs_c_);            \
		} else if (hs_t_.excl_skipped) {                        \
			hs_f_ = excl_open(&hs_c_, hs_t_.saved_errno);   \
			if (hs_f_ == -2) { /* there: judged with the look */ \
				hs_c_.excl_first = false;               \
				goto hs_again_;                         \
			}                                               \
			r = EXCL_RESULT(r, hs_f_);                      \
		} else {                                                \
			r = hs_ck_on() ? CK_##name args : HS_REAL(name) args; \
			if (hs_new_ && r != fail)                       \
				hs_wfresh_mark(fd, hs_gen_);            \
		}                                                       \
		if (hs_go_ > 0)                                         \
			hs_wend(&hs_c_, &hs_t_, r != fail, fd);         \
		return r;                                               \
	}
#define DEFINE_WRAPPER(ret, name, params, iparams, args, fail, prologue, \
		       quick, call, fd)                                 \
	DEFINE_WATCHED(ret, name, iparams, args, fail, call, fd)        \
	HS_VIS ret name params                                          \
	{                                                               \
		prologue                                                \
		if (__builtin_expect(!(quick), 1) || hs_guarded())      \
			return HS_REAL(name) args;                      \
		return name##_watched args;                             \
	}

WRITE_TABLE(DEFINE_WRAPPER)

/* bind(2) of a unix socket to a path makes a socket inode there: a
 * mknod of a socket to the rules, its name read from the address as the
 * kernel reads it (common/sunpath.h; a compound literal holds it for the
 * call). Any other bind makes nothing on disk and goes on at once, under
 * the floor with the cookie (floor_bpf.c notifies bind with the writes):
 * glibc's own, through its hidden alias (getaddrinfo's netlink socket),
 * is the floor's to look at. */
static const char *sun_name(const struct sockaddr *a, socklen_t n,
			    char *buf)
{
	hs_sun_path(a, n, buf);
	return buf;
}
#define WCB(fd, a, n)                                                  \
	((struct hs_wcall){ HS_WK_BIND, AT_FDCWD,                      \
			    sun_name((a), (n), (char[HS_SUN_CAP]){ 0 }), \
			    (fd), 0, S_IFSOCK | 0777, 0, 0, 0, false })
#define CK_bind(fd, a, n) CK_2(SYS_bind, fd, a, n, 0, 0)
DEFINE_WATCHED(int, bind, (int fd, const struct sockaddr *a, socklen_t n),
	       (fd, a, n), -1, WCB(fd, a, n), -1)

/* Is fd a unix socket? Only one makes a name on disk, whatever family
 * its address claims (errno kept). */
static bool unix_socket(int fd)
{
	int e = errno, dom = 0;
	socklen_t len = sizeof(dom);
	bool yes = getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &dom, &len) == 0 &&
		   dom == AF_UNIX;

	errno = e;
	return yes;
}

HS_VIS int bind(int fd, const struct sockaddr *a, socklen_t n)
{
	struct sockaddr_storage copy;
	char name[HS_SUN_CAP];

	if (__builtin_expect(!hs_wscope_active(), 1) || hs_guarded())
		return HS_REAL(bind)(fd, a, n);
	/* a unix socket's address read once, as the kernel copies it, and
	 * that copy bound: what is judged is what is bound, whatever another
	 * thread writes there meanwhile (any other socket's is the kernel's
	 * to read: a bad one is its EFAULT) */
	if (a && n > 0 && n <= sizeof(copy) && unix_socket(fd)) {
		memcpy(&copy, a, n);
		a = (const struct sockaddr *)&copy;
		if (hs_sun_path(&copy, n, name))
			return bind_watched(fd, a, n);
	}
	return hs_ck_on() ? CK_bind(fd, a, n) : HS_REAL(bind)(fd, a, n);
}

/* The end of a write: close, fclose, and dup2/dup3 onto a tracked
 * descriptor (an implicit close: bash restoring stdout after
 * `echo x > f`). The fast path is one relaxed load of the table's use
 * count, and one of write_scope's directory verdicts: whatever closes or
 * replaces a descriptor also drops the verdict about it as a directory,
 * before and after the real call (write_scope.c says why). */

static int close_watched(int fd)
{
	struct hs_fdt_info info;
	bool last = hs_wclosing(fd, &info);
	int denied = last ? hs_wpublish(fd, &info) : 0;
	int r = HS_REAL(close)(fd);

	if (last)
		hs_wclosed(&info, (r == 0 || errno == EINTR) && !denied, errno);
	if (denied) { /* a staged write refused or not published */
		errno = denied;
		return -1;
	}
	return r;
}

HS_VIS int close(int fd)
{
	int r;

	if (__builtin_expect(hs_st.net_conns, 0))
		hs_net_closing(fd);
	if (__builtin_expect(!hs_fdt_active() && !hs_wdir_used(), 1))
		return HS_REAL(close)(fd);
	hs_wdir_forget(fd);
	if (!hs_fdt_active() || hs_guarded())
		r = HS_REAL(close)(fd);
	else
		r = close_watched(fd);
	hs_wdir_forget(fd);
	return r;
}

HS_VIS int fclose(FILE *f)
{
	struct hs_fdt_info info;
	bool last = false;
	int fd, r, denied = 0;

	if (__builtin_expect(hs_st.net_conns, 0) && f)
		hs_net_closing(fileno(f));
	if (__builtin_expect(!hs_fdt_active() && !hs_wdir_used(), 1) || !f)
		return HS_REAL(fclose)(f);
	fd = fileno(f);
	hs_wdir_forget(fd);
	if (hs_fdt_active() && !hs_guarded())
		last = hs_wclosing(fd, &info);
	if (last && (info.flags & HS_FDT_STAGED)) {
		fflush(f); /* the content is complete only now */
		denied = hs_wpublish(fd, &info);
	}
	r = HS_REAL(fclose)(f);
	if (last)
		hs_wclosed(&info, r == 0 && !denied, errno);
	hs_wdir_forget(fd);
	if (denied) {
		errno = denied;
		return EOF;
	}
	return r;
}

static int dup_common(int old, int new, int flags, bool three)
{
	struct hs_fdt_info info;
	bool watch = hs_fdt_active() && !hs_guarded(), last = false;
	int r;

	hs_wdir_forget(new);
	if (__builtin_expect(hs_st.net_conns, 0) && old != new)
		hs_net_closing(new);

	int denied = 0;

	if (watch && old != new)
		last = hs_wclosing(new, &info);
	/* A staged write replaced (a shell restoring stdout) is decided
	 * first; the dup itself still happens and succeeds: the denial is
	 * on stderr (docs/staged-writes.md). */
	if (last)
		denied = hs_wpublish(new, &info);
	r = three ? HS_REAL(dup3)(old, new, flags) : HS_REAL(dup2)(old, new);
	if (watch && r >= 0)
		hs_fdt_dup(old, new);
	if (last)
		hs_wclosed(&info, !denied, 0);
	hs_wdir_forget(new);
	return r;
}

HS_VIS int dup2(int old, int new)
{
	return dup_common(old, new, 0, false);
}

HS_VIS int dup3(int old, int new, int flags)
{
	return dup_common(old, new, flags, true);
}

/* Closes behind descriptors the program may have used as directories:
 * fdopendir's, and everything at once. */
HS_VIS int closedir(DIR *d)
{
	int fd, r;

	if (__builtin_expect(!hs_wdir_used(), 1))
		return HS_REAL(closedir)(d);
	fd = dirfd(d);
	hs_wdir_forget(fd);
	r = HS_REAL(closedir)(d);
	hs_wdir_forget(fd);
	return r;
}

HS_VIS int close_range(unsigned lo, unsigned hi, int flags)
{
	int r;

	hs_wdir_forget_all();
	/* (CLOSE_RANGE_CLOEXEC closes nothing yet) */
	if (!(flags & CLOSE_RANGE_CLOEXEC))
		hs_net_closing_range(lo, hi);
	r = HS_REAL(close_range)(lo, hi, flags);
	hs_wdir_forget_all();
	return r;
}

HS_VIS void closefrom(int lo)
{
	hs_wdir_forget_all();
	if (lo >= 0)
		hs_net_closing_range((unsigned)lo, ~0u);
	HS_REAL(closefrom)(lo);
	hs_wdir_forget_all();
}

/* libuv closes files with syscall(SYS_close) on Linux: node's fs
 * writes end here, not in close(). Up to six arguments are forwarded,
 * as glibc's own syscall() reads them. */
HS_VIS long syscall(long n, ...)
{
	va_list ap;
	long a[6], r;

	va_start(ap, n);
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if (n == SYS_close) {
		if (__builtin_expect(hs_st.net_conns, 0))
			hs_net_closing((int)a[0]);
		hs_wdir_forget((int)a[0]);
		if (hs_fdt_active() && !hs_guarded())
			r = close_watched((int)a[0]);
		else
			r = HS_REAL(syscall)(n, a[0]);
		hs_wdir_forget((int)a[0]);
		return r;
	}
#ifdef SYS_close_range
	if (n == SYS_close_range) {
		hs_wdir_forget_all();
		if (!(a[2] & CLOSE_RANGE_CLOEXEC))
			hs_net_closing_range((unsigned)a[0], (unsigned)a[1]);
		r = HS_REAL(syscall)(n, a[0], a[1], a[2]);
		hs_wdir_forget_all();
		return r;
	}
#endif
	/* a descriptor number replaced as dup2() replaces it */
	if (
#ifdef SYS_dup2
	    n == SYS_dup2 ||
#endif
	    n == SYS_dup3) {
		hs_wdir_forget((int)a[1]);
		if (__builtin_expect(hs_st.net_conns, 0) && a[0] != a[1])
			hs_net_closing((int)a[1]);
		r = HS_REAL(syscall)(n, a[0], a[1], a[2]);
		hs_wdir_forget((int)a[1]);
		return r;
	}
	return HS_REAL(syscall)(n, a[0], a[1], a[2], a[3], a[4], a[5]);
}

/* The working directory is cached for relative paths (path.c); these
 * say when it changes. Rare calls: a getpid() is affordable. */

HS_VIS int chdir(const char *p)
{
	int r = HS_REAL(chdir)(p);

	if (r == 0)
		hs_path_chdir(hs_getpid() != hs_st.pid);
	return r;
}

HS_VIS int fchdir(int fd)
{
	int r = HS_REAL(fchdir)(fd);

	if (r == 0)
		hs_path_chdir(hs_getpid() != hs_st.pid);
	return r;
}

/* Reports every write this process still has open. */
static void report_all(void)
{
	struct hs_fdt_info info;
	int fd;

	/* a staged write still open is complete: decided and published
	 * now, its descriptor still open */
	while (hs_fdt_take_any(&info, &fd))
		hs_wclosed(&info, fd < 0 || !hs_wpublish(fd, &info), 0);
}

/* Files still open at exit are complete now: flush stdio (exit has not
 * yet) and report them. */
__attribute__((destructor)) static void write_fini(void)
{
	if (hs_st.net_conns)
		hs_net_exiting();
	if (!hs_fdt_active() || hs_guarded())
		return;
	fflush(NULL);
	report_all();
}

/* _exit skips the destructor, and shells end with it: dash forks its
 * commands with vfork and calls _exit when the last is done, so its
 * `exec > f` or the stdout an exec handed it (fdcarry.h) would never be
 * reported. A fork child's table is empty and a vfork child's entries are
 * its parent's, so only a process that owns writes reports them here. No
 * fflush: _exit drops unflushed stdio anyway. */

HS_VIS void _exit(int status)
{
	if (hs_st.net_conns)
		hs_net_exiting();
	if (hs_fdt_active() && !hs_guarded())
		report_all();
	HS_REAL(_exit)(status);
	__builtin_unreachable();
}

HS_VIS void _Exit(int status)
{
	if (hs_st.net_conns)
		hs_net_exiting();
	if (hs_fdt_active() && !hs_guarded())
		report_all();
	HS_REAL(_Exit)(status);
	__builtin_unreachable();
}

__attribute__((constructor)) static void write_init(void)
{
	int saved = errno;

	/* the real functions were resolved by init.c's constructor */
	hs_wscope_init();
	hs_fdc_inherit(); /* `cmd > f`: the shell's exec handed f over */
	/* Only a process that can track descriptors needs the fork handler:
	 * in the others a fork child would run it for nothing, page faults
	 * included. */
	if ((hs_wscope_active() & HS_W_POST) || hs_fdt_active())
		hs_fdt_init();
	errno = saved;
}
