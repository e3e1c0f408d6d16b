package network

import (
	"time"
)

// loopClock tells a stall of the loop apart: the loop busy in its own code
// (one pass of its select: a message stepped, a tick, a request, and the
// Readys after it), or not running (the process not scheduled on a loaded
// machine, the goroutine waiting behind others for a CPU, a garbage
// collector's pause). Loop only; Run keeps the loop on one thread, so the
// loop's CPU time is its thread's.
type loopClock struct {
	period   time.Duration // the tick
	start    time.Time     // the running pass began
	cpu0     time.Duration // the thread's CPU time then
	tid      int           // the thread
	lastTick time.Time     // when the loop last ticked
	tickCPU  time.Duration // the thread's CPU time then
	stall    time.Duration // the longest gap between two ticks beyond the period
	busy     time.Duration // the most CPU one pass took
	what     string        // what that pass handled
	late     time.Duration // the most of a stall the loop's thread did not run
}

// begin starts a pass at now.
func (c *loopClock) begin(now time.Time) {
	c.start = now
	c.cpu0, c.tid = threadCPU()
}

// tick notes a tick run at now, at the start of its pass. Of the gap since
// the last one beyond the period (a stall), what the loop's thread did not
// spend on the CPU is the loop not being run. Without a thread clock (not
// Linux) all of it counts.
func (c *loopClock) tick(now time.Time) {
	if !c.lastTick.IsZero() {
		stall := now.Sub(c.lastTick) - c.period
		c.stall = max(c.stall, stall)
		c.late = max(c.late, stall-(c.cpu0-c.tickCPU))
	}
	c.lastTick, c.tickCPU = now, c.cpu0
}

// finish ends the pass that began, which handled what. Its own time is
// its thread's CPU time, never more than its time by the clock: while its
// thread waited for a CPU, the machine was busy, not the loop. Without a
// thread clock it is the time by the clock.
func (c *loopClock) finish(what string) {
	now := time.Now()
	d := now.Sub(c.start)
	if cpu, tid := threadCPU(); tid != 0 && tid == c.tid {
		d = min(d, cpu-c.cpu0)
	}
	if d > c.busy {
		c.busy, c.what = d, what
	}
}
