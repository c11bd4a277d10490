/* Matchers, globs, durations, rules and located JSON errors. */
#include <cjson/cJSON.h>
#include <stdlib.h>

#include "../../config/http_handler.h"
#include "../../config/loadkit.h"
#include "../../config/jsonfile.h"
#include "../../config/load.h"
#include "../../engine/match.h"
#include "check.h"

static bool m(enum hs_match_kind kind, const char *pat, const char *subject)
{
	struct hs_matcher mt;
	char err[256];
	bool r;

	if (hs_matcher_init(&mt, kind, pat, err, sizeof(err)) < 0)
		return false;
	r = hs_matcher_match(&mt, subject);
	hs_matcher_free(&mt);
	return r;
}

static void test_claude_matchers(void)
{
	CHECK("claude: * is all", hs_matcher_claude_kind("*") == HS_MATCH_ALL);
	CHECK("claude: empty is all", hs_matcher_claude_kind("") == HS_MATCH_ALL);
	CHECK("claude: absent is all", hs_matcher_claude_kind(NULL) == HS_MATCH_ALL);
	CHECK("claude: Edit|Write is an exact list",
	      hs_matcher_claude_kind("Edit|Write") == HS_MATCH_EXACT_LIST);
	CHECK("claude: mcp__.* is a regex",
	      hs_matcher_claude_kind("mcp__.*") == HS_MATCH_REGEX);
	CHECK("exact list matches Write", m(HS_MATCH_EXACT_LIST, "Edit|Write", "Write"));
	CHECK("exact list rejects Writer", !m(HS_MATCH_EXACT_LIST, "Edit|Write", "Writer"));
	CHECK("exact list rejects substring", !m(HS_MATCH_EXACT_LIST, "Bash", "Bas"));
	CHECK("unanchored regex finds inside", m(HS_MATCH_REGEX, "ash$", "Bash"));
	CHECK("unanchored regex: Notebook.* in NotebookEdit",
	      m(HS_MATCH_REGEX, "Notebook.*", "NotebookEdit"));
}

static void test_memcode_matchers(void)
{
	CHECK("memcode full match: bash = bash", m(HS_MATCH_REGEX_FULL, "bash", "bash"));
	CHECK("memcode full match: bash != bash2", !m(HS_MATCH_REGEX_FULL, "bash", "bash2"));
	CHECK("memcode full match: bash != xbash", !m(HS_MATCH_REGEX_FULL, "bash", "xbash"));
	CHECK("memcode full match: alternation", m(HS_MATCH_REGEX_FULL, "bash|edit_file", "edit_file"));
	CHECK("memcode full match: alternation anchored both ends",
	      !m(HS_MATCH_REGEX_FULL, "bash|edit", "edit_file"));
}

static void test_globs(void)
{
	CHECK("mnemoai glob git_* matches git_status", m(HS_MATCH_GLOB, "git_*", "git_status"));
	CHECK("mnemoai glob fs_write exact", m(HS_MATCH_GLOB, "fs_write", "fs_write"));
	CHECK("mnemoai glob is anchored", !m(HS_MATCH_GLOB, "fs_", "fs_write"));
	CHECK("mnemoai glob ?", m(HS_MATCH_GLOB, "fs_writ?", "fs_write"));
	CHECK("mnemoai glob class", m(HS_MATCH_GLOB, "[ef]s_write", "fs_write"));
	CHECK("path glob ** crosses /", hs_glob_match("secrets/**", "secrets/a/b/c", true));
	CHECK("path glob dir/** matches dir", hs_glob_match("secrets/**", "secrets", true));
	CHECK("path glob * stops at /", !hs_glob_match("src/*.go", "src/a/b.go", true));
	CHECK("path glob **/x", hs_glob_match("**/x.go", "a/b/x.go", true));
	CHECK("path glob **/x at top", hs_glob_match("**/x.go", "x.go", true));
	CHECK("path glob not prefix", !hs_glob_match("secrets/**", "secretsx/a", true));
	CHECK("non-path glob * crosses /", hs_glob_match("git push *", "git push origin/main", false));
	CHECK("glob negated class", !hs_glob_match("[!a]b", "ab", false));
}

static void test_durations(void)
{
	CHECK("duration 10s", hs_parse_duration_text("10s") == 10000);
	CHECK("duration 1m30s", hs_parse_duration_text("1m30s") == 90000);
	CHECK("duration 250ms", hs_parse_duration_text("250ms") == 250);
	CHECK("duration 1.5s", hs_parse_duration_text("1.5s") == 1500);
	CHECK("duration bare seconds text", hs_parse_duration_text("7") == 7000);
	CHECK("duration 1h", hs_parse_duration_text("1h") == 3600000);
	CHECK("duration rejects 10x", hs_parse_duration_text("10x") < 0);
	CHECK("duration rejects empty", hs_parse_duration_text("") < 0);
	CHECK("duration rejects -1s", hs_parse_duration_text("-1s") < 0);
	{
		cJSON *n = cJSON_CreateNumber(5);

		CHECK("duration integer seconds", hs_parse_duration_ms(n) == 5000);
		cJSON_Delete(n);
	}
}

static bool rule(const char *text, const char *tool, unsigned op,
		 const char *arg)
{
	struct hs_rule r;
	struct hs_event ev = { .op = op, .root = "/proj" };
	bool ok;

	if (hs_rule_parse(text, &r) < 0)
		return false;
	if (op == HS_OP_EXEC)
		ev.command = arg;
	else
		ev.path = arg;
	ok = hs_rule_matches(&r, tool, &ev);
	free(r.tool);
	free(r.pattern);
	return ok;
}

static void test_rules(void)
{
	struct hs_rule r;

	CHECK("if: Bash(git push *) matches a push",
	      rule("Bash(git push *)", "Bash", HS_OP_EXEC, "git push --force origin"));
	CHECK("if: Bash(git push *) not git pull",
	      !rule("Bash(git push *)", "Bash", HS_OP_EXEC, "git pull"));
	CHECK("if: Bash(git push *) matches bare git push",
	      rule("Bash(git push *)", "Bash", HS_OP_EXEC, "git push"));
	CHECK("if: legacy prefix Bash(npm run:*)",
	      rule("Bash(npm run:*)", "Bash", HS_OP_EXEC, "npm run test"));
	CHECK("if: Write(secrets/**) under root",
	      rule("Write(secrets/**)", "Write", HS_OP_WRITE, "/proj/secrets/a/key"));
	CHECK("if: Write(secrets/**) not elsewhere",
	      !rule("Write(secrets/**)", "Write", HS_OP_WRITE, "/proj/src/key"));
	CHECK("if: Edit(*.go) at any depth",
	      rule("Edit(*.go)", "Edit", HS_OP_WRITE, "/proj/a/b/main.go"));
	CHECK("if: Edit rules cover Write",
	      rule("Edit(*.go)", "Write", HS_OP_WRITE, "/proj/main.go"));
	CHECK("if: Bash rule never matches Write",
	      !rule("Bash(*)", "Write", HS_OP_WRITE, "/proj/x"));
	CHECK("if: //abs pattern",
	      rule("Write(//etc/**)", "Write", HS_OP_WRITE, "/etc/passwd"));
	CHECK("if: bare tool", rule("Bash", "Bash", HS_OP_EXEC, "anything"));
	CHECK("if: malformed rejected", hs_rule_parse("Bash(git", &r) < 0);
	CHECK("if: junk rejected", hs_rule_parse("rm -rf", &r) < 0);
}

static void test_json_errors(void)
{
	char err[256];
	const char *bad = "{\n  \"hooks\": {\n    \"x\": [1,]\n  }\n}\n";
	cJSON *j = hs_json_parse_text("f.json", bad, strlen(bad), err, sizeof(err));

	CHECK("malformed JSON fails", j == NULL);
	CHECK("malformed JSON located at line:column",
	      strncmp(err, "f.json:3:13: ", 13) == 0);
	j = hs_json_parse_text("g.json", "{\"a\":", 5, err, sizeof(err));
	CHECK("truncated JSON fails", j == NULL);
	CHECK("truncated JSON says end of input", strstr(err, "end of input") != NULL);
}

static void test_bad_regex(void)
{
	struct hs_matcher mt;
	char err[256];

	CHECK("bad regex rejected",
	      hs_matcher_init(&mt, HS_MATCH_REGEX, "([a-", err, sizeof(err)) < 0);
	CHECK("bad regex message names the pattern", strstr(err, "([a-") != NULL);
	hs_matcher_free(&mt);
}

static void test_events(void)
{
	enum hs_kind k;
	unsigned mask, ops;

	CHECK("event PreToolUse", hs_event_parse("PreToolUse", &k, &mask, &ops) == 0 &&
					  k == HS_KIND_PRE);
	CHECK("event pre_tool_use", hs_event_parse("pre_tool_use", &k, &mask, &ops) == 0 &&
					    k == HS_KIND_PRE);
	CHECK("event BeforeFileWrite is a pre write",
	      hs_event_parse("BeforeFileWrite", &k, &mask, &ops) == 0 &&
		      k == HS_KIND_PRE && ops == HS_OP_WRITE);
	CHECK("event post_tool_use fires on success and failure",
	      hs_event_parse("post_tool_use", &k, &mask, &ops) == 0 &&
		      mask == (HS_POST_SUCCESS | HS_POST_FAILURE));
	CHECK("event TurnEnd is catalog-only",
	      hs_event_parse("TurnEnd", &k, &mask, &ops) == 0 && k == HS_KIND_NONE);
	CHECK("event Bogus unknown", hs_event_parse("Bogus", &k, &mask, &ops) < 0);
}

/* allowedHttpHookUrls patterns: '*' is any run of characters, '/' too. */
static void test_http_urls(void)
{
	CHECK("http url: exact", hs_http_url_matches("http://a/h", "http://a/h"));
	CHECK("http url: not a prefix", !hs_http_url_matches("http://a/h", "http://a/hx"));
	CHECK("http url: * crosses /", hs_http_url_matches("https://p.example/*", "https://p.example/v1/hook"));
	CHECK("http url: * port", hs_http_url_matches("http://127.0.0.1:*/hook", "http://127.0.0.1:8080/hook"));
	CHECK("http url: host is not a suffix", !hs_http_url_matches("https://p.example/*", "https://p.example.evil/x"));
	CHECK("http url: two stars", hs_http_url_matches("*://*.corp/*", "https://p.corp/a"));
	CHECK("http url: empty pattern", !hs_http_url_matches("", "http://a"));
	CHECK("http url: backtracks", hs_http_url_matches("*ab*ab", "xabyabab"));
}

static const char *env_refs(const char *s)
{
	static char out[128];
	size_t at = 0, name, len, end, n = 0;

	out[0] = '\0';
	while (hs_http_env_ref(s, &at, &name, &len, &end) && n < 100)
		n += (size_t)snprintf(out + n, sizeof(out) - n, "%.*s@%zu;",
				      (int)len, s + name, end);
	return out;
}

/* $NAME and ${NAME} in header values; anything else is text. */
static void test_http_env_refs(void)
{
	CHECK_STR("env ref: $A", "TOKEN@6;", env_refs("$TOKEN"));
	CHECK_STR("env ref: ${A}", "TOKEN@15;", env_refs("Bearer ${TOKEN}"));
	CHECK_STR("env ref: two", "A@2;B_1@9;", env_refs("$A-${B_1}"));
	CHECK_STR("env ref: $1 is text", "", env_refs("cost $1"));
	CHECK_STR("env ref: unclosed brace", "", env_refs("${A"));
	CHECK_STR("env ref: lone $", "", env_refs("$ and $"));
	CHECK_STR("env ref: name ends at -", "A@2;", env_refs("$A-"));
}

int main(void)
{
	test_http_urls();
	test_http_env_refs();
	test_claude_matchers();
	test_memcode_matchers();
	test_globs();
	test_durations();
	test_rules();
	test_json_errors();
	test_bad_regex();
	test_events();
	CHECK_DONE();
}
