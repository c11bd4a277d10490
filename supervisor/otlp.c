/* The OpenTelemetry exporter (otlp.h): where records go, the bounded
 * queue, and the thread that batches them to a collector (libcurl's
 * multi interface, so a request in flight ends at the stop deadline) and
 * to the OTLP file. What a record says is otlp_record.c's. */
#include "otlp.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../common/clock.h"
#include "../engine/curl_load.h"
#include "otlp_record.h"

#define MAX_ATTEMPTS 6   /* a batch's tries before it is given up */
#define BACKOFF_MS 200   /* first wait; doubled, at most BACKOFF_MAX_MS */
#define BACKOFF_MAX_MS 5000
#define POLL_MS 50       /* how often a request in flight looks at the
			  * stop deadline */

struct hs_otlp {
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	char **q;        /* a ring of LogRecord JSON strings */
	size_t head, len, cap;
	size_t batch;    /* OTEL_BLRP_MAX_EXPORT_BATCH_SIZE */
	long delay_ms;   /* OTEL_BLRP_SCHEDULE_DELAY */
	long timeout_ms; /* one request's: OTEL_EXPORTER_OTLP_TIMEOUT */
	bool stopping;
	bool stopped;    /* hs_otlp_stop ran: emit only counts */
	long deadline;   /* when stopping: hs_now_ms() to give up at */
	char *session;
	char *url;       /* NULL: no collector */
	const struct hs_curl *cu; /* with a collector: libcurl */
	struct curl_slist *headers;
	int file;        /* -1: no file */
	char *head_json; /* hs_otlp_request_head() */
	struct hs_otlp_summary sum;
};

static const char *env2(const char *logs, const char *all)
{
	const char *v = getenv(logs);

	if (!v || !*v)
		v = getenv(all);
	return v && *v ? v : NULL;
}

static long env_num(const char *name, long dflt, long min)
{
	const char *v = getenv(name);
	char *end;
	long n;

	if (!v || !*v)
		return dflt;
	errno = 0;
	n = strtol(v, &end, 10);
	return errno || *end || n < min ? dflt : n;
}

static void add_header(void *arg, const char *k, const char *v)
{
	struct curl_slist **l = arg, *n;
	char *line = NULL;

	if (strpbrk(k, ": \r\n") || strpbrk(v, "\r\n") ||
	    asprintf(&line, "%s: %s", k, v) < 0)
		return;
	/* loaded already: destination() asks for it first */
	if ((n = hs_curl(NULL, 0)->slist_append(*l, line)))
		*l = n;
	free(line);
}

/* The collector's logs URL (malloc'd, or NULL for none) from the
 * settings' "otlp" or, without it, the environment. 0 with nothing to
 * send there, 1 with *url set, -1 with err set. Opens nothing. */
static int collector(const struct hs_settings *s, char **url, char *err,
		     size_t cap)
{
	const char *exp = getenv("OTEL_LOGS_EXPORTER");
	const char *ep, *proto;

	*url = NULL;
	if (s->otlp_set) {
		ep = s->otlp_endpoint;
		if (ep && asprintf(url, "%s%sv1/logs", ep,
				   ep[strlen(ep) - 1] == '/' ? "" : "/") < 0)
			return -1;
		return *url != NULL;
	}
	if (exp && strcmp(exp, "none") == 0)
		return 0;
	if (exp && strcmp(exp, "otlp") != 0) {
		snprintf(err, cap, "OTEL_LOGS_EXPORTER=%s: hookshim exports "
			 "\"otlp\" only; not exporting", exp);
		return -1;
	}
	if ((ep = getenv("OTEL_EXPORTER_OTLP_LOGS_ENDPOINT")) && *ep)
		*url = strdup(ep); /* the logs endpoint: as it is */
	else if ((ep = getenv("OTEL_EXPORTER_OTLP_ENDPOINT")) && *ep) {
		if (asprintf(url, "%s%sv1/logs", ep,
			     ep[strlen(ep) - 1] == '/' ? "" : "/") < 0)
			return -1;
	} else if (exp) /* said "otlp" and nothing more: the default */
		*url = strdup("http://localhost:4318/v1/logs");
	else
		return 0;
	/* only once there is somewhere to send: another tool's setting
	 * is none of ours */
	proto = env2("OTEL_EXPORTER_OTLP_LOGS_PROTOCOL",
		     "OTEL_EXPORTER_OTLP_PROTOCOL");
	if (proto && strcmp(proto, "http/json") != 0 &&
	    strcmp(proto, "http/protobuf") != 0) {
		snprintf(err, cap, "OTEL_EXPORTER_OTLP_PROTOCOL=%s: hookshim "
			 "speaks OTLP/HTTP; not exporting", proto);
		free(*url);
		*url = NULL;
		return -1;
	}
	return *url ? 1 : -1;
}

/* Where to send (collector() and the settings' file) and how: headers,
 * timeout, the file opened. 0 with nothing to do, 1 to export, -1 with
 * err set; err also says a collector left out (no libcurl). */
static int destination(struct hs_otlp *x, const struct hs_settings *s,
		       char *err, size_t cap)
{
	char why[200];

	if (collector(s, &x->url, err, cap) < 0)
		return -1;
	/* libcurl is loaded for a collector alone (curl_load.h); without
	 * it, said, the file (if any) is still written */
	if (x->url && !(x->cu = hs_curl(why, sizeof(why)))) {
		snprintf(err, cap, "%s: not exporting to %s", why, x->url);
		free(x->url);
		x->url = NULL;
	}
	if (x->url)
		x->headers = x->cu->slist_append(NULL, "Content-Type: "
						      "application/json");
	if (s->otlp_set && x->url) {
		for (char **h = s->otlp_headers; h && *h; h++) {
			struct curl_slist *n =
				x->cu->slist_append(x->headers, *h);

			x->headers = n ? n : x->headers;
		}
	} else if (x->url) {
		/* OTEL_EXPORTER_OTLP_HEADERS, then the logs-only ones */
		hs_otlp_pairs(getenv("OTEL_EXPORTER_OTLP_HEADERS"), add_header,
			      &x->headers);
		hs_otlp_pairs(getenv("OTEL_EXPORTER_OTLP_LOGS_HEADERS"),
			      add_header, &x->headers);
		x->timeout_ms = env_num("OTEL_EXPORTER_OTLP_LOGS_TIMEOUT",
					env_num("OTEL_EXPORTER_OTLP_TIMEOUT",
						10000, 1),
					1);
	}
	if (s->otlp_set && s->otlp_file) {
		struct stat sb;

		/* never a FIFO or a device: nothing may block here */
		x->file = open(s->otlp_file, O_WRONLY | O_APPEND | O_CREAT |
					      O_CLOEXEC | O_NOFOLLOW |
					      O_NONBLOCK,
			       0600);
		if (x->file >= 0 &&
		    (fstat(x->file, &sb) < 0 || !S_ISREG(sb.st_mode))) {
			close(x->file);
			x->file = -1;
			errno = EINVAL;
		}
		if (x->file < 0) {
			snprintf(err, cap, "otlp.file %s: %s", s->otlp_file,
				 errno == EINVAL ? "not a regular file"
						 : strerror(errno));
			return -1;
		}
	}
	return x->url || x->file >= 0;
}

void hs_otlp_describe(const struct hs_settings *s, char *buf, size_t cap)
{
	char *url = NULL, err[256] = "";
	int r = collector(s, &url, err, sizeof(err));
	const char *file = s->otlp_set ? s->otlp_file : NULL;

	if (r < 0)
		snprintf(buf, cap, "not exported: %s", err);
	else if (url && !hs_curl(err, sizeof(err)))
		snprintf(buf, cap, "%s%s%snot exported to %s: %s",
			 file ? "to the OTLP file " : "", file ? file : "",
			 file ? "; " : "", url, err);
	else if (!url && !file)
		snprintf(buf, cap, "off (%s)",
			 s->otlp_set ? "the \"otlp\" setting names no endpoint "
				       "and no file"
			 : getenv("OTEL_LOGS_EXPORTER")
				 ? "OTEL_LOGS_EXPORTER=none"
				 : "no \"otlp\" setting, no "
				   "OTEL_EXPORTER_OTLP_ENDPOINT");
	else
		snprintf(buf, cap, "OTLP/HTTP JSON%s%s%s%s%s (%s)",
			 url ? " to " : "", url ? url : "",
			 url && file ? "," : "", file ? " OTLP file " : "",
			 file ? file : "",
			 s->otlp_set ? "the \"otlp\" setting"
				     : "the OTEL_* environment");
	free(url);
}

static void x_free(struct hs_otlp *x)
{
	for (size_t i = 0; i < x->len; i++)
		free(x->q[(x->head + i) % x->cap]);
	free(x->q);
	free(x->session);
	free(x->url);
	free(x->head_json);
	if (x->headers)
		x->cu->slist_free_all(x->headers);
	if (x->file >= 0)
		close(x->file);
	pthread_mutex_destroy(&x->mu);
	pthread_cond_destroy(&x->cv);
	free(x);
}

static curl_socket_t open_socket(void *arg, curlsocktype purpose,
				 struct curl_sockaddr *a)
{
	(void)arg, (void)purpose;
	return socket(a->family, a->socktype | SOCK_CLOEXEC, a->protocol);
}

static size_t keep_body(char *data, size_t size, size_t n, void *arg)
{
	char *buf = arg;
	size_t have = strlen(buf), room = 1023 - have, len = size * n;

	memcpy(buf + have, data, len < room ? len : room);
	buf[have + (len < room ? len : room)] = '\0';
	return size * n;
}

static bool past(const struct hs_otlp *x)
{
	bool stop;

	pthread_mutex_lock((pthread_mutex_t *)&x->mu);
	stop = x->stopping && hs_now_ms() >= x->deadline;
	pthread_mutex_unlock((pthread_mutex_t *)&x->mu);
	return stop;
}

/* One POST. 2xx: 0 (*rejected from a partial success); a status worth
 * another try or no answer: 1; anything else: -1. x->sum.error says. */
static int post(struct hs_otlp *x, CURLM *m, CURL *c, const char *body,
		size_t len, size_t *rejected, long *retry_after)
{
	char resp[1024] = "", errbuf[CURL_ERROR_SIZE] = "";
	long code = 0;
	int running = 1, left;
	CURLcode rc = CURLE_OK;
	CURLMsg *msg;

	x->cu->easy_reset(c);
	x->cu->easy_setopt(c, CURLOPT_URL, x->url);
	x->cu->easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
	x->cu->easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	x->cu->easy_setopt(c, CURLOPT_POSTFIELDS, body);
	x->cu->easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)len);
	x->cu->easy_setopt(c, CURLOPT_HTTPHEADER, x->headers);
	x->cu->easy_setopt(c, CURLOPT_USERAGENT, "hookshim");
	x->cu->easy_setopt(c, CURLOPT_TIMEOUT_MS, x->timeout_ms);
	x->cu->easy_setopt(c, CURLOPT_WRITEFUNCTION, keep_body);
	x->cu->easy_setopt(c, CURLOPT_WRITEDATA, resp);
	x->cu->easy_setopt(c, CURLOPT_ERRORBUFFER, errbuf);
	x->cu->easy_setopt(c, CURLOPT_OPENSOCKETFUNCTION, open_socket);
	/* a name lookup still running never holds up the end */
	x->cu->easy_setopt(c, CURLOPT_QUICK_EXIT, 1L);
	x->cu->multi_add_handle(m, c);
	while (running) {
		if (x->cu->multi_perform(m, &running) != CURLM_OK)
			break;
		if (running && past(x)) {
			rc = CURLE_ABORTED_BY_CALLBACK;
			break;
		}
		if (running)
			x->cu->multi_poll(m, NULL, 0, POLL_MS, NULL);
	}
	while ((msg = x->cu->multi_info_read(m, &left)))
		if (msg->msg == CURLMSG_DONE && rc == CURLE_OK)
			rc = msg->data.result;
	x->cu->easy_getinfo(c, CURLINFO_RESPONSE_CODE, &code);
	{
		curl_off_t ra = -1;

		if (x->cu->easy_getinfo(c, CURLINFO_RETRY_AFTER, &ra) == CURLE_OK)
			*retry_after = ra > 0 ? (long)ra * 1000 : 0;
	}
	x->cu->multi_remove_handle(m, c);
	x->cu->easy_setopt(c, CURLOPT_ERRORBUFFER, NULL);
	if (rc != CURLE_OK) {
		snprintf(x->sum.error, sizeof(x->sum.error), "%s: %s", x->url,
			 rc == CURLE_ABORTED_BY_CALLBACK
				 ? "no answer before the session ended"
			 : errbuf[0] ? errbuf
				     : x->cu->easy_strerror(rc));
		return 1;
	}
	if (code >= 200 && code <= 299) {
		cJSON *j = cJSON_Parse(resp);
		const cJSON *ps = cJSON_GetObjectItemCaseSensitive(j,
								   "partialSuccess");
		const cJSON *n = cJSON_GetObjectItemCaseSensitive(ps,
								  "rejectedLogRecords");
		const cJSON *msgj = cJSON_GetObjectItemCaseSensitive(ps,
								     "errorMessage");

		/* int64 in JSON: a string, or a number from lax servers */
		*rejected = cJSON_IsString(n) ? strtoul(n->valuestring, NULL, 10)
			    : cJSON_IsNumber(n) ? (size_t)n->valuedouble
						: 0;
		if (*rejected)
			snprintf(x->sum.error, sizeof(x->sum.error), "%s: %zu "
				 "record(s) rejected: %s", x->url, *rejected,
				 cJSON_IsString(msgj) ? msgj->valuestring : "");
		cJSON_Delete(j);
		return 0;
	}
	snprintf(x->sum.error, sizeof(x->sum.error), "%s: HTTP %ld%s%.*s",
		 x->url, code, resp[0] ? ": " : "",
		 (int)strcspn(resp, "\r\n"), resp);
	return code == 429 || code == 502 || code == 503 || code == 504 ? 1
									 : -1;
}

/* Waits `ms`, less when the stop deadline comes first, or (with
 * `batching`) until a batch is full or the session stops; false once past
 * the deadline. Called with x->mu held. */
static bool wait_locked(struct hs_otlp *x, long ms, bool batching)
{
	long until = hs_now_ms() + ms;
	struct timespec ts;

	for (;;) {
		long now = hs_now_ms(), end = until;

		if (batching && (x->stopping || x->len >= x->batch))
			return true;
		if (x->stopping && x->deadline < end)
			end = x->deadline;
		if (now >= end)
			return !(x->stopping && now >= x->deadline);
		clock_gettime(CLOCK_MONOTONIC, &ts);
		ts.tv_sec += (end - now) / 1000;
		ts.tv_nsec += ((end - now) % 1000) * 1000000;
		if (ts.tv_nsec >= 1000000000) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000;
		}
		pthread_cond_timedwait(&x->cv, &x->mu, &ts);
	}
}

/* A batch to the file and the collector, retried with back-off; the
 * counts updated. Called without x->mu. */
static void export_batch(struct hs_otlp *x, CURLM *m, CURL *c, char **recs,
			 size_t n)
{
	size_t len = strlen(x->head_json) + strlen(hs_otlp_request_tail) + 2;
	size_t rejected = 0;
	char *body, *p;
	bool ok, wrote = false;

	for (size_t i = 0; i < n; i++)
		len += strlen(recs[i]) + 1;
	if (!(body = malloc(len))) {
		pthread_mutex_lock(&x->mu);
		x->sum.dropped += n;
		pthread_mutex_unlock(&x->mu);
		return;
	}
	p = stpcpy(body, x->head_json);
	for (size_t i = 0; i < n; i++) {
		if (i)
			*p++ = ',';
		p = stpcpy(p, recs[i]);
	}
	p = stpcpy(p, hs_otlp_request_tail);
	if (x->file >= 0) {
		ssize_t w;

		*p = '\n'; /* one request a line, written whole */
		w = write(x->file, body, (size_t)(p - body) + 1);
		wrote = w == (ssize_t)(p - body) + 1;
		*p = '\0';
		if (!wrote)
			snprintf(x->sum.error, sizeof(x->sum.error),
				 "the OTLP file: %s", w < 0 ? strerror(errno)
							 : "short write");
	}
	/* with a collector, what it took counts; else what the file did */
	ok = !x->url && wrote;
	for (int attempt = 0; x->url && c && attempt < MAX_ATTEMPTS; attempt++) {
		long retry_after = 0, backoff = BACKOFF_MS << attempt;
		int r = post(x, m, c, body, (size_t)(p - body), &rejected,
			     &retry_after);
		bool more;

		if (r <= 0) {
			ok = r == 0;
			if (ok && !rejected) /* what failed before is mended */
				x->sum.error[0] = '\0';
			break;
		}
		if (backoff > BACKOFF_MAX_MS)
			backoff = BACKOFF_MAX_MS;
		if (retry_after > backoff)
			backoff = retry_after < BACKOFF_MAX_MS ? retry_after
							      : BACKOFF_MAX_MS;
		pthread_mutex_lock(&x->mu);
		more = wait_locked(x, backoff, false);
		pthread_mutex_unlock(&x->mu);
		if (!more)
			break;
	}
	pthread_mutex_lock(&x->mu);
	if (ok) {
		x->sum.sent += n - (rejected < n ? rejected : n);
		x->sum.dropped += rejected < n ? rejected : n;
	} else {
		x->sum.dropped += n;
	}
	pthread_mutex_unlock(&x->mu);
	free(body);
}

static void *exporter(void *arg)
{
	struct hs_otlp *x = arg;
	CURLM *m = x->url ? x->cu->multi_init() : NULL;
	CURL *c = x->url ? x->cu->easy_init() : NULL;
	char **recs = calloc(x->batch, sizeof(*recs));

	pthread_mutex_lock(&x->mu);
	for (;;) {
		size_t n = 0;

		/* nothing queued: sleep until the first record or the stop */
		while (!x->stopping && !x->len)
			pthread_cond_wait(&x->cv, &x->mu);
		/* then up to the schedule delay for a batch to fill */
		wait_locked(x, x->delay_ms, true);
		if (!x->len || (x->stopping && hs_now_ms() >= x->deadline) ||
		    !recs)
			break; /* what is left is counted below */
		while (n < x->batch && x->len) {
			recs[n++] = x->q[x->head];
			x->head = (x->head + 1) % x->cap;
			x->len--;
		}
		pthread_mutex_unlock(&x->mu);
		export_batch(x, m, c, recs, n);
		for (size_t i = 0; i < n; i++)
			free(recs[i]);
		pthread_mutex_lock(&x->mu);
	}
	/* left in the queue: never to be sent; freed here, counted */
	x->sum.dropped += x->len;
	while (x->len) {
		free(x->q[x->head]);
		x->head = (x->head + 1) % x->cap;
		x->len--;
	}
	x->stopping = true; /* a thread that left early: emit counts */
	pthread_mutex_unlock(&x->mu);
	free(recs);
	if (c)
		x->cu->easy_cleanup(c);
	if (m)
		x->cu->multi_cleanup(m);
	return NULL;
}

struct hs_otlp *hs_otlp_start(const struct hs_settings *s,
			      const char *session_id, char *err, size_t cap)
{
	struct hs_otlp *x = calloc(1, sizeof(*x));
	pthread_condattr_t ca;
	int r;

	err[0] = '\0';
	if (!x)
		return NULL;
	x->file = -1;
	pthread_mutex_init(&x->mu, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&x->cv, &ca);
	pthread_condattr_destroy(&ca);
	x->timeout_ms = 10000;
	r = destination(x, s, err, cap);
	if (r <= 0) {
		x_free(x);
		return NULL;
	}
	x->cap = (size_t)env_num("OTEL_BLRP_MAX_QUEUE_SIZE", 2048, 1);
	x->batch = (size_t)env_num("OTEL_BLRP_MAX_EXPORT_BATCH_SIZE", 512, 1);
	if (x->batch > x->cap)
		x->batch = x->cap;
	x->delay_ms = env_num("OTEL_BLRP_SCHEDULE_DELAY", 1000, 0);
	if (x->delay_ms > 60000) /* a minute at most: deadlines stay sums */
		x->delay_ms = 60000;
	if (x->timeout_ms > 600000)
		x->timeout_ms = 600000;
	if (x->cap > 1 << 20) /* a million records at most */
		x->cap = 1 << 20;
	x->q = calloc(x->cap, sizeof(*x->q));
	x->session = strdup(session_id);
	x->head_json = hs_otlp_request_head();
	snprintf(x->sum.where, sizeof(x->sum.where), "%s%s%s",
		 x->url ? x->url : "", x->url && s->otlp_file ? " and " : "",
		 s->otlp_file && x->file >= 0 ? s->otlp_file : "");
	if (!x->q || !x->session || !x->head_json ||
	    pthread_create(&x->thread, NULL, exporter, x) != 0) {
		snprintf(err, cap, "out of resources; not exporting");
		x_free(x);
		return NULL;
	}
	return x;
}

void hs_otlp_emit(struct hs_otlp *x, const cJSON *record)
{
	char *r;

	if (!x)
		return;
	r = hs_otlp_log_record(record, x->session);
	pthread_mutex_lock(&x->mu);
	if (r && x->len < x->cap && !x->stopping) {
		x->q[(x->head + x->len++) % x->cap] = r;
		r = NULL;
		if (x->len == 1 || x->len >= x->batch)
			pthread_cond_signal(&x->cv);
	} else {
		x->sum.dropped++;
	}
	pthread_mutex_unlock(&x->mu);
	free(r);
}

bool hs_otlp_stop(struct hs_otlp *x, long ms, struct hs_otlp_summary *sum)
{
	memset(sum, 0, sizeof(*sum));
	if (!x)
		return false;
	pthread_mutex_lock(&x->mu);
	if (x->stopped) {
		pthread_mutex_unlock(&x->mu);
		return false;
	}
	x->stopped = x->stopping = true;
	x->deadline = hs_now_ms() + ms;
	pthread_cond_signal(&x->cv);
	pthread_mutex_unlock(&x->mu);
	pthread_join(x->thread, NULL);
	pthread_mutex_lock(&x->mu);
	*sum = x->sum;
	pthread_mutex_unlock(&x->mu);
	return true;
}

void hs_otlp_free(struct hs_otlp *x)
{
	struct hs_otlp_summary sum;

	if (!x)
		return;
	hs_otlp_stop(x, 0, &sum);
	x_free(x);
}
