package network

import (
	"time"

	"golang.org/x/sys/unix"
)

// threadCPU is the CPU time the calling thread has used, and the thread's
// ID (0 when its clock cannot be read).
func threadCPU() (time.Duration, int) {
	var ts unix.Timespec
	if unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts) != nil {
		return 0, 0
	}
	return time.Duration(ts.Nano()), unix.Gettid()
}
