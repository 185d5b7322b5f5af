#!/usr/bin/env python3
"""Type into a real interactive bash through a pseudo-terminal and print
what completion made of each line (test_completion.sh).

usage: completion_pty.py COMPLETION_FILE BIN_DIR KEYS...

Each KEYS is typed at the prompt as a user would ('\\t' is the Tab key);
then Ctrl-A goes to the start of the line and `echo "LINE:" ` is typed before
it, and Enter runs it, so bash prints the line as completion left it.  One
"LINE: ..." output line per KEYS on stdout, then "SHOWN: ..." with what
bash wrote meanwhile (a double Tab's list of candidates), blanks squeezed.  Readline processes the keys in
order: a key after a Tab is read only once the completion function has
returned, whatever the machine's load."""
import os
import pty
import select
import sys

comp, bindir, keys = sys.argv[1], sys.argv[2], sys.argv[3:]
env = dict(os.environ, PATH=bindir + ":" + os.environ.get("PATH", "/usr/bin:/bin"),
           INPUTRC="/dev/null", TERM="dumb", PS1="$ ", HISTFILE="/dev/null")
pid, fd = pty.fork()
if pid == 0:
    os.execvpe("bash", ["bash", "--norc", "--noprofile", "-i"], env)

buf = b""


def read_until(marker, timeout=600):
    """Output up to and including `marker` (a hang guard, not a speed test)."""
    global buf
    while marker not in buf:
        ready, _, _ = select.select([fd], [], [], timeout)
        if not ready:
            sys.exit("completion_pty: no %r from bash; it wrote %r" % (marker, buf[-400:]))
        try:
            data = os.read(fd, 4096)
        except OSError:
            sys.exit("completion_pty: bash ended; it wrote %r" % buf[-400:])
        buf += data
    i = buf.index(marker) + len(marker)
    out, buf = buf[:i], buf[i:]
    return out


# The marker is quoted apart, so that the echo of the typed line never matches it.
os.write(fd, b"source '%s'; bind 'set bell-style none'; echo RE\"\"ADY\n" % comp.encode())
read_until(b"READY\r\n")
for k in keys:
    os.write(fd, k.replace("\\t", "\t").encode() + b"\x01echo \"LI\"\"NE:\" \n")
    shown = read_until(b"LINE: ").decode(errors="replace")
    line = read_until(b"\r\n")[:-2].decode(errors="replace")
    print("LINE: " + line, flush=True)
    # What bash showed meanwhile (the candidates of a double Tab), on one line.
    print("SHOWN: " + " ".join(shown.split()), flush=True)
os.write(fd, b"exit\n")
os.waitpid(pid, 0)
