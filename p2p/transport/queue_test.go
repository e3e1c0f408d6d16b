package transport

import (
	"log/slog"
	"testing"
)

// A peer's send queue is bounded in bytes as well as in frames: a peer that
// stops reading holds at most QueueBytes of this one's memory, whatever the
// frames' sizes; an empty queue still takes one frame of any size.
func TestSendQueueBoundedInBytes(t *testing.T) {
	tr := &transport{lim: Limits{QueueBytes: 4096}.filled(), log: slog.New(slog.DiscardHandler)}
	l := &link{t: tr, out: make(chan []byte, tr.lim.QueueFrames), kick: make(chan struct{}, 1)}
	frame := func(n int) []byte { return make([]byte, n) }
	steps := []struct {
		what    string
		do      func()
		queued  int64
		frames  int
		dropped uint64
	}{
		{"an empty queue takes 3,000 bytes", func() { l.enqueue(frame(3000)) }, 3000, 1, 0},
		{"3,000 more would pass 4,096: dropped", func() { l.enqueue(frame(3000)) }, 3000, 1, 1},
		{"1,000 more fit", func() { l.enqueue(frame(1000)) }, 4000, 2, 1},
		{"the writer takes the first", func() { l.taken(<-l.out) }, 1000, 1, 1},
		{"10,000 do not fit beside 1,000", func() { l.enqueue(frame(10000)) }, 1000, 1, 2},
		{"the writer takes the rest", func() { l.taken(<-l.out) }, 0, 0, 2},
		{"an empty queue takes 10,000", func() { l.enqueue(frame(10000)) }, 10000, 1, 2},
	}
	for _, s := range steps {
		s.do()
		if l.queued.Load() != s.queued || len(l.out) != s.frames || l.dropped.Load() != s.dropped {
			t.Fatalf("%s: queued %d bytes in %d frames, %d dropped; want %d in %d, %d dropped",
				s.what, l.queued.Load(), len(l.out), l.dropped.Load(), s.queued, s.frames, s.dropped)
		}
	}
}
