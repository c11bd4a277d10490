/* hookshim init: writes a commented starter policy from presets -- the
 * policy file (hookshim's own format: Claude Code's settings.json hooks)
 * and one readable hook script per preset beside it, in hooks/ -- records
 * the project's own file as trusted (its author is the user), and says how
 * to check, test and run it. Nothing is overwritten without --force. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "../config/load.h"
#include "../config/trust.h"
#include "cli.h"

const char hs_usage_init[] =
	"usage: hookshim init [--preset NAME]... [-o FILE] [--force]\n"
	"       hookshim init --list\n"
	"Writes a starter policy: FILE (default .hookshim/hooks.json, which\n"
	"`hookshim run` loads without being told, recorded as trusted) and a\n"
	"hook script per preset in hooks/ beside it, each commented, to edit.\n"
	"Presets (default: secrets, destructive, force-push, outside-root):\n"
	"  secrets       no writes to .env files, keys, certificates, secrets/\n"
	"                and ~/.ssh\n"
	"  destructive   no recursive delete of / or ~, mkfs, dd onto a disk,\n"
	"                fork bombs, recursive chmod/chown of /\n"
	"  force-push    no forced git push (--force, --force-with-lease, a\n"
	"                short option with f, a +refspec)\n"
	"  outside-root  no recursive rm of anything outside the project root\n"
	"                (every rm of the command, its cd's followed)\n"
	"  ci            settings for CI: every program a tool call, a failed\n"
	"                hook denies, any config error stops the run\n"
	"The hook scripts read the payload with jq; without jq each denies.\n";

/* One preset: the hook it adds (event, matcher, script), the extra
 * handlers' "if" rules (each runs the same script), and its script. */
struct preset {
	const char *name, *matcher;
	const char *rules[3];
	const char *script;  /* NULL: settings only */
	const char *example; /* `hookshim test` arguments it denies */
};

static const char secrets_sh[] =
	"#!/bin/sh\n"
	"# PreToolUse on Write|Edit (hookshim init --preset secrets): agents do\n"
	"# not write credentials. Edit the names to your project's; what this\n"
	"# prints on stderr before exit 2 is the reason the model reads.\n"
	"command -v jq >/dev/null || { echo \"secrets: jq is missing, so this policy cannot judge the write\" >&2; exit 2; }\n"
	"path=$(jq -r '.tool_input.file_path // \"\"')\n"
	"case \"${path##*/}\" in\n"
	".env.example | .env.sample | .env.template) ;;\n"
	".env | .env.* | *.pem | *.key | *.p12 | *.pfx | id_rsa* | id_ecdsa* | id_ed25519*)\n"
	"\techo \"secrets: $path holds credentials; agents do not write it\" >&2\n"
	"\texit 2 ;;\n"
	"esac\n"
	"case \"$path\" in\n"
	"*/secrets/* | */.ssh/*)\n"
	"\techo \"secrets: $path is in a secrets directory; agents do not write there\" >&2\n"
	"\texit 2 ;;\n"
	"esac\n"
	"exit 0\n";

static const char destructive_sh[] =
	"#!/bin/sh\n"
	"# PreToolUse on Bash (hookshim init --preset destructive): commands that\n"
	"# destroy beyond undo. Add your own lines; the message is the reason the\n"
	"# model reads.\n"
	"command -v jq >/dev/null || { echo \"destructive: jq is missing, so this policy cannot judge the command\" >&2; exit 2; }\n"
	"cmd=$(jq -r '.tool_input.command // \"\"' | tr '\\n' ' ')\n"
	"deny() { echo \"destructive: $1 is blocked by policy: $cmd\" >&2; exit 2; }\n"
	"has() { printf '%s\\n' \"$cmd\" | grep -Eq \"$1\"; }\n"
	"S='(^|[;&|(`/[:space:]])'  # where a command starts (\"/\" too: /bin/rm)\n"
	"E='([[:space:];&|)`]|$)'   # where a word ends\n"
	"HOME_='\\$\\{?HOME\\}?'       # $HOME or ${HOME}\n"
	"has \"${S}rm([[:space:]]+-[^[:space:]]*)*[[:space:]]+(-[^[:space:]]*[rR][^[:space:]]*|--recursive)([[:space:]]+-[^[:space:]]*)*[[:space:]]+\\\"?(/|/\\*|~|~/|~/\\*|$HOME_|$HOME_/|$HOME_/\\*)\\\"?$E\" &&\n"
	"\tdeny \"a recursive delete of / or of the home directory\"\n"
	"has \"${S}mkfs(\\.[a-z0-9]+)?[[:space:]]\" && deny \"making a filesystem\"\n"
	"has \"${S}dd[[:space:]].*of=/dev/(sd|nvme|hd|vd|xvd|mmcblk)\" && deny \"dd onto a disk\"\n"
	"printf '%s\\n' \"$cmd\" | grep -Fq ':(){ :|:& };:' && deny \"a fork bomb\"\n"
	"has \"${S}(chmod|chown)[[:space:]]+(-[^[:space:]]*[[:space:]]+)*-[^[:space:]]*R[^[:space:]]*[[:space:]]+([^[:space:]]+[[:space:]]+)?/$E\" &&\n"
	"\tdeny \"a recursive chmod or chown of /\"\n"
	"exit 0\n";

static const char force_push_sh[] =
	"#!/bin/sh\n"
	"# PreToolUse on Bash (hookshim init --preset force-push): no forced git\n"
	"# push -- --force, --force-with-lease, -f (alone or among short options),\n"
	"# a +refspec -- whatever the model reasons itself into.\n"
	"command -v jq >/dev/null || { echo \"force-push: jq is missing, so this policy cannot judge the command\" >&2; exit 2; }\n"
	"cmd=$(jq -r '.tool_input.command // \"\"' | tr '\\n\\\\' '  ')\n"
	"opt='([[:space:]]+(-[Cc][[:space:]]+[^[:space:]]+|-[^[:space:]]+))*'\n"
	"if printf '%s\\n' \"$cmd\" | grep -Eq \"git$opt[[:space:]]+push[^;&|]*[[:space:]](--force|--force-with-lease|-[a-zA-Z]*f[a-zA-Z]*|\\+[^[:space:]]+)([[:space:]=;&|]|$)\"; then\n"
	"\techo \"force-push is blocked by policy: $cmd\" >&2\n"
	"\texit 2\n"
	"fi\n"
	"exit 0\n";

static const char outside_root_sh[] =
	"#!/bin/bash\n"
	"# PreToolUse on Bash (hookshim init --preset outside-root): no recursive\n"
	"# rm of anything outside the project root, or of the root itself. Every\n"
	"# rm of the command is checked, its cd's followed; a target that names a\n"
	"# variable or a command substitution cannot be placed and is refused.\n"
	"command -v jq >/dev/null || { echo \"outside-root: jq is missing, so this policy cannot judge the command\" >&2; exit 2; }\n"
	"input=$(cat)\n"
	"cmd=$(jq -r '.tool_input.command // \"\"' <<<\"$input\")\n"
	"cwd=$(jq -r '.cwd // \"\"' <<<\"$input\")\n"
	"root=${CLAUDE_PROJECT_DIR:-$cwd}\n"
	"deny() { echo \"rm -r outside the project root is blocked by policy: $1 (root: $root)\" >&2; exit 2; }\n"
	"# the words, the shell's separators words of their own\n"
	"read -ra words <<<\"$(printf '%s' \"$cmd\" | tr '\\n' ';' | sed -E 's/(&&|\\|\\||[;&|()])/ \\1 /g')\"\n"
	"n=${#words[@]} i=0 here=$cwd\n"
	"at_start=1 # the word is a command's name, not an argument (\"echo rm\")\n"
	"while [ \"$i\" -lt \"$n\" ]; do\n"
	"\tw=${words[i]}\n"
	"\tcase \"$w\" in\n"
	"\t';' | '&&' | '||' | '|' | '&' | '(' | ')' | then | do | else | '!') at_start=2 ;;\n"
	"\tsudo | env | exec | command | nohup | nice | time | xargs | *=*) [ \"$at_start\" = 0 ] || at_start=2 ;;\n"
	"\tesac\n"
	"\tif [ \"$at_start\" = 2 ]; then # a word before the command's name\n"
	"\t\tat_start=1\n"
	"\t\ti=$((i + 1))\n"
	"\t\tcontinue\n"
	"\tfi\n"
	"\tif [ \"$at_start\" = 0 ]; then\n"
	"\t\ti=$((i + 1))\n"
	"\t\tcontinue\n"
	"\tfi\n"
	"\tat_start=0\n"
	"\tif [ \"$w\" = cd ]; then\n"
	"\t\td=${words[i + 1]:-${HOME:-/}}\n"
	"\t\tcase \"$d\" in\n"
	"\t\t*'$'* | *'`'*) here= ;;\n"
	"\t\t/*) here=$d ;;\n"
	"\t\t'~'*) here=${HOME:-}${d#\\~} ;;\n"
	"\t\t*) [ -n \"$here\" ] && here=$here/$d ;;\n"
	"\t\tesac\n"
	"\t\t[ -n \"$here\" ] && here=$(realpath -m -- \"$here\")\n"
	"\telif [ \"$w\" = rm ] || [[ \"$w\" == */rm ]]; then\n"
	"\t\trecursive=0 targets=()\n"
	"\t\tfor ((j = i + 1; j < n; j++)); do\n"
	"\t\t\ta=${words[j]}\n"
	"\t\t\tcase \"$a\" in\n"
	"\t\t\t';' | '&&' | '||' | '|' | '&' | '(' | ')') break ;;\n"
	"\t\t\t--recursive) recursive=1 ;;\n"
	"\t\t\t--*) ;;\n"
	"\t\t\t-*) [[ \"$a\" == *[rR]* ]] && recursive=1 ;;\n"
	"\t\t\t*) targets+=(\"$a\") ;;\n"
	"\t\t\tesac\n"
	"\t\tdone\n"
	"\t\tfor t in \"${targets[@]}\"; do\n"
	"\t\t\t[ \"$recursive\" = 1 ] || break\n"
	"\t\t\tt=${t%\\\"}; t=${t#\\\"}; t=${t%\\'}; t=${t#\\'}\n"
	"\t\t\tcase \"$t\" in *'$'* | *'`'*) deny \"$t names a variable or a command: where it points cannot be told\" ;; esac\n"
	"\t\t\tcase \"$t\" in\n"
	"\t\t\t/*) abs=$t ;;\n"
	"\t\t\t'~'*) abs=${HOME:-}${t#\\~} ;;\n"
	"\t\t\t*) [ -n \"$here\" ] || deny \"$t comes after a cd that cannot be followed\"\n"
	"\t\t\t   abs=$here/$t ;;\n"
	"\t\t\tesac\n"
	"\t\t\tabs=$(realpath -m -- \"$abs\")\n"
	"\t\t\tif [ \"$abs\" = \"$root\" ] || [[ \"$abs\" != \"$root\"/* ]]; then\n"
	"\t\t\t\tdeny \"$t is $abs\"\n"
	"\t\t\tfi\n"
	"\t\tdone\n"
	"\t\ti=$j\n"
	"\t\tat_start=1 # j is a separator (or the end)\n"
	"\t\tcontinue\n"
	"\tfi\n"
	"\ti=$((i + 1))\n"
	"done\n"
	"exit 0\n";

static const struct preset presets[] = {
	{ "secrets", "Write|Edit", { "Write(~/.ssh/**)", "Edit(~/.ssh/**)" },
	  secrets_sh, "--tool Write --file .env" },
	{ "destructive", "Bash", { NULL }, destructive_sh,
	  "--tool Bash --command 'rm -rf ~'" },
	{ "force-push", "Bash", { NULL }, force_push_sh,
	  "--tool Bash --command 'git push --force'" },
	{ "outside-root", "Bash", { NULL }, outside_root_sh,
	  "--tool Bash --command 'rm -r ../other'" },
	{ "ci", NULL, { NULL }, NULL, NULL },
};
#define NPRESETS (sizeof(presets) / sizeof(presets[0]))
static const char *const defaults[] = { "secrets", "destructive", "force-push",
					"outside-root" };

static int usage(FILE *f)
{
	fputs(hs_usage_init, f);
	return f == stderr ? 64 : 0;
}

static const struct preset *find(const char *name)
{
	const struct preset *best = NULL;
	size_t bd = 3;

	for (size_t i = 0; i < NPRESETS; i++)
		if (strcmp(presets[i].name, name) == 0)
			return &presets[i];
	for (size_t i = 0; i < NPRESETS; i++) {
		size_t d = hs_cli_distance(name, presets[i].name);

		if (d < bd) {
			bd = d;
			best = &presets[i];
		}
	}
	fprintf(stderr, "hookshim init: no preset '%s'", name);
	if (best)
		fprintf(stderr, "; did you mean '%s'?", best->name);
	fprintf(stderr, " (hookshim init --list)\n");
	return NULL;
}

/* Writes `text` to `path` (mode), refusing to replace a file unless
 * `force`; 0 or -1 after a message. */
static int write_file(const char *path, const char *text, mode_t mode,
		      bool force)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW |
				    (force ? O_TRUNC : O_EXCL),
		      mode);
	size_t n = strlen(text);

	if (fd < 0) {
		fprintf(stderr, "hookshim init: %s: %s%s\n", path,
			strerror(errno),
			errno == EEXIST ? " (--force replaces it)" : "");
		return -1;
	}
	if (write(fd, text, n) != (ssize_t)n || fchmod(fd, mode) < 0 ||
	    close(fd) < 0) {
		fprintf(stderr, "hookshim init: %s: %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* cJSON's layout (a tab per level, a tab after each ':') as two spaces
 * per level and one after ':'; s is freed. A string holds no raw tab:
 * cJSON writes it as \t. */
static char *tidy(char *s)
{
	char *out = malloc(2 * strlen(s) + 1), *w = out;
	bool line_start = true;

	for (const char *r = s; out && *r; r++) {
		if (*r == '\t' && line_start) {
			*w++ = ' ';
			*w++ = ' ';
			continue;
		}
		line_start = *r == '\n';
		*w++ = *r == '\t' ? ' ' : *r;
	}
	if (out)
		*w = '\0';
	free(s);
	return out;
}

/* The policy file's JSON for the chosen presets; `cmd_dir` is how a hook
 * names the scripts' directory. */
static char *policy_json(const struct preset **chosen, size_t n,
			 const char *cmd_dir)
{
	cJSON *doc = cJSON_CreateObject(), *hooks, *pre;
	char *out;

	cJSON_AddStringToObject(doc, "// about", "hookshim's starter policy "
				"(hookshim init): Claude Code's settings.json "
				"hooks format. Edit it, then `hookshim check`.");
	for (size_t i = 0; i < n; i++)
		if (!chosen[i]->script) {
			cJSON *s = cJSON_AddObjectToObject(doc, "hookshim");

			cJSON_AddStringToObject(s, "// ci", "every program a tool "
						"call; a failed hook denies; any "
						"config error stops the run");
			cJSON_AddStringToObject(s, "tool_calls", "every-exec");
			cJSON_AddStringToObject(s, "on_hook_failure", "deny");
			cJSON_AddBoolToObject(s, "strict_config", true);
		}
	hooks = cJSON_AddObjectToObject(doc, "hooks");
	pre = cJSON_AddArrayToObject(hooks, "PreToolUse");
	for (size_t i = 0; i < n; i++) {
		const struct preset *p = chosen[i];
		cJSON *grp, *hs, *h;
		char *cmd = NULL;

		if (!p->script ||
		    asprintf(&cmd, "%s/%s.sh", cmd_dir, p->name) < 0)
			continue;
		grp = cJSON_CreateObject();
		cJSON_AddStringToObject(grp, "matcher", p->matcher);
		hs = cJSON_AddArrayToObject(grp, "hooks");
		h = cJSON_CreateObject();
		cJSON_AddStringToObject(h, "type", "command");
		cJSON_AddStringToObject(h, "command", cmd);
		cJSON_AddItemToArray(hs, h);
		/* an "if" rule outside the root makes that place's writes
		 * events too (docs/configuration.md, writes.include) */
		for (size_t r = 0; r < 3 && p->rules[r]; r++) {
			h = cJSON_CreateObject();
			cJSON_AddStringToObject(h, "type", "command");
			cJSON_AddStringToObject(h, "if", p->rules[r]);
			cJSON_AddStringToObject(h, "command", cmd);
			cJSON_AddItemToArray(hs, h);
		}
		cJSON_AddItemToArray(pre, grp);
		free(cmd);
	}
	out = cJSON_Print(doc);
	cJSON_Delete(doc);
	return out ? tidy(out) : NULL;
}

/* Does the managed policy keep a project's own hook files out? */
static bool projects_off(const char *root)
{
	struct hs_config cfg;
	bool off;

	hs_config_init(&cfg, root);
	hs_config_load_managed(&cfg);
	off = cfg.settings.project_never;
	hs_config_free(&cfg);
	return off;
}

int cmd_init(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "preset", required_argument, NULL, 'p' },
		{ "output", required_argument, NULL, 'o' },
		{ "force", no_argument, NULL, 'f' },
		{ "list", no_argument, NULL, 'l' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const struct preset *chosen[NPRESETS];
	const char *out = ".hookshim/hooks.json";
	char root[PATH_MAX], file[PATH_MAX], dir[PATH_MAX], cmd_dir[PATH_MAX + 40];
	char *json, hex[HS_TRUST_HEX], err[PATH_MAX + 128];
	size_t n = 0;
	bool force = false, named = false;
	int c, rc = 0;

	while ((c = hs_cli_getopt(argc, argv, "+p:o:fh", opts, "init",
				  hs_usage_init)) != -1) {
		switch (c) {
		case 'p': {
			char *list = strdup(optarg), *save = NULL;

			for (char *w = list ? strtok_r(list, ",", &save) : NULL;
			     w; w = strtok_r(NULL, ",", &save)) {
				const struct preset *p = find(w);
				bool dup = false;

				if (!p) {
					free(list);
					return 64;
				}
				for (size_t i = 0; i < n; i++)
					dup |= chosen[i] == p;
				if (!dup)
					chosen[n++] = p;
			}
			free(list);
			break;
		}
		case 'o':
			out = optarg;
			break;
		case 'f':
			force = true;
			break;
		case 'l':
			for (size_t i = 0; i < NPRESETS; i++)
				printf("%s\n", presets[i].name);
			return 0;
		case 'h':
			return usage(stdout);
		default: /* said by hs_cli_getopt */
			return 64;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "hookshim init: unexpected '%s'\n", argv[optind]);
		return usage(stderr);
	}
	for (size_t i = 0; !n && i < sizeof(defaults) / sizeof(*defaults); i++)
		chosen[i] = find(defaults[i]);
	if (!n)
		n = sizeof(defaults) / sizeof(*defaults);
	if (!getcwd(root, sizeof(root))) {
		perror("hookshim init: getcwd");
		return 1;
	}
	/* the file and its hooks/ directory */
	snprintf(file, sizeof(file), "%s", out);
	snprintf(dir, sizeof(dir), "%s", dirname(file));
	snprintf(file, sizeof(file), "%s", out);
	if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
		fprintf(stderr, "hookshim init: %s: %s\n", dir, strerror(errno));
		return 1;
	}
	{
		char hooks[PATH_MAX + 8], real[PATH_MAX];

		snprintf(hooks, sizeof(hooks), "%s/hooks", dir);
		if (mkdir(hooks, 0755) < 0 && errno != EEXIST) {
			fprintf(stderr, "hookshim init: %s: %s\n", hooks,
				strerror(errno));
			return 1;
		}
		/* a hook names its scripts from the project root when they
		 * are under it (the policy moves with the project), else
		 * by their absolute path */
		if (!realpath(hooks, real)) {
			perror(hooks);
			return 1;
		}
		/* the project's own file: from the root, whatever the
		 * checkout's path; another (-o): by its absolute path, which
		 * holds whatever directory `run -c` starts in */
		if (strcmp(out, ".hookshim/hooks.json") == 0 &&
		    strncmp(real, root, strlen(root)) == 0 &&
		    real[strlen(root)] == '/')
			snprintf(cmd_dir, sizeof(cmd_dir),
				 "\"$CLAUDE_PROJECT_DIR\"%s", real + strlen(root));
		else if (!strchr(real, '\''))
			snprintf(cmd_dir, sizeof(cmd_dir), "'%s'", real);
		else {
			fprintf(stderr, "hookshim init: %s: a quote in the path "
				"(choose another -o)\n", real);
			return 1;
		}
		for (size_t i = 0; i < n && !rc; i++) {
			char path[PATH_MAX + 64];

			if (!chosen[i]->script)
				continue;
			snprintf(path, sizeof(path), "%s/%s.sh", hooks,
				 chosen[i]->name);
			rc = write_file(path, chosen[i]->script, 0755, force);
		}
	}
	json = rc ? NULL : policy_json(chosen, n, cmd_dir);
	{
		char *text = NULL;

		if (!json || asprintf(&text, "%s\n", json) < 0 ||
		    write_file(file, text, 0644, force) < 0)
			rc = 1;
		free(text);
		free(json);
		if (rc)
			return 1;
	}
	printf("hookshim init: wrote %s and its scripts in %s/hooks/ (presets:",
	       file, dir);
	for (size_t i = 0; i < n; i++)
		printf("%s %s", i ? "," : "", chosen[i]->name);
	printf(")\n");
	/* the project's own file loads only trusted: the user wrote it;
	 * unless an administrator keeps project files out altogether */
	if (strcmp(out, ".hookshim/hooks.json") == 0 && projects_off(root)) {
		printf("  the managed policy keeps a project's own hook files "
		       "out (project_files: never): name it with -c\n");
		named = true;
	} else if (strcmp(out, ".hookshim/hooks.json") == 0) {
		if (hs_trust_set(file, false, hex, err, sizeof(err)) < 0) {
			fprintf(stderr, "hookshim init: trust: %s\n", err);
			return 1;
		}
		printf("  trusted it as it is now: `hookshim run` loads it "
		       "without -c (edit it, then `hookshim trust` again)\n");
	}
	{
		const char *c, *f;

		named |= strcmp(out, ".hookshim/hooks.json") != 0;
		c = named ? " -c " : "";
		f = named ? out : "";

		printf("next:\n  hookshim check%s%s\n", c, f);
		for (size_t i = 0; i < n; i++)
			if (chosen[i]->example) {
				printf("  hookshim test%s%s PreToolUse %s   # "
				       "exit 2: denied\n", c, f,
				       chosen[i]->example);
				break;
			}
		printf("  hookshim run%s%s -- claude   # or any agent\n", c, f);
	}
	return 0;
}
