/* A session from its first step to its last; see lifecycle.h. */
#include "lifecycle.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../engine/dispatch.h"
#include "../engine/protect.h"
#include "../engine/runner.h"
#include "../engine/write_filter.h"
#include "../floor/floor.h"
#include "log.h"
#include "outer.h"
#include "server.h"
#include "transcript.h"

int hs_life_begin(struct hs_life *l, struct hs_config *cfg, const char *log,
		  const char *junit, bool floor, const char **why)
{
	bool refuse;
	char *keep = NULL;

	memset(l, 0, sizeof(*l));
	l->cfg = cfg;
	/* Inside a session already: join it (docs/nested.md). */
	l->outer = hs_outer_find(&refuse);
	if (refuse) {
		*why = "inside a session that does not answer";
		return -1;
	}
	if (l->outer)
		hs_dispatch_hooks_in_outer_session();
	/* (inside a session: its floor, if it has one, decides; if not,
	 * a nested supervisor stays dumpable and the plan makes one) */
	else if (floor)
		hs_floor_userns_hold(&cfg->settings);
	hs_supervisor_out_of_reach(l->outer != NULL);
	if (hs_session_init(&l->s, cfg, NULL, log) < 0) {
		hs_outer_free(l->outer);
		*why = "cannot start a session";
		return -1;
	}
	l->s.outer = l->outer;
	/* --log FILE keeps the transcript's lines beside it */
	if (log && asprintf(&keep, "%s.transcript.jsonl", log) < 0)
		keep = NULL;
	hs_session_keep_transcript(&l->s, keep);
	free(keep);
	/* after the log is opened: its identity is recorded too */
	cfg->protect = l->prot = hs_protect_new(cfg, log, junit);
	/* the transcript hooks read: the agent must not forge it (with no
	 * hook nobody reads it) */
	if (cfg->nhooks) {
		hs_protect_add(l->prot, hs_transcript_path(l->s.transcript),
			       "the transcript hooks read");
		hs_protect_add(l->prot,
			       hs_transcript_kept_as(l->s.transcript),
			       "the --log file's transcript");
	}
	snprintf(l->sock, sizeof(l->sock), "hookshim-%s", l->s.id);
	if (l->outer)
		hs_outer_flags(l->outer, cfg, l->flags, sizeof(l->flags));
	else
		hs_session_flags(cfg, l->flags, sizeof(l->flags));
	l->begun = true;
	return 0;
}

const char *hs_life_write(struct hs_life *l)
{
	char *own;

	if (l->write)
		return l->write;
	own = hs_write_filter(l->cfg);
	if (own && l->outer) {
		l->write = hs_outer_write_filter(l->outer, own, l->cfg->root);
		free(own);
	} else {
		l->write = own;
	}
	return l->write;
}

int hs_life_serve(struct hs_life *l)
{
	hs_log_export_start(&l->s); /* before any thread of the session logs */
	l->sv = hs_supervisor_start(&l->s, l->sock);
	return l->sv ? 0 : -1;
}

void hs_life_fire(struct hs_life *l, enum hs_kind kind, bool tty_only)
{
	struct hs_outcome out;
	const char *ctx;

	hs_session_lifecycle(&l->s, kind, &out);
	/* memcode's session_start stdout is context for the model; until
	 * there is a way into the agent, the user sees it */
	ctx = out.session_context;
	if (ctx && ctx[0] && (!tty_only || isatty(2))) {
		size_t n = strlen(ctx);

		fputs(ctx, stderr);
		if (ctx[n - 1] != '\n')
			fputc('\n', stderr);
	}
	hs_outcome_free(&out);
}

bool hs_life_stop(struct hs_life *l, int grace_ms, int export_ms,
		  bool others_done)
{
	bool drained = true;

	if (l->sv)
		drained = hs_supervisor_stop(l->sv, grace_ms);
	l->sv = NULL;
	drained = drained && others_done;
	if (!drained) {
		/* Nothing the session started may outlive it. */
		hs_session_ending(&l->s);
		hs_run_kill_all(true);
	}
	hs_log_export_stop(&l->s, export_ms);
	if (!drained)
		hs_session_leave_transcript(&l->s);
	return drained;
}

void hs_life_end(struct hs_life *l)
{
	if (!l->begun)
		return;
	hs_session_close(&l->s);
	hs_outer_free(l->outer);
	hs_protect_free(l->prot);
	if (l->cfg->protect == l->prot)
		l->cfg->protect = NULL;
	free(l->write);
	l->begun = false;
}
