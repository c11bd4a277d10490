/* An agent's own places: where the agent's own process keeps its state,
 * so that a write there is never one of its tools' (issue 24 item 1: the
 * agent's own writes are events wherever they land, as Claude Code's
 * Write hook fires for any path, but not its bookkeeping).
 *
 * For an agent named NAME (a profile's process name, the session's
 * command, or the writing program's own name, /proc/PID/comm), with home
 * directory HOME, the places are HOME/.NAME and below, HOME/.NAME.<x>
 * (~/.claude.json and its backups), and HOME/.config/NAME,
 * HOME/.local/share/NAME, HOME/.cache/NAME, HOME/.local/state/NAME and
 * below (XDG). The write filter's 'a' globs (temp directories, the XDG
 * cache and state trees) say the rest (engine/write_filter.c).
 *
 * Shared by the shim and the floor so both judge the same name; async-
 * signal-safe (no allocation). */
#ifndef HOOKSHIM_COMMON_AGENT_PLACE_H
#define HOOKSHIM_COMMON_AGENT_PLACE_H

#include <stdbool.h>
#include <stddef.h>

/* Is abs (absolute, folded) one of NAME's places under home? name is
 * n bytes (not NUL-terminated: a filter line's tail, a comm). False for
 * an empty name, a name with '/', or "." / "..". */
bool hs_agent_place(const char *abs, const char *home, const char *name,
		    size_t n);

/* Does glob (an 'a' line of the write filter: a temp directory's) name
 * a place at or above home by its literal part? Such a place does not
 * make the home directory below it the agent's own: a home or a project
 * kept in /tmp is judged as a home, /tmp's other entries as scratch. */
bool hs_agent_glob_above_home(const char *glob, const char *home);

#endif
