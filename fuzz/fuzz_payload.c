/* The payload builder (engine/payload.c) for fuzzed events, in every
 * dialect and for every event each dialect fires, and on the way back the
 * dialect's reading of what the hook answered (engine/decide.c). Both are
 * the bytes a hook process exchanges with hookshim; the printed payload
 * must parse back as JSON.
 *
 * Input: a flags byte (bits 0-1: exec, write or another tool; bit 2:
 * failed; bit 3: nested; bit 4: hook wants content; bit 5: a bot_id),
 * two bytes of exit code and signal, then NUL-separated strings: command,
 * path, new path, operation, cwd, root, session id, tool_use_id, tool,
 * error, argv[0..2], a JSON tool input, the run's stdout, stderr, and
 * the rest as the hook's stdout for the decision parser. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/dialect.h"
#include "engine/decide.h"
#include "engine/match.h"
#include "engine/payload.h"
#include "fuzz.h"

static const char *or_null(const char *s)
{
	return s && *s ? s : NULL;
}

static void one(const struct hs_dialect_ops *ops, enum hs_dialect d,
		const struct hs_event_def *e, const struct hs_event *ev,
		const struct hs_settings *set, uint8_t flags, int code,
		const char *hout, size_t hout_len, const char *herr)
{
	struct hs_hook h = { 0 };
	struct hs_hook_run run = { 0 };
	struct hs_outcome out = { 0 };
	const char *tool;
	cJSON *p, *back;
	char *text;
	bool stop = false;

	h.dialect = d;
	h.event_name = (char *)e->name;
	h.kind = e->kind;
	h.post_mask = e->post_mask;
	h.ops = e->ops;
	h.matcher.kind = HS_MATCH_ALL;
	h.action = HS_ACTION_COMMAND;
	h.command = "true";
	h.shell = "/bin/sh";
	h.timeout_ms = ops->timeout_ms;
	h.on_error = (enum hs_on_error)(code % 3);
	h.max_output = (flags & 0x40) ? 16 : 65536;
	h.nested = -1;
	h.want_content = flags & 0x10;
	h.source = "fuzz.json";
	h.name = flags & 0x80 ? "fuzz-hook" : NULL;
	h.enabled = true;

	(void)hs_hook_matches(&h, ev);
	(void)hs_matcher_could_match(&h, ev);
	tool = hs_tool_name(&ops->tools, ev);
	p = ops->payload(&h, ev, tool, set);
	if (!p)
		abort(); /* only out of memory */
	text = cJSON_PrintUnformatted(p);
	if (text) {
		back = cJSON_Parse(text);
		if (!back) {
			fprintf(stderr, "%s payload does not parse: %s\n",
				ops->name, text);
			abort();
		}
		cJSON_Delete(back);
	}
	free(text);
	cJSON_Delete(p);

	/* What the hook answered, as runner.c hands it over. */
	run.hook = &h;
	run.tool_name = strdup(tool);
	run.res.status = HS_RUN_EXITED;
	run.res.exit_code = code;
	run.res.out = strndup(hout ? hout : "", hout ? hout_len : 0);
	run.res.out_len = run.res.out ? strlen(run.res.out) : 0;
	run.res.err = strdup(herr ? herr : "");
	run.res.err_len = run.res.err ? strlen(run.res.err) : 0;
	if (run.res.out && run.res.err) {
		out.runs = malloc(sizeof(run));
		if (out.runs) {
			(void)ops->decide(&run, &out, &stop);
			out.runs[0] = run;
			out.nruns = 1;
			hs_outcome_free(&out);
			return;
		}
	}
	hs_run_result_free(&run.res);
	free(run.tool_name);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const unsigned opsel[] = { HS_OP_EXEC, HS_OP_WRITE, HS_OP_OTHER,
					  HS_OP_NET };
	struct fz f;
	struct hs_event ev = { 0 };
	struct hs_settings set = { .deny_exit = 126, .deny_errno = 13 };
	char *argv[4] = { NULL };
	const char *input, *hout;
	size_t hout_len;
	uint8_t flags;
	int code;

	fz_init(&f, data, size);
	flags = fz_byte(&f);
	code = fz_byte(&f);
	ev.signo = fz_byte(&f) & 0x3f;
	ev.op = opsel[flags & 3];
	ev.failed = flags & 4;
	ev.nested = flags & 8;
	ev.command = or_null(fz_str(&f));
	ev.path = or_null(fz_str(&f));
	ev.new_path = or_null(fz_str(&f));
	ev.operation = or_null(fz_str(&f));
	ev.cwd = or_null(fz_str(&f));
	ev.root = fz_str(&f);
	if (!ev.root)
		ev.root = "/";
	ev.session_id = or_null(fz_str(&f));
	ev.tool_use_id = or_null(fz_str(&f));
	(void)fz_str(&f); /* was the tool name `hookshim test` gave */
	ev.error = or_null(fz_str(&f));
	if (ev.op == HS_OP_NET) { /* a connection: its names from the same bytes */
		ev.host = ev.path;
		ev.address = ev.new_path;
		ev.port = code * 257;
		ev.protocol = flags & 16 ? "udp" : "tcp";
	}
	/* Up to three words; an empty one ends the argv early. */
	for (int i = 0; i < 3; i++) {
		char *a = fz_str(&f);

		if (!a || !*a)
			break;
		argv[i] = a;
	}
	ev.argv = argv[0] ? argv : NULL;
	ev.exe = argv[0];
	input = fz_str(&f); /* was the raw input `hookshim test` gave */
	(void)input;
	ev.out = fz_str(&f);
	ev.out_len = ev.out ? strlen(ev.out) : 0;
	ev.err = fz_str(&f);
	ev.err_len = ev.err ? strlen(ev.err) : 0;
	ev.exit_code = code - 128;
	ev.duration_ms = code * 7;
	ev.pid = code;
	if (flags & 0x20)
		set.bot_id = "bot-1";
	/* The hook's answer: its stderr is the event's error text, reused. */
	hout = fz_rest(&f, &hout_len);

	for (size_t k = 0;; k++) {
		enum hs_dialect d;
		const struct hs_dialect_ops *ops = hs_dialect_in_claim_order(k, &d);

		if (!ops)
			break;
		for (const struct hs_event_def *e = ops->events; e->name; e++) {
			ev.kind = e->kind;
			one(ops, d, e, &ev, &set, flags, code, hout, hout_len,
			    ev.error);
		}
	}
	fz_free(&f);
	return 0;
}
