/* The operations table (dialect.h): one row per line of dialect_list.h,
 * and the questions asked of all dialects at once. */
#include "dialect.h"

#include <stdio.h>
#include <string.h>

#include "loadkit.h"

#define HS_DIALECT_ROW_DECL(id, row) extern const struct hs_dialect_ops row;
HS_DIALECTS(HS_DIALECT_ROW_DECL)
#undef HS_DIALECT_ROW_DECL

static const struct hs_dialect_ops *const rows[HS_NDIALECT] = {
#define HS_DIALECT_ROW(id, row) [id] = &row,
	HS_DIALECTS(HS_DIALECT_ROW)
#undef HS_DIALECT_ROW
};

const struct hs_dialect_ops *hs_dialect_ops(enum hs_dialect d)
{
	return rows[d];
}

const struct hs_dialect_ops *hs_dialect_in_claim_order(size_t i,
							enum hs_dialect *d)
{
	size_t seen = 0;

	/* Two passes: the dialects that recognise their own files, then
	 * the fallback. */
	for (int pass = 0; pass < 2; pass++) {
		for (int k = 0; k < HS_NDIALECT; k++) {
			if (rows[k]->fallback != (pass == 1))
				continue;
			if (seen++ == i) {
				if (d)
					*d = (enum hs_dialect)k;
				return rows[k];
			}
		}
	}
	return NULL;
}

const char *hs_dialect_name(enum hs_dialect d)
{
	return d < HS_NDIALECT ? rows[d]->name : "?";
}

int hs_dialect_parse(const char *name, enum hs_dialect *out)
{
	for (int d = 0; d < HS_NDIALECT; d++) {
		if (strcmp(name, rows[d]->name) == 0) {
			*out = (enum hs_dialect)d;
			return 0;
		}
	}
	for (int d = 0; d < HS_NDIALECT; d++) {
		for (const char *const *a = rows[d]->aliases; a && *a; a++) {
			if (strcmp(name, *a) == 0) {
				*out = (enum hs_dialect)d;
				return 0;
			}
		}
	}
	return -1;
}

const char *hs_dialect_names(void)
{
	static char list[256];
	const struct hs_dialect_ops *ops;
	size_t n = 0;

	if (list[0])
		return list;
	for (size_t i = 0; (ops = hs_dialect_in_claim_order(i, NULL)); i++)
		n += (size_t)snprintf(list + n, n < sizeof(list)
				      ? sizeof(list) - n : 0, "%s%s",
				      i ? ", " : "", ops->name);
	return list;
}

int hs_event_parse(const char *name, enum hs_kind *kind, unsigned *post_mask,
		   unsigned *ops)
{
	/* Names that several dialects share mean the same there, so the
	 * first row that has one answers for all. */
	for (int d = 0; d < HS_NDIALECT; d++) {
		if (hs_dialect_event(rows[d], name, kind, post_mask, ops) == 0 &&
		    *kind != HS_KIND_NONE)
			return 0;
	}
	if (!hs_event_catalog_only(name))
		return -1;
	*kind = HS_KIND_NONE;
	*post_mask = 0;
	*ops = 0;
	return 0;
}

/* Tools other agents use for the same two operations. */
static const char *const exec_aliases[] = { "run_shell_command", "shell",
					    "execute", NULL };
static const char *const write_aliases[] = { "MultiEdit", "write",
					     "write_file", "replace",
					     "apply_patch", "NotebookEdit",
					     NULL };
static const char *const read_aliases[] = { "read", "ReadFile", "view",
					    NULL };
static const char *const net_aliases[] = { "web_fetch", "fetch", "webfetch",
					   NULL };

static bool listed(const char *const *list, const char *s)
{
	for (; *list; list++)
		if (strcmp(*list, s) == 0)
			return true;
	return false;
}

unsigned hs_tool_op(const char *tool)
{
	for (int d = 0; d < HS_NDIALECT; d++) {
		const struct hs_tool_names *t = &rows[d]->tools;

		if (strcmp(tool, t->exec) == 0)
			return HS_OP_EXEC;
		if (strcmp(tool, t->write) == 0 || strcmp(tool, t->modify) == 0)
			return HS_OP_WRITE;
		if (strcmp(tool, t->read) == 0)
			return HS_OP_READ;
		if (strcmp(tool, t->net) == 0)
			return HS_OP_NET;
	}
	if (listed(exec_aliases, tool))
		return HS_OP_EXEC;
	if (listed(write_aliases, tool))
		return HS_OP_WRITE;
	if (listed(read_aliases, tool))
		return HS_OP_READ;
	if (listed(net_aliases, tool))
		return HS_OP_NET;
	return HS_OP_OTHER;
}
