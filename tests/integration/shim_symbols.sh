#!/bin/bash
# The functions libhookshim.so exports are exactly the rows of
# shim/interposed.h: an interposer without a row would get no real
# function and no test_symbols check; a row without an interposer would
# be resolved in every process for nothing.
. "$HOOKSHIM_TOP/tests/lib.sh"
if [ ! -f "$HOOKSHIM_LIB" ] || ! command -v nm >/dev/null; then
	skip "shim_symbols: shim or nm missing"; exit 0
fi
listed=$(sed -n 's/^[[:space:]]*X(\([A-Za-z0-9_]*\),.*/\1/p' \
	"$HOOKSHIM_TOP/shim/interposed.h" | sort)
exported=$(nm -D --defined-only "$HOOKSHIM_LIB" | awk '$2 == "T" { print $3 }' |
	sed 's/@.*//' | sort)
check "shim_symbols: the list is not empty" test -n "$listed"
expect_eq "shim_symbols: exported functions = interposed.h's rows" \
	"$listed" "$exported"
expect_eq "shim_symbols: no row twice" "$listed" "$(sort -u <<<"$listed")"
