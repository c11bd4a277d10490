/* The position index (jsonpos.h). The text is known to be valid JSON
 * (cJSON parsed it), so the scanner only has to find where each value
 * starts; values appear in the text in the order of a pre-order walk of
 * the tree, which is how the two are paired. */
#include "jsonpos.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct scan {
	const char *p, *end;
	int line, col;
	struct { int line, col; } *pos; /* in text order */
	size_t n, cap;
	int depth;
};

/* cJSON nests at most CJSON_NESTING_LIMIT deep; so does this. */
#define MAX_DEPTH 1000

static void advance(struct scan *s)
{
	if (*s->p == '\n') {
		s->line++;
		s->col = 1;
	} else if (((unsigned char)*s->p & 0xC0) != 0x80) {
		/* one column per character: UTF-8 continuation bytes add none */
		s->col++;
	}
	s->p++;
}

static void skip_space(struct scan *s)
{
	/* cJSON's whitespace is every byte up to and including ' '. */
	while (s->p < s->end && (unsigned char)*s->p <= 32 && *s->p)
		advance(s);
}

static int record(struct scan *s, int line, int col)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 64;
		void *v = realloc(s->pos, cap * sizeof(*s->pos));

		if (!v)
			return -1;
		s->pos = v;
		s->cap = cap;
	}
	s->pos[s->n].line = line;
	s->pos[s->n].col = col;
	s->n++;
	return 0;
}

/* Past a string whose opening quote is at s->p: a backslash always takes
 * the next byte with it, so \" and \\ never end or extend the string. */
static int skip_string(struct scan *s)
{
	if (s->p >= s->end || *s->p != '"')
		return -1;
	advance(s);
	while (s->p < s->end && *s->p != '"') {
		if (*s->p == '\\' && s->p + 1 < s->end)
			advance(s);
		advance(s);
	}
	if (s->p >= s->end)
		return -1;
	advance(s);
	return 0;
}

static int value(struct scan *s, int line, int col);

static int container(struct scan *s, char close, bool object)
{
	advance(s); /* the opening bracket */
	skip_space(s);
	if (s->p < s->end && *s->p == close) {
		advance(s);
		return 0;
	}
	for (;;) {
		int line, col;

		skip_space(s);
		line = s->line;
		col = s->col;
		if (object) {
			if (skip_string(s) < 0)
				return -1;
			skip_space(s);
			if (s->p >= s->end || *s->p != ':')
				return -1;
			advance(s);
			skip_space(s);
		}
		if (value(s, line, col) < 0)
			return -1;
		skip_space(s);
		if (s->p >= s->end)
			return -1;
		if (*s->p == close) {
			advance(s);
			return 0;
		}
		if (*s->p != ',')
			return -1;
		advance(s);
	}
}

/* One value at s->p, recorded at line:col (its key's, for a member). */
static int value(struct scan *s, int line, int col)
{
	int rc;

	if (s->p >= s->end || record(s, line, col) < 0)
		return -1;
	switch (*s->p) {
	case '{':
	case '[':
		if (++s->depth > MAX_DEPTH)
			return -1;
		rc = container(s, *s->p == '{' ? '}' : ']', *s->p == '{');
		s->depth--;
		return rc;
	case '"':
		return skip_string(s);
	default:
		/* numbers, true, false, null: up to the next delimiter */
		while (s->p < s->end && (unsigned char)*s->p > 32 &&
		       !strchr(",]}", *s->p))
			advance(s);
		return 0;
	}
}

static int by_node(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)((const struct hs_jsonpos_ent *)a)->node;
	uintptr_t y = (uintptr_t)((const struct hs_jsonpos_ent *)b)->node;

	return x < y ? -1 : x > y;
}

/* Pairs the tree with the recorded positions, pre-order. */
static int walk(const cJSON *node, const struct scan *s,
		struct hs_jsonpos *ix)
{
	const cJSON *c;

	if (ix->n >= s->n)
		return -1;
	ix->v[ix->n].node = node;
	ix->v[ix->n].line = s->pos[ix->n].line;
	ix->v[ix->n].col = s->pos[ix->n].col;
	ix->n++;
	if (cJSON_IsArray(node) || cJSON_IsObject(node))
		for (c = node->child; c; c = c->next)
			if (walk(c, s, ix) < 0)
				return -1;
	return 0;
}

int hs_jsonpos_build(struct hs_jsonpos *ix, const char *text, size_t len,
		     const cJSON *root)
{
	struct scan s = { .p = text, .end = text + len, .line = 1, .col = 1 };
	int rc = -1;

	memset(ix, 0, sizeof(*ix));
	/* cJSON skips a UTF-8 byte order mark; it is no column. */
	if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0)
		s.p += 3;
	skip_space(&s);
	if (!root || value(&s, s.line, s.col) < 0)
		goto out;
	ix->v = calloc(s.n, sizeof(*ix->v));
	if (!ix->v || walk(root, &s, ix) < 0 || ix->n != s.n)
		goto out;
	qsort(ix->v, ix->n, sizeof(*ix->v), by_node);
	rc = 0;
out:
	free(s.pos);
	if (rc < 0)
		hs_jsonpos_free(ix);
	return rc;
}

bool hs_jsonpos_find(const struct hs_jsonpos *ix, const cJSON *node,
		     int *line, int *col)
{
	struct hs_jsonpos_ent key = { .node = node }, *e;

	if (!ix || !ix->n || !node)
		return false;
	e = bsearch(&key, ix->v, ix->n, sizeof(*ix->v), by_node);
	if (!e)
		return false;
	*line = e->line;
	*col = e->col;
	return true;
}

void hs_jsonpos_free(struct hs_jsonpos *ix)
{
	free(ix->v);
	memset(ix, 0, sizeof(*ix));
}
