/* Joining the session we run inside; see outer.h and docs/nested.md. */
#include "outer.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "../common/wire.h"
#include "../engine/command.h"
#include "../engine/dispatch.h"
#include "../engine/strbuf.h"
#include "../engine/write_filter.h"
#include "consult.h"
#include "../floor/floor_int.h" /* the write filter's matcher (floor_scope.c) */
#include "session.h"

struct hs_outer {
	char *sock;
	unsigned interest;
	int deny_exit, deny_errno;
	bool strict, deny_on_loss, nested, all_execs, net_nokeep, enforce;
	unsigned long cookie;
	struct hs_fscope *scope;     /* the outer's write filter */
	struct hs_fscope *own_scope; /* ours, once hs_outer_write_filter ran */
	char *write;                 /* the outer's HOOKSHIM_WRITE, or NULL */
	int warned;
};

/* "i=5,x=126,..." as the shim reads it (shim/state.c). */
static void parse_flags(struct hs_outer *o, const char *f)
{
	char k;
	long v;

	while (hs_flags_next(&f, &k, &v)) {
		switch (k) {
		case 'i': o->interest = (unsigned)v; break;
		case 'x': o->deny_exit = (int)v; break;
		case 'e': o->deny_errno = (int)v; break;
		case 's': o->strict = v != 0; break;
		case 'l': o->deny_on_loss = v != 0; break;
		case 'k': o->net_nokeep = v != 0; break;
		case 'n': o->nested = v != 0; break;
		case 'a': o->all_execs = v != 0; break;
		case 'm': o->enforce = v != 0; break;
		case 'c': o->cookie = (unsigned long)v; break;
		}
	}
}

/* Does anything listen on the outer socket? */
static bool answers(const char *name)
{
	struct sockaddr_un sa;
	socklen_t len;
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	bool live = false;

	if (fd >= 0 && hs_wire_addr(name, &sa, &len) == 0)
		live = connect(fd, (struct sockaddr *)&sa, len) == 0;
	if (fd >= 0)
		close(fd);
	return live;
}

struct hs_outer *hs_outer_find(bool *refuse)
{
	const char *sock = getenv(HS_ENV_SOCK), *w = getenv(HS_ENV_WRITE);
	const char *root = getenv(HS_ENV_ROOT);
	struct hs_outer *o;

	*refuse = false;
	if (!sock || !sock[0])
		return NULL;
	if (!(o = calloc(1, sizeof(*o))))
		return NULL;
	o->deny_exit = 126;
	o->deny_errno = EACCES;
	parse_flags(o, getenv(HS_ENV_FLAGS));
	if (!answers(sock)) {
		if (o->strict || o->deny_on_loss) {
			fprintf(stderr, "hookshim: inside a session whose "
					"supervisor does not answer (@%s), and "
					"it fails closed; not starting\n", sock);
			*refuse = true;
		} else {
			fprintf(stderr, "hookshim: WARNING: inside a session "
					"whose supervisor does not answer (@%s); "
					"this session decides alone\n", sock);
		}
		free(o);
		return NULL;
	}
	o->sock = strdup(sock);
	o->write = w ? strdup(w) : NULL;
	o->scope = hs_fscope_new(w, root && root[0] ? root : "/");
	if (!o->sock || (w && !o->write) || !o->scope) {
		hs_outer_free(o);
		*refuse = true;
		fprintf(stderr, "hookshim: out of memory\n");
		return NULL;
	}
	return o;
}

void hs_outer_free(struct hs_outer *o)
{
	if (!o)
		return;
	hs_fscope_free(o->scope);
	hs_fscope_free(o->own_scope);
	free(o->write);
	free(o->sock);
	free(o);
}

unsigned long hs_outer_cookie(const struct hs_outer *o)
{
	return o ? o->cookie : 0;
}

unsigned hs_outer_interest(const struct hs_outer *o)
{
	return o ? o->interest : 0;
}

void hs_outer_flags(const struct hs_outer *o, const struct hs_config *cfg,
		    char *buf, size_t len)
{
	const struct hs_settings *set = &cfg->settings;
	unsigned interest = hs_config_interest(cfg) | o->interest;
	int n;

	/* everything this session runs is, to the outer one, inside one of
	 * its commands: every connection here is asked (docs/network.md) */
	if (o->interest & (HS_INTEREST_NET_PRE | HS_INTEREST_NET_POST))
		interest |= HS_INTEREST_NET_AGENT;
	n = snprintf(buf, len, "i=%u,x=%d,e=%d,s=%d,n=%d,a=%d,l=%d,k=%d,m=%d",
		     interest, set->deny_exit,
		     set->deny_errno, set->strict || o->strict,
		     set->nested_exec || o->nested,
		     set->all_execs || o->all_execs,
		     set->deny_on_loss || o->deny_on_loss,
		     set->net_keep >= 0 || o->net_nokeep,
		     set->enforce || o->enforce);
	if (o->cookie && n > 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, ",c=%lu", o->cookie);
	/* the inner shim believes only us, the inner supervisor */
	if (n > 0 && (size_t)n < len)
		hs_session_identity(buf + n, len - (size_t)n);
}

/* ---- the write filter ---- */

/* The lines of one filter (after "hsw1") whose first letter is in
 * `kinds`, each with its newline, in order. */
static void lines_of(struct hs_strbuf *b, const char *text, const char *kinds,
		     const char *except)
{
	if (!text || strncmp(text, "hsw1\n", 5) != 0)
		return;
	for (const char *p = text + 5; *p;) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);

		if (n && strchr(kinds, p[0]) && !(except && n == 2 &&
						  p[0] == 'o' &&
						  strchr(except, p[1])))
			hs_sb_add(b, p, n), hs_sb_add(b, "\n", 1);
		p += n + (nl ? 1 : 0);
	}
}

/* Does filter `text` carry option line "o<c>"? */
static bool has_opt(const char *text, char c)
{
	char l[5] = { '\n', 'o', c, '\n', '\0' };

	return text && strstr(text, l) != NULL;
}

char *hs_outer_write_filter(struct hs_outer *o, const char *own,
			    const char *own_root)
{
	struct hs_strbuf b = { 0 }, so = { 0 }, si = { 0 };
	const char *w = o->write;
	bool same_scope;

	hs_fscope_free(o->own_scope);
	o->own_scope = hs_fscope_new(own, own_root);
	if (!o->own_scope)
		return NULL;
	lines_of(&so, w, "+-", NULL);
	lines_of(&si, own, "+-", NULL);
	same_scope = so.len == si.len && (!so.len || !memcmp(so.s, si.s, so.len));
	hs_sb_adds(&b, "hsw1\n");
	/* Options: what narrows (agent-only, quiet) only when both say it;
	 * what widens (follow symlinks, judge temp files) when either does. */
	if (has_opt(w, 'a') && has_opt(own, 'a'))
		hs_sb_adds(&b, "oa\n");
	if (has_opt(w, 'q') && has_opt(own, 'q'))
		hs_sb_adds(&b, "oq\n");
	if (has_opt(w, 'f') || has_opt(own, 'f'))
		hs_sb_adds(&b, "of\n");
	if (has_opt(w, 't') || has_opt(own, 't'))
		hs_sb_adds(&b, "ot\n");
	if (same_scope) {
		hs_sb_adds(&b, so.s ? so.s : "");
	} else {
		/* Either scope: both includes, no excludes (one session's
		 * exclude may be the other's ground). */
		lines_of(&b, w, "+", NULL);
		lines_of(&b, own, "+", NULL);
	}
	/* hooks' globs (pre, post, content, read) and protected files of
	 * both; the root's logical name is ours */
	lines_of(&b, w, "<>%(!", NULL);
	lines_of(&b, own, "<>%(!=", NULL);
	hs_sb_free(&so);
	hs_sb_free(&si);
	if (b.failed || b.len > HS_WRITE_FILTER_MAX) {
		/* Too long for the shim: every write anywhere is sent, and
		 * each session's own filter sorts them (hs_outer_ask). */
		hs_sb_free(&b);
		hs_sb_adds(&b, "hsw1\n+/**\n<*\n>*\n");
	}
	return hs_sb_take(&b);
}

/* ---- which requests each session wants ---- */

static bool is_post(const struct hs_msg *req)
{
	return req->phase && strncmp(req->phase, "post", 4) == 0;
}

/* The shim's questions, for one session's flags and write filter. */
static bool wants(unsigned interest, bool nested, bool all_execs,
		  const struct hs_fscope *sc, const struct hs_msg *req)
{
	bool post = is_post(req);

	if (!req->op || !req->phase)
		return false;
	if (strcmp(req->op, "exec") == 0) {
		if (!(interest & (post ? HS_INTEREST_EXEC_POST
				       : HS_INTEREST_EXEC_PRE)))
			return false;
		if (req->nested > 0)
			return nested || (interest & HS_INTEREST_EXEC_NESTED);
		return all_execs ||
		       (req->argv && hs_command_shell_index(req->argv) >= 0);
	}
	if (strcmp(req->op, "write") == 0 && req->path) {
		bool (*fires)(const struct hs_fscope *, const char *) =
			post ? hs_fscope_post : hs_fscope_pre;

		if (!(interest & (post ? HS_INTEREST_WRITE_POST
				       : HS_INTEREST_WRITE_PRE)))
			return false;
		return !sc || fires(sc, req->path) ||
		       (req->new_path && fires(sc, req->new_path));
	}
	/* a connection (docs/network.md), and its close */
	if (strcmp(req->op, "connect") == 0)
		return interest & (post ? HS_INTEREST_NET_POST
					: HS_INTEREST_NET_PRE);
	return false;
}

bool hs_outer_own_wants(const struct hs_outer *o, const struct hs_config *cfg,
			const struct hs_msg *req)
{
	return wants(hs_config_interest(cfg), cfg->settings.nested_exec,
		     cfg->settings.all_execs, o->own_scope, req);
}

int hs_outer_ask(struct hs_outer *o, const struct hs_msg *req,
		 struct hs_answer *ans)
{
	if (!wants(o->interest, o->nested, o->all_execs, o->scope, req))
		return -1;
	if (hs_client_ask(o->sock, req, ans) == 0)
		return 0;
	memset(ans, 0, sizeof(*ans));
	ans->deny_exit = o->deny_exit;
	ans->deny_errno = o->deny_errno;
	if (o->strict || o->deny_on_loss) {
		ans->verdict = HS_DENY;
		ans->reason = strdup("hookshim: the outer session's supervisor "
				     "is unreachable; denying "
				     "(on_supervisor_loss: deny)");
		return 0;
	}
	ans->verdict = HS_ALLOW;
	if (!__atomic_exchange_n(&o->warned, 1, __ATOMIC_RELAXED))
		fprintf(stderr, "hookshim: WARNING: the outer session's "
				"supervisor is unreachable; this nested session "
				"now decides alone (set \"on_supervisor_loss\": "
				"\"deny\" in the outer config to fail closed)\n");
	return 0;
}
