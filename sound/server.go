package sound

import (
	"errors"
	"log/slog"
	"math"
	"sync"
	"sync/atomic"
	"time"
)

// Defaults of Options.
const (
	DefaultMaxChannels = 32
	DefaultQueueSize   = 64
	// DefaultMaxRange is in map units; with tile coordinates it is about a
	// screen and a half, so sounds just off screen are still faintly heard.
	DefaultMaxRange = 32
	DefaultPeriod   = 10 * time.Millisecond
)

// Options configure a Server. The zero value plays nothing audible: the silent
// sink with the defaults above.
type Options struct {
	Sink        Sink // Speaker(), WAVFile(path), Silent() (nil) or Pull()
	MaxChannels int  // sounds mixed at once
	QueueSize   int  // requests waiting for the mixer; when full the oldest is dropped
	Seed        uint64
	MaxRange    float64       // no sound is heard farther from the view point
	Period      time.Duration // how often the silent and WAV sinks pull a chunk
	Logger      *slog.Logger
	// Observe, when set, is called on the mixing goroutine for every channel
	// started and finished and every request dropped there (FIFO overflows are
	// only counted in Stats). It must return quickly and must not call the
	// Server's methods other than Stats.
	Observe func(Event)
}

// Stats counts what happened to the requests since New.
type Stats struct {
	Queued    uint64 // accepted by Play
	Overflow  uint64 // pushed out of a full FIFO, oldest first
	Started   uint64 // given a channel
	Busy      uint64 // dropped by noise reduction
	NoChannel uint64 // dropped: every channel busy
	Inaudible uint64 // dropped: volume 0
	Unknown   uint64 // dropped: no such sound
	Cut       uint64 // channels ended early for a selection
	Frames    uint64 // frames mixed
	Playing   int    // channels in use now
}

type counters struct {
	queued, overflow, started, cut, frames atomic.Uint64
	busy, noChannel, inaudible, unknown    atomic.Uint64
	playing                                atomic.Int64
}

func (c *counters) drop(why DropReason) {
	switch why {
	case DropBusy:
		c.busy.Add(1)
	case DropNoChannel:
		c.noChannel.Add(1)
	case DropInaudible:
		c.inaudible.Add(1)
	case DropUnknown:
		c.unknown.Add(1)
	}
}

// Server is seed 001's sound server: the game side queues requests with Play
// and never waits; the mixing side drains the queue at the start of every chunk
// it mixes, turns requests into channels and mixes them.
//
// Who mixes depends on the sink: the speaker's own goroutine, one goroutine of
// the server that paces the silent and WAV sinks in real time, or the caller of
// Stream in pull mode. All methods are safe to call from any goroutine.
type Server struct {
	bank  *Bank
	log   *slog.Logger
	queue fifo
	stats counters

	volume   atomic.Uint32 // float32 bits of the global volume
	catVol   [NumCategories]atomic.Uint32
	maxRange atomic.Uint64 // float64 bits
	viewMu   sync.Mutex
	view     [2]float64

	mixMu   sync.Mutex // guards mix and pending
	mix     *mixer
	pending []Request

	sinkName string
	period   time.Duration
	pull     bool
	closed   atomic.Bool
	speaker  *speakerStream
	stop     chan struct{} // closed by Close when a goroutine of ours runs
	done     chan struct{} // closed by that goroutine when it has ended
	sinkErr  error         // written by that goroutine before done is closed

	closeOnce sync.Once
}

// New starts a server on bank with opts. The bank can no longer change after.
func New(bank *Bank, opts Options) (*Server, error) {
	if bank == nil {
		return nil, errors.New("sound: New needs a bank")
	}
	if opts.MaxChannels <= 0 {
		opts.MaxChannels = DefaultMaxChannels
	}
	if opts.QueueSize <= 0 {
		opts.QueueSize = DefaultQueueSize
	}
	if opts.MaxRange <= 0 {
		opts.MaxRange = DefaultMaxRange
	}
	if opts.Period <= 0 {
		opts.Period = DefaultPeriod
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.Sink == nil {
		opts.Sink = Silent()
	}
	bank.frozen.Store(true)
	s := &Server{
		bank:    bank,
		log:     opts.Logger,
		queue:   fifo{buf: make([]Request, opts.QueueSize)},
		pending: make([]Request, 0, opts.QueueSize),
		period:  opts.Period,
	}
	s.mix = newMixer(bank, opts.MaxChannels, opts.Seed, opts.Observe, &s.stats)
	s.SetVolume(1)
	for c := range NumCategories {
		s.SetCategoryVolume(c, 1)
	}
	s.SetMaxRange(opts.MaxRange)
	if err := opts.Sink.open(s); err != nil {
		return nil, err
	}
	return s, nil
}

// Play queues a request and returns at once. When the FIFO is full the oldest
// waiting request is dropped: the newest is the most current thing the game
// has to say, and a full queue means its older requests are already late.
func (s *Server) Play(r Request) {
	if r.Sound == 0 || s.closed.Load() {
		return
	}
	s.stats.queued.Add(1)
	if s.queue.push(r) {
		s.stats.overflow.Add(1)
	}
}

// PlayAt queues r as made at map position (x, y): its Power becomes the distance
// to the view point.
func (s *Server) PlayAt(r Request, x, y float64) {
	s.viewMu.Lock()
	vx, vy := s.view[0], s.view[1]
	s.viewMu.Unlock()
	r.Power, r.IsVolume = math.Hypot(x-vx, y-vy), false
	s.Play(r)
}

// SetViewPoint sets where the listener is, in map units (the camera's centre).
func (s *Server) SetViewPoint(x, y float64) {
	s.viewMu.Lock()
	s.view = [2]float64{x, y}
	s.viewMu.Unlock()
}

// SetVolume sets the global volume, clamped to [0, 1]. It applies to sounds
// already playing from the next chunk on.
func (s *Server) SetVolume(v float64) {
	if !(v > 0) {
		v = 0
	}
	s.volume.Store(math.Float32bits(float32(min(v, 1))))
}

// Volume is the global volume.
func (s *Server) Volume() float64 { return float64(math.Float32frombits(s.volume.Load())) }

// SetCategoryVolume sets the volume of a category of sounds (under the
// global volume), clamped to [0, 1]. Like SetVolume it applies to sounds
// already playing from the next chunk on; an unknown category is ignored.
func (s *Server) SetCategoryVolume(c Category, v float64) {
	if c >= NumCategories {
		return
	}
	if !(v > 0) {
		v = 0
	}
	s.catVol[c].Store(math.Float32bits(float32(min(v, 1))))
}

// CategoryVolume is the volume of category c (0 for an unknown one).
func (s *Server) CategoryVolume(c Category) float64 {
	if c >= NumCategories {
		return 0
	}
	return float64(math.Float32frombits(s.catVol[c].Load()))
}

// SetMaxRange sets the distance beyond which nothing is heard; it caps every
// sound's own range. It applies to requests not yet mixed.
func (s *Server) SetMaxRange(r float64) {
	if r > 0 {
		s.maxRange.Store(math.Float64bits(r))
	}
}

// MaxRange is the global maximum range.
func (s *Server) MaxRange() float64 { return math.Float64frombits(s.maxRange.Load()) }

// SinkName says where the sound goes: "speaker", "silent", "wav" or "pull".
// After a failed speaker start it is "silent".
func (s *Server) SinkName() string { return s.sinkName }

// Rate is the mixing rate in frames per second.
func (s *Server) Rate() int { return int(s.bank.rate) }

// Stats returns the counters. Safe anywhere, Observe included.
func (s *Server) Stats() Stats {
	c := &s.stats
	return Stats{
		Queued: c.queued.Load(), Overflow: c.overflow.Load(), Started: c.started.Load(),
		Busy: c.busy.Load(), NoChannel: c.noChannel.Load(), Inaudible: c.inaudible.Load(),
		Unknown: c.unknown.Load(), Cut: c.cut.Load(), Frames: c.frames.Load(),
		Playing: int(c.playing.Load()),
	}
}

// Stream mixes the next len(samples) frames into samples: the pull mode of
// seed 001's WriteSound, for tools and tests. Requests queued before the call
// start at its first frame. It makes Server a beep.Streamer; it returns
// (0, false) unless the server was made with Pull() and is open.
func (s *Server) Stream(samples [][2]float64) (n int, ok bool) {
	if !s.pull || s.closed.Load() {
		return 0, false
	}
	s.render(samples)
	return len(samples), true
}

// Err is always nil: the mixer has nothing that fails.
func (s *Server) Err() error { return nil }

// render drains the FIFO into channels and mixes the next frames.
func (s *Server) render(samples [][2]float64) {
	s.mixMu.Lock()
	defer s.mixMu.Unlock()
	s.pending = s.queue.drain(s.pending[:0])
	maxRange := s.MaxRange()
	for _, r := range s.pending {
		s.mix.handle(r, maxRange)
	}
	var cats [NumCategories]float32
	for c := range cats {
		cats[c] = math.Float32frombits(s.catVol[c].Load())
	}
	s.mix.mix(samples, math.Float32frombits(s.volume.Load()), cats)
	s.stats.frames.Add(uint64(len(samples)))
}

// Close stops the server: the sink's goroutine ends before Close returns, and a
// WAV file is completed and closed. Sounds still playing are cut. It returns
// the sink's error, if any; later calls return the same. On the speaker, the
// server's stream leaves the speaker's mixer; the speaker's own goroutines (oto's)
// stay for the life of the process, since oto cannot close its context.
func (s *Server) Close() error {
	s.closeOnce.Do(func() {
		s.closed.Store(true)
		if s.speaker != nil {
			s.speaker.close()
		}
		if s.stop != nil {
			close(s.stop)
			<-s.done
		}
	})
	return s.sinkErr
}

// fifo is the bounded request queue: a ring that overwrites its oldest entry.
type fifo struct {
	mu   sync.Mutex
	buf  []Request
	head int
	n    int
}

// push adds r and reports whether the oldest request was dropped for it.
func (q *fifo) push(r Request) (dropped bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.n == len(q.buf) {
		q.head = (q.head + 1) % len(q.buf)
		q.n--
		dropped = true
	}
	q.buf[(q.head+q.n)%len(q.buf)] = r
	q.n++
	return dropped
}

// drain appends the waiting requests to dst in order and empties the queue.
func (q *fifo) drain(dst []Request) []Request {
	q.mu.Lock()
	defer q.mu.Unlock()
	for i := range q.n {
		dst = append(dst, q.buf[(q.head+i)%len(q.buf)])
	}
	q.head, q.n = 0, 0
	return dst
}
