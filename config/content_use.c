/* Telling, from the config, which pre hooks on writes read
 * tool_input.content; see content_use.h.
 *
 * Claude Code sends a Write's content with its PreToolUse, so published
 * secrets scanners read it and nothing says so in their settings. A hook
 * said to want it ("content": true) or found to mention it makes the
 * writes it can see staged (docs/staged-writes.md): asked when the content
 * is complete, before it reaches the file. The finding is a guess that
 * errs towards staging: a false positive costs a staged write (a copy, the
 * error at close rather than at open), a false negative a scanner that
 * sees no content, so "content": false is there to switch it off.
 *
 * The same reading tells which catch-all pre hooks want reads: one whose
 * script compares tool_name with 'Read' is a Read hook, though its
 * matcher ("" or "*") names no tool (docs/how-it-works.md, "Read events"). */
#include "content_use.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "dialect.h"

#define SCRIPT_MAX (1u << 20)

static bool word_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

bool hs_mentions_content(const char *text, size_t len)
{
	static const char w[] = "content";
	const size_t wl = sizeof(w) - 1;

	for (size_t i = 0; i + wl <= len; i++)
		if (memcmp(text + i, w, wl) == 0 &&
		    (i == 0 || !word_char(text[i - 1])) &&
		    (i + wl == len || !word_char(text[i + wl])))
			return true;
	return false;
}

/* A word of the command as a file name: quotes dropped, the project
 * variables Claude Code and Gemini CLI set and ~ expanded, relative to
 * the directory the hook runs in. NULL when it cannot be one. */
static char *word_path(const char *word, size_t n, const char *dir)
{
	static const char *const vars[] = { "$CLAUDE_PROJECT_DIR",
					    "${CLAUDE_PROJECT_DIR}",
					    "$GEMINI_PROJECT_DIR",
					    "${GEMINI_PROJECT_DIR}", NULL };
	char w[4096], *out = NULL;
	size_t k = 0;
	const char *home = getenv("HOME");

	for (size_t i = 0; i < n && k + 1 < sizeof(w); i++)
		if (word[i] != '"' && word[i] != '\'')
			w[k++] = word[i];
	w[k] = '\0';
	if (!k)
		return NULL;
	for (int v = 0; vars[v]; v++) {
		size_t vl = strlen(vars[v]);

		if (strncmp(w, vars[v], vl) == 0) {
			return asprintf(&out, "%s%s", dir, w + vl) < 0 ? NULL
								      : out;
		}
	}
	if (w[0] == '~' && w[1] == '/' && home)
		return asprintf(&out, "%s%s", home, w + 1) < 0 ? NULL : out;
	if (w[0] == '$' || w[0] == '-' ||
	    (!strchr(w, '/') && !strchr(w, '.')))
		return NULL; /* an option, a variable or a program name */
	if (w[0] == '/')
		return strdup(w);
	return asprintf(&out, "%s/%s", dir, w) < 0 ? NULL : out;
}

/* What a hook's text is searched for: the word `content`, or the read
 * tool's name as a quoted word. */
typedef bool (*says_fn)(const char *text, size_t len, const char *word);

static bool says_content(const char *text, size_t len, const char *word)
{
	(void)word;
	return hs_mentions_content(text, len);
}

/* 'Read' or "Read": how a script compares tool_name with the read tool
 * (`tool_name in ['Read', 'Edit']`, `[ "$tool" = "Read" ]`); a bare word
 * would be every comment that says "read". */
static bool says_quoted(const char *text, size_t len, const char *word)
{
	size_t wl = strlen(word);

	for (size_t i = 0; wl && i + wl + 2 <= len; i++)
		if ((text[i] == '\'' || text[i] == '"') &&
		    text[i + wl + 1] == text[i] &&
		    memcmp(text + i + 1, word, wl) == 0)
			return true;
	return false;
}

/* Does the text file at `path` (a script, not a binary) say it? */
static bool script_mentions(const char *path, says_fn says, const char *word)
{
	struct stat st;
	FILE *f;
	char *buf;
	size_t n;
	bool yes = false;

	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) ||
	    st.st_size > SCRIPT_MAX || !(f = fopen(path, "r")))
		return false;
	buf = malloc((size_t)st.st_size + 1);
	n = buf ? fread(buf, 1, (size_t)st.st_size, f) : 0;
	fclose(f);
	if (buf && !memchr(buf, '\0', n))
		yes = says(buf, n, word);
	free(buf);
	return yes;
}

/* Does the hook's command, or a script file it names, say it? */
static bool hook_says(const struct hs_hook *h, const char *root, says_fn says,
		      const char *word)
{
	const char *c = h->command, *dir = h->work_dir ? h->work_dir : root;

	if (h->action != HS_ACTION_COMMAND || !c)
		return false;
	if (says(c, strlen(c), word))
		return true;
	while (*c) {
		size_t n = strcspn(c, " \t\n;|&()<>");
		char *p = n ? word_path(c, n, dir) : NULL;
		bool yes = p && script_mentions(p, says, word);

		free(p);
		if (yes)
			return true;
		c += n ? n : 1;
	}
	return false;
}

void hs_content_use_mark(struct hs_config *cfg)
{
	for (size_t i = 0; i < cfg->nhooks; i++) {
		struct hs_hook *h = &cfg->hooks[i];
		const char *read = hs_dialect_ops(h->dialect)->tools.read;

		/* A catch-all pre hook that compares tool_name with the read
		 * tool (disler's pre_tool_use.py: matcher "", `tool_name in
		 * ['Read', ...]`) wants reads: engine/match.c. */
		h->read_named = h->kind == HS_KIND_PRE &&
				(h->ops & HS_OP_READ) && read && *read &&
				hook_says(h, cfg->root, says_quoted, read);
		h->content_pre = false;
		if (!cfg->settings.stage_content || h->kind != HS_KIND_PRE ||
		    !(h->ops & HS_OP_WRITE))
			continue;
		if (h->content_given >= 0)
			h->content_pre = h->content_given;
		else
			h->content_pre =
				hook_says(h, cfg->root, says_content, NULL);
	}
}
