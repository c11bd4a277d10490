/* Lexical path folding, shared by the shim (paths of intercepted writes)
 * and the floor (paths read from a stopped caller), so both judge the
 * same name: "//", "." and ".." segments and a trailing '/' folded in
 * place, without touching the file system (".." of a symlink is the
 * kernel's business: writes.follow_symlinks resolves before folding).
 * Async-signal-safe; p is absolute. */
#ifndef HOOKSHIM_COMMON_PATHFOLD_H
#define HOOKSHIM_COMMON_PATHFOLD_H

#include <stddef.h>
#include <stdbool.h>

void hs_path_fold(char *p);
/* Would hs_path_fold change p (or a path ending in p)? "//", a "." or
 * ".." segment, a trailing '/' (a dot file is a false alarm). The shim
 * asks it of the part it joined to an already folded directory. */
bool hs_path_foldable(const char *p);
/* Only what is safe with symlinks followed: "//", "." and a trailing '/'
 * go, ".." stays for the kernel's walk (or hs_path_resolve) to take. */
void hs_path_fold_dots(char *p);
/* A symlink's relative target tgt from the directory dir it is in (an
 * absolute name of that directory with no symlink in it, as the kernel
 * names a descriptor of it), into out (cap): tgt's leading "." and ".."
 * segments taken lexically -- dir has no symlink for ".." to go back
 * through -- and the rest as written (a ".." after a name there is the
 * walk's: that name may be a symlink), "//" and "." folded, a trailing
 * '/' kept. -1 where it does not fit. So "../../proc/self/fd/1" from "/srv/app" is
 * "/proc/self/fd/1", which can be seen to be a descriptor by name. */
int hs_path_join_up(const char *dir, const char *tgt, char *out, size_t cap);

#endif
