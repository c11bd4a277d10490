/* config/agent_profiles.c: agent profiles as data -- the built-in ones
 * (config/agents.json, in the binary) and the files users add, with
 * their errors at file:line:col. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/agent_profile.h"
#include "config/model.h"
#include "engine/command.h"
#include "check.h"

#define ARGV(...) ((char *const[]){ __VA_ARGS__, NULL })


/* The profile in force whose "processes" names `exe`'s basename. */
static const struct hs_agent *by_process(const char *exe)
{
	const struct hs_agent_set *set = hs_agents();
	const char *base = strrchr(exe, '/') ? strrchr(exe, '/') + 1 : exe;

	for (size_t i = 0; i < set->n; i++)
		for (size_t k = 0; set->v[i].processes && set->v[i].processes[k];
		     k++)
			if (strcmp(base, set->v[i].processes[k]) == 0)
				return &set->v[i];
	return NULL;
}
static const struct hs_agent *named(const char *name)
{
	const struct hs_agent_set *s = hs_agents();

	for (size_t k = 0; k < s->n; k++)
		if (strcmp(s->v[k].name, name) == 0)
			return &s->v[k];
	return NULL;
}

static void builtins(void)
{
	const struct hs_agent *c = named("claude-code"), *x = named("codex");
	const struct hs_agent *g = named("gemini-cli"), *q = named("qwen-code");

	CHECK("six built-in profiles", hs_agents()->n == 6);
	CHECK("claude-code: eval-chain, its cwd file, 9 own shells",
	      c && c->shapes == HS_SHAPE_EVAL_CHAIN && c->cwd_file &&
		      c->ninternal == 9 && c->carry_var);
	CHECK("codex: exec-shell and source-rest, 3 own shells (two snapshot "
	      "scripts, whole)",
	      x && x->shapes == (HS_SHAPE_EXEC_SHELL | HS_SHAPE_SOURCE_REST) &&
		      x->ninternal == 3 && x->internal[0].text &&
		      x->internal[1].text && x->internal[2].snapshot_check);
	CHECK("gemini-cli: subshell-trap with its four marks",
	      g && g->shapes == HS_SHAPE_SUBSHELL_TRAP && g->bg_file &&
		      g->bg_var && g->bg_trap && g->guard);
	CHECK("qwen-code: three own shells, through /bin/sh",
	      q && q->ninternal == 3 && strcmp(q->internal[0].shell, "/bin/sh") == 0);
	CHECK("copilot: its login-environment shell, by argv with -l",
	      named("copilot") && named("copilot")->ninternal == 1 &&
		      strcmp(named("copilot")->internal[0].argv[1], "-l") == 0);
	CHECK("the agent by its process", by_process("/x/bin/claude") == c);
	CHECK("an unknown process has no profile",
	      by_process("/usr/bin/mystery-agent") == NULL);
}

static const char *write_file(const char *dir, const char *name,
			      const char *text)
{
	static char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
	return path;
}

static bool said(const struct hs_config *cfg, const char *needle)
{
	for (size_t k = 0; k < cfg->ndiags; k++)
		if (strstr(cfg->diags[k].text, needle))
			return true;
	return false;
}

#define WATCHDOG "shell=$2\ncommand=$3\n( while kill -0 \"$1\"; do sleep 2; done ) &\n\"$shell\" -c \"$command\""

static void user_files(void)
{
	char tmpl[] = "/tmp/hs-agents-XXXXXX", dir[600];
	struct hs_config cfg;
	char *t;

	if (!mkdtemp(tmpl))
		return;
	snprintf(dir, sizeof(dir), "%s/hookshim", tmpl);
	mkdir(dir, 0700);
	snprintf(dir, sizeof(dir), "%s/hookshim/agents", tmpl);
	mkdir(dir, 0700);
	setenv("XDG_CONFIG_HOME", tmpl, 1);
	write_file(dir, "10-watch.json",
		   "{\"name\": \"watch-agent\", \"processes\": [\"watch-agent\"],\n"
		   " \"handoffs\": [{\"what\": \"its watchdog\",\n"
		   "   \"script\": \"shell=$2\\ncommand=$3\\n*\", \"command\": 3}],\n"
		   " \"internal\": [{\"what\": \"its rg probe\", \"script\": \"rg --version\"}]}\n");
	write_file(dir, "20-pi.json",
		   "{\"agents\": [{\"name\": \"pi\", \"processes\": [\"pi\", \"pi-next\"]}]}\n");
	write_file(dir, "30-bad.json",
		   "{\"agents\": [\n"
		   " {\"processes\": [\"x\"]},\n"
		   " {\"name\": \"b\", \"wrapper\": {\"shapes\": [\"eval-chane\"]}},\n"
		   " {\"name\": \"c\", \"internal\": [{\"what\": \"w\", \"script\": \"a\", \"argv\": [\"b\"]}]},\n"
		   " {\"name\": \"d\", \"handoffs\": [{\"what\": \"w\", \"script\": \"*\", \"command\": 0}]},\n"
		   " {\"name\": \"e\", \"colour\": \"red\"}]}\n");
	write_file(dir, "40-twice.json", "{\"name\": \"watch-agent\"}\n");
	hs_config_init(&cfg, "/tmp");
	hs_config_load_agents(&cfg, NULL);
	CHECK("the user's profiles are in force", hs_agents() == &cfg.agents);
	CHECK("a profile of a built-in's name replaces it",
	      named("pi") && by_process("pi-next") == named("pi"));
	CHECK("... and the other built-ins stay", named("claude-code") &&
						   named("codex") && named("gemini-cli"));
	t = hs_command_text(ARGV("/bin/bash", "-c", WATCHDOG, "W", "123",
				 "/bin/bash", "rm -f victim.txt"), NULL);
	CHECK_STR("a profile's hand-off shows its command parameter",
		  "rm -f victim.txt", t);
	free(t);
	CHECK_STR("a profile's own shell is internal", "its rg probe",
		  hs_command_agent_internal(ARGV("/bin/sh", "-c", "rg --version")));
	CHECK("a missing name: file:line:col", said(&cfg, "30-bad.json:2:2: agent profile: \"name\" is required"));
	CHECK("an unknown shape: said where it is",
	      said(&cfg, "30-bad.json:3:39: agent profile: unknown wrapper shape eval-chane"));
	CHECK("two ways of saying an own shell", said(&cfg, "30-bad.json:4:29: agent profile: an \"internal\" entry says which"));
	CHECK("a hand-off's parameter out of range", said(&cfg, "30-bad.json:5:58: agent profile: \"command\""));
	CHECK("an unknown key is a warning", said(&cfg, "30-bad.json:6:16: agent profile: unknown key \"colour\""));
	CHECK("a profile with errors is not used", !named("b") && !named("c") && !named("d"));
	CHECK("the first file's profile of a name holds",
	      said(&cfg, "agent profile \"watch-agent\" is already given") &&
		      named("watch-agent")->nhandoffs == 1);
	hs_config_free(&cfg);
	CHECK("freed: the built-ins again", hs_agents()->n == 6 && !named("watch-agent"));
	/* a file with only an error, then one with no profile: nothing
	 * freed twice (realloc(p, 0)) */
	write_file(dir, "10-watch.json", "{\"name\": 5}\n");
	write_file(dir, "20-pi.json", "{\"agents\": []}\n");
	write_file(dir, "30-bad.json", "{\"name\": \"ok\"}\n");
	write_file(dir, "40-twice.json", "{\"agents\": []}\n");
	hs_config_init(&cfg, "/tmp");
	hs_config_load_agents(&cfg, NULL);
	CHECK("an empty list after an error: the next profile still loads",
	      named("ok") != NULL);
	hs_config_free(&cfg);
	/* a managed profile anyone may write is not the administrator's */
	{
		char mdir[700], mag[720];

		snprintf(mdir, sizeof(mdir), "%s/managed", tmpl);
		snprintf(mag, sizeof(mag), "%s/agents", mdir);
		mkdir(mdir, 0755);
		mkdir(mag, 0755);
		write_file(mag, "m.json", "{\"name\": \"managed-one\"}\n");
		chmod(write_file(mag, "w.json", "{\"name\": \"writable\"}\n"), 0666);
		hs_config_init(&cfg, "/tmp");
		hs_config_load_agents(&cfg, mdir);
		CHECK("a managed profile, root's: used", named("managed-one") != NULL);
		CHECK("a managed profile writable by others: not used",
		      !named("writable") &&
			      said(&cfg, "a managed agent profile must be root's"));
		hs_config_free(&cfg);
		unlink(write_file(mag, "m.json", ""));
		unlink(write_file(mag, "w.json", ""));
		rmdir(mag);
		rmdir(mdir);
	}
	unlink(write_file(dir, "10-watch.json", ""));
	unlink(write_file(dir, "20-pi.json", ""));
	unlink(write_file(dir, "30-bad.json", ""));
	unlink(write_file(dir, "40-twice.json", ""));
	rmdir(dir);
	snprintf(dir, sizeof(dir), "%s/hookshim", tmpl);
	rmdir(dir);
	rmdir(tmpl);
}

int main(void)
{
	builtins();
	user_files();
	CHECK_DONE();
}
