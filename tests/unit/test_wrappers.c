/* Agent wrappers, by fixture and by property:
 *   - every case of tests/fixtures/wrappers/AGENT-VERSION.json: the text
 *     the hook sees (or that it is the agent's own shell);
 *   - 2,250 random commands, each wrapped the way each of five agent
 *     wrapper shapes wraps it (11,250 in all),
 *     come back exactly, and unwrapped (as pi runs them) stay as they are.
 * Run from the top of the tree (tests/run.sh does). */
#include <cjson/cJSON.h>
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/command.h"
#include "engine/strbuf.h"
#include "check.h"

#define FIXTURES "tests/fixtures/wrappers"

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 &&
	    fseek(f, 0, SEEK_SET) == 0 && (buf = malloc((size_t)n + 1))) {
		if (fread(buf, 1, (size_t)n, f) != (size_t)n) {
			free(buf);
			buf = NULL;
		} else {
			buf[n] = '\0';
		}
	}
	fclose(f);
	return buf;
}

static void one_case(const char *file, const char *agent, int k,
		     const cJSON *c)
{
	const cJSON *argv = cJSON_GetObjectItem(c, "argv");
	const cJSON *want = cJSON_GetObjectItem(c, "command");
	bool internal = cJSON_IsTrue(cJSON_GetObjectItem(c, "internal"));
	int n = cJSON_GetArraySize(argv), i;
	char **av = calloc((size_t)n + 1, sizeof(*av));
	char name[600];
	struct hs_command_why why;
	char *got;
	const char *what;

	for (int j = 0; j < n; j++)
		av[j] = cJSON_GetArrayItem(argv, j)->valuestring;
	what = hs_command_agent_internal(av);
	snprintf(name, sizeof(name), "%.200s case %d: %s", file, k,
		 internal ? "the agent's own shell" : "the model's command");
	if (internal) {
		CHECK(name, what != NULL);
		free(av);
		return;
	}
	CHECK(name, what == NULL);
	got = hs_command_explain(av, NULL, &why);
	i = hs_command_shell_index(av);
	snprintf(name, sizeof(name), "%.200s case %d: text", file, k);
	/* "command": null means the full script, not unwrapped. */
	CHECK_STR(name, cJSON_IsString(want) ? want->valuestring : av[i], got);
	if (cJSON_IsString(want) && strcmp(want->valuestring, av[i]) != 0) {
		snprintf(name, sizeof(name), "%.200s case %d: %s's wrapper", file,
			 k, agent);
		CHECK(name, why.agent && strcmp(why.agent, agent) == 0);
	}
	free(got);
	free(av);
}

static void fixtures(void)
{
	DIR *d = opendir(FIXTURES);
	struct dirent *e;
	int files = 0;

	CHECK("fixture directory " FIXTURES, d != NULL);
	while (d && (e = readdir(d))) {
		char path[512], *text;
		cJSON *doc;
		const cJSON *cases, *c;
		const char *agent;
		int k = 0;

		if (!strstr(e->d_name, ".json"))
			continue;
		snprintf(path, sizeof(path), FIXTURES "/%s", e->d_name);
		text = slurp(path);
		doc = text ? cJSON_Parse(text) : NULL;
		CHECK(e->d_name, doc != NULL);
		agent = cJSON_GetStringValue(cJSON_GetObjectItem(doc, "agent"));
		cases = cJSON_GetObjectItem(doc, "cases");
		cJSON_ArrayForEach(c, cases)
			one_case(e->d_name, agent ? agent : "", k++, c);
		files++;
		cJSON_Delete(doc);
		free(text);
	}
	if (d)
		closedir(d);
	CHECK("fixtures for seven agent versions, six captured from runs",
	      files >= 13);
}

/* ---- random commands ---- */

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static unsigned pick(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % n);
}

static void word(struct hs_strbuf *b)
{
	static const char *const words[] = {
		"ls", "-la", "rm", "-rf", "build/", "git", "push", "--force",
		"*.c", "a\\ b", "$HOME", "\"$1\"", "${X:-y}", "$(date +%s)",
		"`id -u`", "'it'\\''s'", "\"say \\\"hi\\\"\"", "$'tab\\there'",
		"'a)b'", "\"(x)\"", "~/dir", "{a,b}", "100%", "é", "a#b",
		"'&&'", "\"; rm\"", "'\\'", "x=1", "--", "'a'\"'\"'b'",
	};

	hs_sb_adds(b, words[pick(sizeof(words) / sizeof(words[0]))]);
}

static void simple(struct hs_strbuf *b)
{
	static const char *const redirs[] = { " > out.txt", " 2>&1",
					      " < in.txt", " >> log",
					      " 2>/dev/null" };
	unsigned n = 1 + pick(4);

	if (!pick(8))
		hs_sb_adds(b, "FOO=bar ");
	hs_sb_adds(b, pick(2) ? "echo" : "grep");
	for (unsigned k = 0; k < n; k++) {
		hs_sb_addc(b, ' ');
		word(b);
	}
	if (!pick(4))
		hs_sb_adds(b, redirs[pick(5)]);
}

static void command(struct hs_strbuf *b, int depth)
{
	static const char *const ops[] = { " && ", " || ", "; ", " | ",
					   "\n", " & " };
	unsigned shape = depth > 2 ? 0 : pick(9);

	switch (shape) {
	case 1:
		hs_sb_adds(b, "( ");
		command(b, depth + 1);
		hs_sb_adds(b, " )");
		break;
	case 2:
		hs_sb_adds(b, "{ ");
		command(b, depth + 1);
		hs_sb_adds(b, "; }");
		break;
	case 3:
		hs_sb_adds(b, "if ");
		simple(b);
		hs_sb_adds(b, "; then ");
		command(b, depth + 1);
		hs_sb_adds(b, pick(2) ? "; fi" : "; else ls; fi");
		break;
	case 4:
		hs_sb_adds(b, "for f in a 'b c'; do ");
		command(b, depth + 1);
		hs_sb_adds(b, "; done");
		break;
	case 5:
		hs_sb_adds(b, "case \"$x\" in a|b) ");
		simple(b);
		hs_sb_adds(b, " ;; *) ls ;; esac");
		break;
	case 6:
		hs_sb_adds(b, "cat <<'EOF' > f\n(line) 'x'\nEOF\ntrue");
		break;
	default:
		simple(b);
	}
	if (!pick(3) && depth < 3) {
		hs_sb_adds(b, ops[pick(6)]);
		command(b, depth + 1);
	}
}

/* The model's text as each agent quotes it into its wrapper. */
static void single_quoted(struct hs_strbuf *b, const char *s)
{
	hs_sb_addc(b, '\'');
	for (; *s; s++) {
		if (*s == '\'')
			hs_sb_adds(b, "'\"'\"'");
		else
			hs_sb_addc(b, *s);
	}
	hs_sb_addc(b, '\'');
}

enum { CLAUDE_20, CLAUDE_21, CLAUDE_332, CODEX, GEMINI, NWRAP };

static char *wrap(int agent, const char *cmd)
{
	struct hs_strbuf b = { 0 };

	switch (agent) {
	case CLAUDE_20:
		/* captured from 2.0.0 (claude-code-2.0.0-run.json): the
		 * stdin redirection quoted as words of eval's */
		hs_sb_adds(&b, "source /r/.claude/shell-snapshots/snapshot-bash-1-"
			       "a.sh && eval ");
		single_quoted(&b, cmd);
		hs_sb_adds(&b, " \\< /dev/null && pwd -P >| /tmp/claude-1f2e-cwd");
		break;
	case CLAUDE_21:
		hs_sb_adds(&b, "source /r/.claude/shell-snapshots/snapshot-bash-1-"
			       "a.sh 2>/dev/null || true && shopt -u extglob "
			       "2>/dev/null || true && eval ");
		single_quoted(&b, cmd);
		if (!strstr(cmd, "<<"))
			hs_sb_adds(&b, " < /dev/null");
		hs_sb_adds(&b, " && pwd -P >| /tmp/claude-1f2e-cwd");
		break;
	case CLAUDE_332:
		hs_sb_adds(&b, "source /r/.claude/shell-snapshots/snapshot-bash-"
			       "1-a.sh 2>/dev/null || true && \\builtin shopt -u "
			       "extglob 2>/dev/null || true && { \\builtin "
			       "unalias -- 'which'; \\builtin unset -f -- "
			       "'which'; } >/dev/null 2>&1 || true && eval ");
		single_quoted(&b, cmd);
		hs_sb_adds(&b, " < /dev/null && pwd -P >| /tmp/claude-1f2e-cwd");
		break;
	case CODEX:
		hs_sb_adds(&b, "__CODEX_SNAPSHOT_OVERRIDE_SET_0=\"${CODEX_THREAD_"
			       "ID+x}\"\n\nif . '/r/.codex/shell_snapshots/1.sh' "
			       ">/dev/null 2>&1; then :; fi\n\nif [ -n \"${__"
			       "CODEX_SNAPSHOT_OVERRIDE_SET_0}\" ]; then export "
			       "CODEX_THREAD_ID=x; else unset CODEX_THREAD_ID; "
			       "fi\n\nexec '/bin/bash' -c ");
		single_quoted(&b, cmd);
		break;
	default:
		hs_sb_adds(&b, "shopt -u promptvars nullglob extglob nocaseglob "
			       "dotglob; _bgpids_file=/tmp/gemini-shell-Xy/"
			       "bgpids.tmp\n(\n  trap 'jobs -p > \"$_bgpids_file\"'"
			       " EXIT\n");
		hs_sb_adds(&b, cmd);
		hs_sb_adds(&b, "\n)\n__code=$?\nexit $__code");
	}
	return hs_sb_take(&b);
}

static void property(void)
{
	static const char *const names[NWRAP] = { "Claude Code 2.0.x",
		"Claude Code 2.1.x",
		"Claude Code 2.1.332", "Codex", "Gemini CLI" };
	int bad[NWRAP] = { 0 }, plain_bad = 0, total = 0;
	char first[NWRAP][400] = { { 0 } };

	for (int k = 0; k < 2250; k++) {
		struct hs_strbuf b = { 0 };
		char *cmd, *got;

		command(&b, 0);
		cmd = hs_sb_take(&b);
		got = hs_command_text((char *[]){ "bash", "-c", cmd, NULL },
				      NULL);
		plain_bad += strcmp(got, cmd) != 0;
		free(got);
		for (int a = 0; a < NWRAP; a++) {
			char *w = wrap(a, cmd);

			got = hs_command_text((char *[]){ "/bin/bash", "-c", w,
							  NULL }, NULL);
			if (strcmp(got, cmd) != 0 && !bad[a]++)
				snprintf(first[a], sizeof(first[a]), "%s", cmd);
			total++;
			free(got);
			free(w);
		}
		free(cmd);
	}
	for (int a = 0; a < NWRAP; a++) {
		char name[96];

		snprintf(name, sizeof(name),
			 "2250 random commands in %s's wrapper come back", names[a]);
		CHECK(name, bad[a] == 0);
		if (bad[a])
			printf("# %d wrong, the first: [%s]\n", bad[a], first[a]);
	}
	CHECK("random commands run as is stay as they are", plain_bad == 0);
	CHECK("11,250 wrapped commands in all", total == 2250 * NWRAP);
}

int main(void)
{
	fixtures();
	property();
	CHECK_DONE();
}
