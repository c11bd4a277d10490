/* Lexical path folding, shared by the shim (paths of intercepted writes)
 * and the floor (paths read from a stopped caller), so both judge the
 * same name: "//", "." and ".." segments and a trailing '/' folded in
 * place, without touching the file system (".." of a symlink is the
 * kernel's business: writes.follow_symlinks resolves before folding).
 * Async-signal-safe; p is absolute. */
#ifndef HOOKSHIM_COMMON_PATHFOLD_H
#define HOOKSHIM_COMMON_PATHFOLD_H

void hs_path_fold(char *p);

#endif
