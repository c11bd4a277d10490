/* hookshim learn: runs an agent under an observing session with no agent
 * profile in force (HOOKSHIM_NO_PROFILES: every shell shown as it is),
 * then reads what it ran and writes a draft profile (docs/agents.md,
 * "Profiles") for the user to review:
 *   - processes: the agent's executable (and its script, for an agent
 *     started through node, bun, deno or python);
 *   - handoffs: a script the agent ran with arguments that hands one of
 *     them to a shell or eval and could not be unwrapped (a watchdog):
 *     its exact text, and the parameter whose value changed from run to
 *     run (the last one when it ran once);
 *   - internal: shells run through another shell than the tool calls'
 *     (node's execSync: /bin/sh), and any script run more than once, its
 *     numbers made wildcards -- each marked for review, since a command
 *     the model ran twice looks the same.
 * Nothing is written over an existing file without --force. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <dirent.h>

#include "../common/plainstr.h"
#include "../common/shellargv.h"
#include "../common/wire.h"
#include "cli.h"

const char hs_usage_learn[] =
	"usage: hookshim learn [-o FILE] [--name NAME] [--command CMD]... [--force]\n"
	"                      -- AGENT [ARGS...]\n"
	"Runs AGENT under a session that judges nothing and shows every shell\n"
	"as it is (no agent profile in force), then writes a draft agent\n"
	"profile from what it ran: its processes, the scripts that hand the\n"
	"model's command on as an argument (handoffs), and the shells it runs\n"
	"for itself (internal). Review it, then put it in\n"
	"~/.config/hookshim/agents/ (docs/agents.md, \"Profiles\").\n"
	"  -o, --output FILE  where the draft goes (default: standard output)\n"
	"  --name NAME        the profile's name (default: AGENT's basename)\n"
	"  --force            replace FILE if it exists\n"
	"  --command CMD      a command you will have the agent run (repeat for\n"
	"                     each): a shell that carries one is a tool call,\n"
	"                     every other shell the agent's own\n"
	"  --keep-log FILE    also keep the session's --log there\n";

static int usage(FILE *f)
{
	fputs(hs_usage_learn, f);
	return f == stderr ? 64 : 0;
}

/* One top-level shell the agent ran. */
struct shell {
	char *argv0, *script, *key; /* key: the script, numbers as # */
	char **opts;                /* the words between argv0 and it */
	char **params;              /* $0 $1 …, NULL-terminated */
	size_t nparams, seen;
	bool handoff;               /* shown whole, what it runs judged */
	bool unwrapped;             /* a wrapper shape or hand-off matched */
	int carried;                /* --command: $N carried one; -1 none */
	bool embedded;              /* --command: one is inside the script */
};

struct seen {
	struct shell *v;
	size_t n;
};

/* The agent's pids, seen while it ran (sample_agent): a script that
 * names one (Copilot CLI's marker `__…_snapshot_<pid in hex>_…__`) names
 * another the next time. */
static long agent_pids[8];
static size_t npids;

/* At s (after `prev`), a word that is one of agent_pids, in decimal or
 * hex, standing alone between non-alphanumerics. */
static bool alnum(char c);

static bool agent_pid(char prev, const char *s, size_t *n)
{
	char dec[24], hex[24];
	size_t k;

	if (alnum(prev))
		return false;
	for (size_t i = 0; i < npids; i++) {
		snprintf(dec, sizeof(dec), "%ld", agent_pids[i]);
		snprintf(hex, sizeof(hex), "%lx", agent_pids[i]);
		for (const char *w = dec; w; w = w == dec ? hex : NULL) {
			k = strlen(w);
			if (strncmp(s, w, k) == 0 && !alnum(s[k])) {
				*n = k;
				return true;
			}
		}
	}
	return false;
}

static size_t digit_run(const char *s);

/* s with every run of three digits or more as one '#': PIDs and temp
 * names vary (the same runs glob_of makes wildcards of). */
static char *digits_folded(const char *s)
{
	char *out = malloc(strlen(s) + 1), *o = out;

	if (!out)
		return NULL;
	while (*s) {
		if (digit_run(s) >= 3) {
			*o++ = '#';
			s += digit_run(s);
		} else {
			*o++ = *s++;
		}
	}
	*o = '\0';
	return out;
}

static bool alnum(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
	       (c >= 'A' && c <= 'Z');
}

/* At s (after `prev`), a token of at least 4 hex digits standing alone
 * between non-alphanumerics: a uuid's part (`01a23e2f`, `adbf`, `7462`
 * -- any of which may be letters or digits the next time), a random
 * name's, a long number. */
static bool hexish(char prev, const char *s, size_t *n)
{
	size_t k = 0;

	if (alnum(prev))
		return false;
	while ((s[k] >= '0' && s[k] <= '9') || (s[k] >= 'a' && s[k] <= 'f'))
		k++;
	if (k < 4 || alnum(s[k]))
		return false;
	*n = k;
	return true;
}

static size_t digit_run(const char *s)
{
	size_t n = 0;

	while (s[n] >= '0' && s[n] <= '9')
		n++;
	return n;
}

/* s as an fnmatch pattern matching itself; with `digits`, each run of
 * three digits or more (a pid, a port, a time) `[0-9]*` and the user's
 * home directory `*`: they differ from run to run and machine to
 * machine; `2>/dev/null`, `env -0` and `\0` stay as they are. */
static char *glob_of(const char *s, bool digits)
{
	size_t cap = strlen(s) * 6 + 1;
	char *out = malloc(cap), *o = out;
	const char *home = digits ? getenv("HOME") : NULL, *start = s;
	size_t hl = home ? strlen(home) : 0, n;

	if (!out)
		return NULL;
	while (*s) {
		if (hl > 1 && strncmp(s, home, hl) == 0) {
			*o++ = '*';
			s += hl;
			continue;
		}
		if (digits && (agent_pid(s > start ? s[-1] : ' ', s, &n) ||
			       hexish(s > start ? s[-1] : ' ', s, &n))) {
			*o++ = '*';
			s += n;
			continue;
		}
		if (digits && digit_run(s) >= 3) {
			memcpy(o, "[0-9]*", 6);
			o += 6;
			s += digit_run(s);
			continue;
		}
		if (strchr("*?[\\", *s))
			*o++ = '\\';
		*o++ = *s++;
	}
	*o = '\0';
	return out;
}

/* --command: the model's commands the user had the agent run */
static char **expected;

/* The names the agent runs as that its command line did not show: a
 * node agent may set its process title (Claude Code 2.0.0 runs as
 * `claude`), which is what the supervisor sees when it asks whose shell
 * it is (supervisor/caller.c). */
static char titles[4][64];
static size_t ntitles;

/* Are the n words at v the options sh was started with? */
static bool same_opts(const struct shell *sh, char *const v[], int n)
{
	int k = 0;

	if (!sh->opts)
		return false;
	while (k < n && sh->opts[k] && strcmp(sh->opts[k], v[k]) == 0)
		k++;
	return k == n && !sh->opts[k];
}

static void add_shell(struct seen *seen, const cJSON *argv, bool handoff,
		      bool unwrapped)
{
	char **v;
	int n = cJSON_GetArraySize(argv), i;
	struct shell *sh;
	char *folded;

	if (!(v = calloc((size_t)n + 1, sizeof(*v))))
		return;
	for (int k = 0; k < n; k++) {
		const cJSON *e = cJSON_GetArrayItem(argv, k);

		v[k] = strdup(cJSON_IsString(e) ? e->valuestring : "");
	}
	i = hs_shell_name(v[0]) ? hs_shell_operand(v) : -1;
	if (i < 0 || !(folded = digits_folded(v[i]))) {
		for (int k = 0; k < n; k++)
			free(v[k]);
		free(v);
		return;
	}
	for (size_t k = 0; k < seen->n; k++) {
		sh = &seen->v[k];
		if (strcmp(sh->argv0, v[0]) == 0 && strcmp(sh->key, folded) == 0 &&
		    same_opts(sh, v + 1, i - 1) &&
		    sh->nparams == (size_t)(n - i - 1)) {
			sh->seen++;
			for (size_t c = 0; expected && expected[c]; c++)
				for (size_t p = 1; p < sh->nparams; p++)
					if (strcmp(v[i + 1 + p], expected[c]) == 0)
						sh->carried = (int)p;
			/* a parameter that changes between runs is the
			 * command's: keep the first run's, mark the others */
			for (size_t p = 0; sh->params && p < sh->nparams; p++)
				if (sh->params[p] &&
				    strcmp(sh->params[p], v[i + 1 + p]) != 0) {
					free(sh->params[p]);
					sh->params[p] = NULL;
				}
			free(folded);
			for (int q = 0; q < n; q++)
				free(v[q]);
			free(v);
			return;
		}
	}
	sh = realloc(seen->v, (seen->n + 1) * sizeof(*sh));
	if (!sh) {
		free(folded);
		for (int q = 0; q < n; q++)
			free(v[q]);
		free(v);
		return;
	}
	seen->v = sh;
	sh = &seen->v[seen->n++];
	memset(sh, 0, sizeof(*sh));
	sh->argv0 = v[0];
	sh->script = v[i];
	sh->key = folded;
	sh->opts = calloc((size_t)i, sizeof(*sh->opts));
	for (int k = 1; sh->opts && k < i; k++)
		sh->opts[k - 1] = v[k];
	sh->nparams = (size_t)(n - i - 1);
	sh->params = calloc(sh->nparams + 1, sizeof(*sh->params));
	for (size_t p = 0; sh->params && p < sh->nparams; p++)
		sh->params[p] = v[i + 1 + p];
	if (!sh->params)
		sh->nparams = 0;
	for (int k = 1; k < n; k++)
		if (k != i && (k < i ? !sh->opts : !sh->params))
			free(v[k]);
	free(v);
	sh->seen = 1;
	sh->handoff = handoff;
	sh->unwrapped = unwrapped;
	sh->carried = -1;
	for (size_t c = 0; expected && expected[c]; c++) {
		for (size_t p = 1; sh->params && p < sh->nparams; p++)
			if (sh->params[p] && strcmp(sh->params[p], expected[c]) == 0)
				sh->carried = (int)p;
		if (strstr(sh->script, expected[c]))
			sh->embedded = true;
	}
}

/* The session's log: every top-level shell the agent ran. */
static int read_log(const char *path, struct seen *seen)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;

	if (!f)
		return -1;
	while (getline(&line, &cap, f) > 0) {
		cJSON *o = cJSON_Parse(line);
		const cJSON *ev = cJSON_GetObjectItem(o, "event");
		const cJSON *op = cJSON_GetObjectItem(o, "op");

		if (cJSON_IsString(ev) && strcmp(ev->valuestring, "pre") == 0 &&
		    cJSON_IsString(op) && strcmp(op->valuestring, "exec") == 0 &&
		    !cJSON_IsTrue(cJSON_GetObjectItem(o, "nested")) &&
		    !cJSON_IsTrue(cJSON_GetObjectItem(o, "beneath_handoff")))
			add_shell(seen, cJSON_GetObjectItem(o, "argv"),
				  cJSON_IsTrue(cJSON_GetObjectItem(o, "handoff")),
				  cJSON_GetObjectItem(o, "wrapper") != NULL);
		cJSON_Delete(o);
	}
	free(line);
	fclose(f);
	return 0;
}

/* The shell the tool calls ran through: a hand-off's or a wrapper's,
 * else the one most of the distinct scripts ran through. */
static const char *tool_shell(const struct seen *seen)
{
	const char *best = NULL;
	size_t most = 0;

	for (size_t k = 0; k < seen->n; k++)
		if (seen->v[k].carried > 0 || seen->v[k].embedded)
			return seen->v[k].argv0; /* told */
	for (size_t k = 0; k < seen->n; k++)
		if ((seen->v[k].handoff && seen->v[k].nparams >= 2) ||
		    seen->v[k].unwrapped)
			return seen->v[k].argv0;
	for (size_t k = 0; k < seen->n; k++) {
		size_t n = 0;

		for (size_t j = 0; j < seen->n; j++)
			n += strcmp(seen->v[j].argv0, seen->v[k].argv0) == 0;
		if (n > most) {
			most = n;
			best = seen->v[k].argv0;
		}
	}
	return best;
}

static bool is_expected(const char *s)
{
	for (size_t c = 0; expected && expected[c]; c++)
		if (strcmp(s, expected[c]) == 0)
			return true;
	return false;
}

static void add_handoff(cJSON *handoffs, const struct shell *sh, size_t cmd)
{
	cJSON *e = cJSON_CreateObject();
	char what[160], *g = glob_of(sh->script, false);

	snprintf(what, sizeof(what), "a script run %zu time(s) that hands on "
		 "parameter $%zu", sh->seen, cmd);
	cJSON_AddStringToObject(e, "what", what);
	cJSON_AddStringToObject(e, "script", g ? g : "");
	free(g);
	cJSON_AddNumberToObject(e, "command", (double)cmd);
	cJSON_AddItemToArray(handoffs, e);
}

static void add_embedded(cJSON *wrappers, const struct shell *sh)
{
	cJSON_AddItemToArray(wrappers, cJSON_CreateString(sh->script));
}

/* A long script of the agent's said by lines of it that name no path
 * and no number (those differ from machine to machine): up to four, of
 * at least 16 characters. False when it has none. */
static bool add_contains(cJSON *e, const char *script)
{
	cJSON *c = cJSON_CreateArray();
	const char *p = script;

	while (*p && cJSON_GetArraySize(c) < 4) {
		size_t n = strcspn(p, "\n");
		bool ok = n >= 16 && n < 200;

		for (size_t k = 0; ok && k < n; k++)
			ok = p[k] != '/' && !(p[k] >= '0' && p[k] <= '9');
		if (ok) {
			char *line = strndup(p, n), *t = line;

			while (t && (*t == ' ' || *t == '\t'))
				t++;
			if (t)
				cJSON_AddItemToArray(c, cJSON_CreateString(t));
			free(line);
		}
		p += n + (p[n] == '\n');
	}
	if (!cJSON_GetArraySize(c)) {
		cJSON_Delete(c);
		return false;
	}
	cJSON_AddItemToObject(e, "contains", c);
	return true;
}

/* An interpreter's agent is its script: `node cli.js` is "cli",
 * `python3 agent.py` "agent"; else the executable's basename. */
static bool interpreter(const char *p)
{
	return strncmp(hs_base(p), "node", 4) == 0 || strcmp(hs_base(p), "bun") == 0 ||
	       strcmp(hs_base(p), "deno") == 0 || strncmp(hs_base(p), "python", 6) == 0;
}

static const char *default_name(char *const agent[])
{
	static char name[128];
	char *dot;

	if (!agent[1] || agent[1][0] == '-' || !interpreter(agent[0]))
		return hs_base(agent[0]);
	snprintf(name, sizeof(name), "%s", hs_base(agent[1]));
	if ((dot = strrchr(name, '.')) && dot != name)
		*dot = '\0';
	return name;
}

static cJSON *draft(const struct seen *seen, const char *name,
		    char *const agent[])
{
	cJSON *o = cJSON_CreateObject(), *procs, *handoffs, *internal, *wrappers;
	const char *tool = tool_shell(seen);
	char what[160];

	cJSON_AddStringToObject(o, "_comment", "a draft by hookshim learn: "
				"review every entry before you use it "
				"(docs/agents.md, \"Profiles\")");
	cJSON_AddStringToObject(o, "name", name);
	/* the agent's executable; for `node cli.js`, its script (a
	 * profile naming node would take every node program for it) */
	procs = cJSON_AddArrayToObject(o, "processes");
	cJSON_AddItemToArray(procs, cJSON_CreateString(
		agent[1] && agent[1][0] != '-' && interpreter(agent[0])
			? hs_base(agent[1]) : hs_base(agent[0])));
	/* and the names it took while it ran (its process title) */
	for (size_t k = 0; k < ntitles; k++)
		if (strcmp(titles[k], cJSON_GetArrayItem(procs, 0)->valuestring))
			cJSON_AddItemToArray(procs,
					     cJSON_CreateString(titles[k]));
	handoffs = cJSON_CreateArray();
	internal = cJSON_CreateArray();
	wrappers = cJSON_CreateArray();
	for (size_t k = 0; k < seen->n; k++) {
		const struct shell *sh = &seen->v[k];
		cJSON *e;
		char *g;

		if (expected) {
			/* told the model's commands: a shell carrying one is
			 * a tool call, any other the agent's own */
			if (sh->carried > 0 && !sh->unwrapped) {
				add_handoff(handoffs, sh, (size_t)sh->carried);
				continue;
			}
			if (sh->carried > 0 || sh->embedded) {
				if (!sh->unwrapped && strcmp(sh->script, "") != 0 &&
				    !is_expected(sh->script))
					add_embedded(wrappers, sh);
				continue;
			}
		} else if (sh->handoff && !sh->unwrapped && sh->nparams >= 2) {
			/* the parameter that changed, else the last */
			size_t cmd = sh->nparams - 1;

			for (size_t p = 1; p < sh->nparams; p++)
				if (!sh->params[p])
					cmd = p;
			add_handoff(handoffs, sh, cmd);
			continue;
		} else if (sh->nparams || sh->unwrapped ||
			   (sh->seen < 2 && tool && strcmp(sh->argv0, tool) == 0)) {
			continue;
		}
		e = cJSON_CreateObject();
		snprintf(what, sizeof(what), "%s (seen %zu time(s)%s)",
			 strlen(sh->script) > 60 ? "a shell of its own"
						 : sh->script,
			 sh->seen,
			 expected ? ", no command of the model's in it"
			 : tool && strcmp(sh->argv0, tool) != 0
				 ? ", through another shell than its tool calls"
				 : "; a command the model ran twice looks the same");
		cJSON_AddStringToObject(e, "what", what);
		if (tool && strcmp(sh->argv0, tool) != 0)
			cJSON_AddStringToObject(e, "shell", sh->argv0);
		if (strlen(sh->script) > 200 && add_contains(e, sh->script)) {
			cJSON_AddItemToArray(internal, e);
			continue;
		}
		{
			cJSON *av = cJSON_AddArrayToObject(e, "argv");

			cJSON_AddItemToArray(av, cJSON_CreateString("*"));
			/* its options as they were: `-l -c`, `-c -l` */
			for (size_t w = 0; sh->opts && sh->opts[w]; w++) {
				g = glob_of(sh->opts[w], false);
				cJSON_AddItemToArray(
					av, cJSON_CreateString(g ? g : ""));
				free(g);
			}
			g = glob_of(sh->script, true);
			cJSON_AddItemToArray(av, cJSON_CreateString(g ? g : ""));
			free(g);
		}
		cJSON_AddItemToArray(internal, e);
	}
	if (cJSON_GetArraySize(internal))
		cJSON_AddItemToObject(o, "internal", internal);
	else
		cJSON_Delete(internal);
	if (cJSON_GetArraySize(handoffs))
		cJSON_AddItemToObject(o, "handoffs", handoffs);
	else
		cJSON_Delete(handoffs);
	/* a comment: scripts with the command inside, for the user to see
	 * whether a wrapper shape (or the generic rules) shows it */
	if (cJSON_GetArraySize(wrappers))
		cJSON_AddItemToObject(o, "_wrapped_commands", wrappers);
	else
		cJSON_Delete(wrappers);
	return o;
}

static void seen_free(struct seen *seen)
{
	for (size_t k = 0; k < seen->n; k++) {
		struct shell *sh = &seen->v[k];

		free(sh->argv0);
		free(sh->script);
		free(sh->key);
		for (size_t w = 0; sh->opts && sh->opts[w]; w++)
			free(sh->opts[w]);
		free(sh->opts);
		for (size_t p = 0; p < sh->nparams; p++)
			free(sh->params[p]);
		free(sh->params);
	}
	free(seen->v);
}

/* `hookshim run --log LOG -c POLICY -- AGENT…` with no profile in force;
 * its exit status. */
static void note_title(const char *name)
{
	/* (the hooks, children of `hookshim run` too, run through sh) */
	if (!name[0] || interpreter(name) || hs_shell_name(name) ||
	    strcmp(name, "hookshim") == 0 || strcmp(name, "true") == 0 ||
	    strlen(name) >= sizeof(titles[0]))
		return;
	for (size_t k = 0; k < ntitles; k++)
		if (strcmp(titles[k], name) == 0)
			return;
	if (ntitles < sizeof(titles) / sizeof(titles[0]))
		memcpy(titles[ntitles++], name, strlen(name) + 1);
}

/* The first word of the command line of each child of `run` (the agent
 * under `hookshim run`), as the kernel shows it now. Only those in run's
 * process group: the agent keeps it (it has the terminal), the hooks run
 * in groups of their own (engine/runner.c), whatever they run. */
static void sample_agent(pid_t run)
{
	char path[300], buf[512];
	struct hs_proc_stat st;
	struct dirent *e;
	ssize_t r;
	DIR *d = opendir("/proc");
	pid_t group = getpgid(run);
	int fd;

	while (d && (e = readdir(d))) {
		if (e->d_name[0] < '1' || e->d_name[0] > '9' ||
		    hs_proc_stat(atol(e->d_name), &st) < 0 ||
		    st.ppid != (long)run ||
		    getpgid((pid_t)atol(e->d_name)) != group)
			continue;
		snprintf(path, sizeof(path), "/proc/%s/cmdline", e->d_name);
		if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
			continue;
		r = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		buf[r > 0 ? r : 0] = '\0';
		note_title(hs_base(buf));
		{
			long pid = atol(e->d_name);
			size_t k = 0;

			while (k < npids && agent_pids[k] != pid)
				k++;
			if (k == npids && npids < sizeof(agent_pids) /
							 sizeof(agent_pids[0]))
				agent_pids[npids++] = pid;
		}
	}
	if (d)
		closedir(d);
}

static int observe(const char *log, const char *policy, char *const agent[])
{
	char self[PATH_MAX];
	size_t n = 0;
	pid_t pid;
	int st;

	if (!realpath("/proc/self/exe", self)) {
		perror("hookshim learn: /proc/self/exe");
		return -1;
	}
	while (agent[n])
		n++;
	{
		char *av[n + 8];

		av[0] = self;
		av[1] = "run";
		av[2] = "--log";
		av[3] = (char *)log;
		av[4] = "-c";
		av[5] = (char *)policy;
		av[6] = "--";
		for (size_t k = 0; k <= n; k++)
			av[7 + k] = agent[k];
		pid = fork();
		if (pid == 0) {
			setenv("HOOKSHIM_NO_PROFILES", "1", 1);
			execv(self, av);
			_exit(127);
		}
	}
	if (pid < 0) {
		perror("hookshim learn: fork");
		return -1;
	}
	/* while it runs, the names its process takes (note_title) */
	for (;;) {
		pid_t r = waitpid(pid, &st, WNOHANG);

		if (r == pid)
			break;
		if (r < 0 && errno != EINTR)
			return -1;
		sample_agent(pid);
		usleep(100 * 1000);
	}
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int cmd_learn(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "name", required_argument, NULL, 'n' },
		{ "force", no_argument, NULL, 'f' },
		{ "keep-log", required_argument, NULL, 'k' },
		{ "command", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *out = NULL, *name = NULL, *keep = NULL;
	char dir[] = "/tmp/hookshim-learn-XXXXXX", log[64], policy[64];
	struct seen seen = { 0 };
	bool force = false;
	size_t nexp = 0;
	cJSON *prof;
	char *text;
	int c, rc;
	FILE *f;

	while ((c = hs_cli_getopt(argc, argv, "+o:h", opts, "learn",
				  hs_usage_learn)) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case 'n': name = optarg; break;
		case 'f': force = true; break;
		case 'k': keep = optarg; break;
		case 'c': {
			char **v = realloc(expected, (nexp + 2) * sizeof(*v));

			if (!v)
				return 1;
			expected = v;
			expected[nexp++] = optarg;
			expected[nexp] = NULL;
			break;
		}
		case 'h': return usage(stdout);
		default: /* said by hs_cli_getopt */
			return 64;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "hookshim learn: which agent? (-- AGENT ...)\n");
		return usage(stderr);
	}
	if (out && !force && access(out, F_OK) == 0) {
		fprintf(stderr, "hookshim learn: %s exists (--force replaces "
			"it)\n", out);
		return 1;
	}
	if (!mkdtemp(dir)) {
		perror("hookshim learn: mkdtemp");
		return 1;
	}
	snprintf(log, sizeof(log), "%s/log.jsonl", dir);
	snprintf(policy, sizeof(policy), "%s/observe.json", dir);
	f = fopen(policy, "w");
	if (!f) {
		perror(policy);
		return 1;
	}
	/* one hook on every tool call, so that each is asked and logged;
	 * it judges nothing */
	fputs("{\"hooks\": {\"PreToolUse\": [{\"matcher\": \"Bash\", \"hooks\": "
	      "[{\"type\": \"command\", \"command\": \"true\"}]}]}}\n", f);
	fclose(f);
	rc = observe(log, policy, argv + optind);
	fprintf(stderr, "hookshim learn: the agent exited %d\n", rc);
	if (read_log(log, &seen) < 0) {
		fprintf(stderr, "hookshim learn: no session log: %s\n",
			strerror(errno));
		return 1;
	}
	if (keep && rename(log, keep) < 0)
		fprintf(stderr, "hookshim learn: %s: %s\n", keep,
			strerror(errno));
	unlink(log);
	unlink(policy);
	rmdir(dir);
	prof = draft(&seen, name ? name : default_name(argv + optind),
		     argv + optind);
	text = cJSON_Print(prof);
	cJSON_Delete(prof);
	seen_free(&seen);
	free(expected);
	expected = NULL;
	if (!text)
		return 1;
	if (out) {
		f = fopen(out, "w");
		if (!f || fprintf(f, "%s\n", text) < 0 || fclose(f) != 0) {
			perror(out);
			free(text);
			return 1;
		}
		fprintf(stderr, "hookshim learn: wrote %s: review it, then "
			"put it in ~/.config/hookshim/agents/\n", out);
	} else {
		printf("%s\n", text);
	}
	free(text);
	return 0;
}
