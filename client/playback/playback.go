// Package playback plays a replay file back in the window: a
// client.Client (and client.Replayer) that steps the recorded turns at the
// recorded rate, or faster or slower, and checks every recorded state hash
// on the way. It is a spectator: it hosts, joins and proposes nothing.
//
// One goroutine steps the game on a fixed-rate clock (client/clock), the
// way the offline client ticks its session; the screens read the world
// through View from the window's goroutine.
package playback

import (
	"errors"
	"fmt"
	"log/slog"
	"math"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"hostfall/client"
	"hostfall/client/clock"
	"hostfall/game"
	"hostfall/match"
	"hostfall/session"
	"hostfall/session/replay"
)

// ErrSpectator is what every action of a player says during a replay.
var ErrSpectator = errors.New("this is a replay: you are watching, and nothing you do changes it")

// Speed limits: the viewer offers 0.25× to 8×.
const (
	MinSpeed = 0.25
	MaxSpeed = 8
)

// Options configure a Client.
type Options struct {
	// Tick is the session tick the game was played at; 0 means
	// session.DefaultTickMillis. A turn lasts the lobby's TurnTicks ticks.
	Tick   time.Duration
	Paused bool // start paused
	// Follow is the player whose view shows at first, from 1 (game player
	// 0); 0 shows every player without fog.
	Follow int
	Logger *slog.Logger
}

// maxCatchUp bounds the turns stepped at once after a stall.
const maxCatchUp = 16

// pollEvery is how often the goroutine looks at the clock: often enough
// for the fastest speed (8 × 20 turns a second).
const pollEvery = 5 * time.Millisecond

// Client plays one replay.
type Client struct {
	opt     Options
	log     *slog.Logger
	rep     *replay.Replay
	want    map[uint64]uint64 // recorded hash after a turn (a later report wins)
	turnLen time.Duration     // a turn at the recorded rate
	lobby   session.Lobby     // as recorded, marked playing
	length  int               // the game time at the end (match.ReplayTime)
	players []client.Player

	mu      sync.Mutex // guards everything below
	match   *match.Match
	next    int // index in rep.Turns of the next turn to play
	clk     *clock.Clock
	speed   float64
	paused  bool
	checked int
	problem string
	stopped bool
	left    bool
	wevents client.WorldLog

	stepped       atomic.Int64 // unix nanos of the last turn played
	*clock.Ticker              // the loop's goroutine; Close stops it
}

var (
	_ client.Client   = (*Client)(nil)
	_ client.Replayer = (*Client)(nil)
)

// ReadFile reads a whole replay file. A file that cannot be read back is
// refused in words (the window and `replay --verify` both say so).
func ReadFile(path string) (*replay.Replay, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r, err := replay.Read(f)
	if err != nil {
		return nil, fmt.Errorf("%s cannot be played back: %w", path, err)
	}
	return r, nil
}

// New starts playing r back; Close stops it.
func New(r *replay.Replay, opt Options) (*Client, error) {
	if opt.Tick <= 0 {
		opt.Tick = time.Duration(session.DefaultTickMillis) * time.Millisecond
	}
	if opt.Logger == nil {
		opt.Logger = slog.Default()
	}
	m, err := match.Replay(r)
	if err != nil {
		return nil, fmt.Errorf("the replay's game cannot be set up: %w", err)
	}
	tt := r.Lobby.TurnTicks
	if tt == 0 {
		tt = 5
	}
	c := &Client{opt: opt, log: opt.Logger, rep: r, want: map[uint64]uint64{}, turnLen: time.Duration(tt) * opt.Tick,
		match: m, speed: 1, paused: opt.Paused}
	for _, h := range r.Hashes {
		c.want[h.Turn] = h.Hash
	}
	if c.length, err = match.ReplayTime(r); err != nil {
		c.length = len(r.Turns) // a start state that cannot be read: the turns played
	}
	c.lobby = r.Lobby.Clone()
	c.lobby.State = session.StatePlaying
	c.players = client.SessionPlayers(&c.lobby)
	c.setClock(time.Now())
	c.Ticker = clock.Go(pollEvery, c.advance)
	return c, nil
}

// advance plays the turns the clock says are due.
func (c *Client) advance(now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	defer c.match.Publish()
	for range c.clk.Due(now) {
		if !c.step(now, true) {
			return
		}
	}
}

// setClock makes the clock of the current speed (c.mu held or not yet shared).
func (c *Client) setClock(now time.Time) {
	c.clk = clock.New(time.Duration(float64(c.turnLen)/c.speed), maxCatchUp)
	c.clk.Reset(now)
	if c.paused {
		c.clk.Pause()
	}
}

// step plays the next recorded turn and checks its hash; it reports
// whether there was one to play (c.mu held). keep keeps the turn's world
// events for the screens (a seek forgets them: nobody sees those turns).
func (c *Client) step(now time.Time, keep bool) bool {
	if c.stopped || c.next >= len(c.rep.Turns) {
		return false
	}
	t := c.rep.Turns[c.next]
	if err := c.match.Step(t); err != nil {
		c.fail(fmt.Sprintf("Turn %d of this replay cannot be played (%v), so playback stops here; the file may be damaged.", t.Number, err), true)
		return false
	}
	c.next++
	w := c.match.World()
	if want, ok := c.want[t.Number]; ok {
		if got := w.Hash(); got == want {
			c.checked++
		} else if c.problem == "" {
			c.fail(fmt.Sprintf("This replay does not reproduce the recorded game: after turn %d the state differs from the recording "+
				"(hash %016x, recorded %016x). What follows may not be what was played.", t.Number, got, want), false)
		}
	}
	if keep {
		c.wevents.Add(w.Events())
	}
	c.stepped.Store(now.UnixNano())
	return true
}

// fail records a problem for the viewer (c.mu held); the screen shows it
// from Replay.
func (c *Client) fail(text string, stop bool) {
	c.problem, c.stopped = text, stop
	c.log.Warn("replay playback", "problem", text)
}

// SetPaused stops or restarts playback.
func (c *Client) SetPaused(p bool) { c.setPaused(p, time.Now()) }

func (c *Client) setPaused(p bool, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.paused = p
	if p {
		c.clk.Pause()
	} else {
		c.clk.Resume(now)
	}
}

// SetSpeed sets the playback speed, between MinSpeed and MaxSpeed.
func (c *Client) SetSpeed(s float64) { c.setSpeed(s, time.Now()) }

func (c *Client) setSpeed(s float64, now time.Time) {
	if math.IsNaN(s) {
		return
	}
	s = min(max(s, MinSpeed), MaxSpeed)
	c.mu.Lock()
	defer c.mu.Unlock()
	if s == c.speed {
		return
	}
	c.speed = s
	c.setClock(now)
}

// Seek plays on to the turn at fraction f of the recording, starting over
// when that turn is behind.
func (c *Client) Seek(f float64) {
	if math.IsNaN(f) {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	target := int(math.Round(min(max(f, 0), 1) * float64(len(c.rep.Turns))))
	if target < c.next {
		m, err := match.Replay(c.rep)
		if err != nil { // it loaded once; it loads again
			c.fail("The replay cannot start over: "+err.Error(), true)
			return
		}
		c.match, c.next, c.checked, c.problem, c.stopped = m, 0, 0, "", false
	}
	now := time.Now()
	for c.next < target && c.step(now, false) {
	}
	c.match.Publish()
	c.wevents.Reset()
	c.clk.Reset(now)
	if c.paused {
		c.clk.Pause()
	}
}

// Replay describes the playback.
func (c *Client) Replay() client.ReplayStatus {
	c.mu.Lock()
	defer c.mu.Unlock()
	st := client.ReplayStatus{Speed: c.speed, Paused: c.paused, Checked: c.checked, Problem: c.problem, Stopped: c.stopped,
		Over: c.next >= len(c.rep.Turns), Follow: c.opt.Follow - 1}
	if n := len(c.rep.Turns); n > 0 {
		st.Turns = c.rep.Turns[n-1].Number
	}
	if c.next > 0 {
		st.Turn = c.rep.Turns[c.next-1].Number
	}
	st.Time, st.Length = c.match.World().Time(), c.length
	return st
}

// Sessions returns nothing: a replay browses no network.
func (c *Client) Sessions() []client.Listing { return nil }

// Create is refused.
func (c *Client) Create(client.CreateOptions) error { return ErrSpectator }

// Join is refused.
func (c *Client) Join(string, client.JoinOptions) error { return ErrSpectator }

// JoinCode is refused.
func (c *Client) JoinCode(string, client.JoinOptions) error { return ErrSpectator }

// Leave ends the viewing: the lobby is gone.
func (c *Client) Leave() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.left = true
	c.clk.Pause()
}

// Lobby returns the recorded lobby, in the playing state.
func (c *Client) Lobby() (session.Lobby, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.left {
		return session.Lobby{}, false
	}
	return c.lobby.Clone(), true
}

// Slot returns -1: the viewer is a spectator.
func (c *Client) Slot() int { return -1 }

// SetSlot is refused.
func (c *Client) SetSlot(int, session.SlotKind, uint8) error { return ErrSpectator }

// EditSlot is refused.
func (c *Client) EditSlot(session.SlotEdit) error { return ErrSpectator }

// Say is refused.
func (c *Client) Say(uint8, string) error { return ErrSpectator }

// Start is refused.
func (c *Client) Start() error { return ErrSpectator }

// View reads the world.
func (c *Client) View(fn func(w *game.World, stepped time.Time)) bool {
	c.mu.Lock()
	m, left := c.match, c.left
	c.mu.Unlock()
	if left {
		return false
	}
	at := time.Unix(0, c.stepped.Load())
	return m.View(func(w *game.World) { fn(w, at) })
}

// Players returns the recorded game's players.
func (c *Client) Players() []client.Player { return append([]client.Player(nil), c.players...) }

// Me reports a spectator.
func (c *Client) Me() (game.PlayerID, bool) { return 0, false }

// Propose is refused.
func (c *Client) Propose(game.Command) error { return ErrSpectator }

// WorldEvents drains the world's events of the turns played.
func (c *Client) WorldEvents(dst []game.Event) []game.Event { return c.wevents.Drain(dst) }

// Status tells the network panel there is no network, and the turn length
// at the playback speed (drawing interpolates over it).
func (c *Client) Status() client.NetStatus {
	c.mu.Lock()
	defer c.mu.Unlock()
	st := client.NetStatus{TurnMillis: max(1, int(float64(c.turnLen/time.Millisecond)/c.speed))}
	if c.next > 0 {
		st.Turn = c.rep.Turns[c.next-1].Number
	}
	return st
}

// Events reports nothing: a replay has no network events, and problems
// found while playing are in Replay.
func (c *Client) Events(dst []client.Event) []client.Event { return dst }
