/* Wrapper shapes, by structure; see unwrap.h and docs/agents.md.
 *
 * What may surround the carrier (the eval, the exec, the subshell) is
 * *inert setup*: a command that runs no program and leaves nothing to run
 * later — shell options, alias and function removal, variable
 * assignments and exports whose words run nothing, tests, `true`, and the
 * agent's own snapshot being sourced — with its output sent to /dev/null
 * or another descriptor. A preamble is hidden from the hook, so nothing
 * in it may be work a model could slip in; a wrapper also needs the
 * agent's own mark (its cwd file, its snapshot, its trap file), so a
 * model's `eval 'x'` under another agent is left as the model wrote it.
 * The carrier's text is never unwrapped again: a model's own eval,
 * source or `exec bash -c` inside it stays intact. */
#include "unwrap.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "../common/shellargv.h"
#include "shparse.h"
#include "strbuf.h"

/* The command's name and where its arguments start, past `builtin` and
 * `command` prefixes (Claude Code writes `\builtin shopt`). */
static const char *cmd_name(const struct hs_sh_cmd *c, size_t *argi)
{
	size_t k = 0;

	if (c->kind != HS_SH_SIMPLE)
		return NULL;
	while (k < c->nwords && c->words[k].value &&
	       (strcmp(c->words[k].value, "builtin") == 0 ||
		strcmp(c->words[k].value, "command") == 0))
		k++;
	if (k >= c->nwords)
		return NULL;
	*argi = k + 1;
	return c->words[k].value;
}

static bool is_name(const struct hs_sh_cmd *c, const char *name)
{
	size_t argi;
	const char *n = cmd_name(c, &argi);

	return n && strcmp(n, name) == 0;
}

/* Output to /dev/null or onto another descriptor, input from /dev/null. */
static bool redirs_inert(const struct hs_sh_cmd *c)
{
	for (size_t k = 0; k < c->nredirs; k++) {
		const struct hs_sh_redir *r = &c->redirs[k];
		const char *t = r->target.value;

		if (!t)
			return false;
		if (strcmp(r->op, ">&") == 0 || strcmp(r->op, "<&") == 0) {
			if (strspn(t, "0123456789-") != strlen(t))
				return false;
		} else if (strcmp(t, "/dev/null") != 0) {
			return false;
		}
	}
	return true;
}

static bool words_run(const struct hs_sh_word *w, size_t n)
{
	for (size_t k = 0; k < n; k++)
		if (w[k].runs)
			return true;
	return false;
}

static bool glob(const char *pattern, const char *s)
{
	return pattern && s && fnmatch(pattern, s, 0) == 0;
}

/* `source SNAP` / `. SNAP` of the agent's own snapshot. */
static bool is_snapshot_source(const struct hs_agent *a,
			       const struct hs_sh_cmd *c)
{
	size_t argi;
	const char *n = cmd_name(c, &argi);

	return a && n && (strcmp(n, "source") == 0 || strcmp(n, ".") == 0) &&
	       argi + 1 == c->nwords && !c->nassigns &&
	       glob(a->snapshot, c->words[argi].value) && redirs_inert(c);
}

static bool inert_list(const struct hs_agent *a, const struct hs_sh_list *l,
		       bool *snap);

static bool inert_cmd(const struct hs_agent *a, const struct hs_sh_cmd *c,
		      bool *snap)
{
	static const char *const builtins[] = {
		"shopt", "setopt", "unsetopt", "set", "unalias", "unset",
		"typeset", "declare", "export", "readonly", "true", "false",
		":", "[", "test", "echo", "printf", "exit", "return", NULL,
	};
	size_t argi;
	const char *n;

	if (!redirs_inert(c))
		return false;
	if (c->kind == HS_SH_GROUP || c->kind == HS_SH_IF)
		return inert_list(a, c->body, snap);
	if (c->kind != HS_SH_SIMPLE ||
	    words_run(c->assigns, c->nassigns) ||
	    words_run(c->words, c->nwords))
		return false;
	if (!c->nwords)
		return true; /* assignments only */
	if (is_snapshot_source(a, c)) {
		*snap = true;
		return true;
	}
	n = cmd_name(c, &argi);
	for (size_t k = 0; n && builtins[k]; k++)
		if (strcmp(n, builtins[k]) == 0)
			return true;
	return false;
}

static bool inert_list(const struct hs_agent *a, const struct hs_sh_list *l,
		       bool *snap)
{
	for (size_t k = 0; l && k < l->n; k++)
		if (l->pipes[k].ncmds != 1 || l->pipes[k].next == HS_SH_AMP ||
		    !inert_cmd(a, &l->pipes[k].cmds[0], snap))
			return false;
	return true;
}

/* `eval ARGS [< /dev/null]` with every argument literal: what eval runs,
 * its arguments joined by spaces. Claude Code 2.0.x quotes the stdin
 * redirection it appends as words of its own (`eval 'CMD' \< /dev/null`):
 * eval's last two words "<" "/dev/null" after the command word are that,
 * not the model's, since the model's command is always one quoted word. */
static char *eval_text(const struct hs_sh_cmd *c)
{
	struct hs_strbuf b = { 0 };
	size_t argi, end = c->nwords;

	if (!is_name(c, "eval") || c->nassigns || c->nredirs > 1)
		return NULL;
	cmd_name(c, &argi);
	if (c->nredirs &&
	    (strcmp(c->redirs[0].op, "<") != 0 || c->redirs[0].fd > 0 ||
	     !c->redirs[0].target.value ||
	     strcmp(c->redirs[0].target.value, "/dev/null") != 0))
		return NULL;
	if (argi >= c->nwords)
		return NULL;
	if (!c->nredirs && end == argi + 3 && c->words[end - 2].value &&
	    strcmp(c->words[end - 2].value, "<") == 0 &&
	    c->words[end - 1].value &&
	    strcmp(c->words[end - 1].value, "/dev/null") == 0)
		end -= 2;
	for (size_t k = argi; k < end; k++) {
		if (!c->words[k].value) {
			hs_sb_free(&b);
			return NULL;
		}
		if (k > argi)
			hs_sb_addc(&b, ' ');
		hs_sb_adds(&b, c->words[k].value);
	}
	return hs_sb_take(&b);
}

static const char *env_get(char *const envp[], const char *name)
{
	size_t n = strlen(name);

	for (size_t i = 0; envp && envp[i]; i++)
		if (strncmp(envp[i], name, n) == 0 && envp[i][n] == '=')
			return envp[i] + n + 1;
	return NULL;
}

/* Claude Code's carried form: `'eval' "\builtin 'unset' -v 'V'; 'eval'
 * $V"`. The outer eval's text is that string with V's value in place;
 * its second command is an eval of literal words. */
static char *carried_text(const struct hs_agent *a, const char *script,
			  const struct hs_sh_cmd *c, char *const envp[])
{
	struct hs_strbuf want = { 0 }, inner = { 0 };
	const struct hs_sh_word *w;
	struct hs_sh_list *l = NULL;
	const char *v;
	char *out = NULL, *pre = NULL;
	size_t argi;

	if (!a->carry_var || !is_name(c, "eval") || c->nredirs)
		return NULL;
	cmd_name(c, &argi);
	if (argi + 1 != c->nwords)
		return NULL;
	w = &c->words[argi];
	hs_sb_adds(&want, "\"\\builtin 'unset' -v '");
	hs_sb_adds(&want, a->carry_var);
	hs_sb_adds(&want, "'; 'eval' $");
	hs_sb_adds(&want, a->carry_var);
	hs_sb_adds(&want, "\"");
	v = env_get(envp, a->carry_var);
	if (want.s && v && w->end - w->start == want.len &&
	    memcmp(script + w->start, want.s, want.len) == 0) {
		pre = strndup(want.s + 1, want.len - 2 - strlen(a->carry_var) - 1);
		hs_sb_adds(&inner, pre ? pre : "");
		hs_sb_adds(&inner, v);
		l = pre ? hs_sh_parse(inner.s) : NULL;
		if (l && l->n == 2 && l->pipes[0].next == HS_SH_SEMI &&
		    l->pipes[0].ncmds == 1 && l->pipes[1].ncmds == 1 &&
		    is_name(&l->pipes[0].cmds[0], "unset"))
			out = eval_text(&l->pipes[1].cmds[0]);
	}
	hs_sh_free(l);
	free(pre);
	hs_sb_free(&want);
	hs_sb_free(&inner);
	return out;
}

/* SETUP && … && eval ARGS [< /dev/null] && pwd -P >| CWDFILE */
static char *eval_chain(const struct hs_agent *a, const char *script,
			const struct hs_sh_list *l, char *const envp[])
{
	const struct hs_sh_cmd *tail, *ev;
	size_t e;
	bool snap = false;

	if (l->n < 2)
		return NULL;
	for (size_t k = 0; k + 1 < l->n; k++)
		if (l->pipes[k].next != HS_SH_AND && l->pipes[k].next != HS_SH_OR)
			return NULL;
	if (l->pipes[l->n - 1].ncmds != 1)
		return NULL;
	tail = &l->pipes[l->n - 1].cmds[0];
	if (tail->kind != HS_SH_SIMPLE || tail->nwords != 2 ||
	    tail->nassigns || tail->nredirs != 1 || !tail->words[0].value ||
	    strcmp(tail->words[0].value, "pwd") != 0 ||
	    !tail->words[1].value || strcmp(tail->words[1].value, "-P") != 0 ||
	    strcmp(tail->redirs[0].op, ">|") != 0 ||
	    !glob(a->cwd_file, tail->redirs[0].target.value))
		return NULL;
	e = l->n - 2;
	if (l->pipes[e].next != HS_SH_AND || l->pipes[e].ncmds != 1 ||
	    (e && l->pipes[e - 1].next != HS_SH_AND))
		return NULL;
	for (size_t k = 0; k < e; k++)
		if (l->pipes[k].ncmds != 1 ||
		    !inert_cmd(a, &l->pipes[k].cmds[0], &snap))
			return NULL;
	ev = &l->pipes[e].cmds[0];
	if (ev->kind == HS_SH_GROUP) {
		/* `{ eval ARGS; }` on some platforms */
		if (ev->nredirs || !ev->body || ev->body->n != 1 ||
		    ev->body->pipes[0].ncmds != 1)
			return NULL;
		ev = &ev->body->pipes[0].cmds[0];
	}
	{
		char *t = eval_text(ev);

		return t ? t : carried_text(a, script, ev, envp);
	}
}

/* SETUP … . SNAPSHOT … SETUP … exec SHELL [opts] -c CMD [ARGS] */
static char *exec_shell(const struct hs_agent *a, const struct hs_sh_list *l)
{
	const struct hs_sh_cmd *x;
	char *vals[64];
	size_t argi, n = 0;
	bool snap = false;
	int j;

	if (!l->n || l->pipes[l->n - 1].ncmds != 1 ||
	    l->pipes[l->n - 1].next != HS_SH_END)
		return NULL;
	for (size_t k = 0; k + 1 < l->n; k++)
		if (l->pipes[k].next == HS_SH_AMP || l->pipes[k].ncmds != 1 ||
		    !inert_cmd(a, &l->pipes[k].cmds[0], &snap))
			return NULL;
	x = &l->pipes[l->n - 1].cmds[0];
	if (!snap || !is_name(x, "exec") || x->nredirs || x->nassigns)
		return NULL;
	cmd_name(x, &argi);
	for (size_t k = argi; k < x->nwords; k++) {
		if (!x->words[k].value || n + 1 >= sizeof(vals) / sizeof(vals[0]))
			return NULL;
		vals[n++] = x->words[k].value;
	}
	vals[n] = NULL;
	if (!n || !hs_shell_name(vals[0]) || (j = hs_shell_operand(vals)) < 0)
		return NULL;
	return strdup(vals[j]);
}

/* Source text of a pipeline. */
static bool span_is(const char *script, const struct hs_sh_pipe *p,
		    const char *text)
{
	size_t n = strlen(text);

	return p->end - p->start == n && memcmp(script + p->start, text, n) == 0;
}

/* [GUARD ]BGVAR=BGFILE NL ( NL   trap 'ACTION' EXIT NL CMD NL ) NL
 * __code=$? NL exit $__code */
static char *subshell_trap(const struct hs_agent *a, const char *script)
{
	struct hs_sh_list *l;
	const struct hs_sh_cmd *set, *sub, *trap;
	char *out = NULL;
	size_t from, to, argi, bl;

	if (!a->bg_var || !a->guard)
		return NULL;
	if (strncmp(script, a->guard, strlen(a->guard)) == 0 &&
	    script[strlen(a->guard)] == ' ')
		script += strlen(a->guard) + 1;
	l = hs_sh_parse(script);
	if (!l || l->n != 4)
		goto done;
	for (size_t k = 0; k < 4; k++)
		if (l->pipes[k].ncmds != 1 ||
		    l->pipes[k].next != (k < 3 ? HS_SH_NL : HS_SH_END))
			goto done;
	set = &l->pipes[0].cmds[0];
	sub = &l->pipes[1].cmds[0];
	bl = strlen(a->bg_var);
	if (set->kind != HS_SH_SIMPLE || set->nwords || set->nredirs ||
	    set->nassigns != 1 || !set->assigns[0].value ||
	    strncmp(set->assigns[0].value, a->bg_var, bl) != 0 ||
	    set->assigns[0].value[bl] != '=' ||
	    !glob(a->bg_file, set->assigns[0].value + bl + 1) ||
	    sub->kind != HS_SH_SUBSHELL || sub->nredirs ||
	    !span_is(script, &l->pipes[2], "__code=$?") ||
	    !span_is(script, &l->pipes[3], "exit $__code") ||
	    sub->body->n < 2 || sub->body->pipes[0].ncmds != 1 ||
	    sub->body->pipes[0].next != HS_SH_NL)
		goto done;
	trap = &sub->body->pipes[0].cmds[0];
	if (!is_name(trap, "trap") || trap->nredirs || trap->nassigns)
		goto done;
	cmd_name(trap, &argi);
	if (argi + 2 != trap->nwords || !trap->words[argi].value ||
	    strcmp(trap->words[argi].value, a->bg_trap) != 0 ||
	    !trap->words[argi + 1].value ||
	    strcmp(trap->words[argi + 1].value, "EXIT") != 0)
		goto done;
	/* Gemini put "(\n  trap … EXIT\n" before the command and "\n)" after
	 * it: the text between is the command, as the agent trimmed it. */
	from = sub->body->pipes[0].next_end;
	to = sub->body_end;
	if (to <= from || script[to - 1] != '\n' || script[to] != ')')
		goto done;
	to--;
	if (to - from >= 2 && script[to - 1] == ' ' && script[to - 2] == '\\')
		to--; /* the space Gemini adds after a trailing backslash */
	out = strndup(script + from, to - from);
done:
	hs_sh_free(l);
	return out;
}

/* set -e; . SNAPSHOT */
static bool snapshot_check_at(const struct hs_agent *a, const char *script,
			      const struct hs_sh_list *l, size_t *rest)
{
	const struct hs_sh_cmd *c;

	if (!a->snapshot || !l || l->n < 2 || l->pipes[0].ncmds != 1 ||
	    l->pipes[1].ncmds != 1 || l->pipes[0].next != HS_SH_SEMI ||
	    !span_is(script, &l->pipes[0], "set -e"))
		return false;
	c = &l->pipes[1].cmds[0];
	if (!is_snapshot_source(a, c) || c->nredirs)
		return false;
	*rest = l->pipes[1].next_end;
	return l->pipes[1].next != HS_SH_AMP && l->pipes[1].next != HS_SH_OR;
}

bool hs_unwrap_snapshot_check(const struct hs_agent *a, const char *script)
{
	struct hs_sh_list *l = hs_sh_parse(script);
	size_t rest;
	bool ok = snapshot_check_at(a, script, l, &rest) && l->n == 2 &&
		  l->pipes[1].next == HS_SH_END;

	hs_sh_free(l);
	return ok;
}

/* set -e; . SNAPSHOT; CMD */
static char *source_rest(const struct hs_agent *a, const char *script,
			 const struct hs_sh_list *l)
{
	size_t rest;

	if (!snapshot_check_at(a, script, l, &rest) || l->n < 3 ||
	    l->pipes[1].next == HS_SH_AND)
		return NULL;
	while (script[rest] == ' ' || script[rest] == '\t' ||
	       script[rest] == '\n')
		rest++;
	return script[rest] ? strdup(script + rest) : NULL;
}

char *hs_unwrap(const char *script, char *const envp[],
		struct hs_unwrap_how *how)
{
	struct hs_sh_list *l;
	char *out = NULL;

	if (!script || !(l = hs_sh_parse(script)))
		return NULL;
	const struct hs_agent_set *set = hs_agents();

	for (size_t k = 0; !out && k < set->n; k++) {
		const struct hs_agent *a = &set->v[k];
		unsigned s = 0;

		if ((a->shapes & HS_SHAPE_EVAL_CHAIN) &&
		    (out = eval_chain(a, script, l, envp)))
			s = HS_SHAPE_EVAL_CHAIN;
		else if ((a->shapes & HS_SHAPE_EXEC_SHELL) &&
			 (out = exec_shell(a, l)))
			s = HS_SHAPE_EXEC_SHELL;
		else if ((a->shapes & HS_SHAPE_SOURCE_REST) &&
			 (out = source_rest(a, script, l)))
			s = HS_SHAPE_SOURCE_REST;
		else if ((a->shapes & HS_SHAPE_SUBSHELL_TRAP) &&
			 (out = subshell_trap(a, script)))
			s = HS_SHAPE_SUBSHELL_TRAP;
		if (out && how) {
			how->agent = a;
			how->shape = s;
		}
	}
	hs_sh_free(l);
	return out;
}

bool hs_unwrap_inert(const struct hs_sh_cmd *c)
{
	bool snap = false;

	return inert_cmd(NULL, c, &snap);
}

bool hs_unwrap_script_is(const char *pattern, const char *script)
{
	struct hs_sh_list *l = hs_sh_parse(script);
	char *pat = strdup(pattern), *save = NULL, *tok;
	size_t ci = 0, wi = 0;
	bool ok = l && pat && l->n == 1 && !l->pipes[0].bang &&
		  l->pipes[0].next == HS_SH_END;

	for (tok = ok ? strtok_r(pat, " ", &save) : NULL; ok && tok;
	     tok = strtok_r(NULL, " ", &save)) {
		const struct hs_sh_cmd *c;

		if (strcmp(tok, "|") == 0) {
			ok = ci < l->pipes[0].ncmds &&
			     wi == l->pipes[0].cmds[ci].nwords;
			ci++;
			wi = 0;
			continue;
		}
		ok = ci < l->pipes[0].ncmds;
		if (!ok)
			break;
		c = &l->pipes[0].cmds[ci];
		ok = c->kind == HS_SH_SIMPLE && !c->nassigns && !c->nredirs &&
		     wi < c->nwords && c->words[wi].value &&
		     fnmatch(tok, c->words[wi].value, 0) == 0;
		wi++;
	}
	ok = ok && ci + 1 == l->pipes[0].ncmds &&
	     wi == l->pipes[0].cmds[ci].nwords;
	free(pat);
	hs_sh_free(l);
	return ok;
}
