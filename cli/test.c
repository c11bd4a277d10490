/* hookshim test: one tool call through the effective config, with real
 * hook execution, decided as live: the call becomes the requests the live
 * path would send (cli/test_call.c) and a session decides them with
 * hs_session_decide, the function the live supervisor calls. Exit 0
 * allow, 2 deny (reason on stderr), 3 ask, 64 usage. */
#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../config/diagnostics.h"
#include "../config/dialect.h"
#include "../config/jsonfile.h"
#include "../config/load.h"
#include "../engine/dispatch.h"
#include "../engine/command.h"
#include "../engine/payload.h"
#include "../engine/protect.h"
#include "../supervisor/session.h"
#include "cli.h"
#include "test_call.h"

struct test_args {
	const char *event;
	const char *tool;
	const char *input;
	const char *output;
	const char *command;
	const char *file;
	const char *content;
	int exit_code;
	bool failed;
	bool json;
	bool nested;
};

const char hs_usage_test[] =
	"usage: hookshim test [-c FILE]... EVENT [--tool NAME] [--command CMD]\n"
	"           [--file PATH] [--content TEXT] [--input JSON] [--exit N]\n"
	"           [--output TEXT] [--nested] [--json]\n"
	"The call is decided as live: a command is run by the agent as\n"
	"`bash -c CMD` (or tool_input.argv), a write or read is the agent's own\n"
	"on PATH as it is on disk. What no live request can carry (an Edit's\n"
	"old_string/new_string, content no hook reads, a tool name live calls\n"
	"otherwise) is left out, each with a line on stderr:\n"
	"  hookshim test: not supplied live: FIELD (why)\n"
	"and a call live sends no request for runs no hook (\"no request live\").\n"
	"Exit 0 allow, 2 deny (the reason on stderr), 3 ask, 64 usage.\n";

static int parse_args(int argc, char **argv, struct hs_cli *cli,
		      struct test_args *t)
{
	enum { TOOL = HS_OPT_VERB, INPUT, OUTPUT, COMMAND, FILE_, CONTENT, EXIT,
	       FAILED, JSON, NESTED };
	static const struct option opts[] = {
		HS_CLI_CONFIG_OPTIONS,
		{ "tool", required_argument, NULL, TOOL },
		{ "input", required_argument, NULL, INPUT },
		{ "output", required_argument, NULL, OUTPUT },
		{ "command", required_argument, NULL, COMMAND },
		{ "file", required_argument, NULL, FILE_ },
		{ "content", required_argument, NULL, CONTENT },
		{ "exit", required_argument, NULL, EXIT },
		{ "failed", no_argument, NULL, FAILED },
		{ "json", no_argument, NULL, JSON },
		{ "nested", no_argument, NULL, NESTED },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, r;

	while ((c = hs_cli_getopt(argc, argv, "c:h", opts, "test",
				  hs_usage_test)) != -1) {
		if (c == '?')
			return -1;
		if ((r = hs_cli_config_opt(cli, c, optarg)) != 0) {
			if (r < 0)
				return -1;
			continue;
		}
		switch (c) {
		case TOOL: t->tool = optarg; break;
		case INPUT: t->input = optarg; break;
		case OUTPUT: t->output = optarg; break;
		case COMMAND: t->command = optarg; break;
		case FILE_: t->file = optarg; break;
		case CONTENT: t->content = optarg; break;
		case EXIT: t->exit_code = atoi(optarg); break;
		case FAILED: t->failed = true; break;
		case JSON: t->json = true; break;
		case NESTED: t->nested = true; break;
		case 'h':
			fputs(hs_usage_test, stdout);
			exit(0);
		}
	}
	if (optind < argc)
		t->event = argv[optind++];
	if (optind < argc) {
		hs_cli_bad_arg("test", argv[optind], hs_usage_test);
		return -1;
	}
	if (!t->event) {
		fputs(hs_usage_test, stderr);
		return -1;
	}
	return 0;
}

static cJSON *run_json(const struct hs_hook_run *r)
{
	cJSON *o = cJSON_CreateObject();
	const struct hs_hook *h = r->hook;

	cJSON_AddStringToObject(o, "source", h->source);
	cJSON_AddStringToObject(o, "dialect", hs_dialect_name(h->dialect));
	cJSON_AddStringToObject(o, "event", h->event_name);
	cJSON_AddStringToObject(o, "matcher", h->matcher.pattern ? h->matcher.pattern : "");
	if (h->name)
		cJSON_AddStringToObject(o, "name", h->name);
	cJSON_AddStringToObject(o, "command", h->command);
	cJSON_AddStringToObject(o, "tool_name", r->tool_name);
	cJSON_AddStringToObject(o, "status", hs_run_status_name(r->res.status));
	if (r->res.http_status)
		cJSON_AddNumberToObject(o, "http_status", r->res.http_status);
	if (r->res.status == HS_RUN_EXITED)
		cJSON_AddNumberToObject(o, "exit_code", r->res.exit_code);
	else
		cJSON_AddNullToObject(o, "exit_code");
	cJSON_AddStringToObject(o, "stdout", r->res.out ? r->res.out : "");
	cJSON_AddStringToObject(o, "stderr", r->res.err ? r->res.err : "");
	cJSON_AddNumberToObject(o, "duration_ms", (double)r->res.duration_ms);
	cJSON_AddStringToObject(o, "decision",
				r->said ? hs_verdict_name(r->verdict) : "none");
	return o;
}

/* What the decisions said, over every request of the call (a staged
 * write makes two), seen as the session made them (session.h, watch). */
struct seen {
	bool json;
	int decisions;
	size_t nruns;
	enum hs_verdict verdict; /* before an ask is resolved */
	char *reason, *context, *system_message, *session_context;
	char *updated; /* the command a hook rewrote it to */
	bool stop;
	cJSON *hooks, *warnings;
};

static void print_indented(const char *label, const char *text)
{
	if (!text || !*text)
		return;
	printf("    %s:", label);
	for (const char *p = text; *p;) {
		size_t n = strcspn(p, "\n");

		printf("%s%.*s\n", p == text ? " " : "      ", (int)n, p);
		p += n;
		if (*p)
			p++;
	}
}

static void print_run(size_t i, const struct hs_hook_run *r)
{
	const struct hs_hook *h = r->hook;

	printf("hook %zu: [%s] %s %s (matcher \"%s\", tool %s)\n", i,
	       hs_dialect_name(h->dialect), h->source, h->event_name,
	       h->matcher.pattern ? h->matcher.pattern : "", r->tool_name);
	printf("    %s: %s\n", h->action == HS_ACTION_HTTP ? "url" : "command",
	       h->command);
	if (r->res.status == HS_RUN_EXITED && r->res.http_status)
		printf("    HTTP %d in %ld ms\n", r->res.http_status,
		       r->res.duration_ms);
	else if (r->res.status == HS_RUN_EXITED)
		printf("    exit %d in %ld ms\n", r->res.exit_code,
		       r->res.duration_ms);
	else
		printf("    %s after %ld ms\n",
		       r->res.status == HS_RUN_TIMEOUT ? "timed out"
		       : r->res.status == HS_RUN_SIGNALED ? "crashed"
		       : r->res.status == HS_RUN_HTTP_FAILED ? "request failed"
							   : "could not start",
		       r->res.duration_ms);
	print_indented("stdout", r->res.out);
	print_indented("stderr", r->res.err);
}

static void keep_first(char **slot, const char *v)
{
	if (!*slot && v)
		*slot = strdup(v);
}

static void see(void *arg, const struct hs_event *ev,
		const struct hs_outcome *out)
{
	struct seen *sn = arg;
	char *both;

	(void)ev;
	sn->decisions++;
	for (size_t i = 0; i < out->nruns; i++, sn->nruns++)
		if (sn->json)
			cJSON_AddItemToArray(sn->hooks, run_json(&out->runs[i]));
		else
			print_run(sn->nruns + 1, &out->runs[i]);
	if (out->verdict > sn->verdict) {
		sn->verdict = out->verdict;
		free(sn->reason);
		sn->reason = NULL;
	}
	if (out->verdict == sn->verdict)
		keep_first(&sn->reason, out->reason);
	if (out->context && sn->context &&
	    asprintf(&both, "%s\n%s", sn->context, out->context) >= 0) {
		free(sn->context);
		sn->context = both;
	}
	keep_first(&sn->context, out->context);
	keep_first(&sn->system_message, out->system_message);
	keep_first(&sn->session_context, out->session_context);
	keep_first(&sn->updated, out->updated_command);
	sn->stop |= out->stop;
	for (size_t i = 0; i < out->nwarnings; i++)
		cJSON_AddItemToArray(sn->warnings,
				     cJSON_CreateString(out->warnings[i]));
}

static void add_or_null(cJSON *o, const char *key, const char *v)
{
	if (v)
		cJSON_AddStringToObject(o, key, v);
	else
		cJSON_AddNullToObject(o, key);
}

static void print_seen(struct seen *sn, const char *no_request)
{
	const cJSON *w;
	char *text;
	cJSON *o;

	if (!sn->json) {
		if (no_request)
			printf("no request live: %s\n", no_request);
		if (!sn->nruns)
			printf("no hook matched\n");
		printf("decision: %s\n", hs_verdict_name(sn->verdict));
		if (sn->reason)
			printf("reason: %s\n", sn->reason);
		if (sn->updated && sn->verdict != HS_DENY)
			printf("runs instead (updatedInput): %s\n",
			       sn->updated);
		if (sn->context)
			printf("additional context: %s\n", sn->context);
		if (sn->session_context)
			printf("session context: %s\n", sn->session_context);
		if (sn->system_message)
			printf("system message: %s\n", sn->system_message);
		cJSON_ArrayForEach(w, sn->warnings)
			printf("warning: %s\n", w->valuestring);
		return;
	}
	o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "decision", hs_verdict_name(sn->verdict));
	add_or_null(o, "reason", sn->reason);
	add_or_null(o, "additional_context", sn->context);
	if (sn->updated && sn->verdict != HS_DENY)
		cJSON_AddStringToObject(o, "updated_command", sn->updated);
	if (sn->session_context)
		cJSON_AddStringToObject(o, "session_context",
					sn->session_context);
	if (sn->system_message)
		cJSON_AddStringToObject(o, "system_message",
					sn->system_message);
	if (sn->stop)
		cJSON_AddBoolToObject(o, "continue", 0);
	if (no_request)
		cJSON_AddStringToObject(o, "no_request_live", no_request);
	cJSON_AddItemToObject(o, "hooks", sn->hooks);
	cJSON_AddItemToObject(o, "warnings", sn->warnings);
	sn->hooks = sn->warnings = NULL;
	text = cJSON_Print(o);
	puts(text);
	free(text);
	cJSON_Delete(o);
}

static void seen_free(struct seen *sn)
{
	free(sn->reason);
	free(sn->context);
	free(sn->system_message);
	free(sn->session_context);
	free(sn->updated);
	cJSON_Delete(sn->hooks);
	cJSON_Delete(sn->warnings);
}

/* Decides the call's requests in order, as the live senders do: a
 * staged write's publish carries its open's tool_use_id, and is not
 * asked once the open is denied. */
static void decide_call(struct hs_session *s, struct hs_test_call *c,
			struct seen *sn)
{
	struct hs_answer ans;
	char *id = NULL;

	for (int i = 0; i < c->nreq && sn->verdict != HS_DENY; i++) {
		if (id)
			c->req[i].id = id;
		hs_session_decide(s, &c->req[i], &ans);
		if (!id) {
			id = ans.id;
			ans.id = NULL;
		}
		hs_answer_free(&ans);
	}
	free(id);
}

/* A command the session decided nothing about: the agent's own shell. */
static char *internal_shell(const struct hs_test_call *c)
{
	const char *what;
	char *why = NULL;

	if (!c->argv || strcmp(c->req[0].phase, "pre") != 0 ||
	    !(what = hs_command_agent_internal(c->argv)) ||
	    asprintf(&why, "an agent's own shell (%s), no tool call", what) < 0)
		return NULL;
	return why;
}

static int decide(struct hs_session *s, const struct test_args *t,
		  const cJSON *input, struct seen *sn, char **no_request)
{
	struct hs_test_spec spec = { 0 };
	struct hs_test_call c;
	struct hs_outcome out;
	unsigned mask;

	if (hs_event_parse(t->event, &spec.kind, &mask, &spec.event_ops) < 0) {
		fprintf(stderr, "hookshim test: unknown event '%s'\n", t->event);
		return -1;
	}
	if (spec.kind == HS_KIND_SESSION_START ||
	    spec.kind == HS_KIND_SESSION_END) {
		hs_session_lifecycle(s, spec.kind, &out);
		see(sn, NULL, &out);
		hs_outcome_free(&out);
		return 0;
	}
	if (spec.kind == HS_KIND_NONE) {
		*no_request = strdup("only the agent can see this event");
		return 0;
	}
	spec.failed = t->failed || mask == HS_POST_FAILURE;
	spec.tool = t->tool;
	spec.input = input;
	spec.command = t->command;
	spec.file = t->file;
	spec.content = t->content;
	spec.exit_code = t->exit_code;
	spec.output = t->output;
	spec.nested = t->nested;
	if (hs_test_call_build(&c, s->cfg, &spec) < 0) {
		hs_test_call_free(&c);
		return -1;
	}
	decide_call(s, &c, sn);
	if (c.none)
		*no_request = strdup(c.none);
	else if (!sn->decisions)
		*no_request = internal_shell(&c);
	hs_test_call_free(&c);
	return 0;
}

int cmd_test(int argc, char **argv)
{
	struct hs_cli cli = { 0 };
	struct test_args t = { 0 };
	struct hs_config cfg;
	struct hs_protect *prot;
	struct hs_session s;
	struct seen sn = { 0 };
	cJSON *input = NULL;
	char err[512], *no_request = NULL;
	int rc;

	if (parse_args(argc, argv, &cli, &t) < 0)
		return 64;
	if (t.input) {
		input = hs_json_parse_text("--input", t.input, strlen(t.input),
					   err, sizeof(err));
		if (!input) {
			fprintf(stderr, "hookshim test: %s\n", err);
			return 64;
		}
	}
	if (hs_sources_load(&cli.src, &cfg) < 0)
		return 1;
	hs_config_print_diags(stderr, &cfg);
	/* as `hookshim run` has it, but for the session's log and report,
	 * which a test has not */
	cfg.protect = prot = hs_protect_new(&cfg, NULL, NULL);
	/* A session as live, minus the log and the terminal: its id is
	 * random, its transcript a real file, removed at the end. */
	if (hs_session_init(&s, &cfg, NULL, NULL) < 0)
		return 1;
	s.can_prompt = false;
	s.watch = see;
	s.watch_arg = &sn;
	sn.json = t.json;
	sn.hooks = cJSON_CreateArray();
	sn.warnings = cJSON_CreateArray();
	hs_session_keep_transcript(&s, NULL);
	rc = decide(&s, &t, input, &sn, &no_request);
	hs_session_close(&s);
	if (rc == 0) {
		print_seen(&sn, no_request);
		rc = sn.verdict == HS_DENY ? 2 : sn.verdict == HS_ASK ? 3 : 0;
		if (rc == 2 && sn.reason)
			fprintf(stderr, "%s\n", sn.reason);
	} else {
		rc = 64;
	}
	free(no_request);
	seen_free(&sn);
	hs_protect_free(prot);
	cJSON_Delete(input);
	hs_config_free(&cfg);
	hs_sources_free(&cli.src);
	return rc;
}
