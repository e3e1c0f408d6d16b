#!/bin/sh
# idlecpu.sh BIN [ARGS…]: the CPU an idle Hostfall window (by default the
# offline browser, muted) and its X server use over 10 s, on an Xvfb of its
# own, with settings and data in a temporary directory.
# Example: go build -o /tmp/hostfall . && scripts/idlecpu.sh /tmp/hostfall
set -e
bin=${1:?usage: idlecpu.sh BIN [ARGS…]}
shift
[ $# -gt 0 ] || set -- --offline --mute
dir=$(mktemp -d)
trap 'kill $pid $xpid 2>/dev/null; rm -rf "$dir"' EXIT
Xvfb -displayfd 3 -screen 0 1024x768x24 -nolisten tcp 3>"$dir/display" >/dev/null 2>&1 &
xpid=$!
while [ ! -s "$dir/display" ]; do sleep 0.1; done
HOSTFALL_CONFIG=$dir HOSTFALL_DATA=$dir DISPLAY=:$(cat "$dir/display") "$bin" "$@" >/dev/null 2>&1 &
pid=$!
sleep 5 # started and drawn
ticks() { awk '{print $14+$15}' "/proc/$1/stat"; }
hz=$(getconf CLK_TCK)
g0=$(ticks $pid) x0=$(ticks $xpid)
sleep 10
g1=$(ticks $pid) x1=$(ticks $xpid)
echo "hostfall: $(( (g1-g0) * 100 / hz / 10 )) % of a core; Xvfb: $(( (x1-x0) * 100 / hz / 10 )) % (CPU time over 10 s)"
