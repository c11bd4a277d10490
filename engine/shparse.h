/* A shell parser for agents' `-c` scripts: enough of the POSIX/bash
 * grammar to tell what a wrapper script does, so the model's command can
 * be recovered from it by structure (engine/command.c) instead of by
 * comparing text with one agent version's preamble.
 *
 * It parses words with their quoting ('…', "…", $'…', $"…", \x, line
 * continuations), parameter/command/arithmetic substitutions and process
 * substitution (for their extent only), the operators && || ; & | |& and
 * newlines, redirections and here-documents, ( … ) and { …; } groups, and
 * the compound commands if/while/until/for/select/case/[[ ]]/(( )) and
 * function definitions (their bodies kept: engine/handoff.c looks at
 * what they run; [[ ]] and (( )) for their extent only).
 * Anything it cannot parse makes the whole parse fail, and a failed parse
 * is never unwrapped: showing the full script is always the safe answer.
 *
 * Not for the shim: it allocates. Pure otherwise. */
#ifndef HOOKSHIM_ENGINE_SHPARSE_H
#define HOOKSHIM_ENGINE_SHPARSE_H

#include <stdbool.h>
#include <stddef.h>

struct hs_sh_word {
	size_t start, end; /* its source text: script[start, end) */
	/* The word's value after quote removal, when the shell does no
	 * expansion in it; NULL otherwise (its value is not its text). */
	char *value;
	/* It contains a command or process substitution (or backquotes):
	 * expanding it runs programs. */
	bool runs;
};

struct hs_sh_redir {
	int fd;         /* explicit descriptor (2>), -1 when none */
	char op[4];     /* "<", ">", ">>", ">|", "<<", "<<-", "<<<", "<&",
			 * ">&", "<>", "&>", "&>>" */
	struct hs_sh_word target; /* for a here-document: its delimiter */
};

enum hs_sh_kind {
	HS_SH_SIMPLE,   /* assignments, words, redirections */
	HS_SH_SUBSHELL, /* ( body ) */
	HS_SH_GROUP,    /* { body; } */
	HS_SH_IF,       /* if body then ... fi: body holds every branch */
	HS_SH_OTHER,    /* loops and case (body: every list inside, in
			 * order), [[ ]], (( )) */
	HS_SH_FUNC,     /* a function definition: words[0] its name, body
			 * a list of its one compound command */
};

struct hs_sh_list;

struct hs_sh_cmd {
	enum hs_sh_kind kind;
	size_t start, end;  /* whole command, redirections included */
	struct hs_sh_word *assigns;
	size_t nassigns;
	struct hs_sh_word *words;
	size_t nwords;
	struct hs_sh_redir *redirs;
	size_t nredirs;
	/* SUBSHELL, GROUP, IF, OTHER, FUNC: the commands inside, in order;
	 * for IF the conditions and branches one after the other. body_start/body_end
	 * are the source between the opening and closing token. */
	struct hs_sh_list *body;
	size_t body_start, body_end;
};

/* What follows a pipeline in its list. */
enum hs_sh_conn {
	HS_SH_END,  /* nothing: the list ends */
	HS_SH_AND,  /* && */
	HS_SH_OR,   /* || */
	HS_SH_SEMI, /* ; */
	HS_SH_AMP,  /* & */
	HS_SH_NL,   /* newline */
};

struct hs_sh_pipe {
	bool bang;              /* ! pipeline */
	struct hs_sh_cmd *cmds; /* cmd | cmd | … */
	size_t ncmds;
	enum hs_sh_conn next;
	size_t start, end;      /* source of the pipeline, connector excluded */
	size_t next_end;        /* end of the connector (and its here-docs) */
};

/* A list, flattened: pipelines with the operator after each. && and ||
 * bind the pipelines of one and-or list; ; & and newline end it. */
struct hs_sh_list {
	struct hs_sh_pipe *pipes;
	size_t n;
};

/* Parses script (NUL-terminated); NULL when it is not valid shell this
 * parser understands, or on allocation failure. */
struct hs_sh_list *hs_sh_parse(const char *script);
void hs_sh_free(struct hs_sh_list *l);
/* Does script stop inside a command, so that a shell reading it line by
 * line would read on: an `if`, loop, group, quote or substitution still
 * open, a trailing `&&`, `|` or backslash, a here-document whose
 * delimiter line has not come? False for a whole script, and for one that
 * fails before its end (a syntax error no more input mends). */
bool hs_sh_needs_more(const char *script);

/* The value of w if known and not a reserved word's use, else NULL. */
const char *hs_sh_value(const struct hs_sh_word *w);

#endif
