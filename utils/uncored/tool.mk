# uncored: the node service (README "uncored, the node service"), linked
# with our library only; staged and installed in sbin (a daemon, for root).
TOOLS_LIB += uncored
TOOLS_SBIN += uncored
