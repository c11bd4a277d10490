/* The position index beside cJSON's tree (config/jsonpos.h): members at
 * their keys, elements at their values, strings with escapes and
 * multi-byte characters not throwing the scan off. */
#include <cjson/cJSON.h>
#include <stdlib.h>

#include "../../config/jsonpos.h"
#include "check.h"

static char where[64];

/* "line:col" of the node at a path of keys/indexes, or "none". */
static const char *at(const struct hs_jsonpos *ix, const cJSON *n)
{
	int line, col;

	if (!hs_jsonpos_find(ix, n, &line, &col))
		return "none";
	snprintf(where, sizeof(where), "%d:%d", line, col);
	return where;
}

static const cJSON *key(const cJSON *o, const char *k)
{
	return cJSON_GetObjectItemCaseSensitive(o, k);
}

static void test_shapes(void)
{
	const char *text = "{\n"
			   "  \"a\": 1,\n"
			   "  \"b\\\"q\\\\\": [true, {\"c\": \"x,]}\\\"\"}],\n"
			   "\t\"d\": [ [], {}, null ],\n"
			   "  \"\\u00e9t\\u00e9\": \"ünï\", \"z\": -1.5e3\n"
			   "}";
	cJSON *doc = cJSON_Parse(text);
	struct hs_jsonpos ix;
	const cJSON *b, *d;

	CHECK("jsonpos: the document parses", doc != NULL);
	CHECK("jsonpos: index built", hs_jsonpos_build(&ix, text, strlen(text), doc) == 0);
	CHECK_STR("jsonpos: root at its value", "1:1", at(&ix, doc));
	CHECK_STR("jsonpos: member at its key", "2:3", at(&ix, key(doc, "a")));
	b = key(doc, "b\"q\\");
	CHECK_STR("jsonpos: key with escaped quote and backslash", "3:3", at(&ix, b));
	CHECK_STR("jsonpos: array element at its value", "3:14",
		  at(&ix, cJSON_GetArrayItem(b, 0)));
	CHECK_STR("jsonpos: object inside an array", "3:20",
		  at(&ix, cJSON_GetArrayItem(b, 1)));
	CHECK_STR("jsonpos: member whose value holds ,]} and \\\"", "3:21",
		  at(&ix, key(cJSON_GetArrayItem(b, 1), "c")));
	d = key(doc, "d");
	CHECK_STR("jsonpos: a tab is one column", "4:2", at(&ix, d));
	CHECK_STR("jsonpos: empty array element", "4:9", at(&ix, cJSON_GetArrayItem(d, 0)));
	CHECK_STR("jsonpos: empty object element", "4:13", at(&ix, cJSON_GetArrayItem(d, 1)));
	CHECK_STR("jsonpos: null element", "4:17", at(&ix, cJSON_GetArrayItem(d, 2)));
	/* "été" is written with \u escapes (13 columns from the quote); "ünï" in
	 * UTF-8 is 3 columns whatever its bytes. */
	CHECK_STR("jsonpos: after \\u escapes and UTF-8", "5:27", at(&ix, key(doc, "z")));
	CHECK_STR("jsonpos: a node not in the tree", "none", at(&ix, NULL));
	hs_jsonpos_free(&ix);
	cJSON_Delete(doc);
}

static void test_duplicates_and_bom(void)
{
	const char *text = "\xEF\xBB\xBF{\"k\": 1,\n \"k\": 2}";
	cJSON *doc = cJSON_Parse(text);
	struct hs_jsonpos ix;

	CHECK("jsonpos: BOM document parses", doc != NULL);
	CHECK("jsonpos: BOM index built",
	      hs_jsonpos_build(&ix, text, strlen(text), doc) == 0);
	CHECK_STR("jsonpos: a BOM is no column", "1:2", at(&ix, doc->child));
	CHECK_STR("jsonpos: duplicate key keeps its own place", "2:2",
		  at(&ix, doc->child->next));
	hs_jsonpos_free(&ix);
	cJSON_Delete(doc);
}

static void test_mismatch(void)
{
	cJSON *doc = cJSON_Parse("[1,2]");
	struct hs_jsonpos ix;

	/* A text that is not the tree's: no index rather than wrong lines. */
	CHECK("jsonpos: text and tree disagree -> -1",
	      hs_jsonpos_build(&ix, "[1]", 3, doc) < 0 && ix.n == 0);
	CHECK_STR("jsonpos: empty index finds nothing", "none", at(&ix, doc));
	cJSON_Delete(doc);
}

int main(void)
{
	test_shapes();
	test_duplicates_and_bom();
	test_mismatch();
	CHECK_DONE();
}
