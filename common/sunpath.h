/* The file-system name a bind(2) of a unix socket makes, read from its
 * address as the kernel reads it (net/unix/af_unix.c: unix_bind,
 * unix_validate_addr, unix_mkname_bsd), for the shim's bind interposer
 * (shim/write.c) and the floor's decoding of the syscall
 * (floor/floor_decode.c) alike: such a bind makes a socket inode at that
 * name, a mknod(S_IFSOCK) of it to every write rule. An abstract name (a
 * NUL first), an autobind (the family alone) and any other family make
 * nothing on disk. Async-signal-safe. */
#ifndef HOOKSHIM_COMMON_SUNPATH_H
#define HOOKSHIM_COMMON_SUNPATH_H

#include <stddef.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>

/* Room for a name: sun_path's bytes and a NUL the address may lack. */
#define HS_SUN_CAP (sizeof(((struct sockaddr_un *)0)->sun_path) + 1)

/* The name a bind of addr (len bytes) makes, into out (HS_SUN_CAP
 * bytes): its length, or 0 when it makes none. addr is the bytes as the
 * kernel copied them (len at most sizeof(struct sockaddr_storage)); a
 * name ends at its first NUL or at len. */
static inline size_t hs_sun_path(const void *addr, size_t len, char *out)
{
	const size_t head = offsetof(struct sockaddr_un, sun_path);
	const unsigned char *a = addr;
	sa_family_t fam;
	size_t n = 0;

	out[0] = '\0';
	if (!a || len <= head || len > sizeof(struct sockaddr_un))
		return 0;
	memcpy(&fam, a, sizeof(fam));
	if (fam != AF_UNIX || !a[head])
		return 0;
	while (head + n < len && a[head + n])
		n++;
	memcpy(out, a + head, n);
	out[n] = '\0';
	return n;
}

#endif
