/* Per-dialect payloads and tool names. The shapes follow each dialect's
 * document: hooks that already parse them must not notice hookshim. */
#include "payload.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* mnemoai caps long input strings and lists them under _truncated;
 * memcode caps post results at 16 KiB. */
#define MNEMOAI_CAP 10000
#define MEMCODE_RESULT_CAP 16384

struct tool_names {
	const char *exec;
	const char *write;  /* create or overwrite */
	const char *modify; /* in-place change of an existing file */
};

static const struct tool_names names[HS_NDIALECT] = {
	[HS_CLAUDE] = { "Bash", "Write", "Edit" },
	[HS_MEMCODE] = { "bash", "edit_file", "edit_file" },
	[HS_MNEMOAI] = { "execute_bash", "fs_write", "fs_write" },
	[HS_MEMOH] = { "exec", "write_file", "write_file" },
};

/* Tools other agents use for the same two operations. */
static const char *const exec_aliases[] = { "run_shell_command", "shell",
					    "execute", NULL };
static const char *const write_aliases[] = { "MultiEdit", "write",
					     "write_file", "replace",
					     "apply_patch", "NotebookEdit",
					     NULL };

static bool in(const char *const *list, const char *s)
{
	for (; *list; list++)
		if (strcmp(*list, s) == 0)
			return true;
	return false;
}

unsigned hs_tool_op(const char *tool)
{
	for (int d = 0; d < HS_NDIALECT; d++) {
		if (strcmp(tool, names[d].exec) == 0)
			return HS_OP_EXEC;
		if (strcmp(tool, names[d].write) == 0 ||
		    strcmp(tool, names[d].modify) == 0)
			return HS_OP_WRITE;
	}
	if (in(exec_aliases, tool))
		return HS_OP_EXEC;
	if (in(write_aliases, tool))
		return HS_OP_WRITE;
	return HS_OP_OTHER;
}

static const char *input_string(const struct hs_event *ev, const char *key)
{
	const cJSON *v = ev->input
				 ? cJSON_GetObjectItemCaseSensitive(ev->input, key)
				 : NULL;

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

const char *hs_event_command(const struct hs_event *ev)
{
	return ev->command ? ev->command : input_string(ev, "command");
}

const char *hs_event_path(const struct hs_event *ev)
{
	const char *p = ev->path;

	if (!p)
		p = input_string(ev, "file_path");
	if (!p)
		p = input_string(ev, "path");
	return p;
}

static bool modifies_existing(const struct hs_event *ev)
{
	const char *op = ev->operation ? ev->operation
				       : input_string(ev, "operation");

	return op && strcmp(op, "create") != 0 && strcmp(op, "overwrite") != 0;
}

/* Is name one of the names some dialect gives its command or write tool? */
static bool dialect_name(const char *name)
{
	for (int d = 0; d < HS_NDIALECT; d++)
		if (strcmp(name, names[d].exec) == 0 ||
		    strcmp(name, names[d].write) == 0 ||
		    strcmp(name, names[d].modify) == 0)
			return true;
	return false;
}

const char *hs_tool_name(enum hs_dialect d, const struct hs_event *ev)
{
	if (ev->tool) {
		/* A name the event carries reaches the hook as given
		 * (NotebookEdit stays NotebookEdit, so "Notebook.*" fires);
		 * only the dialects' own names for the command and file-write
		 * tools are spoken in the hook's dialect. */
		if (strcmp(ev->tool, names[d].exec) == 0 ||
		    strcmp(ev->tool, names[d].write) == 0 ||
		    strcmp(ev->tool, names[d].modify) == 0)
			return ev->tool;
		if (ev->op == HS_OP_OTHER || !dialect_name(ev->tool))
			return ev->tool;
	}
	switch (ev->op) {
	case HS_OP_EXEC:
		return names[d].exec;
	case HS_OP_WRITE:
		return modifies_existing(ev) ? names[d].modify : names[d].write;
	default:
		return ev->tool ? ev->tool : "";
	}
}

static void add_str(cJSON *o, const char *key, const char *v)
{
	if (v)
		cJSON_AddStringToObject(o, key, v);
}

/* Input for an exec: {command} plus what hookshim saw of the real exec. */
static cJSON *exec_input(const struct hs_event *ev)
{
	cJSON *in = ev->input ? cJSON_Duplicate(ev->input, 1)
			      : cJSON_CreateObject();
	const char *cmd = hs_event_command(ev);

	if (!cJSON_GetObjectItemCaseSensitive(in, "command"))
		add_str(in, "command", cmd ? cmd : "");
	if (ev->argv) {
		cJSON *a = cJSON_AddArrayToObject(in, "argv");

		for (char *const *p = ev->argv; *p; p++)
			cJSON_AddItemToArray(a, cJSON_CreateString(*p));
	}
	add_str(in, "executable", ev->exe);
	if (ev->pid > 0)
		cJSON_AddNumberToObject(in, "pid", ev->pid);
	return in;
}

/* The file as written, for a post hook that asks for it: at most
 * CONTENT_CAP bytes, listed under _truncated when cut. */
#define CONTENT_CAP (64u << 10)

static void add_file_content(cJSON *in, const char *path)
{
	char *buf = malloc(CONTENT_CAP + 1);
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	struct stat st;
	ssize_t n = 0;

	if (buf && fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
		n = read(fd, buf, CONTENT_CAP);
		if (n >= 0) {
			buf[n] = '\0';
			cJSON_AddItemToObject(in, "content", cJSON_CreateString(buf));
			if (st.st_size > (off_t)n)
				cJSON_AddItemToObject(in, "_truncated",
						      cJSON_CreateStringArray(
							      (const char *[]){ "content" }, 1));
		}
	}
	if (fd >= 0)
		close(fd);
	free(buf);
}

/* Input for a write, with the dialect's key for the path. */
static cJSON *write_input(const struct hs_hook *h, const struct hs_event *ev)
{
	enum hs_dialect d = h->dialect;
	cJSON *in = ev->input ? cJSON_Duplicate(ev->input, 1)
			      : cJSON_CreateObject();
	const char *key = d == HS_CLAUDE ? "file_path" : "path";
	const char *alias = d == HS_CLAUDE ? "path" : "file_path";
	const char *path = hs_event_path(ev);

	if (path && !cJSON_GetObjectItemCaseSensitive(in, key))
		cJSON_AddStringToObject(in, key, path);
	if (cJSON_GetObjectItemCaseSensitive(in, alias) && path &&
	    ev->input && !cJSON_GetObjectItemCaseSensitive(ev->input, key))
		cJSON_DeleteItemFromObjectCaseSensitive(in, alias);
	if (!cJSON_GetObjectItemCaseSensitive(in, "operation"))
		add_str(in, "operation", ev->operation);
	add_str(in, "new_path", ev->new_path);
	if (ev->content && !cJSON_GetObjectItemCaseSensitive(in, "content"))
		cJSON_AddItemToObject(in, "content",
				      cJSON_CreateString(ev->content));
	else if (h->want_content && h->kind == HS_KIND_POST && path && !ev->input &&
		 !cJSON_GetObjectItemCaseSensitive(in, "content"))
		add_file_content(in, path);
	return in;
}

static cJSON *tool_input(const struct hs_hook *h, const struct hs_event *ev)
{
	if (ev->op == HS_OP_EXEC)
		return exec_input(ev);
	if (ev->op == HS_OP_WRITE)
		return write_input(h, ev);
	return ev->input ? cJSON_Duplicate(ev->input, 1) : cJSON_CreateObject();
}

/* mnemoai: long strings are capped and named under _truncated. */
static void cap_strings(cJSON *in)
{
	cJSON *v, *list = NULL;

	cJSON_ArrayForEach(v, in)
	{
		if (cJSON_IsString(v) && strlen(v->valuestring) > MNEMOAI_CAP) {
			v->valuestring[MNEMOAI_CAP] = '\0';
			/* Do not cut a UTF-8 sequence in half. */
			for (int i = MNEMOAI_CAP - 1;
			     i > MNEMOAI_CAP - 4 &&
			     ((unsigned char)v->valuestring[i] & 0xC0) == 0x80;
			     i--)
				v->valuestring[i] = '\0';
			if (!list)
				list = cJSON_CreateArray();
			cJSON_AddItemToArray(list, cJSON_CreateString(v->string));
		}
	}
	if (list)
		cJSON_AddItemToObject(in, "_truncated", list);
}

static char *join_output(const struct hs_event *ev, size_t cap)
{
	size_t ol = ev->out ? ev->out_len : 0, el = ev->err ? ev->err_len : 0;
	size_t n = ol + el;
	char *s;

	if (n > cap)
		n = cap;
	s = malloc(n + 1);
	if (!s)
		return NULL;
	if (ol > n)
		ol = n;
	if (ol)
		memcpy(s, ev->out, ol);
	if (n > ol)
		memcpy(s + ol, ev->err, n - ol);
	s[n] = '\0';
	return s;
}

static cJSON *claude_response(const struct hs_event *ev)
{
	cJSON *r = cJSON_CreateObject();

	if (ev->op == HS_OP_WRITE) {
		add_str(r, "filePath", hs_event_path(ev));
		cJSON_AddBoolToObject(r, "success", !ev->failed);
		return r;
	}
	cJSON_AddStringToObject(r, "stdout", ev->out ? ev->out : "");
	cJSON_AddStringToObject(r, "stderr", ev->err ? ev->err : "");
	cJSON_AddBoolToObject(r, "interrupted", ev->signo != 0);
	cJSON_AddBoolToObject(r, "isImage", 0);
	cJSON_AddNumberToObject(r, "exit_code", ev->exit_code);
	if (ev->signo)
		cJSON_AddNumberToObject(r, "signal", ev->signo);
	cJSON_AddNumberToObject(r, "duration_ms", (double)ev->duration_ms);
	return r;
}

static const char *failure_text(const struct hs_event *ev, char *buf,
				size_t len)
{
	if (ev->error)
		return ev->error;
	if (ev->op == HS_OP_WRITE) {
		snprintf(buf, len, "the write did not complete");
		return buf;
	}
	if (ev->signo)
		snprintf(buf, len, "killed by signal %d", ev->signo);
	else
		snprintf(buf, len, "exit code %d", ev->exit_code);
	return buf;
}

static cJSON *claude_payload(const struct hs_hook *h, const struct hs_event *ev)
{
	cJSON *o = cJSON_CreateObject();
	char buf[64];

	add_str(o, "session_id", ev->session_id ? ev->session_id : "");
	cJSON_AddStringToObject(o, "transcript_path", "");
	add_str(o, "cwd", ev->cwd ? ev->cwd : ev->root);
	if (h->kind == HS_KIND_PRE || h->kind == HS_KIND_POST)
		cJSON_AddStringToObject(o, "permission_mode", "default");
	add_str(o, "hook_event_name", h->event_name);
	if (h->kind == HS_KIND_SESSION_START) {
		cJSON_AddStringToObject(o, "source", "startup");
		return o;
	}
	if (h->kind == HS_KIND_SESSION_END) {
		cJSON_AddStringToObject(o, "reason", "other");
		return o;
	}
	add_str(o, "tool_name", hs_tool_name(HS_CLAUDE, ev));
	cJSON_AddItemToObject(o, "tool_input", tool_input(h, ev));
	add_str(o, "tool_use_id", ev->tool_use_id ? ev->tool_use_id : "");
	if (h->kind == HS_KIND_POST && !ev->failed)
		cJSON_AddItemToObject(o, "tool_response", claude_response(ev));
	if (h->kind == HS_KIND_POST && ev->failed) {
		cJSON_AddStringToObject(o, "error",
					failure_text(ev, buf, sizeof(buf)));
		cJSON_AddBoolToObject(o, "is_interrupt", ev->signo != 0);
	}
	return o;
}

static cJSON *memcode_payload(const struct hs_hook *h,
			      const struct hs_event *ev)
{
	cJSON *o = cJSON_CreateObject();
	char *result;

	add_str(o, "event", h->event_name);
	if (h->kind == HS_KIND_PRE || h->kind == HS_KIND_POST) {
		add_str(o, "tool", hs_tool_name(HS_MEMCODE, ev));
		cJSON_AddItemToObject(o, "input", tool_input(h, ev));
	}
	add_str(o, "session_id", ev->session_id ? ev->session_id : "");
	add_str(o, "root", ev->root);
	if (h->kind == HS_KIND_POST) {
		result = join_output(ev, MEMCODE_RESULT_CAP);
		cJSON_AddStringToObject(o, "result", result ? result : "");
		free(result);
		cJSON_AddBoolToObject(o, "is_error", ev->failed);
	}
	return o;
}

static cJSON *mnemoai_payload(const struct hs_hook *h,
			      const struct hs_event *ev)
{
	cJSON *o = cJSON_CreateObject();
	cJSON *in = tool_input(h, ev);
	char *resp;

	add_str(o, "session_id", ev->session_id ? ev->session_id : "");
	add_str(o, "cwd", ev->cwd ? ev->cwd : ev->root);
	add_str(o, "hook_event_name", h->event_name);
	add_str(o, "tool_name", hs_tool_name(HS_MNEMOAI, ev));
	cap_strings(in);
	cJSON_AddItemToObject(o, "tool_input", in);
	if (h->kind == HS_KIND_POST) {
		resp = join_output(ev, 1u << 20);
		cJSON_AddStringToObject(o, "tool_response", resp ? resp : "");
		free(resp);
	}
	return o;
}

static cJSON *memoh_payload(const struct hs_hook *h, const struct hs_event *ev,
			    const char *bot_id)
{
	cJSON *o = cJSON_CreateObject();
	cJSON *extra = cJSON_CreateObject();
	cJSON *tool;
	char buf[64];

	add_str(o, "event", h->event_name);
	add_str(o, "bot_id", bot_id ? bot_id : "");
	add_str(o, "session_id", ev->session_id ? ev->session_id : "");
	add_str(o, "workspace_dir", ev->root);
	if (h->kind == HS_KIND_PRE || h->kind == HS_KIND_POST) {
		tool = cJSON_AddObjectToObject(o, "tool");
		add_str(tool, "name", hs_tool_name(HS_MEMOH, ev));
		cJSON_AddItemToObject(tool, "input", tool_input(h, ev));
		if (h->kind == HS_KIND_POST) {
			char *res = join_output(ev, h->max_output);

			cJSON_AddStringToObject(tool, "result", res ? res : "");
			free(res);
			if (ev->failed)
				cJSON_AddStringToObject(
					tool, "error",
					failure_text(ev, buf, sizeof(buf)));
			cJSON_AddNumberToObject(extra, "exit_code",
						ev->exit_code);
		}
	}
	if (ev->op == HS_OP_EXEC)
		add_str(extra, "command", hs_event_command(ev));
	if (ev->op == HS_OP_WRITE) {
		add_str(extra, "path", hs_event_path(ev));
		add_str(extra, "operation", ev->operation ? ev->operation
							  : "write");
	}
	add_str(extra, "cwd", ev->cwd);
	cJSON_AddItemToObject(o, "extra", extra);
	return o;
}

cJSON *hs_payload(const struct hs_hook *hook, const struct hs_event *ev,
		  const struct hs_settings *settings)
{
	switch (hook->dialect) {
	case HS_MEMCODE:
		return memcode_payload(hook, ev);
	case HS_MNEMOAI:
		return mnemoai_payload(hook, ev);
	case HS_MEMOH:
		return memoh_payload(hook, ev, settings->bot_id);
	default:
		return claude_payload(hook, ev);
	}
}
