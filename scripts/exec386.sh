#!/usr/bin/env bash
# go test -exec helper for GOARCH=386 on kernels without 32-bit support
# (CONFIG_IA32_EMULATION off: "exec format error"). Runs the test binary under
# qemu user-mode emulation. qemu 7.2 mishandles the signals Go uses for
# asynchronous preemption (the runtime crashes at random), so preemption by
# signal is turned off; tests behave the same, goroutines still switch at calls.
export GODEBUG="${GODEBUG:+$GODEBUG,}asyncpreemptoff=1"
exec qemu-i386 "$@"
