# bash completion for uncore-stat (papi-uncore): options; after -e the PMU
# names (PMU::), then that PMU's events (from `uncore-stat --list-events`,
# which asks the intel_uncore component; with --sim on the line, the
# simulator's), then after EVENT: its unit masks and qualifiers (`uncore-stat
# --list-masks EVENT`); groups after -g (`uncore-stat -g list`), scenarios
# after --sim-scenario.  Installed as share/bash-completion/completions/uncore-stat.
#
# Event names hold ':', '=' and ',', which bash's COMP_WORDBREAKS splits
# words at: the word being completed is taken from the line itself, and the
# candidates are given back without the part bash sees as an earlier word.

_uncore_stat_sim_args() {
	local i
	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		--sim) printf '%s\n' --sim ;;
		--sim-model | --sim-scenario | --sim-kernel) printf '%s\n' "${COMP_WORDS[i]}" "${COMP_WORDS[i + 1]}" ;;
		esac
	done
}

# The word under the cursor and the one before it, split at blanks only.
_uncore_stat_words() {
	local line=${COMP_LINE:0:COMP_POINT}
	local -a w
	read -ra w <<<"$line"
	if [[ -z $line || $line == *[[:blank:]] ]]; then
		_us_cur= _us_prev=${w[${#w[@]} - 1]}
	else
		_us_cur=${w[${#w[@]} - 1]} _us_prev=
		((${#w[@]} > 1)) && _us_prev=${w[${#w[@]} - 2]}
	fi
}

# Event candidates for the piece after the last comma of an -e list.
_uncore_stat_events() {
	local tool=$1 piece=$2
	shift 2
	if [[ $piece == *::*:* ]]; then
		# PMU::EVENT[:MASK...]: the unit masks and qualifiers of EVENT.
		local base=${piece%:*} pmu=${piece%%::*} rest=${piece#*::}
		local ev=$pmu::${rest%%:*}
		compgen -P "$base:" -W "$("$tool" "$@" --list-masks "$ev" 2>/dev/null)" -- "${piece##*:}"
	elif [[ $piece == *::* ]]; then
		compgen -W "$("$tool" "$@" --list-events 2>/dev/null)" -- "$piece"
	else
		# PMU names first (PMU::), and the names without a PMU (presets).
		compgen -W "$("$tool" "$@" --list-events 2>/dev/null |
			awk -F'::' 'NF > 1 { if (!seen[$1]++) print $1 "::" } NF == 1')" -- "$piece"
	fi
}

_uncore_stat() {
	local tool=${COMP_WORDS[0]} sim _us_cur _us_prev
	mapfile -t sim < <(_uncore_stat_sim_args)
	_uncore_stat_words
	local cur=$_us_cur prev=$_us_prev
	case $prev in
	-e | --events)
		# A list: complete the part after the last comma.
		local head=${cur%,*} last=${cur##*,}
		[ "$head" = "$cur" ] && head= || head="$head,"
		mapfile -t COMPREPLY < <(_uncore_stat_events "$tool" "$last" "${sim[@]}")
		COMPREPLY=("${COMPREPLY[@]/#/$head}")
		# Given back without what bash holds as earlier words (up to the
		# last of its word-break characters: ':', '=', ',').
		local typed=${cur%"${cur##*[$COMP_WORDBREAKS]}"}
		COMPREPLY=("${COMPREPLY[@]#"$typed"}")
		compopt -o nospace 2>/dev/null
		return
		;;
	-g | --group)
		COMPREPLY=($(compgen -W "list $("$tool" "${sim[@]}" -g list 2>/dev/null |
			awk '/^[A-Za-z0-9_]/ && !/^metric groups/ { print $1 }')" -- "$cur"))
		return
		;;
	--sim-scenario)
		COMPREPLY=($(compgen -W "stream llc qpi-remote idle pcie-io boxes demo-stream hswep-clocks none" -- "$cur") \
			$(compgen -f -X '!*.scn' -- "$cur"))
		return
		;;
	--sim-kernel)
		COMPREPLY=($(compgen -W "perf none spr skx icx gnr" -- "$cur"))
		return
		;;
	-o | --output | --plot | --plot-from)
		COMPREPLY=($(compgen -f -- "$cur"))
		return
		;;
	-t | --time | -I | --interval | --sim-model | --list-masks)
		return
		;;
	esac
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "-e --events -g --group -t --time -I --interval -o --output
			--csv --json --no-per-socket --explain --sim --sim-model --sim-scenario --sim-kernel
			--plot --plot-from --list-events --list-masks --version -h --help" -- "$cur"))
		return
	fi
	COMPREPLY=($(compgen -c -- "$cur"))
}
complete -F _uncore_stat uncore-stat
