#!/bin/sh
# The man page, from the same help text the binary prints: help2man
# (Debian's) reads `hookshim --help` and `--version`, and a COMMANDS
# section holds every verb's own `hookshim help VERB`, so the page and
# the CLI cannot say different things (tests/integration/package.sh
# compares them).
#   scripts/man-page.sh BUILD/bin/hookshim > hookshim.1
set -eu
bin=$1
inc=$(mktemp)
trap 'rm -f "$inc"' EXIT
{
	echo '[COMMANDS]'
	for verb in $("$bin" --help | sed -n 's/^  hookshim \([a-z][a-z]*\) .*/\1/p'); do
		echo ".SS $verb"
		echo '.nf'
		# roff: a backslash is \e, a line starting with . or ' is text
		"$bin" help "$verb" | sed -e 's/\\/\\e/g' -e "s/^[.']/\\\\\\&&/"
		echo '.fi'
	done
	echo '[SEE ALSO]'
	echo 'The README and docs/ in /usr/share/doc/hookshim (or the source'
	echo 'tree): the configuration reference, the dialects, the limits.'
} > "$inc"
help2man --no-info --no-discard-stderr --section=1 \
	--name="hooks for any agent, from the outside" \
	--include="$inc" "$bin"
