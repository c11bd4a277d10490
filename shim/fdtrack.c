/* The descriptor table; see fdtrack.h. */
#include "fdtrack.h"

#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../common/plainstr.h"
#include "state.h"

#define NENT 256
#define NLANE HS_FDT_LANES
#define MAXFD 0xfffe       /* a lane holds fd + 1 in 16 bits */
#define OWNED (~0ull)      /* being filled or drained by one thread */

#define HBITS (8 * sizeof(unsigned long))

/* Mapped by the first descriptor tracked, not static: a megabyte of .bss
 * in every process the shim enters, where nearly none tracks one, cost an
 * extra mapping and a percent of each exec. */
struct table {
	/* Lanes and pids apart from the (page-sized) infos, so scanning
	 * and the fork reset touch two small arrays only. lanes: 0 = free,
	 * OWNED, else fd+1 per 16-bit lane. */
	uint64_t lanes[NENT];
	pid_t pids[NENT];
	/* A hint per descriptor number so close() of an untracked fd scans
	 * nothing. Set before a number enters a lane, cleared after it
	 * leaves; a stale set bit only costs a scan. */
	unsigned long hint[(MAXFD + 1) / HBITS + 1];
	struct hs_fdt_info infos[NENT];
};

static struct table *T HS_HOT;
static int used HS_HOT; /* entries not free: the close() fast path */

static struct table *table(void)
{
	return __atomic_load_n(&T, __ATOMIC_ACQUIRE);
}

/* mmap, unlike malloc, may be called from a signal handler or a vfork
 * child; of two racing threads the loser unmaps its copy. */
static struct table *table_make(void)
{
	struct table *t = table(), *mine;

	if (t)
		return t;
	mine = mmap(NULL, sizeof(*mine), PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mine == MAP_FAILED)
		return NULL;
	if (!__atomic_compare_exchange_n(&T, &t, mine, false, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE)) {
		munmap(mine, sizeof(*mine));
		return t;
	}
	return mine;
}

static void hint_set(struct table *t, int fd)
{
	__atomic_fetch_or(&t->hint[fd / HBITS], 1ul << (fd % HBITS),
			  __ATOMIC_RELEASE);
}

static void hint_clear(struct table *t, int fd)
{
	__atomic_fetch_and(&t->hint[fd / HBITS], ~(1ul << (fd % HBITS)),
			   __ATOMIC_RELEASE);
}

/* The table, if fd may be in it; else NULL. */
static struct table *hinted(int fd)
{
	struct table *t = table();

	if (!t || fd < 0 || fd > MAXFD)
		return NULL;
	return (__atomic_load_n(&t->hint[fd / HBITS], __ATOMIC_ACQUIRE) >>
		(fd % HBITS)) & 1 ? t : NULL;
}

HS_CHILD_PATH
bool hs_fdt_active(void)
{
	return __atomic_load_n(&used, __ATOMIC_RELAXED) != 0;
}

static int lane_of(uint64_t w, int fd)
{
	if (w == OWNED)
		return -1;
	for (int i = 0; i < NLANE; i++)
		if (((w >> (16 * i)) & 0xffff) == (uint64_t)fd + 1)
			return i;
	return -1;
}

/* The entry of this process holding `fd`, or -1. */
static int find(const struct table *t, int fd, pid_t self, uint64_t *w,
		int *lane)
{
	for (int i = 0; i < NENT; i++) {
		uint64_t v = __atomic_load_n(&t->lanes[i], __ATOMIC_ACQUIRE);
		int l;

		if (v == 0 || (l = lane_of(v, fd)) < 0 || t->pids[i] != self)
			continue;
		*w = v;
		*lane = l;
		return i;
	}
	return -1;
}

/* Moves an entry we own back to free. */
static void drop(struct table *t, int e)
{
	__atomic_store_n(&t->lanes[e], 0, __ATOMIC_RELEASE);
	__atomic_fetch_sub(&used, 1, __ATOMIC_RELAXED);
}

bool hs_fdt_release(int fd, struct hs_fdt_info *out)
{
	struct table *t = hinted(fd);
	pid_t self;

	if (!t)
		return false;
	self = hs_getpid();
	for (;;) {
		uint64_t w, nw;
		int lane;
		int e = find(t, fd, self, &w, &lane);

		if (e < 0)
			return false;
		nw = w & ~(0xffffull << (16 * lane));
		if (!__atomic_compare_exchange_n(&t->lanes[e], &w,
						 nw ? nw : OWNED, false,
						 __ATOMIC_ACQ_REL,
						 __ATOMIC_ACQUIRE))
			continue; /* a dup or release raced us: look again */
		hint_clear(t, fd);
		if (nw)
			return false;
		memcpy(out, &t->infos[e], sizeof(*out));
		drop(t, e);
		return true;
	}
}

int hs_fdt_add(int fd, const char *path, const char *op, const char *id,
	       unsigned flags, struct hs_fdt_info *stale)
{
	int had = hs_fdt_release(fd, stale) ? HS_FDT_ADD_STALE : 0;
	size_t pl = strlen(path), ol = strlen(op), il = strlen(id);
	struct table *t;

	if (fd < 0 || fd > MAXFD || pl >= sizeof(stale->path) ||
	    ol >= sizeof(stale->op) || il >= sizeof(stale->id) ||
	    !(t = table_make()))
		return had;
	for (int i = 0; i < NENT; i++) {
		uint64_t z = 0;

		if (__atomic_load_n(&t->lanes[i], __ATOMIC_RELAXED) != 0 ||
		    !__atomic_compare_exchange_n(&t->lanes[i], &z, OWNED, false,
						 __ATOMIC_ACQ_REL,
						 __ATOMIC_RELAXED))
			continue;
		__atomic_fetch_add(&used, 1, __ATOMIC_RELAXED);
		t->pids[i] = hs_getpid();
		memcpy(t->infos[i].path, path, pl + 1);
		memcpy(t->infos[i].op, op, ol + 1);
		memcpy(t->infos[i].id, id, il + 1);
		t->infos[i].flags = flags;
		hint_set(t, fd);
		__atomic_store_n(&t->lanes[i], (uint64_t)fd + 1,
				 __ATOMIC_RELEASE);
		return had | HS_FDT_ADDED;
	}
	return had;
}

void hs_fdt_dup(int oldfd, int newfd)
{
	struct table *t = hinted(oldfd);
	pid_t self;

	if (!t || newfd < 0 || newfd > MAXFD || newfd == oldfd)
		return;
	self = hs_getpid();
	for (;;) {
		uint64_t w;
		int lane, free_lane = -1;
		int e = find(t, oldfd, self, &w, &lane);

		if (e < 0)
			return;
		for (int i = 0; i < NLANE && free_lane < 0; i++)
			if (((w >> (16 * i)) & 0xffff) == 0)
				free_lane = i;
		if (free_lane < 0)
			return; /* four copies: the extra one goes untracked */
		hint_set(t, newfd);
		if (__atomic_compare_exchange_n(
			    &t->lanes[e], &w,
			    w | ((uint64_t)newfd + 1) << (16 * free_lane), false,
			    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
			return;
	}
}

bool hs_fdt_take_any(struct hs_fdt_info *out, int *fd)
{
	struct table *t = table();
	pid_t self;

	if (!t)
		return false;
	self = hs_getpid();
	for (int i = 0; i < NENT; i++) {
		uint64_t w = __atomic_load_n(&t->lanes[i], __ATOMIC_ACQUIRE);

		if (w == 0 || w == OWNED || t->pids[i] != self ||
		    !__atomic_compare_exchange_n(&t->lanes[i], &w, OWNED,
						 false, __ATOMIC_ACQ_REL,
						 __ATOMIC_RELAXED))
			continue;
		*fd = -1;
		for (int l = 0; l < NLANE; l++)
			if ((w >> (16 * l)) & 0xffff) {
				*fd = (int)((w >> (16 * l)) & 0xffff) - 1;
				hint_clear(t, *fd);
			}
		memcpy(out, &t->infos[i], sizeof(*out));
		drop(t, i);
		return true;
	}
	return false;
}

bool hs_fdt_next(int *pos, int fds[NLANE], int *n, struct hs_fdt_info *out)
{
	const struct table *t = table();
	pid_t self;

	if (!t)
		return false;
	self = hs_getpid();
	for (; *pos < NENT; ++*pos) {
		int i = *pos;
		uint64_t w = __atomic_load_n(&t->lanes[i], __ATOMIC_ACQUIRE);

		if (w == 0 || w == OWNED || t->pids[i] != self)
			continue;
		memcpy(out, &t->infos[i], sizeof(*out));
		/* a copy made while the entry was dropped and refilled is
		 * torn: only trust it if the lanes did not move meanwhile */
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (__atomic_load_n(&t->lanes[i], __ATOMIC_RELAXED) != w)
			continue;
		*n = 0;
		for (int l = 0; l < NLANE; l++)
			if ((w >> (16 * l)) & 0xffff)
				fds[(*n)++] = (int)((w >> (16 * l)) & 0xffff) - 1;
		++*pos;
		return true;
	}
	return false;
}

/* A fork child shares the open files but not the duty to report them: the
 * parent's close is the one that completes the write. */
static void fork_child(void)
{
	struct table *t = table();

	if (!used || !t)
		return;
	memset(t->lanes, 0, sizeof(t->lanes));
	memset(t->hint, 0, sizeof(t->hint));
	used = 0;
}

void hs_fdt_init(void)
{
	static int done HS_HOT;

	if (!__atomic_exchange_n(&done, 1, __ATOMIC_ACQ_REL))
		pthread_atfork(NULL, NULL, fork_child);
}
