# bash completion for hookshim. The verbs and each verb's options are read
# from the binary's own help (`hookshim --help`, `hookshim help VERB`), so
# they are never out of date; after `--` the command line is the
# command's own.
_hookshim()
{
	local cur prev verb words i
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD-1]}
	verb=${COMP_WORDS[1]:-}
	if [ "$COMP_CWORD" -eq 1 ]; then
		words="$(command hookshim --help 2>/dev/null |
			sed -n 's/^  hookshim \([a-z][a-z]*\) .*/\1/p') help"
		COMPREPLY=($(compgen -W "$words" -- "$cur"))
		return
	fi
	for ((i = 2; i < COMP_CWORD; i++)); do
		if [ "${COMP_WORDS[i]}" = -- ]; then
			# the command hookshim runs, then its own arguments
			if [ $((i + 1)) -eq "$COMP_CWORD" ]; then
				COMPREPLY=($(compgen -c -- "$cur"))
			else
				COMPREPLY=($(compgen -f -- "$cur"))
			fi
			return
		fi
	done
	case $verb:$prev in
	help:help)
		words=$(command hookshim --help 2>/dev/null |
			sed -n 's/^  hookshim \([a-z][a-z]*\) .*/\1/p')
		COMPREPLY=($(compgen -W "$words" -- "$cur"))
		return ;;
	*:--import | *:--dialect)
		COMPREPLY=($(compgen -W "claude memcode mnemoai memoh" -- "$cur"))
		return ;;
	*:--root)
		COMPREPLY=($(compgen -d -- "$cur"))
		return ;;
	init:--preset)
		COMPREPLY=($(compgen -W "$(command hookshim init --list 2>/dev/null)" -- "$cur"))
		return ;;
	*:-c | *:--config | *:--log | *:--junit | *:--input-file | init:-o | init:--output)
		COMPREPLY=($(compgen -f -- "$cur"))
		return ;;
	esac
	if [[ $cur == -* ]]; then
		# a word starting with - or --, not a hyphenated word's tail
		words=$(command hookshim help "$verb" 2>/dev/null |
			grep -oE -- '(^|[^a-zA-Z0-9-])--?[a-zA-Z][a-zA-Z-]*' |
			sed -E 's/^[^-]*//' | sort -u)
		COMPREPLY=($(compgen -W "$words" -- "$cur"))
		return
	fi
	COMPREPLY=($(compgen -f -- "$cur"))
}
complete -F _hookshim hookshim
