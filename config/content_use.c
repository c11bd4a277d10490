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
 * sees no content, so "content": false is there to switch it off. */
#include "content_use.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

/* Does the text file at `path` (a script, not a binary) mention it? */
static bool script_mentions(const char *path)
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
		yes = hs_mentions_content(buf, n);
	free(buf);
	return yes;
}

static bool hook_reads_content(const struct hs_hook *h, const char *root)
{
	const char *c = h->command, *dir = h->work_dir ? h->work_dir : root;

	if (h->action != HS_ACTION_COMMAND || !c)
		return false;
	if (hs_mentions_content(c, strlen(c)))
		return true;
	while (*c) {
		size_t n = strcspn(c, " \t\n;|&()<>");
		char *p = n ? word_path(c, n, dir) : NULL;
		bool yes = p && script_mentions(p);

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

		h->content_pre = false;
		if (!cfg->settings.stage_content || h->kind != HS_KIND_PRE ||
		    !(h->ops & HS_OP_WRITE))
			continue;
		if (h->content_given >= 0)
			h->content_pre = h->content_given;
		else
			h->content_pre = hook_reads_content(h, cfg->root);
	}
}
