package network

import (
	"runtime"
	"testing"
	"time"
)

// TestLoopClockLate: a tick's wait counts as the loop not run only from
// when the loop was free (after its last pass and after the tick was due).
func TestLoopClockLate(t *testing.T) {
	t0 := time.Unix(1000, 0)
	ms := func(n int) time.Time { return t0.Add(time.Duration(n) * time.Millisecond) }
	for _, tc := range []struct {
		name          string
		end, due, ran time.Time
		want          time.Duration
	}{
		{"free when due, run at once", ms(0), ms(10), ms(10), 0},
		{"free when due, run late", ms(0), ms(10), ms(40), 30 * time.Millisecond},
		{"a pass ran past the due time", ms(25), ms(10), ms(30), 5 * time.Millisecond},
		{"first tick", time.Time{}, ms(10), ms(12), 2 * time.Millisecond},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := loopClock{end: tc.end}
			c.tick(tc.due, tc.ran)
			if c.late != tc.want {
				t.Errorf("late %v, want %v", c.late, tc.want)
			}
		})
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
