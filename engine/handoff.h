/* Hand-offs: a shell that runs text it was handed rather than text it
 * contains (docs/agents.md, "Hand-offs"). Two questions, both answered by
 * structure over the parser of engine/shparse.h:
 *
 *   - hs_handoff_unwrap: is `SHELL -c SCRIPT NAME ARGS…` a script that
 *     hands a string made of its arguments to eval or to an inner shell's
 *     -c, with only inert setup around that one carrier (`eval "$1"`,
 *     `cmd=$3; exec "$2" -c "$cmd"`, `f() { eval "$1"; }; f "$2"`, an
 *     `env -i … bash -c "$1"` chain)? Then that string is the tool call,
 *     exactly what runs; whatever hides it is provably harmless.
 *   - hs_handoff_opaque: does a command text run a string the hook was
 *     not shown as text (eval or an inner shell's -c of an expansion, a
 *     command word that is an expansion, a shell reading its commands
 *     from stdin, a script that does not parse)? Then what it runs is
 *     judged too: the shim gives its shell the role "handoff", in which
 *     every program started is a tool call (shim/exec_decide.c,
 *     floor/floor_exec.c).
 *
 * Pure: no I/O, no globals; results are malloc'd. Not for the shim. */
#ifndef HOOKSHIM_ENGINE_HANDOFF_H
#define HOOKSHIM_ENGINE_HANDOFF_H

#include <stdbool.h>

/* The string `script` hands to eval or an inner shell, given its
 * positional parameters (params[0] is $0; NULL-terminated; may be just
 * {NULL}), or NULL when script is not such a hand-off, the string is
 * empty, or its value cannot be known exactly. Only for bash, sh and
 * dash scripts. *exact is cleared when the string is shown but may not
 * be all that runs (the script defines functions): then what the shell
 * runs is judged too. */
char *hs_handoff_unwrap(const char *script, char *const params[],
			bool *exact);

/* Does `text`, run by a shell, run a string the hook did not see? */
bool hs_handoff_opaque(const char *text);

/* Does `text` leave code behind in the shell that runs it, for a later
 * command to run unseen: a function, an alias, a trap, a `hash -p`, an
 * `enable -f`, a sourced file's definitions, an eval (which may define
 * any of them), exported or declared functions, a `read` or `mapfile`
 * (a line of the shell's input taken as data)? Yes when in doubt (it
 * does not parse, a command word is an expansion). For a shell that
 * reads one command after another (shim/stdin_line.c): after such a
 * command, what each later one runs is judged too. */
bool hs_handoff_leaves_code(const char *text);

/* Does `text` evaluate data as code where an earlier command of the same
 * shell may have left it: arithmetic (an array subscript's `$(…)` runs:
 * `x='a[$(rm …)]'` then `echo $((x))`), `${!x}`, `${x@P}`? For a shell
 * that reads one command after another: what it runs is judged too. */
bool hs_handoff_evaluates_data(const char *text);

/* Does script read its positional parameters ($0…$9, ${N}, ${!#}, $@,
 * $*, $#, `for NAME;`, shift, getopts)? Read as text (quotes ignored),
 * so it may say yes too often, never no. A text that reads arguments the
 * hook is not shown -- `busybox env "$1" -f x`, `rm -f "$0"`, a carried
 * `rm -f "$2"` -- takes data the hook did not see, so what it runs is
 * judged too. */
bool hs_handoff_uses_params(const char *script);

#endif
