/* The session's transcript (transcript.h).
 *
 * Claude Code sends every hook a `transcript_path`: its conversation as
 * JSON lines, `type` "assistant" entries whose message.content holds
 * tool_use blocks {id, name, input} and `type` "user" entries holding the
 * tool_result {tool_use_id, content, is_error}, each with uuid,
 * parentUuid (the entry before), sessionId, cwd and timestamp. From
 * outside the agent only the tool calls can be known, so that is what
 * this file holds: one tool_use per call, in Claude Code's tool names and
 * input shape whatever dialect the hooks speak, written before the hooks
 * of the call run (a hook that reads the last entry sees its own call),
 * and a tool_result when the call was denied or its post event came.
 *
 * The supervisor writes it, so no write of it is ever an event (the
 * shim runs only in the agent's processes). It lives in a private
 * directory outside the session root, which the agent's user can write
 * all the same; protecting it from the agent's own writes is the
 * protected-files rule's job: `hookshim run` adds hs_transcript_path()
 * (and the --log copy) to the session's protected files, so a hook never
 * reads a forged one. The supervisor itself never goes by the names
 * again: it writes and reads back its own descriptor, and the --log copy
 * is opened at the start, without following a symlink there. */
#include "transcript.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../config/dialect.h"
#include "../common/wire.h"
#include "../engine/payload.h"
#include "log.h"
#include "session.h"

#define FILE_NAME "transcript.jsonl"
#define DIR_PREFIX "hookshim-session-"
/* + the user's uid: where that user's sessions make their directories,
 * removed by the last one to end (user_dir) */
#define USER_PREFIX "hookshim-"
/* A transcript untouched this long, whose lock nobody holds, is a dead
 * session's (sweep); the age spares one just made, not yet locked. */
#define STALE_SECONDS 600

struct hs_transcript {
	char dir[PATH_MAX - 64]; /* room for FILE_NAME in path */
	char user_dir[PATH_MAX - 128]; /* dir's parent when ours, or "" */
	char path[PATH_MAX];
	char session[80];
	char *keep_as; /* or NULL */
	int keep_fd;   /* keep_as, opened at the start, or -1 */
	bool finished;
	int fd;
	pthread_mutex_t mu;
	char last_uuid[40]; /* parentUuid of the next entry; "" at first */
};

/* The transcripts of sessions whose supervisor died without removing
 * them (SIGKILL, a crash, the machine's power): the next session removes
 * them from `dir` (the user's directory, else TMPDIR), so the tool calls
 * they hold do not stay there for good. A
 * live session holds an flock on its file for its whole life (the kernel
 * drops it when the process dies, whatever its pid namespace), so a file
 * whose lock can be taken, untouched for STALE_SECONDS, is a dead one's.
 * Only directories of ours, opened without following links, and only
 * the one file we put there: a directory holding anything else stays. */
static void sweep(int dir)
{
	time_t now = time(NULL);
	struct dirent *e;
	DIR *d;
	int fd;

	if ((fd = fcntl(dir, F_DUPFD_CLOEXEC, 0)) < 0)
		return;
	if (!(d = fdopendir(fd))) {
		close(fd);
		return;
	}
	while ((e = readdir(d))) {
		struct stat sb;
		int dfd;

		if (strncmp(e->d_name, DIR_PREFIX, strlen(DIR_PREFIX)) != 0)
			continue;
		dfd = openat(dirfd(d), e->d_name,
			     O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (dfd < 0)
			continue;
		fd = openat(dfd, FILE_NAME, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
		if (fd >= 0 && fstat(fd, &sb) == 0 && sb.st_uid == geteuid() &&
		    S_ISREG(sb.st_mode) && now - sb.st_mtime > STALE_SECONDS &&
		    flock(fd, LOCK_EX | LOCK_NB) == 0) {
			unlinkat(dfd, FILE_NAME, 0);
			unlinkat(dirfd(d), e->d_name, AT_REMOVEDIR);
		}
		if (fd >= 0)
			close(fd);
		close(dfd);
	}
	closedir(d);
}

/* TMPDIR/hookshim-UID, made if need be and opened: a directory of ours
 * (no link, our owner, nobody else's access), or -1 -- one another user
 * made there first, say -- and the session's directory goes in TMPDIR
 * itself, as before it existed. Its sessions' directories are all a
 * sweep reads: reading the whole of TMPDIR cost a session 1.5 ms of its
 * 4.6 ms of CPU with 3,300 names in /tmp, more on a busy machine. */
static int user_dir(const char *tmp, char *path, size_t cap)
{
	struct stat sb;
	int fd;

	if (snprintf(path, cap, "%s/" USER_PREFIX "%u", tmp,
		     (unsigned)geteuid()) >= (int)cap) {
		errno = ENAMETOOLONG;
		return -1;
	}
	if (mkdir(path, 0700) < 0 && errno != EEXIST)
		return -1;
	fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, &sb) != 0 || sb.st_uid != geteuid() ||
	    (sb.st_mode & 077)) {
		close(fd);
		errno = EPERM;
		return -1;
	}
	return fd;
}

/* A directory of ours in `in` (a descriptor): DIR_PREFIX and a random
 * name, made and opened there, never by a path, so whatever another name
 * of `in` leads to meanwhile (the user's directory removed by a session
 * ending, and made again by somebody else) changes nothing. Its
 * descriptor, its name in `name`; or -1. */
static int new_dir_at(int in, char *name, size_t cap)
{
	for (int tries = 0; tries < 8; tries++) {
		char hex[13];

		hs_random_hex(hex, 6);
		snprintf(name, cap, DIR_PREFIX "%s", hex);
		if (mkdirat(in, name, 0700) == 0)
			return openat(in, name, O_RDONLY | O_DIRECTORY |
							O_NOFOLLOW | O_CLOEXEC);
		if (errno != EEXIST)
			return -1;
	}
	return -1;
}

/* In `dir` (a descriptor, named `base`): a dead session's directories
 * removed (sweep), then ours made; t->dir names it. */
static int session_dir_in(struct hs_transcript *t, int dir, const char *base)
{
	char name[64];
	int sd;

	sweep(dir);
	sd = new_dir_at(dir, name, sizeof(name));
	if (sd >= 0)
		snprintf(t->dir, sizeof(t->dir), "%s/%s", base, name);
	return sd;
}

/* The session's directory, opened: in the user's directory when there
 * is one (made again when the last session to end removed it
 * meanwhile), else in TMPDIR. */
static int make_dir(struct hs_transcript *t, const char *tmp)
{
	int sd, d, e;

	for (int tries = 0; tries < 4; tries++) {
		int ud = user_dir(tmp, t->user_dir, sizeof(t->user_dir));

		if (ud < 0 && errno == ENOENT)
			continue; /* removed between our mkdir and open */
		if (ud < 0)
			break;
		sd = session_dir_in(t, ud, t->user_dir);
		e = errno;
		close(ud);
		if (sd >= 0)
			return sd;
		if (e != ENOENT)
			break; /* ENOENT: ud was removed meanwhile */
	}
	t->user_dir[0] = '\0';
	snprintf(t->dir, sizeof(t->dir), "%s", tmp);
	if ((d = open(tmp, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return -1;
	sd = session_dir_in(t, d, tmp);
	close(d);
	return sd;
}

struct hs_transcript *hs_transcript_open(const char *session_id,
					 const char *keep_as)
{
	const char *tmp = getenv("TMPDIR");
	struct hs_transcript *t = calloc(1, sizeof(*t));
	int sd;

	if (!t)
		return NULL;
	tmp = tmp && tmp[0] == '/' ? tmp : "/tmp";
	if ((sd = make_dir(t, tmp)) < 0) {
		fprintf(stderr, "hookshim: transcript directory in %s: %s; "
			"hooks get an empty transcript_path\n", t->dir,
			strerror(errno));
		free(t);
		return NULL;
	}
	snprintf(t->path, sizeof(t->path), "%s/" FILE_NAME, t->dir);
	t->fd = openat(sd, FILE_NAME, O_RDWR | O_CREAT | O_EXCL | O_APPEND |
					      O_NOFOLLOW | O_CLOEXEC,
		       0600);
	close(sd);
	if (t->fd < 0) {
		fprintf(stderr, "hookshim: %s: %s; hooks get an empty "
			"transcript_path\n", t->path, strerror(errno));
		rmdir(t->dir);
		if (t->user_dir[0])
			rmdir(t->user_dir);
		free(t);
		return NULL;
	}
	/* alive while this is held (sweep); it cannot be refused on a file
	 * just made, and a file system without locks only loses the sweep */
	flock(t->fd, LOCK_EX | LOCK_NB);
	snprintf(t->session, sizeof(t->session), "%s", session_id);
	t->keep_as = keep_as ? strdup(keep_as) : NULL;
	/* before the agent runs: a symlink it puts there later changes
	 * nothing, and one there already is refused */
	t->keep_fd = keep_as ? open(keep_as, O_WRONLY | O_CREAT | O_APPEND |
						     O_NOFOLLOW | O_CLOEXEC,
				    0600)
			     : -1;
	if (keep_as && t->keep_fd < 0)
		fprintf(stderr, "hookshim: cannot keep the transcript in %s: "
			"%s\n", keep_as, strerror(errno));
	pthread_mutex_init(&t->mu, NULL);
	return t;
}

const char *hs_transcript_path(const struct hs_transcript *t)
{
	return t ? t->path : NULL;
}

const char *hs_transcript_kept_as(const struct hs_transcript *t)
{
	return t ? t->keep_as : NULL;
}

/* A version 4 UUID, as Claude Code's entries carry. */
static void new_uuid(char out[37])
{
	char hex[33];

	hs_random_hex(hex, 16);
	hex[12] = '4';
	hex[16] = "89ab"[hex[16] % 4];
	snprintf(out, 37, "%.8s-%.4s-%.4s-%.4s-%.12s", hex, hex + 8, hex + 12,
		 hex + 16, hex + 20);
}

/* The fields every entry has, then `message`; written as one line with
 * one write(), under the lock that also orders parentUuid. Consumes
 * message and extra. */
static void put_entry(struct hs_transcript *t, const struct hs_event *ev,
		      const char *type, cJSON *message, const char *extra_key,
		      cJSON *extra)
{
	cJSON *o = cJSON_CreateObject();
	char uuid[37], ts[40], *line;

	new_uuid(uuid);
	hs_log_timestamp(ts, sizeof(ts));
	pthread_mutex_lock(&t->mu);
	if (t->last_uuid[0])
		cJSON_AddStringToObject(o, "parentUuid", t->last_uuid);
	else
		cJSON_AddNullToObject(o, "parentUuid");
	cJSON_AddBoolToObject(o, "isSidechain", 0);
	cJSON_AddStringToObject(o, "userType", "external");
	cJSON_AddStringToObject(o, "cwd", ev->cwd ? ev->cwd : ev->root);
	cJSON_AddStringToObject(o, "sessionId", t->session);
	cJSON_AddStringToObject(o, "version", "hookshim");
	cJSON_AddStringToObject(o, "type", type);
	cJSON_AddItemToObject(o, "message", message);
	if (extra)
		cJSON_AddItemToObject(o, extra_key, extra);
	cJSON_AddStringToObject(o, "uuid", uuid);
	cJSON_AddStringToObject(o, "timestamp", ts);
	line = cJSON_PrintUnformatted(o);
	if (line) {
		size_t n = strlen(line);
		char *l = realloc(line, n + 2);

		if (l) {
			line = l;
			line[n++] = '\n';
			if (write(t->fd, line, n) == (ssize_t)n)
				memcpy(t->last_uuid, uuid, sizeof(uuid));
		}
	}
	pthread_mutex_unlock(&t->mu);
	free(line);
	cJSON_Delete(o);
}

/* What a Claude Code hook would be given for ev: the payload's
 * tool_input or tool_response, detached, and the tool name. */
static cJSON *claude_part(const struct hs_event *ev, enum hs_kind kind,
			  const char *key, const char **tool)
{
	static const struct hs_settings none;
	struct hs_hook h = { .dialect = HS_CLAUDE, .kind = kind,
			     .event_name = kind == HS_KIND_PRE ? "PreToolUse"
							       : "PostToolUse" };
	const struct hs_dialect_ops *ops = hs_dialect_ops(HS_CLAUDE);
	cJSON *p, *part;

	*tool = hs_tool_name(&ops->tools, ev);
	p = ops->payload(&h, ev, *tool, &none);
	part = p ? cJSON_DetachItemFromObjectCaseSensitive(p, key) : NULL;
	cJSON_Delete(p);
	return part ? part : cJSON_CreateObject();
}

void hs_transcript_tool_use(struct hs_transcript *t, const struct hs_event *ev)
{
	cJSON *msg, *content, *use, *input;
	const char *tool;

	if (!t || ev->kind != HS_KIND_PRE || ev->nested)
		return;
	msg = cJSON_CreateObject();
	cJSON_AddStringToObject(msg, "role", "assistant");
	cJSON_AddStringToObject(msg, "type", "message");
	content = cJSON_AddArrayToObject(msg, "content");
	use = cJSON_CreateObject();
	cJSON_AddStringToObject(use, "type", "tool_use");
	cJSON_AddStringToObject(use, "id", ev->tool_use_id ? ev->tool_use_id
							   : "");
	input = claude_part(ev, HS_KIND_PRE, "tool_input", &tool);
	cJSON_AddStringToObject(use, "name", tool);
	cJSON_AddItemToObject(use, "input", input);
	cJSON_AddItemToArray(content, use);
	put_entry(t, ev, "assistant", msg, NULL, NULL);
}

/* The text a model would read as the result: the output of a command,
 * a line about a write, or why it failed. */
static char *result_text(const struct hs_event *ev, const char *denied)
{
	char *s = NULL;
	int n;

	if (denied)
		return strdup(denied);
	if (ev->op == HS_OP_WRITE)
		n = asprintf(&s, ev->failed ? "Error writing %s"
			     : ev->operation && !strcmp(ev->operation, "create")
				     ? "File created successfully at: %s"
				     : "The file %s has been updated.",
			     ev->path ? ev->path : "");
	else
		n = asprintf(&s, "%.*s%.*s%s%s", (int)(ev->out ? ev->out_len : 0),
			     ev->out ? ev->out : "",
			     (int)(ev->err ? ev->err_len : 0),
			     ev->err ? ev->err : "",
			     ev->failed && ev->error ? "\n" : "",
			     ev->failed && ev->error ? ev->error : "");
	return n < 0 ? NULL : s;
}

void hs_transcript_tool_result(struct hs_transcript *t,
			       const struct hs_event *ev, const char *denied)
{
	cJSON *msg, *content, *res, *use_result = NULL;
	const char *tool;
	char *text;

	if (!t || ev->nested || (!denied && ev->kind != HS_KIND_POST))
		return;
	text = result_text(ev, denied);
	msg = cJSON_CreateObject();
	cJSON_AddStringToObject(msg, "role", "user");
	content = cJSON_AddArrayToObject(msg, "content");
	res = cJSON_CreateObject();
	cJSON_AddStringToObject(res, "type", "tool_result");
	cJSON_AddStringToObject(res, "tool_use_id",
				ev->tool_use_id ? ev->tool_use_id : "");
	cJSON_AddStringToObject(res, "content", text ? text : "");
	cJSON_AddBoolToObject(res, "is_error", denied || ev->failed);
	cJSON_AddItemToArray(content, res);
	if (!denied && !ev->failed)
		use_result = claude_part(ev, HS_KIND_POST, "tool_response",
					 &tool);
	put_entry(t, ev, "user", msg, "toolUseResult", use_result);
	free(text);
}

/* Appends the file's lines to t->keep_as, read back from our own
 * descriptor (not by its name); under the lock, so no entry is half
 * there. */
static void keep_lines(struct hs_transcript *t)
{
	char buf[16384];
	off_t off = 0;
	ssize_t n;

	if (t->keep_fd < 0)
		return;
	while ((n = pread(t->fd, buf, sizeof(buf), off)) > 0) {
		if (hs_write_full(t->keep_fd, buf, (size_t)n) < 0)
			break;
		off += n;
	}
	close(t->keep_fd);
	t->keep_fd = -1;
}

void hs_transcript_finish(struct hs_transcript *t)
{
	if (!t)
		return;
	pthread_mutex_lock(&t->mu);
	if (!t->finished) {
		keep_lines(t);
		unlink(t->path);
		rmdir(t->dir);
		if (t->user_dir[0]) /* the last session's: nothing left */
			rmdir(t->user_dir);
		t->finished = true;
	}
	pthread_mutex_unlock(&t->mu);
}

void hs_transcript_close(struct hs_transcript *t)
{
	if (!t)
		return;
	hs_transcript_finish(t);
	close(t->fd);
	pthread_mutex_destroy(&t->mu);
	free(t->keep_as);
	free(t);
}
