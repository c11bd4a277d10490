/* Every verb of the hookshim binary, one line each: X(name, function,
 * help). The dispatch table and usage text (cli/main.c) and the
 * prototypes (cli/cli.h) are generated from it, so a new verb is its file
 * plus one line here. A NULL help hides an internal verb from the usage.
 * Keep a line's help under ~75 columns: usage prints it after the name. */
#ifndef HOOKSHIM_CLI_VERBS_H
#define HOOKSHIM_CLI_VERBS_H

#define HS_VERBS(X)                                                          \
	X(run, cmd_run, "run [-c FILE]... [--import D] [--log FILE] [--ci] "  \
			"-- CMD...  run CMD under hooks")                      \
	X(check, cmd_check, "check [-c FILE]...  list loaded hooks and "     \
			    "warnings")                                        \
	X(test, cmd_test, "test [-c FILE]... EVENT --tool NAME [--command " \
			  "CMD|--file PATH] [--input JSON]  decide one call "  \
			  "as live")                                           \
	X(trust, cmd_trust, "trust [FILE...]  load the project's hook files, " \
			    "as they are now")                                 \
	X(wrap, cmd_wrap, "wrap DIR TOOL...  create PATH wrappers")          \
	X(log, cmd_log, "log FILE [--denied] [--tool T] [--since W] [--json]"\
			"  a session log, readable")                           \
	X(doctor, cmd_doctor, "doctor [AGENT...]  what this host can "       \
			      "enforce, and the fix for what it cannot")     \
	X(explain, cmd_explain, "explain LOG  why each exec of a --log was " \
				"or was not a tool call")                      \
	X(__exec, cmd_exec, NULL)         /* one tool call, for post hooks */ \
	X(__deny, cmd_deny, NULL)         /* a denied posix_spawn's stand-in */\
	X(__supervise, cmd_supervise, NULL) /* a bare LD_PRELOAD's session */

#endif
