/* engine/handoff.c: a script that hands one of its arguments to eval or
 * an inner shell, and texts that run strings their hook did not see. */
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
#include <string.h>

#include "engine/command.h"
#include "engine/handoff.h"
#include "engine/shparse.h"
#include "engine/strbuf.h"
#include "check.h"

#define P(...) ((char *const[]){ __VA_ARGS__, NULL })

static void unwraps(const char *name, const char *want, const char *script,
		    char *const params[])
{
	bool exact;
	char *got = hs_handoff_unwrap(script, params, &exact);

	CHECK_STR(name, want, got);
	free(got);
}

/* What a hook is shown for `bash -c SCRIPT PARAMS…`, and whether what it
 * runs is judged too. */
static void shown(const char *name, const char *want, bool beneath,
		  char *const argv[])
{
	struct hs_command_why why;
	char *got = hs_command_explain(argv, NULL, &why);

	CHECK_STR(name, want, got);
	CHECK(name, why.beneath == beneath);
	free(got);
}

static void opaque(const char *name, bool want, const char *text)
{
	CHECK(name, hs_handoff_opaque(text) == want);
}

static void handoffs(void)
{
	char *cmd = (char *)"rm -f victim.txt";

	unwraps("eval \"$1\"", cmd, "eval \"$1\"", P("x", cmd));
	unwraps("eval \"${1}\"", cmd, "eval \"${1}\"", P("x", cmd));
	unwraps("eval \"$@\" joins by spaces", "rm -f a", "eval \"$@\"",
		P("x", "rm", "-f", "a"));
	unwraps("eval \"$*\"", "rm -f a", "eval \"$*\"", P("x", "rm", "-f a"));
	unwraps("\"$1\" -c \"$2\" (the shell from an argument)", cmd,
		"\"$1\" -c \"$2\"", P("x", "/bin/bash", cmd));
	unwraps("through a variable, exec SHELL -c", cmd,
		"cmd=\"$2\"; exec \"$1\" -c \"$cmd\"",
		P("x", "/bin/bash", cmd));
	unwraps("\"$shell\" -c \"$command$args\"", "ls -la /tmp",
		"shell=$1\ncommand=$2\nargs=$3\n\"$shell\" -c \"$command$args\"",
		P("W", "bash", "ls -la", " /tmp"));
	unwraps("a function: f() { eval \"$1\"; }; f \"$1\"", cmd,
		"f() { eval \"$1\"; }; f \"$1\"", P("x", cmd));
	unwraps("function f { local c=\"$1\"; bash -c \"$c\"; }", cmd,
		"function f { local c=\"$1\"; bash -c \"$c\"; }\nf \"$2\"",
		P("x", "unused", cmd));
	unwraps("an exec chain: env -i bash -c \"$1\"", cmd,
		"env -i bash -c \"$1\"", P("x", cmd));
	unwraps("eval -- \"$1\"", cmd, "eval -- \"$1\"", P("x", cmd));
	unwraps("exec nohup timeout 10 setsid bash -lc \"$1\"", cmd,
		"exec nohup timeout -s KILL 10 setsid bash -lc \"$1\"",
		P("x", cmd));
	unwraps("setup around it", cmd,
		"set -eu; export lang=C; declare rc; eval \"$1\"; exit $?",
		P("x", cmd));
	unwraps("$12 is ${1}2", "ls2", "eval \"$12\"",
		P("x", "ls", "a", "b", "c", "d", "e", "f", "g", "h", "i", "j",
		  "k", "l"));
	unwraps("${12} is the twelfth", "l", "eval \"${12}\"",
		P("x", "ls", "a", "b", "c", "d", "e", "f", "g", "h", "i", "j",
		  "l"));
	unwraps("command eval", cmd, "command eval \"$1\"", P("x", cmd));
	unwraps("the inner shell's own arguments stay its own", cmd,
		"exec \"$2\" -c \"$1\" rm -rf v", P("x", cmd, "bash"));
	unwraps("a literal in the string", "cd /w && rm -f victim.txt",
		"eval \"cd /w && $1\"", P("x", cmd));

	/* not hand-offs: shown as they are */
	unwraps("no arguments: nothing handed in", NULL, "eval \"$1\"",
		P(NULL));
	unwraps("an empty string", NULL, "eval \"$1\"", P("x", ""));
	unwraps("unquoted: split and globbed", NULL, "eval $1", P("x", cmd));
	unwraps("more after the carrier", NULL, "eval \"$1\"; rm -rf v",
		P("x", "ls"));
	unwraps("more before the carrier", NULL, "rm -rf v; eval \"$1\"",
		P("x", "ls"));
	unwraps("two carriers", NULL, "eval \"$1\"; eval \"$2\"",
		P("x", "ls", "pwd"));
	unwraps("in the background", NULL, "eval \"$1\" &", P("x", "ls"));
	unwraps("a default", NULL, "eval \"${1:-ls}\"", P("x", cmd));
	unwraps("a substitution", NULL, "eval \"$(echo \"$1\")\"", P("x", cmd));
	unwraps("set -- changes $1", NULL, "set -- 'rm -rf /'; eval \"$1\"",
		P("x", "ls"));
	unwraps("shift", NULL, "shift; eval \"$1\"", P("x", "ls", cmd));
	unwraps("read", NULL, "read c; eval \"$c\"", P("x", "ls"));
	unwraps("printf -v", NULL, "printf -v c %s \"$1\"; eval \"$c\"",
		P("x", "ls"));
	unwraps("a variable set in a branch", NULL,
		"x=$1; if true; then x='rm -rf /'; fi; eval \"$x\"",
		P("x", "ls"));
	unwraps("a variable from the environment", NULL, "eval \"$CMD\"",
		P("x", "ls"));
	unwraps("a builtin's name taken by a function", NULL,
		"true() { rm -rf v; }; true; eval \"$1\"", P("x", "ls"));
	unwraps("a loop (a watchdog)", NULL,
		"while kill -0 \"$2\"; do sleep 1; done; eval \"$1\"",
		P("x", "ls", "1"));
	unwraps("source", NULL, "source \"$1\"", P("x", "f.sh"));
	unwraps("exec \"$@\" is a program, not a string", NULL, "exec \"$@\"",
		P("x", "rm", "-rf", "v"));
	unwraps("a carrier inside a branch", NULL,
		"if [ -n \"$1\" ]; then eval \"$1\"; fi", P("x", "ls"));
}

/* A review's attacks on the unwrap (each ran a command the hook was not
 * shown): now never unwrapped, or shown and judged beneath. */
static void attacks(void)
{
	char *rm = (char *)"rm -f victim.txt";

	shown("a function standing in for the command: judged beneath", "ls",
	      true, P("bash", "-c", "ls() { rm -f victim.txt; }; eval \"$1\"",
		      "_", "ls"));
	shown("a function named eval: judged beneath", "ls", true,
	      P("bash", "-c", "eval() { rm -f v; }; eval \"$1\"", "_", "ls"));
	shown("command_not_found_handle: judged beneath", "nosuch", true,
	      P("bash", "-c", "command_not_found_handle() { rm -f v; }; "
		"eval \"$1\"", "_", "nosuch"));
	unwraps("BASH_ENV on the inner shell", NULL,
		"BASH_ENV='$(rm -f v)' bash -c \"$1\"", P("_", "echo hi"));
	unwraps("env NAME=V on the inner shell", NULL,
		"env 'BASH_FUNC_ls%%=() { rm -f v; }' bash -c \"$1\"",
		P("_", "ls"));
	unwraps("export BASH_ENV in the setup", NULL,
		"export BASH_ENV=/tmp/x; bash -c \"$1\"", P("_", "ls"));
	unwraps("PATH in the setup", NULL, "PATH=/tmp/evil; eval \"$1\"",
		P("_", "ls"));
	unwraps("a shell of another directory", NULL, "/tmp/evil/bash -c \"$1\"",
		P("_", "ls"));
	unwraps("zsh's rules are not bash's", NULL, "zsh -c \"$1\"",
		P("_", "ls"));
	unwraps("PS4 and set -x", NULL,
		"PS4='$(rm -f v)'; set -x; eval \"$1\"", P("_", "ls"));
	unwraps("declare -i", NULL, "declare -i x; x=\"$2\"; eval \"$1\"",
		P("_", "ls", "a[$(rm -f v)]"));
	unwraps("arithmetic in the setup", NULL,
		"x='a[$(rm -f v)]'; : $((x)); eval \"$1\"", P("_", "ls"));
	unwraps("[ -v 'a[$(…)]' ] in the setup", NULL,
		"[ -v 'a[$(rm -f v)]' ]; eval \"$1\"", P("_", "ls"));
	unwraps("${y@P} in the setup", NULL,
		"y='$(rm -f v)'; : \"${y@P}\"; eval \"$1\"", P("_", "ls"));
	unwraps("IFS and \"$*\"", NULL, "IFS=';'; eval \"$*\"",
		P("_", "echo", rm));
	unwraps("declare -l", NULL, "declare -l x; x=\"$1\"; eval \"$x\"",
		P("_", "RM -F VICTIM.TXT"));
	unwraps("${x:=…} in the setup", NULL,
		"x=; : \"${x:=;rm -f v}\"; eval \"echo hi$x\"", P("_", "ls"));
	unwraps("cd moves where it runs", NULL, "cd \"$2\"; eval \"$1\"",
		P("_", "ls", "/"));
	shown("zsh: $12 is the twelfth, not shown as bash reads it",
	      "eval \"$12\"", true,
	      P("zsh", "-c", "eval \"$12\"", "_", "echo hi", "a", "b", "c",
		"d", "e", "f", "g", "h", "i", "j", rm));
	shown("the carried string reads $2: judged beneath", "rm -f \"$2\"",
	      true, P("bash", "-c", "eval \"$1\"", "_", "rm -f \"$2\"",
		      "victim.txt"));
	shown("... and through the inner shell's arguments", "rm -f \"$1\"",
	      true, P("bash", "-c", "exec bash -c \"$1\" \"$2\" \"$3\"", "_",
		      "rm -f \"$1\"", "n", "victim.txt"));
	shown("rm -f \"$0\": judged beneath", "rm -f \"$0\"", true,
	      P("bash", "-c", "rm -f \"$0\"", "victim.txt"));
	shown("for a; do: judged beneath", "for a; do rm -f \"$a\"; done",
	      true, P("bash", "-c", "for a; do rm -f \"$a\"; done", "_",
		      "victim.txt"));
	shown("${!#}: judged beneath", "rm -f \"${!#}\"", true,
	      P("bash", "-c", "rm -f \"${!#}\"", "_", "victim.txt"));
	unwraps("set -k (NAME=V words become the environment)", NULL,
		"set -k; exec bash -c \"$1\" x BASH_ENV=/dev/stdin",
		P("_", "true"));
	unwraps("set -o keyword", NULL, "set -o keyword; eval \"$1\"",
		P("_", "true"));
	unwraps("set -euo pipefail still is setup", "true",
		"set -euo pipefail; eval \"$1\"", P("_", "true"));
	opaque("BASH_ENV set by a loop", true,
	       "for BASH_ENV in /dev/stdin; do export BASH_ENV; done; "
	       "echo X | bash -c true");
	opaque("an exported function", true,
	       "ls() { rm -f v; }; export -f ls; bash -c ls");
	opaque("BASH_ENV as a prefix", true,
	       "echo X | BASH_ENV=/dev/stdin bash -c true");
	shown("BASH_ARGV reads the arguments: judged beneath",
	      "echo victim.txt | xargs \"$BASH_ARGV\" -f", true,
	      P("bash", "-c", "echo victim.txt | xargs \"$BASH_ARGV\" -f", "_",
		"rm"));
	{
		struct hs_command_why why;
		char *t = hs_command_explain_as(
			P("dash", "-c", "eval \"$1\"", "_", "ls"), "/usr/bin/zsh",
			NULL, &why);

		CHECK_STR("zsh started as dash: not unwrapped", "eval \"$1\"", t);
		CHECK("... and judged beneath", why.beneath);
		free(t);
	}
	shown("an exact hand-off is not judged beneath", "ls -la", false,
	      P("bash", "-c", "eval \"$1\"", "_", "ls -la"));
}

static void opacity(void)
{
	opaque("plain command", false, "ls -la");
	opaque("a loop over literals", false,
	       "for f in *.c; do gcc -c \"$f\"; done");
	opaque("eval of literal text", false, "eval 'ls -la'");
	opaque("bash -c of literal text", false, "bash -c 'echo hi'");
	opaque("a substitution as an argument", false,
	       "git commit -m \"$(cat msg)\"");
	opaque("find -exec", false, "find . -name x -exec rm {} \\;");
	opaque("a script file", false, "bash ./build.sh");
	opaque("a substitution assigned", false, "x=$(date); echo $x");
	opaque("the command word an expansion", true, "$CC -o x x.c");
	opaque("\"$shell\" -c \"$cmd\"", true, "\"$shell\" -c \"$cmd\"");
	opaque("bash -c \"$x\"", true, "bash -c \"$x\"");
	opaque("eval \"$x\"", true, "eval \"$x\"");
	opaque("eval of literal text that hands on", true,
	       "eval 'eval \"$1\"'");
	opaque("bash -c literal that hands on", true,
	       "bash -c 'eval \"$1\"' _ ls");
	opaque("a shell fed on stdin", true,
	       "echo cm0gLXJmIHg= | base64 -d | sh");
	opaque("bash -s", true, "bash -s < script");
	opaque("in a function", true, "f() { \"$@\"; }; f ls");
	opaque("in a loop", true, "while true; do eval \"$x\"; done");
	opaque("in a case", true, "case $a in x) eval \"$b\";; esac");
	opaque("trap of an expansion", true, "trap \"$x\" EXIT");
	opaque("env chain to an expansion", true, "env -i A=1 $prog");
	opaque("source of an expansion", true, "source \"$f\"");
	opaque("a script that does not parse", true, "echo \"unterminated");
	opaque("bash /dev/stdin", true, "echo X | base64 -d | bash /dev/stdin");
	opaque(". /dev/stdin", true, "echo X | base64 -d | . /dev/stdin");
	opaque("sh /proc/self/fd/0", true, "cat f | sh /proc/self/fd/0");
	opaque("env -- sh", true, "echo X | env -- sh");
	opaque("command -p sh", true, "echo X | command -p sh");
	opaque("stdbuf -o0 sh", true, "echo X | stdbuf -o0 sh");
	opaque("xargs -0 sh -c", true, "printf 'x' | xargs -0 sh -c");
	opaque("busybox sh", true, "echo X | busybox sh");
	opaque("PS4 with set -x", true,
	       "y=$(echo X); PS4='$(eval \"$y\")'; set -x; :");
	opaque("${y@P}", true, "y=$(echo X); : \"${y@P}\"");
	opaque("${!x}", true, "x=y; echo \"${!x}\"");
	opaque("arithmetic on data from a substitution", true,
	       "x=$(echo X | base64 -d); : $((x))");
	opaque("[[ ]] on data from a substitution", true,
	       "x=$(cat f); [[ $x -eq 1 ]]");
	opaque("arithmetic alone is not", false, "echo $((1 + 2))");
	opaque("a substitution alone is not", false, "kill $(pgrep sleep)");
	opaque("a script file is not", false, "bash ./build.sh --fast");
	opaque("exec of a shell with literal text is not", false,
	       "exec '/bin/bash' -c 'echo hi'");
	opaque("nohup sh -c literal is not", false, "nohup sh -c 'make all'");
	opaque("git's words are not", false, "git commit -m 'use bash and eval'");
	/* programs that run code given in their words or on their stdin */
	opaque("python3 -c \"$x\"", true, "python3 -c \"$x\"");
	opaque("python3.12 -c of a substitution", true,
	       "python3.12 -c \"import os; os.system('$(cat f)')\"");
	opaque("perl -e", true, "perl -e \"system('$(cat f)')\"");
	opaque("node -e", true, "node -e \"$js\"");
	opaque("awk's program", true, "awk \"BEGIN{system(\\\"$c\\\")}\"");
	opaque("sed's e", true, "sed \"s/^/$(cat f) /e\" list");
	opaque("make with a variable not shown", true, "make CC=\"$cc\"");
	opaque("find -exec of an expansion", true, "find . -exec $(cat f) \\;");
	opaque("find -exec with an expanded argument", true,
	       "find . -name x -exec rm \"$f\" \\;");
	opaque("xargs of an expansion", true, "echo | xargs $(cat f)");
	opaque("an option of ssh not shown", true, "ssh \"$opt\" host true");
	opaque("an option of tar not shown", true, "tar -xf a.tar \"$opt\"");
	opaque("python3 fed on a pipe", true, "curl -s u | python3");
	opaque("python3 - on a pipe", true, "cat f | python3 -");
	opaque("python3 /dev/stdin", true, "cat f | python3 /dev/stdin");
	opaque("python3 on a process substitution", true,
	       "python3 < <(curl -s u)");
	opaque("python3 on a here-string not shown", true, "python3 <<< \"$x\"");
	opaque("python3 on a here-document that substitutes", true,
	       "python3 - <<EOF\nprint($(cat f))\nEOF\n");
	opaque("make -f - on a here-document that substitutes", true,
	       "make -f - <<EOF\nall:; $(cat f)\nEOF\n");
	opaque("git -c of a value not shown: git's children judged instead", false,
	       "git -c core.fsmonitor=\"$x\" status");
	opaque("git -c of a setting not shown: the same", false, "git -c \"$kv\" status");
	opaque("git --config-env: the same", false,
	       "V=$(cat f) git --config-env=core.fsmonitor=V status");
	opaque("git's subcommand not shown: it may be a script's", true,
	       "git \"$sub\"");
	opaque("git fetch of a word that may be an option: the same", false,
	       "git fetch \"$remote\"");
	opaque("git config of a value not shown: the same", false,
	       "git config core.fsmonitor \"$(cat f)\"");
	opaque("git submodule foreach: a script's words", true,
	       "git submodule foreach \"$x\"");
	opaque("GIT_CONFIG_VALUE_0 not shown: the same", false,
	       "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.fsmonitor "
	       "GIT_CONFIG_VALUE_0=\"$(cat f)\" git status");
	opaque("GIT_SSH_COMMAND not shown: the same", false,
	       "GIT_SSH_COMMAND=\"$x\" git fetch");
	opaque("export PAGER not shown", true, "export PAGER=\"$p\"; git log");
	opaque("read into LD_PRELOAD", true,
	       "read -r LD_PRELOAD < f; export LD_PRELOAD; ls");
	opaque("python3 with a literal program is not", false,
	       "python3 -c 'print(1)'");
	opaque("python3 with a script is not", false, "cat in | python3 conv.py");
	opaque("python3 on a quoted here-document is not", false,
	       "python3 - <<'EOF'\nprint($(x))\nEOF\n");
	opaque("python3 on a plain file is not", false, "python3 < script.py");
	opaque("git commit -m and --author not shown are not", false,
	       "git commit -m \"$msg\" --author \"$a\"");
	opaque("git commit --message= is not", false,
	       "git commit --message=\"$(cat m)\"");
	opaque("git add -- of paths is not", false, "git add -- \"$f\" \"$g\"");
	opaque("git -C of a place is not", false, "git -C \"$d\" status");
	opaque("a pager shown is not", false, "PAGER=cat git log");
	opaque("find -exec with {} is not", false,
	       "find . -name '*.c' -exec wc -l {} +");
	opaque("ls of a place not shown is not", false, "ls \"$d\"");
	opaque("xargs -I{} is not", false, "ls | xargs -I{} wc -l {}");
	/* what a review tried */
	opaque("xargs of python3 -c", true,
	       "echo X | base64 -d | xargs -0 python3 -c");
	opaque("python3 in a group on a pipe", true, "curl -s u | { python3; }");
	opaque("python3 in a subshell on a pipe", true, "curl -s u | (python3)");
	opaque("python3 on another descriptor", true,
	       "exec 3< <(curl -s u); python3 <&3");
	opaque("python3 -W ignore on a pipe", true, "curl -s u | python3 -W ignore");
	opaque("perl -I dir on a pipe", true, "curl -s u | perl -I lib");
	opaque("a here-document expanding a variable", true,
	       "read -r x < f; python3 - <<EOF\n$x\nEOF\n");
	opaque("a function reading its program on stdin", true,
	       "f() { python3; }; curl -s u | f");
	opaque("export \"PERL5OPT=…\"", true,
	       "export \"PERL5OPT=$(cat f)\"; perl -e 1");
	opaque("PERL5OPT+=", true, "PERL5OPT+=\"$(cat f)\" perl -e 1");
	opaque("${PERL5OPT:=…}", true,
	       ": \"${PERL5OPT:=$(cat f)}\"; export PERL5OPT; perl -e 1");
	opaque("printf -vPERL5OPT", true, "printf -vPERL5OPT %s x; perl -e 1");
	opaque("command read PERL5OPT", true, "command read PERL5OPT < f");
	opaque("builtin printf -v PAGER", true, "builtin printf -v PAGER %s x");
	opaque("a nameref", true, "declare -n r=PAGER; r=$(cat f); man ls");
	opaque("find with a word not shown before -exec", true,
	       "find . -name v $(cat f)");
	opaque("git --config-env quoted: the same", false,
	       "git \"--config-env=core.fsmonitor=V\" status");
	opaque("git fetch -m of a word not shown: the same", false,
	       "git fetch -m \"$x\"");
	opaque("perl -e then a word not shown (perl takes options after -e)",
	       true, "perl -e 1 \"$x\"");
	opaque("sed with a file not shown (GNU getopt takes options after "
	       "operands)", true, "sed 's/a/b/' \"$f\"");
	/* what a second review tried */
	opaque("python3 -E on a pipe", true, "curl -s u | python3 -E");
	opaque("perl -p on a pipe", true, "curl -s u | perl -p");
	opaque("python3 /dev/fd/3 of a here-string", true,
	       "python3 /dev/fd/3 3<<<\"$(cat f)\"");
	opaque("awk -- of a program not shown", true,
	       "awk -- \"$(cat f)\" /dev/null");
	opaque("make -j \"$x\" (optional: an assignment)", true,
	       "make -j \"$(cat f)\"");
	opaque("export P\"ERL5OPT=…\"", true,
	       "export P\"ERL5OPT=$(cat f)\"; perl -e 1");
	opaque("export {PERL5OPT,Z}=…", true,
	       "export {PERL5OPT,Z}=\"$(cat f)\"; perl -e 1");
	opaque("export B\"ASH_ENV=…\" of a file shown", true,
	       "export B\"ASH_ENV=/dev/stdin\"; echo x | bash -c true");
	opaque("awk -W of a value not shown (gawk's source=)", true,
	       "awk -W \"$x\" 1 f");
	/* what a third review tried */
	opaque("python3 -W -W of a value not shown (the second -W a value)",
	       true, "python3 -W -W \"$(cat f)\"");
	opaque("perl -e -I of a value not shown", true, "perl -e -I \"$(cat f)\"");
	opaque("python3 -W of an unquoted substitution (it splits)", true,
	       "python3 -W $(cat f)");
	opaque("node --import of a value not shown (data: URLs)", true,
	       "node --import \"$(cat f)\" -e 0");
	opaque("xargs env", true, "echo X | base64 -d | xargs env");
	opaque("xargs timeout", true, "echo X | xargs timeout 9");
	opaque("xargs find", true, "echo X | xargs find .");
	opaque("parallel with no command", true, "echo X | parallel");
	opaque("env -S", true, "env -S 'bash -c \"echo X|base64 -d|sh\"'");
	opaque("flock -c of an opaque string", true,
	       "flock /tmp/l -c 'echo X|base64 -d|sh'");
	opaque("script -qc of an opaque string", true,
	       "script -qc 'echo X|base64 -d|sh' /dev/null");
	opaque("watch of an opaque string", true, "watch -n 5 'echo X|base64 -d|sh'");
	opaque("read into a name made by an expansion", true,
	       "read -r ${x:-PERL5DB} <<< \"$(cat f)\"; export PERL5DB");
	opaque("GIT_EDITOR not shown (gh reads it)", true,
	       "GIT_EDITOR=\"$(cat f)\" gh pr create");
	opaque("make -j \"$x\" still", true, "make -j \"$(cat f)\"");
	/* git's scripts that run what they are given: their words looked
	 * into (their programs are nested, not git's children) */
	opaque("git filter-branch of a filter not shown", true,
	       "git filter-branch --tree-filter \"$(cat f)\" HEAD");
	opaque("git bisect run of a command not shown", true,
	       "git bisect run $(cat f)");
	opaque("git of a subcommand not shown", true, "git \"$sub\" x");
	opaque("git commit of a message not shown is not", false,
	       "git -C \"$d\" commit -m \"$(cat m)\"");
	/* data */
	opaque("make -j $(nproc) is not", false, "make -j $(nproc)");
	opaque("make -C \"$d\" -j $(nproc) all is not", false,
	       "make -C \"$d\" -j $(nproc) all");
	opaque("make -j\"$(nproc --all)\" is not", false, "make -j\"$(nproc --all)\"");
	opaque("flock -c of a plain string is not", false,
	       "flock /tmp/l -c 'make all'");
	opaque("read -p of a prompt is not", false,
	       "read -r -p \"name: $x\" line < f");
	opaque("env NAME=v node app.js is not", false, "env NODE_ENV=test node app.js");
	opaque("sudo python3 x.py is not", false, "sudo python3 x.py");
	opaque("read -r line is not", false, "read -r line < f; echo \"$line\"");
	opaque("git diff of a substitution is not", false,
	       "git diff \"$(git merge-base HEAD main)\"");
	opaque("git push of a substitution is not", false,
	       "git push -u origin \"$(git branch --show-current)\"");
	opaque("git -C fused of a place is not", false, "git -C\"$d\" status");
	opaque("make -j of a substitution is not", false, "make -j$(nproc)");
	opaque("make -j$(nproc) -C \"$d\" is not", false,
	       "make -j$(nproc) -C \"$d\" all");
	opaque("make -j$n (unquoted: it may split)", true, "make -j$n all");
	opaque("awk of a file not shown is not", false,
	       "awk '{print $1}' \"$f\"");
	opaque("awk -v of a value not shown is not", false,
	       "awk -v x=\"$y\" '{print x}' f");
	opaque("python3 script.py of an argument not shown is not", false,
	       "python3 script.py \"$arg\"");
	opaque("python3 -c of arguments not shown is not", false,
	       "python3 -c 'import sys; print(sys.argv)' \"$x\"");
	opaque("curl of a URL not shown is not", false, "curl -sL \"$URL\"");
	opaque("PYTHONPATH of $PWD is not", false,
	       "PYTHONPATH=\"$PWD/src\" python3 -m pytest");
	opaque("LD_LIBRARY_PATH of ${PWD} is not", false,
	       "LD_LIBRARY_PATH=${PWD}/build ./test");
}

/* ---- property: random commands through generated hand-offs ---- */

static unsigned long long rng = 0x2545f4914f6cdd1dull;

static unsigned pick(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % n);
}

static char *random_command(void)
{
	static const char *const words[] = {
		"ls", "-la", "rm", "-rf", "build/", "git", "push", "--force",
		"'*.c'", "a\\ b", "\"$HOME\"", "\"$1\"", "${X:-y}",
		"$(date +%s)", "'it'\\''s'", "\"say \\\"hi\\\"\"", "'a)b'",
		"100%", "é", "'&&'", "\"; rm\"", "x=1", "--", "|", "&&", ";",
		"<<'EOF'\nline\nEOF\n", "> out", "2>&1", "'\n'",
	};
	struct hs_strbuf b = { 0 };
	unsigned n = 1 + pick(6);

	hs_sb_adds(&b, pick(2) ? "echo" : "grep");
	for (unsigned k = 0; k < n; k++) {
		hs_sb_addc(&b, ' ');
		hs_sb_adds(&b, words[pick(sizeof(words) / sizeof(words[0]))]);
	}
	if (pick(2))
		hs_sb_adds(&b, " && echo done");
	return hs_sb_take(&b);
}

/* Hand-off shapes no agent in the tests uses, each run as
 * `bash -c SHAPE W x /bin/bash CMD`: $2 the shell, $3 the command. */
static const char *const shapes[] = {
	"eval \"$3\"",
	"c=\"$3\"; eval \"$c\"",
	"export x=1\nshell=$2\n\"$shell\" -c \"$3\"",
	"f() { eval \"$1\"; }\nf \"$3\"",
	"function g { local s=\"$1\" c=\"$2\"; exec \"$s\" -c \"$c\"; }; "
	"g \"$2\" \"$3\"",
	"set -euo pipefail; env -i \"$2\" -c \"$3\"",
	"true; command eval \"$3\" </dev/null; exit $?",
	"exec timeout 600 nohup \"$2\" -lc \"$3\"",
	"cmd=$3; readonly cmd; builtin eval -- \"$cmd\"",
	"h() { f() { eval \"$1\"; }; f \"$1\"; }; h \"$3\"",
};

/* Each made hostile: what the hook would not see must keep it from
 * being unwrapped. */
static const char *const hostile[] = {
	"eval \"$3\"; rm -rf victim",
	"rm -rf victim; eval \"$3\"",
	"c=\"$3\"; if true; then c='rm -rf victim'; fi; eval \"$c\"",
	"f() { rm -rf victim; eval \"$1\"; }\nf \"$3\"",
	"set -- x y 'rm -rf victim'; eval \"$3\"",
	"eval $3",
	"true() { rm -rf victim; }; true; eval \"$3\"",
	"eval \"$3\" & rm -rf victim",
	"while :; do rm -rf victim; break; done; eval \"$3\"",
	"exec \"$2\" -c \"$3\"; rm -rf victim",
};

static void property(void)
{
	int bad = 0, hbad = 0, obad = 0, n = 0;
	char first[400] = "", hfirst[400] = "";

	for (int k = 0; k < 400; k++) {
		char *cmd = random_command();

		for (size_t s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++) {
			bool exact;
			char *got = hs_handoff_unwrap(
				shapes[s], P("W", "x", "/bin/bash", cmd), &exact);

			if ((!got || strcmp(got, cmd) != 0) && !bad++)
				snprintf(first, sizeof(first), "%s <- %s",
					 shapes[s], cmd);
			free(got);
			n++;
		}
		for (size_t s = 0; s < sizeof(hostile) / sizeof(hostile[0]);
		     s++) {
			bool exact;
			char *got = hs_handoff_unwrap(
				hostile[s], P("W", "x", "/bin/bash", cmd), &exact);
			char *shown = hs_command_text(
				P("bash", "-c", (char *)hostile[s], "W", "x",
				  "/bin/bash", cmd),
				NULL);

			if (got && !hbad++)
				snprintf(hfirst, sizeof(hfirst), "%s", hostile[s]);
			/* shown whole, and judged beneath: what it runs */
			if (!shown || strcmp(shown, hostile[s]) != 0 ||
			    (strstr(hostile[s], "$3") &&
			     !hs_handoff_opaque(shown)))
				obad++;
			free(got);
			free(shown);
		}
		free(cmd);
	}
	CHECK("4,000 random commands through 10 hand-off shapes come back "
	      "exactly", bad == 0 && n == 4000);
	if (bad)
		printf("# %d wrong, the first: [%s]\n", bad, first);
	CHECK("no hostile hand-off is unwrapped", hbad == 0);
	if (hbad)
		printf("# the first: [%s]\n", hfirst);
	CHECK("every hostile hand-off is shown whole and judged beneath",
	      obad == 0);
}

/* A shell reading commands line by line (shim/stdin_line.c): when does
 * a text stop inside a command, and which commands leave code behind? */
static void lines(void)
{
	static const char *const more[] = {
		"if true; then", "for i in 1 2; do", "while :; do echo",
		"{ echo a", "( echo a", "f() {", "case x in", "echo a &&",
		"echo a ||", "echo a |", "echo a >", "echo a \\",
		"echo 'abc", "echo \"abc", "echo $(ls", "echo `ls",
		"echo ${x", "[[ -f x", "cat <<E", "cat <<E\nbody",
		"cat <<-'E'\n\tbody", NULL,
	};
	static const char *const whole[] = {
		"echo a", "if true; then echo; fi", "cat <<E\nbody\nE",
		"echo a \\\nb", "echo 'a\nb'", "for i in 1; do :; done",
		"echo \\\\", "f() { :; }", "", "# a comment", NULL,
	};
	static const char *const broken[] = { "fi", "done", "echo )", "}",
					      "echo a;;", NULL };

	for (size_t i = 0; more[i]; i++)
		CHECK(more[i], hs_sh_needs_more(more[i]));
	for (size_t i = 0; whole[i]; i++)
		CHECK(whole[i], !hs_sh_needs_more(whole[i]));
	/* a syntax error no more input mends: judged as it is */
	for (size_t i = 0; broken[i]; i++)
		CHECK(broken[i], !hs_sh_needs_more(broken[i]));

	CHECK("a function is left behind", hs_handoff_leaves_code("g() { rm -f \"$1\"; }"));
	CHECK("... inside a group", hs_handoff_leaves_code("{ f() { :; }; }"));
	CHECK("an alias", hs_handoff_leaves_code("alias ls='rm -rf x'"));
	CHECK("a trap", hs_handoff_leaves_code("trap 'rm -f x' EXIT"));
	CHECK("hash -p", hs_handoff_leaves_code("hash -p /tmp/x ls"));
	CHECK("a sourced file", hs_handoff_leaves_code(". .venv/bin/activate"));
	CHECK("builtin alias", hs_handoff_leaves_code("builtin alias x=y"));
	CHECK("an eval", hs_handoff_leaves_code("eval 'f() { :; }'"));
	CHECK("export -f", hs_handoff_leaves_code("export -f g"));
	CHECK("an expanded command word", hs_handoff_leaves_code("$cmd x"));
	CHECK("unparseable", hs_handoff_leaves_code("if"));
	CHECK("a plain command leaves nothing", !hs_handoff_leaves_code("ls -la; cd src"));
	CHECK("an assignment leaves nothing to run", !hs_handoff_leaves_code("x=1; export Y=2"));
	CHECK("a loop leaves nothing", !hs_handoff_leaves_code("for f in *; do rm \"$f\"; done"));
	CHECK("export PERL5OPT: a later perl runs it",
	      hs_handoff_leaves_code("export PERL5OPT='-Mx'"));
	CHECK("export GIT_SSH_COMMAND: what git runs of it, git starts",
	      !hs_handoff_leaves_code("export GIT_SSH_COMMAND='ssh -i k'"));
	CHECK("PAGER= alone: a later export runs it",
	      hs_handoff_leaves_code("PAGER='rm -rf x #'"));
	CHECK("read into LD_PRELOAD", hs_handoff_leaves_code("read -r LD_PRELOAD < f"));
	CHECK("a pager for one command leaves nothing",
	      !hs_handoff_leaves_code("PAGER=cat git log"));
}

/* What bash -n says of text: 1 it wants more input (an unexpected end),
 * 0 otherwise (whole, or an error more input does not mend); -1 no bash. */
static int bash_wants_more(const char *text)
{
	int err[2], st;
	char buf[512];
	ssize_t n, got = 0;
	pid_t pid;

	if (access("/bin/bash", X_OK) != 0 || pipe(err) != 0)
		return -1;
	if ((pid = fork()) == 0) {
		dup2(err[1], 2);
		close(err[0]);
		execl("/bin/bash", "bash", "-n", "-c", text, (char *)NULL);
		_exit(127);
	}
	close(err[1]);
	while ((n = read(err[0], buf + got, sizeof(buf) - 1 - (size_t)got)) > 0)
		got += n;
	close(err[0]);
	buf[got] = '\0';
	waitpid(pid, &st, 0);
	return strstr(buf, "unexpected end of file") ||
	       strstr(buf, "unexpected EOF") ||
	       strstr(buf, "delimited by end-of-file");
}

/* Differential, against bash itself: every prefix (up to a line's end)
 * of commands in many shapes; where bash would read on, so must the
 * shim (otherwise the rest of the command is judged apart from it). */
static void lines_vs_bash(void)
{
	static const char *const cmds[] = {
		"if true; then\n  echo a\nelif false; then\n  echo b\nelse\n  echo c\nfi",
		"for i in 1 2; do\n  case $i in\n    1) echo one ;;\n    *) echo x ;;\n  esac\ndone",
		"while read -r l; do\n  echo \"$l\"\ndone <<'E'\na\nb\nE",
		"f() {\n  local x=$(\n    echo in\n  )\n  echo \"$x\"\n}",
		"echo 'multi\nline\nquote' && echo \"two\nlines\"",
		"echo a \\\n  b \\\n  c",
		"x=$((1 +\n 2)); echo $[x +\n 1]",
		"[[ a =~ (b|\nc) ]] && echo m",
		"{ echo a\n  echo b; } | cat",
		"( cd /tmp\n  ls ) || echo no",
		"cat <<-EOF\n\tone\n\tEOF",
		"echo $(echo `echo\n deep`)",
		"select x in a b; do\n break\ndone",
		"until false; do\n break\ndone",
		"echo ${x:-\ndefault}",
		"a=(1\n 2\n 3); echo ${a[@]}",
		NULL,
	};
	int disagree = 0, checked = 0;

	for (size_t c = 0; cmds[c]; c++) {
		const char *t = cmds[c];

		for (const char *nl = strchr(t, '\n'); nl; nl = strchr(nl + 1, '\n')) {
			char *prefix = strndup(t, (size_t)(nl - t));
			int b = bash_wants_more(prefix);

			if (b < 0) {
				free(prefix);
				return;
			}
			checked++;
			if (b && !hs_sh_needs_more(prefix)) {
				printf("FAIL bash reads on after %s\n", prefix);
				disagree++;
			}
			free(prefix);
		}
		CHECK(t, !hs_sh_needs_more(t) && bash_wants_more(t) == 0);
	}
	CHECK("where bash reads on, the shim does too (prefixes of every shape)",
	      checked > 30 && disagree == 0);
}

int main(void)
{
	handoffs();
	attacks();
	opacity();
	lines();
	lines_vs_bash();
	property();
	CHECK_DONE();
}
