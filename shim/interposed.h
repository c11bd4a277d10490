/* Every libc function the shim interposes, each named once.
 *
 * HS_INTERPOSED(X) calls X(name, version, family, real) per row:
 *   name     the libc symbol; the shim exports a function of that name,
 *            with libc's prototype: its interposer
 *   version  the symbol version to forward to, or "" for the default
 *   family   where the interposer lives: EXEC (exec.c), SPAWN (spawn.c),
 *            WRITE (a row of WRITE_TABLE in write.c, or bind, written
 *            by hand beside it; its opens for reading
 *            are the agent's read events, read_event.c), END (the calls
 *            that end a write, by hand in write.c), REASON (the
 *            error-message functions that carry a hook's reason,
 *            reason.c), LINE (read: the commands a shell fed on stdin
 *            reads, stdin_line.c), NET (connections and the names they
 *            were resolved from, net.c); labels for test_symbols
 *   real     FWD: the interposer forwards to the next definition, which
 *            gets a slot in real.c's table (HS_REAL(name)), resolved in
 *            the constructor in one walk of the loaded objects; OWN: the
 *            interposer is built on another row (execv on execve) and
 *            never calls its own libc definition, so it costs no lookup
 *
 * From it come the real-function enum and name table (real.h, real.c)
 * and tests/unit/test_symbols.c, which checks every name against dlsym.
 * A new libc symbol is one row here plus its interposer.
 *
 * Pure macros, no includes: test_symbols is built without the shim.
 *
 * posix_spawn and posix_spawnp exist as @@GLIBC_2.15 and a compat
 * @GLIBC_2.2.5 whose child runs /bin/sh on ENOEXEC. Callers reach our
 * unversioned definition whichever they were linked against; we forward
 * to the current one. An unversioned lookup could hand back the compat
 * version on some setups, hence the version is asked for.
 *
 * mknod and mknodat are GLIBC_2.33 symbols; programs built against
 * older headers call __xmknod/__xmknodat instead, so both are rows.
 *
 * glibc exports __open and __open64 as well: the same functions as open
 * and open64, which any program can call by name (ctypes, dlsym), so
 * they are interposed like them, and so is _IO_fopen (fopen's old name,
 * which opens through libc's hidden alias: a write no other row sees).
 * Exported aliases of listed functions that are not here, checked on
 * glibc 2.36: __close, __dup2 (ends of writes, like close and dup2),
 * _IO_fclose; _IO_popen and GLIBC_PRIVATE __libc_system (their /bin/sh
 * child judges itself in its constructor, as any exec the shim did not
 * see); __open_nocancel, __open64_nocancel, __close_nocancel
 * (GLIBC_PRIVATE, no program links against them; the floor sees their
 * syscalls). */
#ifndef HOOKSHIM_SHIM_INTERPOSED_H
#define HOOKSHIM_SHIM_INTERPOSED_H

#define HS_INTERPOSED(X)                                                 \
	X(execve, "", EXEC, FWD)                                         \
	X(execveat, "", EXEC, FWD)                                       \
	X(fexecve, "", EXEC, FWD)                                        \
	X(execv, "", EXEC, OWN)                                          \
	X(execvp, "", EXEC, OWN)                                         \
	X(execvpe, "", EXEC, OWN)                                        \
	X(execl, "", EXEC, OWN)                                          \
	X(execlp, "", EXEC, OWN)                                         \
	X(execle, "", EXEC, OWN)                                         \
	X(posix_spawn, "GLIBC_2.15", SPAWN, FWD)                         \
	X(posix_spawnp, "GLIBC_2.15", SPAWN, FWD)                        \
	X(system, "", SPAWN, FWD)                                        \
	X(popen, "", SPAWN, FWD)                                         \
	X(pclose, "", SPAWN, FWD)                                        \
	X(open, "", WRITE, FWD)                                          \
	X(open64, "", WRITE, FWD)                                        \
	X(__open, "", WRITE, FWD)                                        \
	X(__open64, "", WRITE, FWD)                                      \
	X(__open_2, "", WRITE, FWD)                                      \
	X(__open64_2, "", WRITE, FWD)                                    \
	X(openat, "", WRITE, FWD)                                        \
	X(openat64, "", WRITE, FWD)                                      \
	X(__openat_2, "", WRITE, FWD)                                    \
	X(__openat64_2, "", WRITE, FWD)                                  \
	X(creat, "", WRITE, FWD)                                         \
	X(creat64, "", WRITE, FWD)                                       \
	X(fopen, "", WRITE, FWD)                                         \
	X(fopen64, "", WRITE, FWD)                                       \
	X(_IO_fopen, "", WRITE, FWD)                                     \
	X(freopen, "", WRITE, FWD)                                       \
	X(freopen64, "", WRITE, FWD)                                     \
	X(truncate, "", WRITE, FWD)                                      \
	X(truncate64, "", WRITE, FWD)                                    \
	X(rename, "", WRITE, FWD)                                        \
	X(renameat, "", WRITE, FWD)                                      \
	X(renameat2, "", WRITE, FWD)                                     \
	X(link, "", WRITE, FWD)                                          \
	X(linkat, "", WRITE, FWD)                                        \
	X(symlink, "", WRITE, FWD)                                       \
	X(symlinkat, "", WRITE, FWD)                                     \
	X(unlink, "", WRITE, FWD)                                        \
	X(unlinkat, "", WRITE, FWD)                                      \
	X(rmdir, "", WRITE, FWD)                                         \
	X(remove, "", WRITE, FWD)                                        \
	X(mkdir, "", WRITE, FWD)                                         \
	X(mkdirat, "", WRITE, FWD)                                       \
	X(mknod, "", WRITE, FWD)                                         \
	X(mknodat, "", WRITE, FWD)                                       \
	X(__xmknod, "", WRITE, FWD)                                      \
	X(__xmknodat, "", WRITE, FWD)                                    \
	X(mkfifo, "", WRITE, FWD)                                        \
	X(mkfifoat, "", WRITE, FWD)                                      \
	X(mkstemp, "", WRITE, FWD)                                       \
	X(mkstemp64, "", WRITE, FWD)                                     \
	X(mkostemp, "", WRITE, FWD)                                      \
	X(mkostemp64, "", WRITE, FWD)                                    \
	X(mkstemps, "", WRITE, FWD)                                      \
	X(mkstemps64, "", WRITE, FWD)                                    \
	X(mkostemps, "", WRITE, FWD)                                     \
	X(mkostemps64, "", WRITE, FWD)                                   \
	X(mkdtemp, "", WRITE, FWD)                                       \
	X(chmod, "", WRITE, FWD)                                         \
	X(fchmod, "", WRITE, FWD)                                        \
	X(fchmodat, "", WRITE, FWD)                                      \
	X(chown, "", WRITE, FWD)                                         \
	X(lchown, "", WRITE, FWD)                                        \
	X(fchown, "", WRITE, FWD)                                        \
	X(fchownat, "", WRITE, FWD)                                      \
	X(setxattr, "", WRITE, FWD)                                      \
	X(fsetxattr, "", WRITE, FWD)                                     \
	X(bind, "", WRITE, FWD)                                          \
	X(close, "", END, FWD)                                           \
	X(fclose, "", END, FWD)                                          \
	X(dup2, "", END, FWD)                                            \
	X(dup3, "", END, FWD)                                            \
	X(syscall, "", END, FWD)                                         \
	X(chdir, "", END, FWD)                                           \
	X(fchdir, "", END, FWD)                                          \
	X(_exit, "", END, FWD)                                           \
	X(_Exit, "", END, FWD)                                           \
	X(closedir, "", END, FWD)                                        \
	X(close_range, "", END, FWD)                                     \
	X(closefrom, "", END, FWD)                                       \
	X(strerror, "", REASON, FWD)                                     \
	X(strerror_r, "", REASON, FWD)                                   \
	X(__xpg_strerror_r, "", REASON, FWD)                             \
	X(strerror_l, "", REASON, FWD)                                   \
	X(perror, "", REASON, FWD)                                       \
	X(read, "", LINE, FWD)                                           \
	X(connect, "", NET, FWD)                                         \
	X(sendto, "", NET, FWD)                                          \
	X(sendmsg, "", NET, FWD)                                         \
	X(sendmmsg, "", NET, FWD)                                        \
	X(getaddrinfo, "", NET, FWD)

#endif
