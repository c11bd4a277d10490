/* An "http" hook's request (http_hook.h). libcurl does the HTTP; what is
 * ours is the payload in, the response into a run result, the header
 * templates, the handle pool that keeps connections alive, and ending a
 * request when the session ends. */
#include "http_hook.h"

#include <cjson/cJSON.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "../common/clock.h"
#include "../config/http_handler.h"
#include "curl_load.h"

#define DEFAULT_MAX_OUTPUT 65536
/* Idle handles kept, each with its live connections: enough for the
 * hooks of one call running in parallel and a few calls at once. */
#define POOL_MAX 8

static pthread_mutex_t pool_mu = PTHREAD_MUTEX_INITIALIZER;
static CURL *pool[POOL_MAX];
static size_t npool;

/* libcurl, loaded by the session (curl_load.h; hs_http_run checks it) */
static const struct hs_curl *cu(void)
{
	return hs_curl(NULL, 0);
}

/* A handle from the pool, its options cleared and its connections kept
 * (curl_easy_reset leaves them), or a new one. */
static CURL *take_handle(void)
{
	CURL *c = NULL;

	pthread_mutex_lock(&pool_mu);
	if (npool)
		c = pool[--npool];
	pthread_mutex_unlock(&pool_mu);
	if (c)
		cu()->easy_reset(c);
	else
		c = cu()->easy_init();
	return c;
}

static void give_back(CURL *c)
{
	pthread_mutex_lock(&pool_mu);
	if (npool < POOL_MAX) {
		pool[npool++] = c;
		c = NULL;
	}
	pthread_mutex_unlock(&pool_mu);
	if (c)
		cu()->easy_cleanup(c);
}

struct body {
	char *buf;
	size_t len, limit;
	bool truncated;
};

static size_t on_body(char *data, size_t size, size_t n, void *arg)
{
	struct body *b = arg;
	size_t len = size * n, room = b->limit - b->len;
	char *grown;

	if (len > room) {
		b->truncated = true;
		len = room;
	}
	if (len) {
		grown = realloc(b->buf, b->len + len + 1);
		if (!grown)
			return 0; /* CURLE_WRITE_ERROR */
		memcpy(grown + b->len, data, len);
		b->buf = grown;
		b->len += len;
		b->buf[b->len] = '\0';
	}
	return size * n; /* the rest is read and dropped */
}

struct progress {
	bool at_session_end;
};

static int on_progress(void *arg, curl_off_t dt, curl_off_t dn,
		       curl_off_t ut, curl_off_t un)
{
	const struct progress *p = arg;

	(void)dt, (void)dn, (void)ut, (void)un;
	return hs_run_ended(p->at_session_end);
}

/* The connection's socket is close-on-exec: a hook or agent spawned by
 * another thread while a request is open must not inherit it. */
static curl_socket_t open_socket(void *arg, curlsocktype purpose,
				 struct curl_sockaddr *a)
{
	(void)arg, (void)purpose;
	return socket(a->family, a->socktype | SOCK_CLOEXEC, a->protocol);
}

static const char *env_value(char *const *env, const char *name, size_t len)
{
	for (char *const *e = env; e && *e; e++)
		if (strncmp(*e, name, len) == 0 && (*e)[len] == '=')
			return *e + len + 1;
	return NULL;
}

/* A header template with its $VAR and ${VAR} filled: the hook's own
 * allowed variables from env, any other empty. NULL when out of memory
 * or when a value would break the header's line (*bad then names it). */
static char *fill_header(const struct hs_hook *h, char *const *env,
			 const char *t, const char **bad)
{
	/* the value only: "Name: value", and a name is never filled */
	size_t at = strcspn(t, ":"), from = 0, name, len, end, n = 0;
	char *out = NULL;
	FILE *f = open_memstream(&out, &n);

	if (!f)
		return NULL;
	while (hs_http_env_ref(t, &at, &name, &len, &end)) {
		const char *v = hs_http_env_allowed(h, t + name, len)
					? env_value(env, t + name, len)
					: NULL;

		fwrite(t + from, 1, name - from - 1 - (t[name - 1] == '{'), f);
		if (v && strpbrk(v, "\r\n"))
			*bad = t;
		else if (v)
			fputs(v, f);
		from = end;
	}
	fputs(t + from, f);
	if (fclose(f) != 0 || *bad) {
		free(out);
		return NULL;
	}
	/* "Name: " would make curl drop the header; "Name;" sends it
	 * empty, as Claude Code does with an unlisted variable */
	if (n >= 2 && out[n - 2] == ':' && out[n - 1] == ' ') {
		out[n - 2] = ';';
		out[n - 1] = '\0';
	}
	return out;
}

static void fail(struct hs_run_result *res, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void fail(struct hs_run_result *res, const char *fmt, ...)
{
	va_list ap;

	res->status = HS_RUN_HTTP_FAILED;
	free(res->err);
	va_start(ap, fmt);
	if (vasprintf(&res->err, fmt, ap) < 0)
		res->err = NULL;
	va_end(ap);
}

/* The response into res (http_hook.h says what each kind becomes). */
static void judge_response(struct body *b,
			   struct hs_run_result *res)
{
	const char *s = b->buf ? b->buf : "";
	size_t line;
	cJSON *j = NULL;

	while (*s == ' ' || *s == '\n' || *s == '\r' || *s == '\t')
		s++;
	line = strcspn(s, "\r\n");
	if (res->http_status < 200 || res->http_status > 299)
		fail(res, "HTTP %d%s%.*s", res->http_status, *s ? ": " : "",
		     (int)(line > 200 ? 200 : line), s);
	else if (b->truncated)
		fail(res, "its response is longer than the hook's output "
		     "limit (%zu bytes)", b->limit);
	else if (*s && (*s != '{' || !(j = cJSON_Parse(s)) ||
			!cJSON_IsObject(j)))
		fail(res, "its response is neither empty nor a JSON object "
		     "(HTTP %d)", res->http_status);
	else {
		res->status = HS_RUN_EXITED;
		res->exit_code = 0;
		res->out = b->buf ? b->buf : strdup("");
		res->out_len = b->buf ? b->len : 0;
		b->buf = NULL;
	}
	cJSON_Delete(j);
}

static struct curl_slist *add_header(struct curl_slist *l, const char *v)
{
	struct curl_slist *next = l && v ? cu()->slist_append(l, v) : NULL;

	if (!next)
		cu()->slist_free_all(l);
	return next;
}

/* The request's headers; NULL (res says why) when one cannot be sent. */
static struct curl_slist *request_headers(const struct hs_hook *h,
					  char *const *env,
					  struct hs_run_result *res)
{
	struct curl_slist *l = cu()->slist_append(NULL, "Content-Type: "
						       "application/json");

	const char *tp = env_value(env, "TRACEPARENT", 11);
	char *trace = NULL;

	/* no "Expect: 100-continue" wait before a large payload */
	l = add_header(l, "Expect:");
	/* the call's span, for a policy service's own traces
	 * (traceparent.h); dispatch.c put it in the hook's environment */
	if (tp && asprintf(&trace, "traceparent: %s", tp) >= 0) {
		l = add_header(l, trace);
		free(trace);
	}
	for (char **t = h->http->headers; l && t && *t; t++) {
		const char *bad = NULL;
		char *v = fill_header(h, env, *t, &bad);

		l = add_header(l, v);
		free(v);
		if (bad)
			fail(res, "header \"%.*s\" not sent: a variable it "
			     "names holds a line break", (int)strcspn(bad, ":"),
			     bad);
	}
	if (!l && res->status != HS_RUN_HTTP_FAILED)
		fail(res, "out of memory for the request");
	return l;
}

int hs_http_run(const struct hs_hook *h, char *const *env, const char *body,
		size_t len, bool at_session_end, struct hs_run_result *res)
{
	struct body b = { .limit = h->max_output ? h->max_output
						  : DEFAULT_MAX_OUTPUT };
	struct progress prog = { at_session_end };
	char errbuf[CURL_ERROR_SIZE] = "";
	char why[256] = "libcurl could not start a request";
	struct curl_slist *hdrs;
	long t0 = hs_now_ms(), code = 0;
	CURLcode rc;
	CURL *c;

	memset(res, 0, sizeof(*res));
	res->err = strdup("");
	if (!hs_curl(why, sizeof(why)) || !(c = take_handle())) {
		fail(res, "%s", why);
		res->duration_ms = hs_now_ms() - t0;
		return 0;
	}
	if (!(hdrs = request_headers(h, env, res))) {
		give_back(c);
		res->duration_ms = hs_now_ms() - t0;
		return 0;
	}
	cu()->easy_setopt(c, CURLOPT_URL, h->command);
	cu()->easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
	cu()->easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	cu()->easy_setopt(c, CURLOPT_POST, 1L);
	cu()->easy_setopt(c, CURLOPT_POSTFIELDS, body);
	cu()->easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)len);
	cu()->easy_setopt(c, CURLOPT_HTTPHEADER, hdrs);
	cu()->easy_setopt(c, CURLOPT_USERAGENT, "hookshim");
	cu()->easy_setopt(c, CURLOPT_ERRORBUFFER, errbuf);
	cu()->easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
	cu()->easy_setopt(c, CURLOPT_WRITEDATA, &b);
	cu()->easy_setopt(c, CURLOPT_NOPROGRESS, 0L);
	cu()->easy_setopt(c, CURLOPT_XFERINFOFUNCTION, on_progress);
	cu()->easy_setopt(c, CURLOPT_XFERINFODATA, &prog);
	cu()->easy_setopt(c, CURLOPT_OPENSOCKETFUNCTION, open_socket);
	if (h->timeout_ms > 0)
		cu()->easy_setopt(c, CURLOPT_TIMEOUT_MS, (long)h->timeout_ms);
	rc = cu()->easy_perform(c);
	cu()->easy_getinfo(c, CURLINFO_RESPONSE_CODE, &code);
	/* its options point at this frame: none may outlive the call */
	cu()->easy_setopt(c, CURLOPT_ERRORBUFFER, NULL);
	cu()->easy_setopt(c, CURLOPT_HTTPHEADER, NULL);
	give_back(c);
	cu()->slist_free_all(hdrs);
	res->http_status = (int)code;
	if (rc == CURLE_OPERATION_TIMEDOUT)
		res->status = HS_RUN_TIMEOUT;
	else if (rc == CURLE_ABORTED_BY_CALLBACK)
		fail(res, "request abandoned: the session is ending");
	else if (rc != CURLE_OK)
		fail(res, "no answer: %s",
		     errbuf[0] ? errbuf : cu()->easy_strerror(rc));
	else
		judge_response(&b, res);
	free(b.buf);
	res->duration_ms = hs_now_ms() - t0;
	return 0;
}
