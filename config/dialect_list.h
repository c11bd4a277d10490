/* Every dialect hookshim reads, one line each. The enum (model.h) and the
 * operations table (dialects.c) are both made from this list, so a new
 * dialect is its dialects/NAME.c (which defines the row) plus one line
 * here. The order is the enum's; it is also the order in which
 * dialects claim a file by its path or shape (the fallback dialect last,
 * see dialect.h). */
#ifndef HOOKSHIM_CONFIG_DIALECT_LIST_H
#define HOOKSHIM_CONFIG_DIALECT_LIST_H

#define HS_DIALECTS(X)                \
	X(HS_CLAUDE, hs_dialect_claude)   \
	X(HS_MEMCODE, hs_dialect_memcode) \
	X(HS_MNEMOAI, hs_dialect_mnemoai) \
	X(HS_MEMOH, hs_dialect_memoh)     \
	/* a new dialect: one line above */

#endif
