/* A shell the agent feeds its commands on stdin (a persistent shell on a
 * pipe, `bash -s` reading a script from one): each command it reads is a
 * tool call of its own, judged before the shell has it (docs/agents.md,
 * "A shell the agent feeds on stdin").
 *
 * A shell reads a pipe a byte at a time (it must not take input meant for
 * the commands it runs) and runs nothing of a command until it is whole.
 * So read(0) is interposed in such a shell: we read up to the end of a
 * line ourselves, ask the supervisor about it (argv [SHELL, -c, TEXT],
 * request field LINE) and only then hand the bytes over. A text that
 * stops inside a command (an `if` still open, a here-document) takes the
 * next line first, as the shell would; if none comes within MORE_WAIT_MS
 * it is judged as it is, what it runs judged too, and judged again with
 * the lines that follow (carried).
 *
 * The verdict is the state the shell's execs follow until the next
 * command (exec_decide.c): exact and allowed, its programs are that tool
 * call's and fire nothing more; a hand-off, every program it starts is
 * judged, as before any command was read. Denied, the reason goes to the
 * shell's stderr and the shell reads `(exit N)` in its place, so that
 * nothing of it runs, not even a builtin or a function it would define
 * (an agent's end marker on the same line does not run either: most put
 * theirs on a line of its own); a carried command the shell has begun to
 * read cannot be taken back: every program it starts fails instead (a
 * denied first piece is replaced, and the rest of that command taken as
 * it comes). A rewrite (updatedInput) is what the shell reads. A command
 * that leaves code behind (a function, an alias, a trap, a `read` of this
 * input) makes what every later command runs judged too. NUL bytes are
 * left out (the shell skips them; the hook sees what runs); while fd 0 is
 * another file than the stream (`… done < list`) reads pass through; past
 * LINE_CAP the shell's input passes through for good, every program
 * judged.
 *
 * Only in the shell process itself (not its forks: `( read x )`), only on
 * a pipe or a socket (a shell seeks back in a file it reads; a terminal is
 * a person), and only while the supervisor answers: hidden from it (the
 * agent's sandbox) or failing, the bytes pass through and every program
 * is judged. A shell is single-threaded; a read(0) that would interrupt
 * ours (from a signal handler) passes straight through (the guard). */
#include "stdin_line.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/plainstr.h"
#include "../common/shellargv.h"
#include "../common/wire.h"
#include "client.h"
#include "real.h"
#include "state.h"

/* A command longer than this (a here-document writing a big file) is
 * not held back: the shell's input passes through from there on, and
 * every program it starts is judged (the shell's commands can no longer
 * be told apart). */
#define LINE_CAP (4u << 20)
/* How long a command that stops inside itself (an open `if`) waits for
 * its next line before it is judged as it is: the shell waits for that
 * line too, so the agent has sent it or is about to; the bound is for a
 * text the engine's parser takes for unfinished and the shell does not. */
#define MORE_WAIT_MS 2000

static enum hs_line_verdict verdict;
static int deny_exit = 126;
static char reason[4096];
/* a command left code behind (a function, an alias, a trap): what every
 * later one runs is judged too */
static bool keeps;

/* 0: not known yet; 1: this process reads its commands on fd 0; -1: no */
static int mode;
static pid_t mode_pid;
static char *shell0; /* our argv[0], for the request */
static dev_t dev0;   /* what fd 0 was then: a `read x < file` the shell */
static ino_t ino0;   /* makes meanwhile is no command */

static struct {
	char *buf;
	size_t cap;       /* of buf, 0 until the first command */
	size_t len;       /* bytes of the command read so far */
	size_t off;       /* handed to the shell so far */
	bool ready;       /* judged: buf[off, len) is the shell's */
	bool carry;       /* judged unfinished: the next line is judged
			   * with this text before it */
	bool swallow;     /* denied before the shell had any of it, and
			   * unfinished: the rest is taken, never given */
	bool gave_up;     /* LINE_CAP passed: everything passes through */
} L;

enum hs_line_verdict hs_line_verdict(void)
{
	return verdict;
}

int hs_line_deny_exit(void)
{
	return deny_exit;
}

static bool stdin_is_stream(void)
{
	struct stat sb;

	if (fstat(0, &sb) != 0 ||
	    !(S_ISFIFO(sb.st_mode) || S_ISSOCK(sb.st_mode)))
		return false;
	dev0 = sb.st_dev;
	ino0 = sb.st_ino;
	return true;
}

/* Is fd 0 still the stream the commands come on? */
static bool stdin_same(void)
{
	struct stat sb;

	return fstat(0, &sb) == 0 && sb.st_dev == dev0 && sb.st_ino == ino0;
}

/* Room for n more bytes and a NUL after them; false past LINE_CAP. */
static bool room(size_t n)
{
	size_t cap = L.cap ? L.cap : 4096;
	char *b;

	if (L.len + n + 2 <= L.cap)
		return true;
	while (cap < L.len + n + 2)
		cap *= 2;
	if (cap > LINE_CAP + 2 || !(b = realloc(L.buf, cap)))
		return false;
	L.buf = b;
	L.cap = cap;
	return true;
}

/* Is this process a shell the agent (or a hand-off) feeds on stdin? */
static bool line_shell(void)
{
	const struct hs_state *st;
	char *buf = NULL, **argv;

	/* atomic: a program's threads may read fd 0 at once (a shell,
	 * the only process where it becomes 1, has one) */
	switch (__atomic_load_n(&mode, __ATOMIC_RELAXED)) {
	case 0:
		break;
	case 1:
		return hs_getpid() == mode_pid;
	default:
		return false;
	}
	/* from here on, a read of ours is not one of these */
	__atomic_store_n(&mode, -1, __ATOMIC_RELAXED);
	st = hs_state();
	if (!st->active || !hs_exec_interest(st) ||
	    st->role != HS_ROLE_HANDOFF || hs_getpid() != st->pid ||
	    !hs_exe_is_shell() || !hs_system_path(hs_exe()) ||
	    !stdin_is_stream())
		return false;
	argv = hs_read_cmdline(&buf);
	if (argv && argv[0] && hs_shell_reads_stdin(argv) &&
	    (shell0 = strdup(argv[0]))) {
		mode_pid = st->pid;
		__atomic_store_n(&mode, 1, __ATOMIC_RELAXED);
	}
	free(argv);
	free(buf);
	return shell0 != NULL;
}

/* Is another line already there (or coming within MORE_WAIT_MS)? */
static bool more_waiting(void)
{
	struct pollfd p = { .fd = 0, .events = POLLIN };
	int r;

	do
		r = poll(&p, 1, MORE_WAIT_MS);
	while (r < 0 && errno == EINTR);
	return r > 0 && (p.revents & POLLIN);
}

static void say_denied(void)
{
	size_t k = strlen(reason);

	if (!k)
		hs_write_str(2, "hookshim: command denied by a hook");
	else
		hs_write_str(2, reason);
	if (!k || reason[k - 1] != '\n')
		hs_write_str(2, "\n");
}

/* What the shell reads in place of a denied command it has none of yet:
 * `(exit N)`, a command that fails as the denied one would, so that
 * nothing of it runs, builtins (a function it would define, `kill`)
 * included. */
static struct {
	char text[32];
	size_t len, off;
} D;

static void deny_text(void)
{
	char num[24];
	size_t k;

	hs_utoa((unsigned long)(deny_exit & 255), num);
	k = strlen(num);
	memcpy(D.text, "(exit ", 6);
	memcpy(D.text + 6, num, k);
	memcpy(D.text + 6 + k, ")\n", 2);
	D.len = 6 + k + 2;
	D.off = 0;
}

/* Asks about buf[0, len) as a command the shell read (LINE `line`: 1 it
 * may stop inside itself, 2 judge it as it is, 3 only say whether it
 * stops inside itself). */
static void ask(int line, struct hs_reply *rep)
{
	char id[64], *argv[4];
	char last = L.buf[L.len - 1];
	size_t n = L.len - (last == '\n');
	struct hs_msg req;

	L.buf[n] = '\0'; /* the hook is shown the command, not its newline */
	argv[0] = (char *)hs_exe(); /* a shell by its program, not its name */
	argv[1] = (char *)"-c";
	argv[2] = L.buf;
	argv[3] = NULL;
	hs_make_id(id);
	req = (struct hs_msg){
		.op = "exec", .phase = "pre", .nested = 0, .beneath = 1,
		.line = line, .id = id, .exe = hs_exe(), .argv = argv,
	};
	hs_ask_or_floor(&req, rep);
	L.buf[n] = last;
}

/* The verdict on buf[0, len): true when the supervisor wants the next
 * line first (asked only when `final` is false). A final text that is
 * still unfinished (a slow writer: `for …; do` alone) is judged as it
 * is, what it runs is judged too, and it is carried: the next line is
 * judged with it, so that the whole command is seen once it is whole. */
static bool judge(bool final)
{
	struct hs_reply rep;

	ask(final ? 2 : 1, &rep);
	if (!final && rep.more && !rep.failed)
		return true;
	L.carry = final && rep.more && !rep.failed;
	if (rep.deny) {
		verdict = HS_LINE_DENIED;
		deny_exit = rep.deny_exit;
		memcpy(reason, rep.reason, strlen(rep.reason) + 1);
		if (!rep.said)
			say_denied();
		if (!L.off) {
			/* the shell has none of it: it reads `(exit N)`, and
			 * an unfinished rest is taken as it comes, never
			 * given */
			deny_text();
			L.swallow = L.carry;
			if (L.carry)
				L.off = L.len;
			else
				L.len = 0;
		}
		return false;
	}
	keeps |= rep.keeps;
	if (rep.failed || rep.hidden || rep.handoff || L.carry || keeps) {
		/* the floor judges each program, or the engine asks for
		 * them: what it runs is judged */
		verdict = HS_LINE_HANDOFF;
		return false;
	}
	verdict = HS_LINE_EXACT;
	if (rep.updated[0] && (L.off || L.carry)) {
		static const char why[] = "hookshim: a hook rewrote a command "
			"the shell had begun to read; not run";

		verdict = HS_LINE_DENIED;
		memcpy(reason, why, sizeof(why));
		say_denied();
	} else if (rep.updated[0]) {
		/* what a hook rewrote the command to is what the shell reads
		 * (at most 4095 bytes: client.c) */
		size_t k = strlen(rep.updated);

		L.len = 0;
		if (!room(k + 1)) {
			static const char why[] = "hookshim: no memory for a "
				"rewritten command; not run";

			verdict = HS_LINE_DENIED;
			memcpy(reason, why, sizeof(why));
			say_denied();
			deny_text();
			return false;
		}
		memcpy(L.buf, rep.updated, k);
		L.buf[k] = '\n';
		L.len = k + 1;
	}
	return false;
}

/* Appends the next line of input to buf (NUL bytes left out: the shell
 * skips them, and the hook must see what the shell runs). 1: a line, or
 * the end of input after part of one (*eof); 0: the end of input and
 * nothing new; -1: the read failed (errno), what came kept; -2: past
 * LINE_CAP. */
static int read_line(bool *eof)
{
	size_t start = L.len;
	ssize_t r;

	for (;;) {
		if (!room(1))
			return -2;
		r = HS_REAL(read)(0, L.buf + L.len, 1);
		if (r < 0)
			return -1;
		if (r == 0) {
			*eof = true;
			return L.len > start || L.len > L.off ? 1 : 0;
		}
		if (!L.buf[L.len])
			continue;
		if (L.buf[L.len++] == '\n')
			return 1;
	}
}

/* Past LINE_CAP (or out of memory): what was read is handed over as it
 * is, and from here on the shell's input passes through, every program
 * it starts judged. */
static void give_up(void)
{
	verdict = HS_LINE_HANDOFF;
	keeps = L.gave_up = true;
	L.carry = L.swallow = false;
	L.ready = true;
}

/* Reads the next command whole and judges it. >0: L.ready (or D holds
 * a denied command's text); 0: end of input; -1: the read failed
 * (errno: EINTR, EAGAIN...), what was read kept for the next call. */
static ssize_t next_command(void)
{
	bool eof = false;
	struct hs_reply rep;
	int r;

	for (;;) {
		r = read_line(&eof);
		if (r == -2) {
			give_up();
			return 1;
		}
		if (r < 0)
			return -1;
		if (r == 0) {
			L.len = L.off = 0;
			L.carry = L.swallow = false;
			return 0;
		}
		if (L.swallow) {
			/* the rest of a denied command, taken until whole */
			ask(3, &rep);
			if (!eof && rep.more && !rep.failed)
				continue;
			L.len = L.off = 0;
			L.carry = L.swallow = false;
			if (eof)
				return 0;
			continue;
		}
		/* asked first as it is: only a command that stops inside
		 * itself waits for its next line */
		if (!judge(eof))
			break;
		if (!more_waiting()) {
			(void)judge(true);
			break;
		}
	}
	L.ready = L.off < L.len;
	return 1;
}

static ssize_t line_read(char *out, size_t n)
{
	size_t k;
	ssize_t r;

	/* fd 0 is another file now (`while read l; do …; done < list`,
	 * `exec < cmds`): what the shell reads there no hook sees, so what
	 * it runs is judged */
	if (!stdin_same()) {
		if (verdict != HS_LINE_DENIED)
			verdict = HS_LINE_HANDOFF;
		return HS_REAL(read)(0, out, n);
	}
	if (L.gave_up)
		goto through;
	if (D.off == D.len && !L.ready) {
		if ((r = next_command()) <= 0)
			return r;
		if (L.gave_up && !L.ready)
			goto through;
	}
	if (D.off < D.len) {
		k = D.len - D.off < n ? D.len - D.off : n;
		memcpy(out, D.text + D.off, k);
		D.off += k;
		return (ssize_t)k;
	}
	k = L.len - L.off < n ? L.len - L.off : n;
	memcpy(out, L.buf + L.off, k);
	L.off += k;
	if (L.off == L.len) {
		L.ready = false;
		if (!L.carry)
			L.len = L.off = 0;
	}
	return (ssize_t)k;
through:
	if (L.ready && L.off < L.len) { /* what was held, first */
		k = L.len - L.off < n ? L.len - L.off : n;
		memcpy(out, L.buf + L.off, k);
		L.off += k;
		if (L.off == L.len)
			L.ready = false, L.len = L.off = 0;
		return (ssize_t)k;
	}
	return HS_REAL(read)(0, out, n);
}

HS_VIS ssize_t read(int fd, void *buf, size_t n)
{
	ssize_t r;
	HS_ERRNO_SAVE();

	if (fd != 0 || !n || hs_guarded())
		return HS_REAL(read)(fd, buf, n);
	hs_guard_enter();
	if (!line_shell()) {
		hs_guard_leave();
		HS_ERRNO_RESTORE();
		return HS_REAL(read)(fd, buf, n);
	}
	r = line_read(buf, n);
	if (r >= 0)
		HS_ERRNO_RESTORE(); /* a failed read keeps its own */
	hs_guard_leave();
	return r;
}
