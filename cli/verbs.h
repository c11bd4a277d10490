/* Every verb of the hookshim binary, one line each: X(name, function,
 * help, usage). The dispatch table and usage text (cli/main.c) and the
 * prototypes (cli/cli.h) are generated from it, so a new verb is its file
 * plus one line here. `help` is the line the general usage shows (NULL
 * hides an internal verb); keep it under ~75 columns. `usage` names the
 * verb's full help text, defined in its file: `hookshim VERB --help` and
 * `hookshim help VERB` print it, the same bytes. */
#ifndef HOOKSHIM_CLI_VERBS_H
#define HOOKSHIM_CLI_VERBS_H

#define HS_VERBS(X)                                                          \
	X(run, cmd_run, "run [-c FILE]... [--import D] [--log FILE] [--ci] "  \
			"-- CMD...  run CMD under hooks", hs_usage_run)        \
	X(check, cmd_check, "check [-c FILE]...  list loaded hooks and "     \
			    "warnings", hs_usage_check)                        \
	X(test, cmd_test, "test [-c FILE]... EVENT --tool NAME [--command " \
			  "CMD|--file PATH] [--input JSON]  decide one call "  \
			  "as live", hs_usage_test)                            \
	X(init, cmd_init, "init [--preset NAME]... [-o FILE]  write a starter " \
			  "policy", hs_usage_init)                             \
	X(trust, cmd_trust, "trust [FILE...]  load the project's hook files, " \
			    "as they are now", hs_usage_trust)                 \
	X(wrap, cmd_wrap, "wrap DIR TOOL...  create PATH wrappers",          \
	  hs_usage_wrap)                                                     \
	X(log, cmd_log, "log FILE [--denied] [--tool T] [--since W] [--json]"\
			"  a session log, readable", hs_usage_log)             \
	X(doctor, cmd_doctor, "doctor [AGENT...]  what this host can "       \
			      "enforce, and the fix for what it cannot",     \
	  hs_usage_doctor)                                                   \
	X(explain, cmd_explain, "explain LOG  why each exec of a --log was " \
				"or was not a tool call", hs_usage_explain)    \
	X(learn, cmd_learn, "learn [-o FILE] -- AGENT...  draft a profile "  \
			    "of an agent from what it runs", hs_usage_learn)   \
	/* internal verbs: one tool call, for post hooks; a denied          \
	 * posix_spawn's stand-in; a bare LD_PRELOAD's session */          \
	X(__exec, cmd_exec, NULL, hs_usage_none)                             \
	X(__deny, cmd_deny, NULL, hs_usage_none)                             \
	X(__supervise, cmd_supervise, NULL, hs_usage_none)

#endif
