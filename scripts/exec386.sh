#!/usr/bin/env bash
# go test -exec helper for GOARCH=386 on kernels without 32-bit support
# (CONFIG_IA32_EMULATION off: "exec format error"). Runs the test binary under
# qemu user-mode emulation. qemu 7.2 mishandles the signals Go uses for
# asynchronous preemption (the runtime crashes at random), so preemption by
# signal is turned off; tests behave the same, goroutines still switch at calls.
#
# Even so, about one run in a few dozen dies inside the emulator with a Go
# runtime fatal error that no test caused ("fatal error: …", "unexpected
# signal", "lock count"). Such a run is retried once and the retry decides; a
# test that fails, or a crash that happens twice, still fails the build.
export GODEBUG="${GODEBUG:+$GODEBUG,}asyncpreemptoff=1"

out=$(mktemp)
trap 'rm -f "$out"' EXIT

qemu-i386 "$@" >"$out" 2>&1
rc=$?
if [ "$rc" -ne 0 ] && ! grep -q -e '^--- FAIL' -e '^panic: ' "$out" &&
  grep -q -e '^fatal error: ' -e 'unexpected signal' -e '^SIGSEGV' -e 'lock count' "$out"; then
  {
    echo "exec386: the emulated run crashed in the Go runtime (exit $rc), not in a test; retrying once. Its output:"
    sed 's/^/exec386: | /' "$out" | head -40
  } >&2
  qemu-i386 "$@" >"$out" 2>&1
  rc=$?
fi
cat "$out"
exit "$rc"
