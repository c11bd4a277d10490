/* Between handoff.c (the unwrap) and opaque.c (opacity): the helpers
 * both read words with. Not a public interface. */
#ifndef HOOKSHIM_ENGINE_HANDOFF_INT_H
#define HOOKSHIM_ENGINE_HANDOFF_INT_H

#include <stdbool.h>
#include <stddef.h>

#define HS_HO_MAX_WORDS 256

/* A shell name's character (first: not a digit). */
bool hs_ho_name_char(char c, bool first);
/* Is s one of names (NULL-terminated)? s may be NULL. */
bool hs_ho_is_any(const char *s, const char *const *names);
/* Past `command`, `builtin`, `exec`, `env -i`, `nohup`, `setsid`,
 * `nice`, `timeout` and their options: the index of the word they run,
 * or -1 when a prefix is not one followed to the letter. */
int hs_ho_skip_prefixes(char *const v[]);

struct hs_sh_cmd;
struct hs_sh_word;

/* ---- opaque.c ---- */
/* Does text run a string its hook did not see (depth: how deep in
 * strings within strings)? */
bool hs_ho_text_opaque(const char *text, int depth);
/* Do words v[from..n), joined by spaces (as eval and watch join them),
 * run a string the hook did not see? */
bool hs_ho_joined_opaque(char *const v[], size_t from, size_t n, int depth);

/* ---- code_words.c: programs that run code given in their words ---- */
/* A file whose content is a stream: /dev/stdin, /dev/fd/N, /proc/... */
bool hs_ho_stream_path(const char *p);
/* Programs that run other programs from their arguments (env, xargs,
 * sudo, flock, find, ...). */
bool hs_ho_runner(const char *p);
/* A shell, hush too. */
bool hs_ho_runs_shell_word(const char *p);
/* Does c read, on its stdin or a descriptor, what the hook did not see
 * (piped: it is after the first command of its pipeline)? */
bool hs_ho_stdin_unseen(const char *text, const struct hs_sh_cmd *c,
			bool piped);
/* Does program v[k] of c (v: its words up to the first not shown, not a
 * shell) run code from a word or a stdin not shown? */
bool hs_ho_runs_unseen(const char *text, const struct hs_sh_cmd *c,
		       char *const v[], size_t k, bool piped);
/* Does runner v[k] of c (n words shown) run what its hook did not see? */
bool hs_ho_runner_runs_unseen(const char *text, const struct hs_sh_cmd *c,
			      char *const v[], size_t n, size_t k, int depth,
			      bool piped);

/* ---- code_vars.c: variables a program runs or loads as code ---- */
/* Does c give such a variable a value not shown (kept: any value a shell
 * keeps for its later commands)? */
bool hs_ho_code_value(const char *text, const struct hs_sh_cmd *c,
		      bool kept);
/* Does a shell run or source what variable n holds, whatever it is
 * (BASH_ENV, ENV, PROMPT_COMMAND, the prompts, exported functions)? */
bool hs_ho_shell_code_name(const char *n);
/* `${NAME:=…}` of such a variable anywhere in text. */
bool hs_ho_code_default(const char *text);

#endif
