package sound

import (
	"context"
	"errors"
	"io"
	"time"

	"github.com/gopxl/beep/v2"
	"github.com/gopxl/beep/v2/wav"
)

// PlayInTurn plays requests one after another on a running server: each starts
// gap after the previous sound has ended. For tools and listening tests.
func PlayInTurn(ctx context.Context, s *Server, reqs []Request, gap time.Duration) error {
	const poll = 10 * time.Millisecond
	for _, r := range reqs {
		before := handled(s)
		s.Play(r)
		// Wait for the mixer to take the request, then for silence.
		for handled(s) == before || s.Stats().Playing > 0 {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(poll):
			}
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(gap):
		}
	}
	return nil
}

// handled counts the requests the mixer has dealt with.
func handled(s *Server) uint64 {
	st := s.Stats()
	return st.Started + st.Busy + st.NoChannel + st.Inaudible + st.Unknown
}

// RenderWAV is PlayInTurn offline: it mixes the requests one after another on a
// pull-mode server, as fast as the CPU allows, and writes the mix to w as a
// 16-bit stereo WAV file. Pauses are at least gap (rounded up to wav.Encode's
// 512-frame pulls).
func RenderWAV(w io.WriteSeeker, s *Server, reqs []Request, gap time.Duration) error {
	if !s.pull {
		return errors.New("sound: RenderWAV needs a server made with Pull()")
	}
	format := beep.Format{SampleRate: s.bank.rate, NumChannels: 2, Precision: 2}
	return wav.Encode(w, &script{s: s, reqs: reqs, gap: s.bank.rate.N(gap)}, format)
}

// script is the streamer behind RenderWAV.
type script struct {
	s    *Server
	reqs []Request
	gap  int // frames of silence after each sound
	wait int // frames of silence still to mix before the next request
}

func (sc *script) Stream(samples [][2]float64) (int, bool) {
	if sc.s.Stats().Playing == 0 {
		if sc.wait > 0 { // the pause after a sound
			samples = samples[:min(len(samples), sc.wait)]
			sc.wait -= len(samples)
			return sc.s.Stream(samples)
		}
		if len(sc.reqs) == 0 {
			return 0, false
		}
		sc.s.Play(sc.reqs[0])
		sc.reqs, sc.wait = sc.reqs[1:], sc.gap
	}
	return sc.s.Stream(samples)
}

func (sc *script) Err() error { return nil }
