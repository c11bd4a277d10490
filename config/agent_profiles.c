/* Agent profiles as data; see agent_profile.h and docs/agents.md.
 *
 * One parser for the built-in profiles (config/agents.json, embedded by
 * agents_builtin.c) and for the files users and administrators add:
 * every .json in /etc/hookshim/agents/ (the managed layer's directory)
 * and in $XDG_CONFIG_HOME/hookshim/agents/. A profile there replaces the
 * built-in one of its name; a managed one is not replaced by a user's. */
#include "agent_profile.h"

#include <dirent.h>
#include <stdio.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cjson/cJSON.h>

#include "jsonfile.h"
#include "model.h"

extern const char hs_agents_json[]; /* agents_builtin.c */

struct ctx {
	struct hs_config *cfg; /* NULL: the built-ins (no diagnostics) */
	const char *src;
	const struct hs_jsonpos *pos;
	int errors;
};

static void say(struct ctx *x, const cJSON *at, enum hs_diag_level level,
		const char *fmt, const char *a, const char *b)
{
	int line = 0, col = 0;

	if (level != HS_DIAG_WARNING)
		x->errors++;
	if (!x->cfg)
		return;
	if (x->pos && at)
		hs_jsonpos_find(x->pos, at, &line, &col);
	hs_config_diag_at(x->cfg, level, x->src, line, col, fmt, a, b ? b : "");
}

const char *hs_shape_name(unsigned shape)
{
	switch (shape) {
	case HS_SHAPE_EVAL_CHAIN: return "eval-chain";
	case HS_SHAPE_EXEC_SHELL: return "exec-shell";
	case HS_SHAPE_SUBSHELL_TRAP: return "subshell-trap";
	case HS_SHAPE_SOURCE_REST: return "source-rest";
	default: return "";
	}
}

static unsigned shape_of(const char *name)
{
	for (unsigned s = 1; s <= HS_SHAPE_SOURCE_REST; s <<= 1)
		if (strcmp(hs_shape_name(s), name) == 0)
			return s;
	return 0;
}

/* A string member, copied; NULL (and said) when present but not one. */
static char *str(struct ctx *x, const cJSON *o, const char *key, bool need)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	if (!v) {
		if (need)
			say(x, o, HS_DIAG_ERROR, "agent profile: \"%s\" is "
			    "required%s", key, NULL);
		return NULL;
	}
	if (!cJSON_IsString(v) || !v->valuestring[0]) {
		say(x, v, HS_DIAG_ERROR, "agent profile: \"%s\" must be a "
		    "non-empty string%s", key, NULL);
		return NULL;
	}
	return strdup(v->valuestring);
}

/* A NULL-terminated copy of an array of strings. */
static char **strs(struct ctx *x, const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key), *e;
	char **out;
	size_t n = 0;

	if (!v)
		return NULL;
	if (!cJSON_IsArray(v) || !cJSON_GetArraySize(v)) {
		say(x, v, HS_DIAG_ERROR, "agent profile: \"%s\" must be a "
		    "non-empty array of strings%s", key, NULL);
		return NULL;
	}
	out = calloc((size_t)cJSON_GetArraySize(v) + 1, sizeof(*out));
	cJSON_ArrayForEach(e, v) {
		if (!cJSON_IsString(e)) {
			say(x, e, HS_DIAG_ERROR, "agent profile: \"%s\" must "
			    "hold strings only%s", key, NULL);
			continue;
		}
		if (out)
			out[n++] = strdup(e->valuestring);
	}
	return out;
}

static void strs_free(char **v)
{
	for (size_t k = 0; v && v[k]; k++)
		free(v[k]);
	free(v);
}

/* Members other than these (and "_…" comments) are said once each. */
static void unknown_keys(struct ctx *x, const cJSON *o,
			 const char *const *known)
{
	const cJSON *m;

	cJSON_ArrayForEach(m, o) {
		bool ok = m->string[0] == '_';

		for (size_t k = 0; !ok && known[k]; k++)
			ok = strcmp(m->string, known[k]) == 0;
		if (!ok)
			say(x, m, HS_DIAG_WARNING, "agent profile: unknown "
			    "key \"%s\"%s: ignored", m->string, NULL);
	}
}

static void internal_free(struct hs_agent_internal *in)
{
	free(in->what);
	free(in->shell);
	free(in->script);
	free(in->text);
	strs_free(in->argv);
	strs_free(in->contains);
}

static bool parse_internal(struct ctx *x, const cJSON *o,
			   const struct hs_agent *a,
			   struct hs_agent_internal *in)
{
	static const char *const known[] = { "what", "shell", "script", "argv",
		"text", "contains", "snapshot_check", NULL };
	const cJSON *sc = cJSON_GetObjectItemCaseSensitive(o, "snapshot_check");
	int ways, errors = x->errors;

	memset(in, 0, sizeof(*in));
	if (!cJSON_IsObject(o)) {
		say(x, o, HS_DIAG_ERROR, "agent profile: an \"internal\" entry "
		    "must be an object%s%s", "", NULL);
		return false;
	}
	unknown_keys(x, o, known);
	in->what = str(x, o, "what", true);
	in->shell = str(x, o, "shell", false);
	in->script = str(x, o, "script", false);
	in->argv = strs(x, o, "argv");
	in->text = str(x, o, "text", false);
	in->contains = strs(x, o, "contains");
	in->snapshot_check = cJSON_IsTrue(sc);
	if (sc && !cJSON_IsBool(sc))
		say(x, sc, HS_DIAG_ERROR, "agent profile: \"%s\" must be "
		    "true or false%s", "snapshot_check", NULL);
	ways = !!in->script + !!in->argv + !!in->text + !!in->contains +
	       in->snapshot_check;
	if (ways != 1)
		say(x, o, HS_DIAG_ERROR, "agent profile: an \"internal\" entry "
		    "says which shells with exactly one of \"script\", "
		    "\"argv\", \"text\", \"contains\" or "
		    "\"snapshot_check\"%s%s", "", NULL);
	if (in->snapshot_check && !a->snapshot)
		say(x, sc, HS_DIAG_ERROR, "agent profile: \"snapshot_check\" "
		    "needs the wrapper's \"snapshot\"%s%s", "", NULL);
	if (x->errors != errors) {
		internal_free(in);
		return false;
	}
	return true;
}

static bool parse_handoff(struct ctx *x, const cJSON *o,
			  struct hs_agent_handoff *h)
{
	static const char *const known[] = { "what", "script", "command", NULL };
	const cJSON *c = cJSON_GetObjectItemCaseSensitive(o, "command");
	int errors = x->errors;

	memset(h, 0, sizeof(*h));
	if (!cJSON_IsObject(o)) {
		say(x, o, HS_DIAG_ERROR, "agent profile: a \"handoffs\" entry "
		    "must be an object%s%s", "", NULL);
		return false;
	}
	unknown_keys(x, o, known);
	h->what = str(x, o, "what", true);
	h->script = str(x, o, "script", true);
	if (!cJSON_IsNumber(c) || c->valuedouble != (double)c->valueint ||
	    c->valueint < 1 || c->valueint > 99)
		say(x, c ? c : o, HS_DIAG_ERROR, "agent profile: \"command\" "
		    "is the positional parameter that carries the command, "
		    "1 to 99%s%s", "", NULL);
	else
		h->command = c->valueint;
	if (x->errors != errors) {
		free(h->what);
		free(h->script);
		return false;
	}
	return true;
}

static void agent_free(struct hs_agent *a)
{
	free(a->name);
	free(a->label);
	strs_free(a->processes);
	free(a->snapshot);
	free(a->cwd_file);
	free(a->bg_file);
	free(a->bg_var);
	free(a->bg_trap);
	free(a->guard);
	free(a->carry_var);
	for (size_t k = 0; k < a->ninternal; k++)
		internal_free(&a->internal[k]);
	free(a->internal);
	for (size_t k = 0; k < a->nhandoffs; k++) {
		free(a->handoffs[k].what);
		free(a->handoffs[k].script);
	}
	free(a->handoffs);
	free(a->source);
}

static void parse_wrapper(struct ctx *x, const cJSON *w, struct hs_agent *a)
{
	static const char *const known[] = { "shapes", "snapshot", "cwd_file",
		"bg_file", "bg_var", "bg_trap", "guard", "carry_var", NULL };
	const cJSON *sh = cJSON_GetObjectItemCaseSensitive(w, "shapes"), *e;

	if (!cJSON_IsObject(w)) {
		say(x, w, HS_DIAG_ERROR, "agent profile: \"wrapper\" must be "
		    "an object%s%s", "", NULL);
		return;
	}
	unknown_keys(x, w, known);
	cJSON_ArrayForEach(e, sh) {
		unsigned s = cJSON_IsString(e) ? shape_of(e->valuestring) : 0;

		if (!s)
			say(x, e, HS_DIAG_ERROR, "agent profile: unknown "
			    "wrapper shape %s%s (eval-chain, exec-shell, "
			    "subshell-trap, source-rest)",
			    cJSON_IsString(e) ? e->valuestring : "?", NULL);
		a->shapes |= s;
	}
	if (sh && !cJSON_IsArray(sh))
		say(x, sh, HS_DIAG_ERROR, "agent profile: \"shapes\" must be "
		    "an array%s%s", "", NULL);
	a->snapshot = str(x, w, "snapshot", false);
	a->cwd_file = str(x, w, "cwd_file", false);
	a->bg_file = str(x, w, "bg_file", false);
	a->bg_var = str(x, w, "bg_var", false);
	a->bg_trap = str(x, w, "bg_trap", false);
	a->guard = str(x, w, "guard", false);
	a->carry_var = str(x, w, "carry_var", false);
	if ((a->shapes & HS_SHAPE_EVAL_CHAIN) && !a->cwd_file)
		say(x, w, HS_DIAG_ERROR, "agent profile: eval-chain needs "
		    "\"cwd_file\"%s%s", "", NULL);
	if ((a->shapes & (HS_SHAPE_EXEC_SHELL | HS_SHAPE_SOURCE_REST)) &&
	    !a->snapshot)
		say(x, w, HS_DIAG_ERROR, "agent profile: exec-shell and "
		    "source-rest need \"snapshot\"%s%s", "", NULL);
	if ((a->shapes & HS_SHAPE_SUBSHELL_TRAP) &&
	    !(a->bg_file && a->bg_var && a->bg_trap && a->guard))
		say(x, w, HS_DIAG_ERROR, "agent profile: subshell-trap needs "
		    "\"bg_file\", \"bg_var\", \"bg_trap\" and \"guard\"%s%s",
		    "", NULL);
}

/* One profile object into a; false (a freed) when it has errors. */
static bool parse_agent(struct ctx *x, const cJSON *o, struct hs_agent *a)
{
	static const char *const known[] = { "name", "label", "processes",
		"wrapper", "internal", "handoffs", NULL };
	const cJSON *w, *list, *e;
	int errors = x->errors, line = 0, col = 0;
	size_t n;

	memset(a, 0, sizeof(*a));
	if (!cJSON_IsObject(o)) {
		say(x, o, HS_DIAG_ERROR, "agent profile: must be an "
		    "object%s%s", "", NULL);
		return false;
	}
	unknown_keys(x, o, known);
	a->name = str(x, o, "name", true);
	a->label = str(x, o, "label", false);
	if (!a->label && a->name)
		a->label = strdup(a->name);
	a->processes = strs(x, o, "processes");
	if ((w = cJSON_GetObjectItemCaseSensitive(o, "wrapper")))
		parse_wrapper(x, w, a);
	list = cJSON_GetObjectItemCaseSensitive(o, "internal");
	n = cJSON_IsArray(list) ? (size_t)cJSON_GetArraySize(list) : 0;
	if (list && !cJSON_IsArray(list))
		say(x, list, HS_DIAG_ERROR, "agent profile: \"internal\" must "
		    "be an array%s%s", "", NULL);
	a->internal = n ? calloc(n, sizeof(*a->internal)) : NULL;
	if (!n)
		list = NULL;
	cJSON_ArrayForEach(e, list)
		if (a->internal &&
		    parse_internal(x, e, a, &a->internal[a->ninternal]))
			a->ninternal++;
	list = cJSON_GetObjectItemCaseSensitive(o, "handoffs");
	n = cJSON_IsArray(list) ? (size_t)cJSON_GetArraySize(list) : 0;
	if (list && !cJSON_IsArray(list))
		say(x, list, HS_DIAG_ERROR, "agent profile: \"handoffs\" must "
		    "be an array%s%s", "", NULL);
	a->handoffs = n ? calloc(n, sizeof(*a->handoffs)) : NULL;
	if (!n)
		list = NULL;
	cJSON_ArrayForEach(e, list)
		if (a->handoffs &&
		    parse_handoff(x, e, &a->handoffs[a->nhandoffs]))
			a->nhandoffs++;
	if (x->pos)
		hs_jsonpos_find(x->pos, o, &line, &col);
	if (line)
		(void)!asprintf(&a->source, "%s:%d", x->src, line);
	else
		a->source = strdup(x->src);
	if (x->errors != errors) {
		agent_free(a);
		return false;
	}
	return true;
}

/* {"agents": [PROFILE…]} or one PROFILE: appended to set. */
static void parse_doc(struct ctx *x, const cJSON *root,
		      struct hs_agent_set *set)
{
	const cJSON *list = cJSON_GetObjectItemCaseSensitive(root, "agents");
	const cJSON *e;
	size_t n;

	if (!cJSON_IsObject(root)) {
		say(x, root, HS_DIAG_ERROR, "agent profile: the file must hold "
		    "an object%s%s", "", NULL);
		return;
	}
	if (!list) {
		list = root; /* one profile */
		n = 1;
	} else if (!cJSON_IsArray(list)) {
		say(x, list, HS_DIAG_ERROR, "agent profile: \"agents\" must be "
		    "an array%s%s", "", NULL);
		return;
	} else {
		n = (size_t)cJSON_GetArraySize(list);
	}
	if (!n)
		return; /* realloc(p, 0) would free p */
	{
		struct hs_agent *v = realloc(set->v, (set->n + n) * sizeof(*v));

		if (!v)
			return;
		set->v = v;
	}
	if (list == root) {
		if (parse_agent(x, root, &set->v[set->n]))
			set->n++;
		return;
	}
	cJSON_ArrayForEach(e, list)
		if (parse_agent(x, e, &set->v[set->n]))
			set->n++;
}

void hs_agent_set_free(struct hs_agent_set *set)
{
	if (!set)
		return;
	for (size_t k = 0; k < set->n; k++)
		agent_free(&set->v[k]);
	free(set->v);
	set->v = NULL;
	set->n = 0;
}

/* ---- the profiles in force ---- */

static struct hs_agent_set builtin;
static pthread_once_t builtin_once = PTHREAD_ONCE_INIT;
static const struct hs_agent_set *in_use;

/* The built-in profiles (config/agents.json) appended to set. */
static void parse_builtin_into(struct hs_agent_set *set)
{
	char err[256];
	struct ctx x = { .src = "built-in" };
	cJSON *root = hs_json_parse_text("built-in agent profiles",
					 hs_agents_json, strlen(hs_agents_json),
					 err, sizeof(err));

	if (root)
		parse_doc(&x, root, set);
	cJSON_Delete(root);
}

static void parse_builtin(void)
{
	parse_builtin_into(&builtin);
}

const struct hs_agent_set *hs_agents(void)
{
	const struct hs_agent_set *s = __atomic_load_n(&in_use, __ATOMIC_ACQUIRE);

	if (s)
		return s;
	pthread_once(&builtin_once, parse_builtin);
	return &builtin;
}

void hs_agents_use(const struct hs_agent_set *set)
{
	__atomic_store_n(&in_use, set, __ATOMIC_RELEASE);
}

/* ---- the files users and administrators add ---- */

static bool has_name(const struct hs_agent_set *set, size_t upto,
		     const char *name)
{
	for (size_t k = 0; k < upto; k++)
		if (strcmp(set->v[k].name, name) == 0)
			return true;
	return false;
}

/* Drops set->v[from…] whose name an earlier profile has: the earlier
 * holds. Said as a warning when cfg is given (a file's profile), not for
 * a built-in one a file replaced. */
static void drop_given(struct hs_config *cfg, struct hs_agent_set *set,
		       size_t from)
{
	for (size_t k = from; k < set->n;) {
		if (!has_name(set, k, set->v[k].name)) {
			k++;
			continue;
		}
		if (cfg)
			hs_config_diag(cfg, HS_DIAG_WARNING, "%s: agent profile "
				       "\"%s\" is already given; this one is "
				       "not used", set->v[k].source,
				       set->v[k].name);
		agent_free(&set->v[k]);
		memmove(&set->v[k], &set->v[k + 1],
			(set->n - k - 1) * sizeof(set->v[0]));
		set->n--;
	}
}

static int json_name(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return d->d_name[0] != '.' && n > 5 &&
	       strcmp(d->d_name + n - 5, ".json") == 0;
}

/* A managed profile speaks for the administrator as managed.json does:
 * root's and writable by no one else, or not used. */
static bool root_only(struct hs_config *cfg, const char *path)
{
	struct stat sb;

	if (stat(path, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_uid == 0 &&
	    !(sb.st_mode & (S_IWGRP | S_IWOTH)))
		return true;
	hs_config_diag(cfg, HS_DIAG_ERROR, "%s: a managed agent profile must "
		       "be root's and writable by no one else: not loaded",
		       path);
	return false;
}

/* Every *.json of dir, in name order (scandir: no glob of a name that
 * holds glob characters). */
static void load_dir(struct hs_config *cfg, const char *dir, bool managed,
		     struct hs_agent_set *set)
{
	struct dirent **names;
	int n = scandir(dir, &names, json_name, alphasort);

	for (int i = 0; i < n; i++) {
		char path[4096], err[512];
		int missing = 0;
		struct hs_jsonpos pos = { 0 };
		struct ctx x = { .cfg = cfg, .src = path, .pos = &pos };
		cJSON *root;
		size_t before = set->n;

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]->d_name);
		free(names[i]);
		if (managed && !root_only(cfg, path))
			continue;
		if (!(root = hs_json_read_file(path, err, sizeof(err), &missing,
					       &pos))) {
			hs_config_diag(cfg, HS_DIAG_ERROR, "%s", err);
			continue;
		}
		parse_doc(&x, root, set);
		drop_given(cfg, set, before);
		cJSON_Delete(root);
		hs_jsonpos_free(&pos);
	}
	if (n >= 0)
		free(names);
}

bool hs_agents_user_dir(char *buf, size_t cap)
{
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
	int n;

	if (xdg && xdg[0] == '/')
		n = snprintf(buf, cap, "%s/hookshim/agents", xdg);
	else if (home && home[0] == '/')
		n = snprintf(buf, cap, "%s/.config/hookshim/agents", home);
	else
		return false;
	return n > 0 && (size_t)n < cap;
}

void hs_config_load_agents(struct hs_config *cfg, const char *managed_dir)
{
	static const struct hs_agent_set none;
	struct hs_agent_set *set = &cfg->agents;
	char dir[4096], *p = NULL;
	size_t before;

	/* hookshim learn: every shell shown as it is. Turning profiles off
	 * only shows more (an agent's own shells fire hooks), so the
	 * environment may ask it. */
	if (getenv("HOOKSHIM_NO_PROFILES")) {
		hs_agents_use(&none);
		return;
	}

	if (managed_dir && asprintf(&p, "%s/agents", managed_dir) >= 0)
		load_dir(cfg, p, true, set);
	free(p);
	if (hs_agents_user_dir(dir, sizeof(dir)))
		load_dir(cfg, dir, false, set);
	if (!set->n)
		return; /* the built-ins, as they are */
	/* then each built-in none of those replaced */
	before = set->n;
	parse_builtin_into(set);
	drop_given(NULL, set, before);
	hs_agents_use(set);
}
