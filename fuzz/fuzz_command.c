/* The shell `-c` and agent-wrapper parser: what a hook sees as
 * tool_input.command for an exec (engine/command.c over
 * common/shellargv.c). Only the entry points the shim and the supervisor
 * call are used, so the harness holds whatever parser sits behind them.
 *
 * Input: a byte choosing argv[0] (a shell from the list, or the input's
 * own first string), then NUL-separated strings: the argv, a lone "\x01"
 * string ending it, then the environment. Checked besides "no crash":
 *   - the shell index, when there is one, names an argv element;
 *   - hs_command_text of a non-shell argv is its quoting, and that
 *     quoting splits back into the same words (a hook sees every byte). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/command.h"
#include "fuzz.h"

#define MAXV 64

static const char *const shells[] = { "bash", "/bin/sh", "-bash", "zsh",
				      "/usr/bin/dash", "ksh", "ash", NULL };

/* Splits what hs_command_quote_argv writes: words of safe characters and
 * '...' runs (with '\'' for a quote) joined by single spaces. */
static int unquote(const char *s, char *out[], int max)
{
	int n = 0;

	while (*s && n < max) {
		size_t cap = strlen(s) + 1, len = 0;
		char *w = malloc(cap);

		if (!w)
			return -1;
		while (*s && *s != ' ') {
			if (*s == '\'') {
				for (s++; *s && *s != '\''; s++)
					w[len++] = *s;
				if (*s)
					s++;
				if (s[0] == '\\' && s[1] == '\'') {
					w[len++] = '\'';
					s += 2;
				}
			} else {
				w[len++] = *s++;
			}
		}
		w[len] = '\0';
		out[n++] = w;
		if (*s == ' ')
			s++;
	}
	return n;
}

static void check_quoting(char *const argv[], int argc)
{
	char *q = hs_command_quote_argv(argv);
	char *words[MAXV + 1];
	int n;

	if (!q)
		return;
	n = unquote(q, words, MAXV + 1);
	if (n != argc) {
		/* A lone empty argv ("") quotes as '' and splits back. */
		fprintf(stderr, "quoting gave %d words for %d: [%s]\n", n,
			argc, q);
		abort();
	}
	for (int i = 0; i < n; i++) {
		if (strcmp(words[i], argv[i]) != 0) {
			fprintf(stderr, "word %d: [%s] quoted back as [%s]\n",
				i, argv[i], words[i]);
			abort();
		}
		free(words[i]);
	}
	free(q);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz f;
	char *argv[MAXV + 1], *envp[MAXV + 1];
	int argc = 0, envc = 0, idx;
	uint8_t pick;
	char *s, *text;

	fz_init(&f, data, size);
	pick = fz_byte(&f);
	if (pick % 8 < 7)
		argv[argc++] = (char *)shells[pick % 8];
	while (argc < MAXV && (s = fz_str(&f)) && strcmp(s, "\x01") != 0)
		argv[argc++] = s;
	argv[argc] = NULL;
	while (envc < MAXV && (s = fz_str(&f)))
		envp[envc++] = s;
	envp[envc] = NULL;

	idx = hs_command_shell_index(argv);
	if (idx >= argc || idx == 0 || idx < -1) {
		fprintf(stderr, "shell index %d for %d words\n", idx, argc);
		abort();
	}
	(void)hs_command_agent_internal(argv);
	text = hs_command_text(argv, pick & 8 ? envp : NULL);
	if (!text)
		abort(); /* NULL only when out of memory */
	if (idx < 0 && argc) {
		char *q = hs_command_quote_argv(argv);

		if (!q || strcmp(q, text) != 0) {
			fprintf(stderr, "not a shell, yet not the quoted argv\n");
			abort();
		}
		free(q);
	}
	free(text);
	if (argc)
		check_quoting(argv, argc);
	if (argc > 1) {
		/* Any argument as a script a shell would run. */
		free(hs_command_unwrap(argv[argc - 1], envp));
	}
	fz_free(&f);
	return 0;
}
