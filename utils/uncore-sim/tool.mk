# uncore-sim: the simulator's command-line tool (linked with our library).
TOOLS_LIB += uncore-sim
