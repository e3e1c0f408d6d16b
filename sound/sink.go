package sound

import (
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/gopxl/beep/v2"
	"github.com/gopxl/beep/v2/speaker"
	"github.com/gopxl/beep/v2/wav"
)

// Sink is where a server's mix goes. Make one with Speaker, WAVFile, Silent or Pull.
type Sink interface {
	open(s *Server) error
}

// Speaker plays through the sound card with beep's speaker package. When it
// cannot start (no sound card, as on CI) the server logs one warning and uses
// the silent sink, so the game goes on unchanged.
func Speaker() Sink { return speakerSink{buffer: 50 * time.Millisecond} }

// WAVFile records the mix, paced in real time like the speaker, to a 16-bit
// stereo WAV file at the mixing rate. Close completes and closes the file.
func WAVFile(path string) Sink { return wavSink{path: path} }

// Silent consumes the mix at real-time pace and discards it, so sounds take as
// long to end as on a speaker, and noise reduction and the channel limit behave
// the same without a sound card.
func Silent() Sink { return silentSink{} }

// Pull starts no goroutine: the caller mixes by calling Server.Stream.
func Pull() Sink { return pullSink{} }

type pullSink struct{}

func (pullSink) open(s *Server) error {
	s.sinkName, s.pull = "pull", true
	return nil
}

type silentSink struct{}

func (silentSink) open(s *Server) error {
	s.sinkName = "silent"
	s.run(func(p *pacer) error {
		buf := make([][2]float64, 512)
		for {
			if _, ok := p.Stream(buf); !ok {
				return nil
			}
		}
	})
	return nil
}

type wavSink struct{ path string }

func (w wavSink) open(s *Server) error {
	f, err := os.Create(w.path)
	if err != nil {
		return fmt.Errorf("sound: WAV sink: %w", err)
	}
	s.sinkName = "wav"
	format := beep.Format{SampleRate: s.bank.rate, NumChannels: 2, Precision: 2}
	s.run(func(p *pacer) error {
		// wav.Encode pulls until the pacer ends, then writes the final sizes.
		err := wav.Encode(f, p, format)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("sound: WAV sink %s: %w", w.path, err)
		}
		return nil
	})
	return nil
}

// run starts the server's one goroutine; Close stops it and waits.
func (s *Server) run(consume func(*pacer) error) {
	s.stop = make(chan struct{})
	s.done = make(chan struct{})
	go func() {
		defer close(s.done)
		p := newPacer(s)
		defer p.ticker.Stop()
		s.sinkErr = consume(p)
	}()
}

// pacer is a beep.Streamer that hands out the mix no faster than real time: on
// every tick it owes the frames that the clock says are due.
type pacer struct {
	s      *Server
	ticker *time.Ticker
	start  time.Time
	given  int // frames due so far, by the clock
	owed   int
}

func newPacer(s *Server) *pacer {
	return &pacer{s: s, ticker: time.NewTicker(s.period), start: time.Now()}
}

func (p *pacer) Stream(samples [][2]float64) (int, bool) {
	for p.owed == 0 {
		select {
		case <-p.s.stop:
			return 0, false
		case now := <-p.ticker.C:
			p.owed = p.due(now)
		}
	}
	select {
	case <-p.s.stop:
		return 0, false
	default:
	}
	n := min(p.owed, len(samples))
	p.s.render(samples[:n])
	p.owed -= n
	return n, true
}

func (p *pacer) Err() error { return nil }

// due is how many frames the clock owes since the last tick. After a stall of
// more than a second (a suspended process) the gap is skipped, not raced through.
func (p *pacer) due(now time.Time) int {
	rate := p.s.bank.rate
	target := rate.N(now.Sub(p.start))
	owed := target - p.given
	if limit := int(rate); owed > limit {
		owed = limit
	}
	p.given = target
	return max(owed, 0)
}

// The speaker package drives one oto context per process; it is started once
// and shared by every server of the process (normally one).
var speakerInit struct {
	once sync.Once
	rate beep.SampleRate
	err  error
}

type speakerSink struct{ buffer time.Duration }

func (k speakerSink) open(s *Server) error {
	err := startSpeaker(s.bank.rate, k.buffer)
	if err != nil {
		// err.Error(): beep wraps with pkg/errors, whose %+v (slog's) prints a stack.
		s.log.Warn("the speaker cannot start; the game goes on silently", "reason", err.Error())
		return silentSink{}.open(s)
	}
	s.sinkName = "speaker"
	s.speaker = &speakerStream{s: s}
	speaker.Play(s.speaker)
	return nil
}

// startSpeaker starts the speaker once. speaker.Init succeeds even with no ALSA
// device (oto keeps the error); Suspend returns that error, so it is asked at once.
func startSpeaker(rate beep.SampleRate, buffer time.Duration) error {
	si := &speakerInit
	si.once.Do(func() {
		si.rate = rate
		quietALSA()
		restore := hushStderr()
		err := speaker.Init(rate, rate.N(buffer))
		restore()
		if err != nil {
			si.err = err
			return
		}
		if err := speaker.Suspend(); err != nil {
			si.err = err
			return
		}
		si.err = speaker.Resume()
	})
	if si.err != nil {
		return si.err
	}
	if si.rate != rate {
		return fmt.Errorf("the speaker runs at %d Hz and cannot also play at %d Hz", si.rate, rate)
	}
	return nil
}

// speakerStream is what the speaker's goroutine pulls; after close it ends, and
// the speaker's mixer drops it.
type speakerStream struct {
	s      *Server
	closed bool // guarded by speaker.Lock, which the speaker holds while pulling
}

func (st *speakerStream) Stream(samples [][2]float64) (int, bool) {
	if st.closed {
		return 0, false
	}
	st.s.render(samples)
	return len(samples), true
}

func (st *speakerStream) Err() error { return nil }

func (st *speakerStream) close() {
	speaker.Lock()
	st.closed = true
	speaker.Unlock()
}
