/* engine/command.c: what tool_input.command is for an exec's argv. */
#include <stdlib.h>

#include "engine/command.h"
#include "check.h"

#define ARGV(...) ((char *const[]){ __VA_ARGS__, NULL })

static void text(const char *name, const char *want, char *const argv[],
		 char *const envp[])
{
	char *got = hs_command_text(argv, envp);

	CHECK_STR(name, want, got);
	free(got);
}

static void unwrap(const char *name, const char *want, const char *script)
{
	char *got = hs_command_unwrap(script, NULL);

	CHECK_STR(name, want, got);
	free(got);
}

/* Claude Code's script around an eval argument, as it builds it. */
#define CC_PRE                                                               \
	"source /root/.claude/shell-snapshots/snapshot-bash-1-x.sh 2>/dev/null " \
	"|| true && \\builtin shopt -u extglob 2>/dev/null || true && "        \
	"{ \\builtin unalias -- 'which'; \\builtin unset -f -- 'which'; } "     \
	">/dev/null 2>&1 || true && { \\builtin unalias -- 'unsetenv'; "        \
	"\\builtin unset -f -- 'unsetenv'; } >/dev/null 2>&1 || true && "
#define CC_TAIL " && pwd -P >| /tmp/claude-4f2a-cwd"

static void shells(void)
{
	text("sh -c", "echo hi", ARGV("/bin/sh", "-c", "echo hi"), NULL);
	text("bash -c with $0 and args", "echo $1",
	     ARGV("bash", "-c", "echo $1", "name", "arg"), NULL);
	text("bash -lc", "ls", ARGV("/usr/bin/bash", "-lc", "ls"), NULL);
	text("bash -c -l (Claude)", "ls", ARGV("/bin/bash", "-c", "-l", "ls"),
	     NULL);
	text("bash -e -c", "ls", ARGV("bash", "-e", "-c", "ls"), NULL);
	text("bash -ec", "ls", ARGV("bash", "-ec", "ls"), NULL);
	text("bash -o pipefail -c", "a | b",
	     ARGV("bash", "-o", "pipefail", "-c", "a | b"), NULL);
	text("bash -O extglob -c", "x",
	     ARGV("bash", "-O", "extglob", "-c", "x"), NULL);
	text("bash --norc --noprofile -c", "x",
	     ARGV("bash", "--norc", "--noprofile", "-c", "x"), NULL);
	text("bash --rcfile F -c", "x",
	     ARGV("bash", "--rcfile", "/f", "-c", "x"), NULL);
	text("sh -c -- STR", "-x", ARGV("sh", "-c", "--", "-x"), NULL);
	text("login shell argv0", "x", ARGV("-bash", "-c", "x"), NULL);
	text("zsh -c", "x", ARGV("zsh", "-c", "x"), NULL);
	text("dash -c", "x", ARGV("/usr/bin/dash", "-c", "x"), NULL);
	text("ksh +o ... -c", "x", ARGV("ksh", "+o", "emacs", "-c", "x"),
	     NULL);
	text("bash script (no -c)", "bash script.sh",
	     ARGV("bash", "script.sh"), NULL);
	text("bash -c without operand", "bash -c", ARGV("bash", "-c"), NULL);
	text("bash script -c (operand first)", "bash s.sh -c x",
	     ARGV("bash", "s.sh", "-c", "x"), NULL);
	text("python -c is not a shell", "python3 -c 'print(1)'",
	     ARGV("python3", "-c", "print(1)"), NULL);
	text("bashful is not bash", "bashful -c x",
	     ARGV("bashful", "-c", "x"), NULL);
	CHECK("shell index", hs_command_shell_index(
				     ARGV("sh", "-x", "-c", "s", "a")) == 3);
	CHECK("is_shell path", hs_command_is_shell("/usr/bin/zsh"));
	CHECK("is_shell no", !hs_command_is_shell("/usr/bin/node"));
}

static void quoting(void)
{
	text("plain argv", "git push --force",
	     ARGV("git", "push", "--force"), NULL);
	text("space quoted", "echo 'a b'", ARGV("echo", "a b"), NULL);
	text("single quote", "echo 'it'\\''s'", ARGV("echo", "it's"), NULL);
	text("empty arg", "printf ''", ARGV("printf", ""), NULL);
	text("specials", "echo '$HOME' '*' 'a;b'",
	     ARGV("echo", "$HOME", "*", "a;b"), NULL);
	text("safe punctuation", "cc -DX=1 a.c -o /tmp/a,b@c%d+e:f",
	     ARGV("cc", "-DX=1", "a.c", "-o", "/tmp/a,b@c%d+e:f"), NULL);
	text("newline", "echo 'a\nb'", ARGV("echo", "a\nb"), NULL);
	text("no argv", "", ARGV(NULL), NULL);
}

static void claude(void)
{
	/* The brief's example: '\'' inside the single-quoted argument. */
	text("claude '\\'' quoting", "echo 'hi'",
	     ARGV("/bin/bash", "-c", "-l",
		  CC_PRE "eval 'echo '\\''hi'\\''' < /dev/null" CC_TAIL),
	     NULL);
	unwrap("claude simple", "rm -rf victim",
	       CC_PRE "eval 'rm -rf victim' < /dev/null" CC_TAIL);
	unwrap("claude bare word (shell-quote)", "ls",
	       CC_PRE "eval ls < /dev/null" CC_TAIL);
	unwrap("claude backslash word", "echo$HOME",
	       CC_PRE "eval echo\\$HOME < /dev/null" CC_TAIL);
	unwrap("claude double quotes", "echo 'hi there' && ls \"$X\" `a`",
	       CC_PRE "eval \"echo 'hi there' && ls \\\"\\$X\\\" \\`a\\`\" "
		      "< /dev/null" CC_TAIL);
	unwrap("claude '\"'\"' quoting", "echo 'hi' | wc -c",
	       CC_PRE "eval 'echo '\"'\"'hi'\"'\"' | wc -c'" CC_TAIL);
	unwrap("claude heredoc, no stdin redirect",
	       "cat <<EOF > f\nhello\nEOF",
	       CC_PRE "eval 'cat <<EOF > f\nhello\nEOF'" CC_TAIL);
	unwrap("claude no preamble", "ls", "eval 'ls' < /dev/null" CC_TAIL);
	unwrap("claude braces", "ls",
	       CC_PRE "{ eval 'ls' < /dev/null; }" CC_TAIL);
	unwrap("claude quoted cwd file", "ls",
	       CC_PRE "eval 'ls'" " && pwd -P >| '/tmp/my dir/claude-1-cwd'");
	unwrap("eval inside the command", "a && eval \"b\" && eval 'c'",
	       CC_PRE "eval 'a && eval \"b\" && eval '\\''c'\\''' < /dev/null"
		      CC_TAIL);
	unwrap("tail text inside the command", "echo ' && pwd -P >| x'",
	       CC_PRE "eval 'echo '\\'' && pwd -P >| x'\\''' < /dev/null"
		      CC_TAIL);
	unwrap("unquoted expansion is not unwrapped", NULL,
	       CC_PRE "eval $CMD < /dev/null" CC_TAIL);
	unwrap("unquoted glob is not unwrapped", NULL,
	       CC_PRE "eval ls * < /dev/null" CC_TAIL);
	unwrap("double-quoted $ is not unwrapped", NULL,
	       CC_PRE "eval \"ls $HOME\" < /dev/null" CC_TAIL);
	unwrap("other redirect is not unwrapped", NULL,
	       CC_PRE "eval 'ls' < /etc/passwd" CC_TAIL);
	unwrap("model's own eval is kept", NULL, "eval 'ls'");
	unwrap("model's eval with && is kept", NULL, "cd x && eval 'ls'");
	unwrap("no eval", NULL, CC_PRE "ls" CC_TAIL);
	unwrap("unterminated quote", NULL,
	       CC_PRE "eval 'ls < /dev/null" CC_TAIL);
	unwrap("operators in tail file", NULL,
	       CC_PRE "eval 'ls' && pwd -P >| /tmp/x; rm y");
	/* NOTES.md: every ' of the model's command written as '"'"'. */
	unwrap("claude notes example", "echo 'it'\"'\"'s' && ls",
	       CC_PRE "eval 'echo '\"'\"'it'\"'\"'\"'\"'\"'\"'\"'\"'s'\"'\"' && ls' "
		      "< /dev/null" CC_TAIL);
	unwrap("zsh preamble", "ls",
	       "source '/h/.claude/shell-snapshots/snapshot-zsh-1.sh' "
	       "2>/dev/null || true && \\builtin setopt NO_EXTENDED_GLOB "
	       "NO_EQUALS 2>/dev/null || true && eval 'ls' < /dev/null" CC_TAIL);
	unwrap("bash-or-zsh preamble", "ls",
	       "{ \\builtin shopt -u extglob || \\builtin setopt "
	       "NO_EXTENDED_GLOB NO_EQUALS; } >/dev/null 2>&1 || true && "
	       "eval 'ls' < /dev/null" CC_TAIL);
	/* A preamble hides code from the hook: only Claude Code's own. */
	unwrap("unknown preamble segment is not unwrapped", NULL,
	       "rm -rf victim && eval 'ls' < /dev/null" CC_TAIL);
	unwrap("preamble after known segments", NULL,
	       CC_PRE "rm -rf v && eval 'ls' < /dev/null" CC_TAIL);
	unwrap("source of a non-snapshot is not unwrapped", NULL,
	       "source /tmp/evil.sh 2>/dev/null || true && eval 'ls' "
	       "< /dev/null" CC_TAIL);
	/* Structural: removing an alias and a function of other names is
	 * still inert setup (it runs nothing). */
	unwrap("unalias/unset -f of other names is inert setup", "ls",
	       "{ \\builtin unalias -- 'which'; \\builtin unset -f -- 'rm'; } "
	       ">/dev/null 2>&1 || true && eval 'ls'" CC_TAIL);
	unwrap("segment glued without &&", NULL,
	       "\\builtin shopt -u extglob 2>/dev/null || true; eval 'ls'"
	       CC_TAIL);
	text("full script when not unwrapped", "eval 'ls'",
	     ARGV("bash", "-c", "eval 'ls'"), NULL);
}

static void carried(void)
{
	char script[] =
		"{ \\builtin typeset +x '__CLAUDE_CC_COMMAND_TEXT' 2>/dev/null "
		"|| \\builtin true; } && " CC_PRE
		"{ \\builtin [ -n \"${__CLAUDE_CC_COMMAND_TEXT:+1}\" ] || { "
		"\\builtin echo '__CLAUDE_CC_COMMAND_TEXT?' >&2; \\builtin exit "
		"126; }; } && 'eval' \"\\builtin 'unset' -v "
		"'__CLAUDE_CC_COMMAND_TEXT'; 'eval' $__CLAUDE_CC_COMMAND_TEXT\""
		CC_TAIL;
	char *env[] = { "A=1",
			"__CLAUDE_CC_COMMAND_TEXT='pkill -f '\\''node x'\\''' "
			"< /dev/null",
			NULL };
	char *noenv[] = { "A=1", NULL };

	text("claude carried in env", "pkill -f 'node x'",
	     ARGV("/bin/bash", "-c", "-l", script), env);
	text("claude carried, variable missing", script,
	     ARGV("/bin/bash", "-c", "-l", script), noenv);
}

static void agent_internal(void)
{
	CHECK("claude startup `bash -c env` is the agent's own",
	      hs_command_agent_internal(ARGV("/bin/bash", "-c", "env")));
	CHECK("claude startup snapshot login shell is the agent's own",
	      hs_command_agent_internal(ARGV("/bin/bash", "-c", "-l",
		"SNAPSHOT_FILE=/h/.claude/shell-snapshots/snapshot-bash-1-x.sh\n"
		"source ~/.bashrc")));
	CHECK("a model's `env ; rm` is not",
	      !hs_command_agent_internal(ARGV("/bin/bash", "-c", "env; rm -rf x")));
	CHECK("a model's SNAPSHOT_FILE= without -l is not",
	      !hs_command_agent_internal(ARGV("/bin/bash", "-c",
		"SNAPSHOT_FILE=/h/shell-snapshots/snapshot-x; rm -rf /")));
	CHECK("extra operands are not",
	      !hs_command_agent_internal(ARGV("/bin/bash", "-c", "env", "x")));
	CHECK("non-shells are not",
	      !hs_command_agent_internal(ARGV("/usr/bin/env")));
	/* session 38's attack run: Codex runs a model's command as the
	 * whole script (`bash -lc CMD`), which could hold the marks of its
	 * snapshot's script; only that script, exactly, is Codex's own */
	CHECK("a Codex model's command with its snapshot's marks is not",
	      !hs_command_agent_internal_of(
		      ARGV("/bin/bash", "-lc",
			   "rm -rf x # '# Snapshot file' __codex_snapshot_command "
			   "printf '\\0' # Functions"),
		      ARGV("codex")));
}

int main(void)
{
	agent_internal();
	shells();
	quoting();
	claude();
	carried();
	CHECK_DONE();
}
