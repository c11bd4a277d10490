/* The requests a tested tool call makes live; see test_call.h.
 *
 * Each builder mirrors the live sender named in its comment: the same
 * fields, filled from the same facts (the file as it is on disk, the
 * session's write scope, the config's content hooks), so the only
 * difference left is what identifies the session (its id, its
 * transcript's path, the tool_use_id and the asking process's pid). */
#include "test_call.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netdb.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../common/pathfold.h"
#include "../common/write_rule.h"
#include "../config/dialect.h"
#include "../engine/dispatch.h"
#include "../engine/netdest.h"
#include "../engine/payload.h"
#include "../engine/write_filter.h"
#include "../floor/floor_int.h"
#include "cli.h"

static void not_live(const char *field, const char *why)
{
	fprintf(stderr, "hookshim test: not supplied live: %s (%s)\n", field,
		why);
}

static void none(struct hs_test_call *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(&c->none, fmt, ap) < 0)
		c->none = NULL;
	va_end(ap);
	if (!c->none)
		c->none = strdup("no request live");
	c->nreq = 0;
}

/* ---- tool_input: what is taken, and what no live request carries ---- */

#define MAX_TAKEN 8

struct taken {
	const char *key[MAX_TAKEN];
	int n;
};

static const char *take_str(const cJSON *in, struct taken *tk, const char *key)
{
	const cJSON *v = in ? cJSON_GetObjectItemCaseSensitive(in, key) : NULL;

	if (!cJSON_IsString(v))
		return NULL;
	if (tk->n < MAX_TAKEN)
		tk->key[tk->n++] = key;
	return v->valuestring;
}

static bool was_taken(const struct taken *tk, const char *key)
{
	for (int i = 0; i < tk->n; i++)
		if (strcmp(tk->key[i], key) == 0)
			return true;
	return false;
}

static const char *why_not(const char *key, unsigned op, bool pre)
{
	static const char *const edits[] = { "old_string", "new_string",
					     "edits", "replace_all", NULL };

	for (const char *const *e = edits; *e; e++)
		if (strcmp(key, *e) == 0)
			return "hookshim sees the write's open or rename, never "
			       "an edit's strings";
	if (strcmp(key, "content") == 0 && op == HS_OP_WRITE)
		return pre ? "no hook reads the content, so the write is not "
			     "staged: the hooks are asked at the open, before "
			     "any byte exists"
			   : "no post hook asked for the content";
	if (strcmp(key, "executable") == 0 || strcmp(key, "pid") == 0 ||
	    strcmp(key, "operation") == 0 || strcmp(key, "argv") == 0)
		return "hookshim fills it in from the call itself";
	return "no live request carries it";
}

static void flag_rest(const cJSON *in, const struct taken *tk, unsigned op,
		      bool pre)
{
	const cJSON *v;
	char field[160];

	cJSON_ArrayForEach(v, in)
	{
		if (!v->string || was_taken(tk, v->string))
			continue;
		snprintf(field, sizeof(field), "tool_input.%s", v->string);
		not_live(field, why_not(v->string, op, pre));
	}
}

/* The name the live call has in each dialect (hs_tool_name: by what it
 * does, not by what the agent called its tool); a --tool none of them is
 * was never a live name for this call. */
static void check_tool_name(const char *tool, unsigned op,
			    const char *operation)
{
	struct hs_event probe = { .op = op, .operation = operation };
	char live[160] = "", field[160];
	bool found = false;

	for (int d = 0; d < HS_NDIALECT; d++) {
		const char *n = hs_tool_name(
			&hs_dialect_ops((enum hs_dialect)d)->tools, &probe);
		size_t l = strlen(live);
		char *at = strstr(live, n);

		found |= strcmp(n, tool) == 0;
		if (at && (at[strlen(n)] == ',' || !at[strlen(n)]))
			continue; /* named already */
		snprintf(live + l, sizeof(live) - l, "%s%s", l ? ", " : "", n);
	}
	if (found)
		return;
	snprintf(field, sizeof(field), "tool_name %s", tool);
	{
		char why[320];

		snprintf(why, sizeof(why),
			 "live a call is named by what it does%s; this one is "
			 "%s, by dialect",
			 op == HS_OP_WRITE ? " (a write: Write for a new or "
					     "empty file, Edit for an existing "
					     "non-empty one)"
					   : "",
			 live);
		not_live(field, why);
	}
}

/* ---- paths, as the shim makes them (hs_path_abs) ---- */

static int abs_path(char *out, const char *cwd, const char *p,
		    const struct hs_fscope *sc)
{
	int n = p[0] == '/' ? snprintf(out, PATH_MAX, "%s", p)
			    : snprintf(out, PATH_MAX, "%s/%s", cwd, p);

	if (n < 0 || n >= PATH_MAX) {
		fprintf(stderr, "hookshim test: path too long: %s\n", p);
		return -1;
	}
	hs_path_fold(out);
	hs_fscope_unalias(sc, out);
	return 0;
}

/* ---- commands: shim/exec_decide.c (pre), cli/supervised_exec.c (post) */

static int build_exec(struct hs_test_call *c, const struct hs_test_spec *t,
		      struct taken *tk)
{
	const cJSON *av = t->input ? cJSON_GetObjectItemCaseSensitive(
					     t->input, "argv")
				   : NULL;
	const char *cmd = t->command;
	struct hs_msg *r = &c->req[0];
	size_t n = 0;
	bool strings = cJSON_IsArray(av);
	const cJSON *e;

	if (av) {
		/* the exec's argv as the agent ran it (a wrapper, say):
		 * hookshim reads the command out of it */
		cJSON_ArrayForEach(e, av)
			strings &= cJSON_IsString(e);
		n = strings ? (size_t)cJSON_GetArraySize(av) : 0;
		if (!n) {
			fprintf(stderr, "hookshim test: tool_input.argv must "
					"be a non-empty array of strings\n");
			return -1;
		}
		tk->key[tk->n++] = "argv";
		c->argv = calloc(n + 1, sizeof(*c->argv));
		n = 0;
		cJSON_ArrayForEach(e, av)
			c->argv[n++] = strdup(e->valuestring);
		if (cmd)
			not_live("--command", "hookshim reads the command out "
					      "of the argv");
	} else {
		/* what an agent's Bash tool runs: bash -c 'CMD' (a wrapper
		 * around CMD is unwrapped to CMD: docs/agents.md) */
		if (!cmd)
			cmd = take_str(t->input, tk, "command");
		c->argv = calloc(4, sizeof(*c->argv));
		c->argv[0] = strdup("bash");
		c->argv[1] = strdup("-c");
		c->argv[2] = strdup(cmd ? cmd : "");
	}
	c->exe = hs_cli_resolve_exe(c->argv[0]);
	if (t->kind == HS_KIND_PRE) {
		*r = (struct hs_msg){ .op = "exec", .phase = "pre",
				      .nested = t->nested, .pid = getpid(),
				      .cwd = c->cwd, .exe = c->exe,
				      .argv = c->argv };
	} else {
		int code = t->exit_code ? t->exit_code : t->failed ? 1 : 0;
		struct hs_exec_ran ran = {
			.exe = c->exe, .argv = c->argv, .nested = t->nested,
			.pid = getpid(), .status = W_EXITCODE(code & 255, 0),
			.cwd = c->cwd, .out = t->output ? t->output : "",
			.out_len = t->output ? strlen(t->output) : 0,
		};

		hs_exec_post_request(r, &ran, c->error, sizeof(c->error));
	}
	c->nreq = 1;
	return 0;
}

/* ---- writes: shim/write_event.c ---- */

static bool shim_operation(const char *op)
{
	static const char *const ops[] = { "create", "overwrite", "edit",
					   "append", "modify", "truncate",
					   "delete", "rmdir", "mkdir", "mknod",
					   "symlink", "link", "rename", "exchange",
					   NULL };

	for (const char *const *o = ops; *o; o++)
		if (strcmp(op, *o) == 0)
			return true;
	return false;
}

/* open_op for the agent's own write tool (an O_TRUNC open, or the
 * rename of an atomic save: the same answer, replace_op): NULL when
 * that open writes no file. */
static const char *agent_write_op(const char *path, bool follow)
{
	struct stat sb;

	if ((follow ? stat(path, &sb) : lstat(path, &sb)) != 0)
		return errno == ENOENT ? "create" : NULL;
	if (!S_ISREG(sb.st_mode))
		return NULL;
	return sb.st_size > 0 ? "edit" : "overwrite";
}

static bool opens_content(const char *op)
{
	return strcmp(op, "create") == 0 || strcmp(op, "overwrite") == 0 ||
	       strcmp(op, "edit") == 0 || strcmp(op, "append") == 0 ||
	       strcmp(op, "modify") == 0;
}

static bool any_hook(const struct hs_config *cfg, bool content_pre,
		     bool want_content)
{
	for (size_t i = 0; i < cfg->nhooks; i++) {
		const struct hs_hook *h = &cfg->hooks[i];

		if (!h->enabled || !(h->ops & HS_OP_WRITE))
			continue;
		if ((content_pre && h->content_pre) ||
		    (want_content && h->kind == HS_KIND_POST &&
		     h->want_content))
			return true;
	}
	return false;
}

/* The staged content, where the supervisor reads it: a file with no
 * name, as the shim's O_TMPFILE is, named by /proc/PID/fd/N. */
static int stage_content(struct hs_test_call *c, const char *content)
{
	size_t n = content ? strlen(content) : 0;

	c->content_fd = memfd_create("hookshim-test-content", MFD_CLOEXEC);
	if (c->content_fd < 0 ||
	    (n && hs_write_full(c->content_fd, content, n) < 0)) {
		perror("hookshim test: staged content");
		return -1;
	}
	snprintf(c->content_file, sizeof(c->content_file), "/proc/%ld/fd/%d",
		 (long)getpid(), c->content_fd);
	return 0;
}

static int build_write(struct hs_test_call *c, const struct hs_config *cfg,
		       const struct hs_test_spec *t, struct taken *tk,
		       const struct hs_fscope *sc)
{
	bool pre = t->kind == HS_KIND_PRE, staged;
	const char *p = t->file, *fp, *op, *np, *content;
	struct hs_msg *r = &c->req[0];

	fp = take_str(t->input, tk, "file_path");
	if (!p)
		p = fp;
	if (!p)
		p = take_str(t->input, tk, "path");
	else
		(void)take_str(t->input, tk, "path");
	if (!p) {
		none(c, "a write names its file: give --file or "
			"tool_input.file_path");
		return 0;
	}
	if (abs_path(c->path, c->cwd, p, sc) < 0)
		return -1;
	op = take_str(t->input, tk, "operation");
	if (op && !shim_operation(op)) {
		fprintf(stderr, "hookshim test: tool_input.operation '%s' is "
				"none hookshim reports\n", op);
		return -1;
	}
	if (!op)
		op = agent_write_op(c->path, cfg->settings.follow_symlinks);
	if (!op) {
		none(c, "%s is not a regular file: opening it writes no file, "
			"so no write event fires", c->path);
		return 0;
	}
	np = take_str(t->input, tk, "new_path");
	if (np && abs_path(c->new_path, c->cwd, np, sc) < 0)
		return -1;
	/* the agent's own tool (its name unknown here): beyond the scope
	 * too, as its writes are live (writes.agent_anywhere) */
	if (!hs_fscope_sides(sc, c->path, pre ? HS_WR_PRE : HS_WR_POST, "")) {
		none(c, "%s is outside what the session's write filter lets "
			"through (its scope and the %s hooks' path filters): "
			"no hook is asked", c->path, pre ? "pre" : "post");
		return 0;
	}
	staged = pre && opens_content(op) && any_hook(cfg, true, false);
	content = t->content;
	if (staged || (!pre && any_hook(cfg, false, true))) {
		if (!content)
			content = take_str(t->input, tk, "content");
		else
			(void)take_str(t->input, tk, "content");
	} else if (content) {
		not_live("--content", why_not("content", HS_OP_WRITE, pre));
		content = NULL;
	}
	*r = (struct hs_msg){ .op = "write", .phase = "pre", .nested = -1,
			      .pid = getpid(), .cwd = c->cwd, .path = c->path,
			      .new_path = np ? c->new_path : NULL,
			      .operation = op };
	c->nreq = 1;
	if (!pre) {
		r->phase = t->failed || t->exit_code ? "post-failure" : "post";
		/* the file as written (wire CONTENT), for hooks that asked;
		 * without it the supervisor reads the file at its path */
		r->content = content;
		r->content_len = content ? strlen(content) : 0;
		return 0;
	}
	if (!staged)
		return 0;
	/* docs/staged-writes.md: the other hooks at the open, the content
	 * hooks when the content is complete */
	r->stage = "open";
	if (stage_content(c, content) < 0)
		return -1;
	c->req[1] = *r;
	c->req[1].stage = "publish";
	c->req[1].content_file = c->content_file;
	c->nreq = 2;
	return 0;
}

/* ---- reads: shim/read_event.c ---- */

static int build_read(struct hs_test_call *c, const struct hs_config *cfg,
		      const struct hs_test_spec *t, struct taken *tk,
		      const struct hs_fscope *sc)
{
	const char *p = t->file;
	struct stat sb;

	if (!p)
		p = take_str(t->input, tk, "file_path");
	else
		(void)take_str(t->input, tk, "file_path");
	if (!p)
		p = take_str(t->input, tk, "path");
	if (t->kind != HS_KIND_PRE) {
		none(c, "a read has no post event");
		return 0;
	}
	if (!(hs_config_interest(cfg) & HS_INTEREST_READ_PRE)) {
		none(c, "no pre hook names the read tool (Read, read_file, "
			"fs_read): the agent's reads are no events");
		return 0;
	}
	if (!p) {
		none(c, "a read names its file: give --file or "
			"tool_input.file_path");
		return 0;
	}
	if (abs_path(c->path, c->cwd, p, sc) < 0)
		return -1;
	/* the read hooks' own globs narrow further in the shim; the
	 * hooks' matching below is exact, so only the scope is asked */
	if (!hs_fscope_in_scope(sc, c->path)) {
		none(c, "%s is outside the session's scope: the agent's read "
			"of it is no event", c->path);
		return 0;
	}
	if (stat(c->path, &sb) != 0 || !S_ISREG(sb.st_mode)) {
		none(c, "%s is not an existing regular file: opening it for "
			"reading is no event", c->path);
		return 0;
	}
	c->req[0] = (struct hs_msg){ .op = "read", .phase = "pre",
				     .nested = -1, .pid = getpid(),
				     .cwd = c->cwd, .path = c->path };
	c->nreq = 1;
	return 0;
}

/* ---- connections: shim/net.c ---- */

/* tool_input.url ("https://host/", "tcp://host:port"), or host and
 * port: the connect live would ask about. The address is the host when
 * it is one, else the host's first address (what live connects to). */
static int build_net(struct hs_test_call *c, const struct hs_test_spec *t,
		     struct taken *tk)
{
	const char *url = take_str(t->input, tk, "url");
	const char *host = take_str(t->input, tk, "host");
	const char *proto = take_str(t->input, tk, "protocol");
	const cJSON *pv = t->input ? cJSON_GetObjectItemCaseSensitive(
					     t->input, "port")
				   : NULL;
	long port = cJSON_IsNumber(pv) ? (long)pv->valuedouble : -1;
	struct addrinfo *ai = NULL, hints = { .ai_socktype = SOCK_STREAM };

	if (cJSON_IsNumber(pv) && tk->n < MAX_TAKEN)
		tk->key[tk->n++] = "port";
	if (url && !host) {
		struct hs_netdest d;

		if (!strstr(url, "://")) {
			fprintf(stderr, "hookshim test: tool_input.url '%s' has "
					"no scheme://\n", url);
			return -1;
		}
		if (!hs_netdest_parse(url, &d)) {
			fprintf(stderr, "hookshim test: tool_input.url '%s' "
					"names no host\n", url);
			return -1;
		}
		snprintf(c->host, sizeof(c->host), "%s", d.host);
		/* a port in the url, else tool_input.port, else the scheme's */
		if (d.port >= 0)
			port = d.port;
		else if (port < 0)
			port = d.scheme_port;
		if (!proto && d.udp)
			proto = "udp";
	} else if (host) {
		snprintf(c->host, sizeof(c->host), "%s", host);
	}
	if (!c->host[0] || port < 0 || port > 65535) {
		none(c, "a connection names its destination: give "
			"tool_input.url, or host and port");
		return 0;
	}
	if (getaddrinfo(c->host, NULL, &hints, &ai) == 0 && ai &&
	    getnameinfo(ai->ai_addr, ai->ai_addrlen, c->address,
			sizeof(c->address), NULL, 0, NI_NUMERICHOST) == 0)
		;
	else
		snprintf(c->address, sizeof(c->address), "%s", c->host);
	if (ai)
		freeaddrinfo(ai);
	c->req[0] = (struct hs_msg){ .op = "connect", .phase = "pre",
				     .nested = -1, .pid = getpid(),
				     .cwd = c->cwd, .host = c->host,
				     .address = c->address, .port = port,
				     .proto = proto && strcmp(proto, "udp") == 0
						      ? "udp" : "tcp" };
	c->nreq = 1;
	return 0;
}

/* ---- the call ---- */

static unsigned call_op(const struct hs_test_spec *t)
{
	unsigned op = t->tool ? hs_tool_op(t->tool) : HS_OP_OTHER;
	unsigned ev = t->event_ops & (HS_OP_EXEC | HS_OP_WRITE | HS_OP_READ);

	/* an event of one operation (memoh BeforeFileWrite) decides */
	if (ev == HS_OP_EXEC || ev == HS_OP_WRITE || ev == HS_OP_READ)
		if (!(op & ev))
			op = ev;
	return op;
}

int hs_test_call_build(struct hs_test_call *c, const struct hs_config *cfg,
		       const struct hs_test_spec *t)
{
	struct taken tk = { .n = 0 };
	unsigned op = call_op(t);
	struct hs_fscope *sc;
	char *filter;
	int rc = 0;

	memset(c, 0, sizeof(*c));
	c->content_fd = -1;
	if (!getcwd(c->cwd, sizeof(c->cwd))) {
		perror("hookshim test: getcwd");
		return -1;
	}
	if (t->kind == HS_KIND_PRE && (t->output || t->exit_code))
		not_live(t->output ? "--output" : "--exit",
			 "a pre event comes before the call has any");
	if (op == HS_OP_NET && t->kind != HS_KIND_PRE) {
		none(c, "a connection is judged before it is made: only "
			"PreToolUse fires for it");
		return 0;
	}
	if (op == HS_OP_OTHER) {
		none(c, "hookshim sees commands, file writes, reads and "
			"connections, not "
			"the tool %s: no hook on it fires",
		     t->tool ? t->tool : "of this event");
		return 0;
	}
	filter = hs_write_filter(cfg);
	sc = hs_fscope_new(filter, cfg->root);
	free(filter);
	if (!sc) {
		fprintf(stderr, "hookshim test: out of memory\n");
		return -1;
	}
	if (op == HS_OP_EXEC)
		rc = build_exec(c, t, &tk);
	else if (op == HS_OP_WRITE)
		rc = build_write(c, cfg, t, &tk, sc);
	else if (op == HS_OP_NET)
		rc = build_net(c, t, &tk);
	else
		rc = build_read(c, cfg, t, &tk, sc);
	hs_fscope_free(sc);
	if (rc < 0)
		return -1;
	if (t->input)
		flag_rest(t->input, &tk, op, t->kind == HS_KIND_PRE);
	if (t->tool && c->nreq)
		check_tool_name(t->tool, op, c->req[0].operation);
	return 0;
}

void hs_test_call_free(struct hs_test_call *c)
{
	for (char **a = c->argv; a && *a; a++)
		free(*a);
	free(c->argv);
	free(c->exe);
	free(c->none);
	if (c->content_fd >= 0)
		close(c->content_fd);
	memset(c, 0, sizeof(*c));
	c->content_fd = -1;
}
