# bash completion for uncore-stat (papi-uncore): options, event names after
# -e (from `uncore-stat --list-events`, which asks the intel_uncore
# component; with --sim on the line, the simulator's), groups after -g (from
# `uncore-stat -g list`), scenarios after --sim-scenario.  Installed as
# share/bash-completion/completions/uncore-stat.

_uncore_stat_sim_args() {
	local i
	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		--sim) printf '%s\n' --sim ;;
		--sim-model | --sim-scenario | --sim-kernel) printf '%s\n' "${COMP_WORDS[i]}" "${COMP_WORDS[i + 1]}" ;;
		esac
	done
}

_uncore_stat() {
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
	local tool=${COMP_WORDS[0]} sim
	mapfile -t sim < <(_uncore_stat_sim_args)
	case $prev in
	-e | --events)
		# A list: complete the part after the last comma.
		local head=${cur%,*} last=${cur##*,}
		[ "$head" = "$cur" ] && head= || head="$head,"
		COMPREPLY=($(compgen -P "$head" -W "$("$tool" "${sim[@]}" --list-events 2>/dev/null)" -- "$last"))
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
	-t | --time | -I | --interval | --sim-model)
		return
		;;
	esac
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "-e --events -g --group -t --time -I --interval -o --output
			--csv --json --no-per-socket --explain --sim --sim-model --sim-scenario --sim-kernel
			--plot --plot-from --list-events --version -h --help" -- "$cur"))
		return
	fi
	COMPREPLY=($(compgen -c -- "$cur"))
}
complete -F _uncore_stat uncore-stat
