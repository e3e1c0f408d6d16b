package network

import (
	"runtime"
	"testing"
	"time"
)

// TestLoopClockLate: of a stall, the loop's own CPU time is busy, the rest
// is the loop not run.
func TestLoopClockLate(t *testing.T) {
	runtime.LockOSThread() // as Run does
	defer runtime.UnlockOSThread()
	c := loopClock{period: time.Millisecond}
	c.begin(time.Now())
	c.tick(time.Now())
	time.Sleep(40 * time.Millisecond) // not run
	c.begin(time.Now())
	c.tick(time.Now())
	if c.stall < 30*time.Millisecond || c.late > c.stall {
		t.Fatalf("a 40 ms sleep: stall %v, late %v", c.stall, c.late)
	}
	if threadCPUWorks() && c.late < c.stall-5*time.Millisecond {
		t.Errorf("a 40 ms sleep: stall %v, of which only %v not run", c.stall, c.late)
	}
}

// TestLoopClockBusy: a pass's own time is at most its time by the clock,
// and a pass that burns CPU counts it.
func TestLoopClockBusy(t *testing.T) {
	runtime.LockOSThread() // as Run does
	defer runtime.UnlockOSThread()
	var c loopClock
	c.begin(time.Now())
	time.Sleep(20 * time.Millisecond) // waiting is not busy
	c.finish("sleep")
	if c.busy > 10*time.Millisecond && threadCPUWorks() {
		t.Errorf("a pass that slept 20 ms counted %v busy", c.busy)
	}
	c.begin(time.Now())
	for start := time.Now(); time.Since(start) < 30*time.Millisecond; {
	}
	c.finish("spin")
	if c.busy == 0 || c.what != "spin" {
		t.Errorf("a pass that spun 30 ms counted %v busy (%q)", c.busy, c.what)
	}
}

// threadCPUWorks: this system has a per-thread CPU clock.
func threadCPUWorks() bool { _, tid := threadCPU(); return tid != 0 }
