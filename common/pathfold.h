/* Lexical path folding, shared by the shim (paths of intercepted writes)
 * and the floor (paths read from a stopped caller), so both judge the
 * same name: "//", "." and ".." segments and a trailing '/' folded in
 * place, without touching the file system (".." of a symlink is the
 * kernel's business: writes.follow_symlinks resolves before folding).
 * Async-signal-safe; p is absolute. */
#ifndef HOOKSHIM_COMMON_PATHFOLD_H
#define HOOKSHIM_COMMON_PATHFOLD_H

#include <stdbool.h>

void hs_path_fold(char *p);
/* Would hs_path_fold change p (or a path ending in p)? "//", a "." or
 * ".." segment, a trailing '/' (a dot file is a false alarm). The shim
 * asks it of the part it joined to an already folded directory. */
bool hs_path_foldable(const char *p);
/* Only what is safe with symlinks followed: "//", "." and a trailing '/'
 * go, ".." stays for the kernel's walk (or hs_path_resolve) to take. */
void hs_path_fold_dots(char *p);

#endif
