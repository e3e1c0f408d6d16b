// Package clock is a fixed-step clock: it tells a loop how many steps of a
// fixed length are due at a given moment, so a simulation advances at the
// same rate whatever the frame rate (Ebitengine's internal/clock idea).
//
// The caller passes the current time in, so tests feed synthetic times. After
// a stall (a debugger, a slow frame, a suspended laptop) it catches up at most
// MaxCatchUp steps at once and drops the rest of the debt, so a slow machine
// runs the game slower instead of spiralling into ever longer frames.
// Time is counted in whole steps from the start, so rounding never drifts.
package clock

import (
	"context"
	"time"
)

// Clock counts due steps. The zero value is not usable; use New.
type Clock struct {
	step       time.Duration
	maxCatchUp int
	origin     time.Time // the moment of step 0
	done       int64     // steps handed out since origin
	started    bool
	paused     bool
}

// New returns a clock of steps of length step that hands out at most
// maxCatchUp steps per call (at least 1).
func New(step time.Duration, maxCatchUp int) *Clock {
	if step <= 0 {
		panic("clock: step must be positive")
	}
	return &Clock{step: step, maxCatchUp: max(maxCatchUp, 1)}
}

// Step returns the step length.
func (c *Clock) Step() time.Duration { return c.step }

// Due returns how many steps to run at now. The first call starts the clock
// and returns 0.
func (c *Clock) Due(now time.Time) int {
	if c.paused {
		return 0
	}
	if !c.started {
		c.Reset(now)
		return 0
	}
	want := int64(now.Sub(c.origin) / c.step)
	n := want - c.done
	switch {
	case n <= 0:
		return 0
	case n > int64(c.maxCatchUp):
		// Forget the debt beyond the cap: move the origin so that the steps
		// handed out now bring the clock level with now.
		c.origin = c.origin.Add(time.Duration(n-int64(c.maxCatchUp)) * c.step)
		n = int64(c.maxCatchUp)
	}
	c.done += n
	return int(n)
}

// Reset restarts counting at now, forgetting any debt.
func (c *Clock) Reset(now time.Time) {
	c.origin, c.done, c.started = now, 0, true
}

// Last returns the moment of the last step handed out, the reference for
// interpolating between steps.
func (c *Clock) Last() time.Time {
	return c.origin.Add(time.Duration(c.done) * c.step)
}

// Alpha returns how far now is between the last step and the next, in [0, 1].
func (c *Clock) Alpha(now time.Time) float64 {
	if !c.started {
		return 0
	}
	return Fraction(now, c.Last(), c.step)
}

// Pause stops handing out steps; Resume starts again at now without a burst.
func (c *Clock) Pause() { c.paused = true }

// Resume ends a pause.
func (c *Clock) Resume(now time.Time) {
	if c.paused {
		c.paused = false
		c.Reset(now)
	}
}

// Paused reports whether the clock is paused.
func (c *Clock) Paused() bool { return c.paused }

// Fraction returns (now-since)/length clamped to [0, 1].
func Fraction(now, since time.Time, length time.Duration) float64 {
	if length <= 0 {
		return 1
	}
	f := float64(now.Sub(since)) / float64(length)
	return min(max(f, 0), 1)
}

// Ticker calls a function with the time of every tick, every period, on a
// goroutine of its own: the loop of a client that steps a game on a Clock.
type Ticker struct {
	cancel context.CancelFunc
	done   chan struct{}
}

// Go starts calling fn every period until Close.
func Go(period time.Duration, fn func(now time.Time)) *Ticker {
	ctx, cancel := context.WithCancel(context.Background())
	tk := &Ticker{cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(tk.done)
		t := time.NewTicker(period)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case now := <-t.C:
				fn(now)
			}
		}
	}()
	return tk
}

// Close ends the calls and waits for the last one to return. A client
// that embeds its Ticker closes with it.
func (tk *Ticker) Close() error {
	tk.cancel()
	<-tk.done
	return nil
}
