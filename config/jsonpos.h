/* Where each value of a parsed JSON document sits in its text. cJSON keeps
 * no positions, so the text is scanned a second time beside the tree. */
#ifndef HOOKSHIM_CONFIG_JSONPOS_H
#define HOOKSHIM_CONFIG_JSONPOS_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

struct hs_jsonpos_ent {
	const cJSON *node;
	int line, col; /* 1-based; columns count characters, not bytes */
};

struct hs_jsonpos {
	struct hs_jsonpos_ent *v; /* sorted by node, for lookups */
	size_t n;
};

/* Indexes every node of `root`, the tree cJSON parsed from `text`: an
 * object member at its key, an array element (and the root) at its value.
 * 0, or -1 (index left empty) when the text does not match the tree. */
int hs_jsonpos_build(struct hs_jsonpos *ix, const char *text, size_t len,
		     const cJSON *root);

/* The position of `node`; false when it is not in the index. */
bool hs_jsonpos_find(const struct hs_jsonpos *ix, const cJSON *node,
		     int *line, int *col);

void hs_jsonpos_free(struct hs_jsonpos *ix);

#endif
