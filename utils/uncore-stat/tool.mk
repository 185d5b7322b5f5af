# uncore-stat: measure uncore events of a command or an interval, per socket
# and in total, through PAPI's public API (see README.md).  It also links our
# library, for the simulator's scenarios, --explain and error details.
TOOLS_PAPI += uncore-stat
