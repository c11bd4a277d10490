/* The parts every dialect's payload is made of (the tool's input, its
 * output, a failure's text), tool names, lossless bytes. Each dialect's
 * own shape is its file's (dialects/NAME.c). */
#include "payload.h"

#include "strbuf.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "write_content.h"

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

cJSON *hs_payload_tool_input(const struct hs_hook *h, const struct hs_event *ev,
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

char *hs_payload_output(const struct hs_event *ev, size_t cap)
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

const char *hs_payload_failure_text(const struct hs_event *ev, char *buf,
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
