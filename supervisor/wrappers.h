/* PATH tool wrappers: a directory of TOOL -> hookshim symlinks. Invoked
 * under a tool's name, hookshim runs the pre hooks for `TOOL ARGS...` and
 * then the real TOOL found later on PATH (cli/wrap.c). Made by `hookshim
 * wrap DIR TOOL...` and, for settings.wrap_tools, by `hookshim run` for
 * the session's life. */
#ifndef HOOKSHIM_SUPERVISOR_WRAPPERS_H
#define HOOKSHIM_SUPERVISOR_WRAPPERS_H

#include <stddef.h>

/* Creates DIR (and parents) holding TOOL -> the hookshim binary symlinks.
 * 0, or -1 with a message. */
int hs_wrap_create(const char *dir, char *const tools[], size_t ntools);

/* A fresh directory of PATH wrappers for `tools` (NULL-terminated), or
 * NULL with a message; removed again, with its links, by _remove. */
char *hs_wrap_dir_make(char *const *tools);
void hs_wrap_dir_remove(char *dir, char *const *tools);

#endif
