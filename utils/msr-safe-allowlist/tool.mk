# uncore-msr-allowlist: writes the msr-safe allowlist of a platform's uncore
# MSRs (see uncore_msr_allowlist.c).
TOOLS_LIB += uncore-msr-allowlist
TOOL_DIR_uncore-msr-allowlist := msr-safe-allowlist
