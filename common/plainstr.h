/* String helpers that stay out of libc.
 *
 * For the shim's hottest paths only: a fork child between fork and exec,
 * and the constructor of every process the shim loads into. There each
 * page of libc's string functions touched is a page fault of its own
 * (file pages are mapped lazily after fork and exec), and on a VM a page
 * fault costs about as much as the whole call. Elsewhere use libc. */
#ifndef HOOKSHIM_ENGINE_PLAINSTR_H
#define HOOKSHIM_ENGINE_PLAINSTR_H

#include <stdbool.h>
#include <stddef.h>

/* Code a fork child runs between fork and exec. GCC puts hot functions
 * in .text.hot, which shim/layout.ld places together right after the
 * read-only data: a child then reads one or two pages of the shim's text
 * instead of five, and each page a child reads for the first time is
 * dear (it maps them lazily after fork). */
#define HS_CHILD_PATH __attribute__((hot))

/* Code every process the shim enters runs once, in its constructors. GCC
 * puts the constructors themselves in .text.startup; their callees in
 * other files join them there, and shim/layout.ld places it all right
 * after the child path: start-up reads three pages of the shim's text
 * instead of ten. On a VM the first touch of each page costs a fault in
 * the hypervisor, even where the kernel has the page mapped already. */
#define HS_START_PATH __attribute__((section(".text.startup")))

static inline size_t hs_len(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

static inline void hs_copy(char *dst, const char *src, size_t n)
{
	while (n--)
		*dst++ = *src++;
}

/* Does s start with p? */
static inline bool hs_starts(const char *s, const char *p)
{
	while (*p)
		if (*s++ != *p++)
			return false;
	return true;
}

static inline bool hs_same_n(const char *a, const char *b, size_t n)
{
	while (n--)
		if (*a++ != *b++)
			return false;
	return true;
}

/* The last component of a path (all of it without a '/'). */
static inline const char *hs_base(const char *path)
{
	const char *base = path;

	for (const char *p = path; *p; p++)
		if (*p == '/')
			base = p + 1;
	return base;
}

static inline bool hs_same(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

#endif
