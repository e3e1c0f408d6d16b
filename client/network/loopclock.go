package network

import (
	"time"
)

// loopClock tells a stall of the loop apart: the loop busy in its own code
// (one pass of its select: a message stepped, a tick, a request, and the
// Readys after it), or free and not running (the process not scheduled on
// a loaded machine, the goroutine waiting behind others for a CPU, a
// garbage collector's pause). Loop only; Run keeps the loop on one thread,
// so a pass's CPU time is its thread's.
type loopClock struct {
	start time.Time     // the running pass began
	cpu0  time.Duration // the loop thread's CPU time then
	tid   int           // that thread
	end   time.Time     // the last pass ended
	busy  time.Duration // the most CPU one pass took
	what  string        // what that pass handled
	late  time.Duration // the longest a due tick waited while the loop was free
}

// begin starts a pass at now.
func (c *loopClock) begin(now time.Time) {
	c.start = now
	c.cpu0, c.tid = threadCPU()
}

// tick notes a tick due at due and run at now: the part of its wait after
// the last pass ended is the loop not being run.
func (c *loopClock) tick(due, now time.Time) {
	free := due
	if c.end.After(free) {
		free = c.end
	}
	if now.After(free) {
		c.late = max(c.late, now.Sub(free))
	}
}

// finish ends the pass that began, which handled what. Its own time is
// its thread's CPU time, never more than its time by the clock: while its
// thread waited for a CPU, the machine was busy, not the loop. Without a
// thread clock (not Linux) it is the time by the clock.
func (c *loopClock) finish(what string) {
	now := time.Now()
	d := now.Sub(c.start)
	if cpu, tid := threadCPU(); tid != 0 && tid == c.tid {
		d = min(d, cpu-c.cpu0)
	}
	if d > c.busy {
		c.busy, c.what = d, what
	}
	c.end = now
}
