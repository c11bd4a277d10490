/* What the libFuzzer targets share: cutting one input into fields.
 *
 * An input is read front to back: single bytes for choices, and strings
 * ended by a NUL (the last one by the end of the input). Running out of
 * input is never an error: a byte is then 0 and a string NULL, so every
 * prefix of an interesting input is itself a valid input. The strings are
 * copies owned by the reader (fz_free), each in a buffer of its own
 * length, so ASan sees any read past one. */
#ifndef HOOKSHIM_FUZZ_FUZZ_H
#define HOOKSHIM_FUZZ_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define FZ_MAX_STRS 256

struct fz {
	const uint8_t *p;
	size_t n;
	char *strs[FZ_MAX_STRS];
	size_t nstrs;
};

static inline void fz_init(struct fz *f, const uint8_t *data, size_t size)
{
	f->p = data;
	f->n = size;
	f->nstrs = 0;
}

static inline uint8_t fz_byte(struct fz *f)
{
	if (!f->n)
		return 0;
	f->n--;
	return *f->p++;
}

static inline char *fz_keep(struct fz *f, const uint8_t *s, size_t len)
{
	char *c;

	if (f->nstrs == FZ_MAX_STRS || !(c = malloc(len + 1)))
		return NULL;
	if (len)
		memcpy(c, s, len);
	c[len] = '\0';
	f->strs[f->nstrs++] = c;
	return c;
}

/* The next string up to a NUL or the end; NULL once the input is used up. */
static inline char *fz_str(struct fz *f)
{
	const uint8_t *end;
	size_t len;

	if (!f->n)
		return NULL;
	end = memchr(f->p, '\0', f->n);
	len = end ? (size_t)(end - f->p) : f->n;
	f->p += len;
	f->n -= len;
	if (end) {
		f->p++;
		f->n--;
	}
	return fz_keep(f, f->p - len - (end ? 1 : 0), len);
}

/* Everything left, as one string (it may hold NULs; *len says how long). */
static inline char *fz_rest(struct fz *f, size_t *len)
{
	char *s = fz_keep(f, f->p, f->n);

	*len = s ? f->n : 0;
	f->p += f->n;
	f->n = 0;
	return s;
}

static inline void fz_free(struct fz *f)
{
	for (size_t i = 0; i < f->nstrs; i++)
		free(f->strs[i]);
	f->nstrs = 0;
}

#endif
