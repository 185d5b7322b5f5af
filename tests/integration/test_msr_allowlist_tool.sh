#!/usr/bin/env bash
# uncore-msr-allowlist: the Haswell-EP list has every PMON MSR once (the
# Skylake client list every MSR of its Table 2-1), in the
# "0xMSR 0xMASK" form msr-safe parses (it rejects duplicates and needs a
# final newline); --merge keeps another list's entries and ORs the masks;
# bad input fails with a message.
set -u
. "$(dirname "$0")/lib.sh"
plan 40
tool=$BUILD/bin/uncore-msr-allowlist
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

expect "the tool is built" test -x "$tool"
"$tool" -p hswep -o "$tmp/hsx.txt"
expect "hswep list written" test $? -eq 0
entries=$(grep -c '^0x' "$tmp/hsx.txt")
expect "282 MSRs (Table 1-2 plus GLOBAL_CONFIG), got $entries" test "$entries" -eq 282
expect "no MSR listed twice" test "$(grep '^0x' "$tmp/hsx.txt" | cut -d' ' -f1 | sort -u | wc -l)" -eq 282
expect "every entry is 0xMSR 0xMASK" test "$(grep -c -E '^0x[0-9A-F]{8} 0x[0-9A-F]{16}( #.*)?$' "$tmp/hsx.txt")" -eq 282
expect "ends with a newline" test "$(tail -c1 "$tmp/hsx.txt" | od -An -c | tr -d ' ')" = '\n'
expect "below msr-safe's 128 KiB" test "$(stat -c %s "$tmp/hsx.txt")" -lt 131072
expect "CBo 17 CTR3 is there, 48-bit writable" grep -q '^0x00000F1B 0x0000FFFFFFFFFFFF' "$tmp/hsx.txt"
expect "PCU C6 residency is read-only" grep -q '^0x000003FD 0x0000000000000000' "$tmp/hsx.txt"

"$tool" -p skl -o "$tmp/skl.txt"
expect "skl list written" test $? -eq 0
expect "25 MSRs (SKL Table 2-1)" test "$(grep -c '^0x' "$tmp/skl.txt")" -eq 25
expect "SKL global control: PMI, EN, freeze bits and bit 4, which Linux writes (S1)" grep -q '^0x00000E01 0x00000000E000001F' "$tmp/skl.txt"
expect "SKL CBo 3 PERFCTR1 is 44-bit writable" grep -q '^0x00000737 0x00000FFFFFFFFFFF' "$tmp/skl.txt"
expect "SKL MSR_UNC_CBO_CONFIG is read-only" grep -q '^0x00000396 0x0000000000000000' "$tmp/skl.txt"

printf '# MSR # Write Mask # Comment\n0x00000010 0x0000000000000000\n0x00000E01 0x0000000000000001\n0x00000199 0x000000000000FFFF\n' >"$tmp/site.txt"
"$tool" -p hswep -m "$tmp/site.txt" >"$tmp/merged.txt"
expect "merge succeeds" test $? -eq 0
expect "merged list keeps the site's MSRs" grep -q '^0x00000199 0x000000000000FFFF' "$tmp/merged.txt"
expect "merged list has 284 entries" test "$(grep -c '^0x' "$tmp/merged.txt")" -eq 284
expect "a shared MSR appears once with the masks OR-ed" \
	test "$(grep -c '^0x00000E01 0x00000000FFCEFFFF' "$tmp/merged.txt")" -eq 1

printf '0x10 zero\n' >"$tmp/bad.txt"
"$tool" -p hswep -m "$tmp/bad.txt" >/dev/null 2>"$tmp/bad.err"
expect "a malformed list is refused" test $? -ne 0
expect "... naming file and line" grep -q 'bad.txt:1' "$tmp/bad.err"
# A mask wider than 64 bits was saturated to all ones and OR-ed into 0x700
# (issue 29): refused now, and no word of the file is echoed.
printf '0x700 0x1FFFFFFFFFFFFFFFFF secretword\n' >"$tmp/wide.txt"
"$tool" -p hswep -m "$tmp/wide.txt" >"$tmp/wide.out" 2>"$tmp/wide.err"
expect "a 69-bit write mask is refused, not saturated" test $? -ne 0
expect "... saying why ($(head -c 160 "$tmp/wide.err"))" grep -q 'wide.txt:1: the write mask must be a hexadecimal number of 64 bits at most' "$tmp/wide.err"
expect "... without echoing the file" test "$(grep -c secretword "$tmp/wide.err")" -eq 0
printf 'root:x:0:0:root:/root:/bin/bash\n' >"$tmp/passwd.txt"
"$tool" -p hswep -m "$tmp/passwd.txt" >/dev/null 2>"$tmp/passwd.err"
expect "a file that is no allowlist is refused without echoing it" \
	test $? -ne 0 -a "$(grep -c 'bin/bash' "$tmp/passwd.err")" -eq 0
"$tool" -p nosuch >/dev/null 2>"$tmp/nosuch.err"
expect "an unknown platform is refused" test $? -ne 0
expect "... by name" grep -q 'nosuch' "$tmp/nosuch.err"

# msr-safe takes the buffer of each write() to /dev/cpu/msr_allowlist as the
# complete list.  The fake device (tests/fakes/fake_msr_allowlist.c, an
# LD_PRELOAD object with msr-safe's write semantics) records every write():
# the list must arrive in exactly one, whole, and replace the loaded list.
fake=$BUILD/tests/fakes/fake_msr_allowlist.so
expect "the fake msr-safe allowlist device is built" test -f "$fake"
dev=$tmp/msr_allowlist
printf '0x00000010 0x0000000000000000\n0x00000199 0x000000000000FFFF\n' >"$dev"
: >"$tmp/dev.log"
run_fake() {
	env LD_PRELOAD="$fake" UNCORE_FAKE_MSR_ALLOWLIST="$dev" UNCORE_FAKE_MSR_ALLOWLIST_LOG="$tmp/dev.log" "$@"
}
# The fake itself, written in 4 KiB write()s as stdio does (Python's
# os.write is libc's write): the first chunk replaces the list, the next one
# starts mid-line and is refused (EINVAL), so the first chunk's entries are
# all that is loaded -- the damage the old stdio output did.
chunked_write() {
	run_fake "${PYTHON3:-python3}" -c '
import os, sys
fd = os.open(sys.argv[1], os.O_WRONLY)
data = open(sys.argv[2], "rb").read()
for i in range(0, len(data), 4096):
    try:
        os.write(fd, data[i:i + 4096])
    except OSError as e:
        print("write at", i, "failed:", e.strerror)
' "$dev" "$1"
}
chunked_write "$tmp/hsx.txt" >"$tmp/chunked.out"
head -c 4096 "$tmp/hsx.txt" >"$tmp/chunk"
expect "fake device: 4 KiB writes leave only the first chunk's entries" \
	test "$(grep -c '^0x' "$dev")" -eq "$(grep -c '^0x' "$tmp/chunk")"
expect "... and the later chunks fail with EINVAL" grep -q 'Invalid argument' "$tmp/chunked.out"
n_before=$(grep -c '^0x' "$dev")
printf '0x00000E01 0x0000\n0x00000E02' >"$tmp/cut"
chunked_write "$tmp/cut" >/dev/null
expect "fake device: a number cut short is EINVAL, the list stays" \
	test "$(grep -c '^0x' "$dev")" -eq "$n_before"
printf '0x00000199 0x000000000000FFFF\n' >"$dev"
: >"$tmp/dev.log"

# Installing as documented: merge the loaded list, write it back in one write().
run_fake "$tool" -p hswep -m "$dev" -o "$dev"
expect "install through -o succeeds" test $? -eq 0
expect "exactly one write() reached the device, got: $(tr '\n' ';' <"$tmp/dev.log")" \
	test "$(grep -c '^write ' "$tmp/dev.log")" -eq 1
expect "... and msr-safe accepted it" grep -q '^write [0-9]* ok$' "$tmp/dev.log"
expect "the device holds our 282 MSRs plus the site's one" test "$(grep -c '^0x' "$dev")" -eq 283
expect "... the site's entry kept" grep -q '^0x00000199 0x000000000000FFFF' "$dev"
expect "... CBo 17 CTR3 loaded" grep -q '^0x00000F1B 0x0000FFFFFFFFFFFF' "$dev"

# The same through a shell redirection of standard output.
: >"$tmp/dev.log"
run_fake sh -c '"$1" -p hswep >"$2"' _ "$tool" "$dev"
expect "stdout redirected to the device: one write()" test "$(grep -c '^write ' "$tmp/dev.log")" -eq 1
expect "... the whole list loaded (282)" test "$(grep -c '^0x' "$dev")" -eq 282

# The help and the list's own header say how to install it.
"$tool" --help >"$tmp/help.txt"
expect "--help gives the one-write install command" \
	grep -q 'uncore-msr-allowlist -m /dev/cpu/msr_allowlist -o /dev/cpu/msr_allowlist' "$tmp/help.txt"
expect "the list's header gives it too" \
	grep -q '^# as root: uncore-msr-allowlist -m /dev/cpu/msr_allowlist -o /dev/cpu/msr_allowlist' "$tmp/hsx.txt"
