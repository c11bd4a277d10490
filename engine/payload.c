/* Per-dialect payloads and tool names. The shapes follow each dialect's
 * document: hooks that already parse them must not notice hookshim. */
#include "payload.h"

#include "strbuf.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "write_content.h"

/* mnemoai caps long input strings and lists them under _truncated;
 * memcode caps post results at 16 KiB. */
#define MNEMOAI_CAP 10000
#define MEMCODE_RESULT_CAP 16384

static bool modifies_existing(const struct hs_event *ev)
{
	const char *op = ev->operation;

	return op && strcmp(op, "create") != 0 && strcmp(op, "overwrite") != 0;
}

const char *hs_tool_name(const struct hs_tool_names *names,
			 const struct hs_event *ev)
{
	switch (ev->op) {
	case HS_OP_EXEC:
		return names->exec;
	case HS_OP_WRITE:
		return modifies_existing(ev) ? names->modify : names->write;
	case HS_OP_READ:
		return names->read;
	case HS_OP_NET:
		return names->net;
	default:
		return "";
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
	cJSON *in = cJSON_CreateObject();

	cJSON_AddStringToObject(in, "command", ev->command ? ev->command : "");
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

/* The two spellings of a write's path key: Claude Code's and the rest's. */
#define CLAUDE_PATH_KEY "file_path"
#define OTHER_PATH_KEY "path"

/* Input for a write (or a read), with the path under `key`, the
 * dialect's spelling. */
static cJSON *write_input(const struct hs_hook *h, const struct hs_event *ev,
			  const char *key)
{
	cJSON *in = cJSON_CreateObject();

	add_str(in, key, ev->path);
	add_str(in, "operation", ev->operation);
	add_str(in, "new_path", ev->new_path);
	hs_write_content_add(in, h, ev, ev->path);
	return in;
}

/* Input for a connection: Claude's WebFetch has {url, prompt}; a
 * connection is a url ("https://host/" for port 443, "http://host/" for
 * 80, else "tcp://host:port" or "udp://host:port") and what it is made of
 * (docs/network.md). */
static cJSON *net_input(const struct hs_event *ev)
{
	cJSON *in = cJSON_CreateObject();
	const char *host = ev->host ? ev->host : "";
	bool v6 = strchr(host, ':') != NULL, tcp = !ev->protocol ||
						 strcmp(ev->protocol, "tcp") == 0;
	char url[512];

	if (tcp && (ev->port == 443 || ev->port == 80))
		snprintf(url, sizeof(url), "%s://%s%s%s/",
			 ev->port == 443 ? "https" : "http", v6 ? "[" : "",
			 host, v6 ? "]" : "");
	else
		snprintf(url, sizeof(url), "%s://%s%s%s:%d",
			 tcp ? "tcp" : "udp", v6 ? "[" : "", host, v6 ? "]" : "",
			 ev->port);
	cJSON_AddStringToObject(in, "url", url);
	cJSON_AddStringToObject(in, "host", host);
	cJSON_AddNumberToObject(in, "port", ev->port);
	add_str(in, "address", ev->address);
	add_str(in, "protocol", ev->protocol);
	cJSON_AddStringToObject(in, "operation",
				ev->operation ? ev->operation : "connect");
	add_str(in, "command", ev->command);
	if (ev->pid > 0)
		cJSON_AddNumberToObject(in, "pid", ev->pid);
	return in;
}

static cJSON *tool_input(const struct hs_hook *h, const struct hs_event *ev,
			 const char *path_key)
{
	if (ev->op == HS_OP_EXEC)
		return exec_input(ev);
	if (ev->op == HS_OP_NET)
		return net_input(ev);
	if (ev->op == HS_OP_WRITE || ev->op == HS_OP_READ)
		return write_input(h, ev, path_key); /* a read: {file_path} */
	return cJSON_CreateObject();
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
	char *text;

	/* a connection's close: what it carried */
	if (ev->op == HS_OP_NET) {
		if (ev->has_bytes && asprintf(&text, "sent %ld bytes, received "
						     "%ld bytes",
					      ev->bytes_sent,
					      ev->bytes_received) >= 0)
			return text;
		return strdup(ev->error ? ev->error : "closed");
	}
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
		add_str(r, "filePath", ev->path);
		cJSON_AddBoolToObject(r, "success", !ev->failed);
		return r;
	}
	if (ev->op == HS_OP_NET) { /* a connection's close */
		if (ev->has_bytes) {
			cJSON_AddNumberToObject(r, "bytes_sent",
						(double)ev->bytes_sent);
			cJSON_AddNumberToObject(r, "bytes_received",
						(double)ev->bytes_received);
		}
		cJSON_AddNumberToObject(r, "duration_ms", (double)ev->duration_ms);
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
	if (ev->op == HS_OP_NET) {
		snprintf(buf, len, "the connection failed");
		return buf;
	}
	if (ev->signo)
		snprintf(buf, len, "killed by signal %d", ev->signo);
	else
		snprintf(buf, len, "exit code %d", ev->exit_code);
	return buf;
}

cJSON *hs_payload_claude(const struct hs_hook *h, const struct hs_event *ev,
			  const char *tool, const struct hs_settings *settings)
{
	cJSON *o = cJSON_CreateObject();
	char buf[64];

	(void)settings; /* only memoh payloads name the bot */
	add_str(o, "session_id", ev->session_id ? ev->session_id : "");
	cJSON_AddStringToObject(o, "transcript_path",
				ev->transcript_path ? ev->transcript_path : "");
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
	add_str(o, "tool_name", tool);
	cJSON_AddItemToObject(o, "tool_input",
			      tool_input(h, ev, CLAUDE_PATH_KEY));
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

cJSON *hs_payload_memcode(const struct hs_hook *h, const struct hs_event *ev,
			   const char *tool, const struct hs_settings *settings)
{
	cJSON *o = cJSON_CreateObject();
	char *result;

	(void)settings; /* only memoh payloads name the bot */
	add_str(o, "event", h->event_name);
	if (h->kind == HS_KIND_PRE || h->kind == HS_KIND_POST) {
		add_str(o, "tool", tool);
		cJSON_AddItemToObject(o, "input",
				      tool_input(h, ev, OTHER_PATH_KEY));
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

cJSON *hs_payload_mnemoai(const struct hs_hook *h, const struct hs_event *ev,
			   const char *tool, const struct hs_settings *settings)
{
	cJSON *o = cJSON_CreateObject();
	cJSON *in = tool_input(h, ev, OTHER_PATH_KEY);
	char *resp;

	(void)settings; /* only memoh payloads name the bot */
	add_str(o, "session_id", ev->session_id ? ev->session_id : "");
	add_str(o, "cwd", ev->cwd ? ev->cwd : ev->root);
	add_str(o, "hook_event_name", h->event_name);
	add_str(o, "tool_name", tool);
	cap_strings(in);
	cJSON_AddItemToObject(o, "tool_input", in);
	if (h->kind == HS_KIND_POST) {
		resp = join_output(ev, 1u << 20);
		cJSON_AddStringToObject(o, "tool_response", resp ? resp : "");
		free(resp);
	}
	return o;
}

cJSON *hs_payload_memoh(const struct hs_hook *h, const struct hs_event *ev,
			 const char *tool, const struct hs_settings *settings)
{
	const char *bot_id = settings->bot_id;
	cJSON *o = cJSON_CreateObject();
	cJSON *extra = cJSON_CreateObject();
	cJSON *call;
	char buf[64];

	add_str(o, "event", h->event_name);
	add_str(o, "bot_id", bot_id ? bot_id : "");
	add_str(o, "session_id", ev->session_id ? ev->session_id : "");
	add_str(o, "workspace_dir", ev->root);
	if (h->kind == HS_KIND_PRE || h->kind == HS_KIND_POST) {
		call = cJSON_AddObjectToObject(o, "tool");
		add_str(call, "name", tool);
		cJSON_AddItemToObject(call, "input",
				      tool_input(h, ev, OTHER_PATH_KEY));
		if (h->kind == HS_KIND_POST) {
			char *res = join_output(ev, h->max_output);

			cJSON_AddStringToObject(call, "result", res ? res : "");
			free(res);
			if (ev->failed)
				cJSON_AddStringToObject(
					call, "error",
					failure_text(ev, buf, sizeof(buf)));
			cJSON_AddNumberToObject(extra, "exit_code",
						ev->exit_code);
		}
	}
	if (ev->op == HS_OP_EXEC)
		add_str(extra, "command", ev->command);
	if (ev->op == HS_OP_WRITE || ev->op == HS_OP_READ) {
		add_str(extra, "path", ev->path);
		add_str(extra, "operation", ev->operation ? ev->operation
				: ev->op == HS_OP_READ ? "read" : "write");
	}
	add_str(extra, "cwd", ev->cwd);
	cJSON_AddItemToObject(o, "extra", extra);
	return o;
}

/* ---- lossless bytes: a parallel <field>_b64 for strings not UTF-8 ---- */

static bool valid_utf8(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s);

	for (size_t i = 0, k; i < n; i += k)
		if (!(k = hs_utf8_len(p + i, n - i)))
			return false;
	return true;
}

/* s with each byte of an invalid sequence replaced by U+FFFD. */
static char *replace_invalid(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s), o = 0;
	char *out = malloc(n * 3 + 1);

	if (!out)
		return NULL;
	for (size_t i = 0, k; i < n; i += k) {
		k = hs_utf8_len(p + i, n - i);
		if (k) {
			memcpy(out + o, s + i, k);
			o += k;
		} else {
			memcpy(out + o, "\xef\xbf\xbd", 3);
			o += 3;
			k = 1;
		}
	}
	out[o] = '\0';
	return out;
}

static char *base64(const char *s)
{
	static const char tab[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s), o = 0;
	char *out = malloc((n + 2) / 3 * 4 + 1);

	if (!out)
		return NULL;
	for (size_t i = 0; i < n; i += 3) {
		unsigned v = (unsigned)p[i] << 16 |
			     (i + 1 < n ? (unsigned)p[i + 1] << 8 : 0) |
			     (i + 2 < n ? p[i + 2] : 0);

		out[o++] = tab[v >> 18 & 63];
		out[o++] = tab[v >> 12 & 63];
		out[o++] = i + 1 < n ? tab[v >> 6 & 63] : '=';
		out[o++] = i + 2 < n ? tab[v & 63] : '=';
	}
	out[o] = '\0';
	return out;
}

/* Puts item n (named key, which it takes) right after c in object o. */
static void insert_after(cJSON *o, cJSON *c, cJSON *n, char *key)
{
	n->string = key;
	n->next = c->next;
	n->prev = c;
	if (c->next)
		c->next->prev = n;
	else
		o->child->prev = n;
	c->next = n;
}

/* An array with a string that is not UTF-8 (argv): "<name>_b64" is the
 * array of every element's exact bytes (null for non-strings), and the
 * invalid strings get U+FFFD. Returns the new sibling or c. */
static cJSON *lossless_array(cJSON *o, cJSON *c)
{
	bool bad = false;
	cJSON *list, *e;
	char *key = NULL;

	cJSON_ArrayForEach(e, c)
		if (cJSON_IsString(e) && e->valuestring &&
		    !valid_utf8(e->valuestring))
			bad = true;
	if (!bad || !c->string || !(list = cJSON_CreateArray()))
		return c;
	cJSON_ArrayForEach(e, c) {
		char *b64 = cJSON_IsString(e) && e->valuestring
				    ? base64(e->valuestring) : NULL;
		char *fixed = b64 ? replace_invalid(e->valuestring) : NULL;

		cJSON_AddItemToArray(list, b64 ? cJSON_CreateString(b64)
					       : cJSON_CreateNull());
		if (fixed)
			cJSON_SetValuestring(e, fixed);
		free(fixed);
		free(b64);
	}
	if (asprintf(&key, "%s_b64", c->string) < 0) {
		cJSON_Delete(list);
		return c;
	}
	insert_after(o, c, list, key);
	return list;
}

void hs_payload_lossless(cJSON *o)
{
	for (cJSON *c = o ? o->child : NULL; c; c = c->next) {
		if (cJSON_IsArray(c) && cJSON_IsObject(o)) {
			c = lossless_array(o, c);
			continue;
		}
		if (cJSON_IsObject(c) || cJSON_IsArray(c)) {
			hs_payload_lossless(c);
			continue;
		}
		if (!cJSON_IsString(c) || !c->string || !c->valuestring ||
		    valid_utf8(c->valuestring))
			continue;
		{
			char *b64 = base64(c->valuestring);
			char *fixed = replace_invalid(c->valuestring);
			char *key = NULL;

			if (b64 && fixed &&
			    asprintf(&key, "%s_b64", c->string) >= 0) {
				cJSON_SetValuestring(c, fixed);
				/* after c, so the walk does not revisit it */
				cJSON *n = cJSON_CreateString(b64);

				if (n) {
					insert_after(o, c, n, key);
					key = NULL;
					c = n;
				}
			}
			free(key);
			free(fixed);
			free(b64);
		}
	}
}
