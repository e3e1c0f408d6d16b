package clock

import (
	"sync/atomic"
	"testing"
	"time"
)

var t0 = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

// at runs the clock over synthetic frame times (offsets from t0) and returns
// the steps due at each.
func at(c *Clock, frames ...time.Duration) []int {
	var out []int
	for _, f := range frames {
		out = append(out, c.Due(t0.Add(f)))
	}
	return out
}

func TestDue(t *testing.T) {
	ms := time.Millisecond
	tests := []struct {
		name   string
		cap    int
		frames []time.Duration
		want   []int
	}{
		{"first call starts", 4, []time.Duration{0, 5 * ms, 10 * ms}, []int{0, 0, 1}},
		{"60 fps over 10 ms steps", 4, []time.Duration{0, 16 * ms, 33 * ms, 50 * ms, 66 * ms}, []int{0, 1, 2, 2, 1}},
		{"fast frames get zero", 4, []time.Duration{0, 1 * ms, 2 * ms, 3 * ms, 10 * ms}, []int{0, 0, 0, 0, 1}},
		{"stall is capped", 3, []time.Duration{0, 1000 * ms, 1010 * ms}, []int{0, 3, 1}},
		{"time going back is ignored", 4, []time.Duration{0, 30 * ms, 20 * ms, 40 * ms}, []int{0, 3, 0, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := New(10*ms, tt.cap)
			got := at(c, tt.frames...)
			for i := range got {
				if got[i] != tt.want[i] {
					t.Fatalf("steps per frame = %v, want %v", got, tt.want)
				}
			}
		})
	}
}

// The step count follows wall time exactly, whatever the frame rate: 1,000
// frames at irregular intervals over 10 s hand out 1,000 steps of 10 ms.
func TestNoDrift(t *testing.T) {
	for _, frame := range []time.Duration{time.Second / 7, time.Second / 60, time.Second / 144, 3 * time.Millisecond} {
		c := New(10*time.Millisecond, 100)
		total := 0
		var now time.Duration
		for now <= 10*time.Second {
			total += c.Due(t0.Add(now))
			now += frame
		}
		total += c.Due(t0.Add(10 * time.Second))
		if total != 1000 {
			t.Errorf("frame %v: %d steps in 10 s, want 1000", frame, total)
		}
	}
}

func TestPauseResume(t *testing.T) {
	ms := time.Millisecond
	c := New(10*ms, 5)
	c.Due(t0)
	c.Pause()
	if n := c.Due(t0.Add(500 * ms)); n != 0 {
		t.Fatalf("paused clock handed out %d steps", n)
	}
	c.Resume(t0.Add(500 * ms))
	if n := c.Due(t0.Add(520 * ms)); n != 2 {
		t.Fatalf("after resume: %d steps, want 2 (no burst for the pause)", n)
	}
}

func TestAlpha(t *testing.T) {
	ms := time.Millisecond
	c := New(10*ms, 5)
	c.Due(t0)
	c.Due(t0.Add(23 * ms)) // two steps: the last at 20 ms
	if a := c.Alpha(t0.Add(25 * ms)); a < 0.49 || a > 0.51 {
		t.Fatalf("alpha = %v, want 0.5", a)
	}
	if a := c.Alpha(t0.Add(90 * ms)); a != 1 {
		t.Fatalf("alpha long after the step = %v, want 1", a)
	}
	if f := Fraction(t0, t0.Add(ms), 10*ms); f != 0 {
		t.Fatalf("fraction before the start = %v", f)
	}
}

func TestTickerCallsUntilClosed(t *testing.T) {
	var n atomic.Int32
	reached := make(chan struct{})
	tk := Go(time.Millisecond, func(time.Time) {
		if n.Add(1) == 3 {
			close(reached)
		}
	})
	select {
	case <-reached:
	case <-time.After(5 * time.Second):
		t.Fatal("fewer than 3 calls in 5 s")
	}
	tk.Close()
	after := n.Load()
	time.Sleep(5 * time.Millisecond)
	if n.Load() != after {
		t.Fatalf("called after Close returned: %d, then %d", after, n.Load())
	}
}
