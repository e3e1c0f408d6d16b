// Package offline is a client.Client with no network: a session engine that
// hosts alone on this machine, with bots in the other slots, so the game is
// playable from the window before the LAN layer is wired in. It runs the
// real lockstep engine (session.Node) and game glue (match.Match); only the
// transport is missing, so the lobby, countdown, turns, chat and status
// behave as they will on a LAN.
//
// One goroutine owns the node: it ticks it at a fixed rate (client/clock),
// applies what the node hands over, and lets the bots think. Screens call
// the Client's methods from the window's goroutine.
package offline

import (
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"hostfall/client"
	"hostfall/client/clock"
	"hostfall/game"
	"hostfall/game/ai"
	"hostfall/match"
	"hostfall/savegame"
	"hostfall/session"
)

// ErrNoNetwork is what joining says in a build without the network.
var ErrNoNetwork = errors.New("joining a game needs the network, which this build of Hostfall does not have yet; create a game to play against bots")

// Options configure a Client.
type Options struct {
	Name        string        // the local player's name
	Tick        time.Duration // session tick; 0 means 10 ms
	Countdown   int           // ticks per countdown step; 0 means the session default (1 s)
	GameVersion string
	Logger      *slog.Logger
	// SaveDir is where Save writes save files; "" means saving is refused.
	SaveDir string
}

// maxCatchUp bounds the ticks run at once after a stall.
const maxCatchUp = 10

// Client is the offline client.Client.
type Client struct {
	opt Options
	log *slog.Logger

	mu      sync.Mutex // guards everything below, and the node
	d       *match.Driver
	node    *session.Node // d's
	match   *match.Match  // d's
	clk     *clock.Clock
	events  client.EventLog
	wevents client.WorldLog
	roster  client.Roster
	status  session.Status
	lobby   session.Lobby

	stepped       atomic.Int64 // unix nanos of the last applied turn
	*clock.Ticker              // the loop's goroutine; Close stops it
}

var _ client.Client = (*Client)(nil)
var _ client.Pauser = (*Client)(nil)
var _ client.Saver = (*Client)(nil)
var _ client.LobbyHost = (*Client)(nil)

// New starts an offline client; Close stops it.
func New(opt Options) *Client {
	if opt.Tick <= 0 {
		opt.Tick = time.Duration(session.DefaultTickMillis) * time.Millisecond
	}
	if opt.Name == "" {
		opt.Name = "Player"
	}
	if opt.GameVersion == "" {
		opt.GameVersion = "offline"
	}
	if opt.Logger == nil {
		opt.Logger = slog.Default()
	}
	c := &Client{opt: opt, log: opt.Logger, clk: clock.New(opt.Tick, maxCatchUp)}
	c.Ticker = clock.Go(opt.Tick, c.advance)
	return c
}

// advance ticks the node as often as the clock says and applies the results.
func (c *Client) advance(now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.node == nil {
		c.clk.Reset(now)
		return
	}
	for range c.clk.Due(now) {
		c.node.Tick()
		c.drain(now)
	}
	c.drain(now)
	if c.match != nil {
		c.match.Publish() // a copy the window held back last time
	}
}

// drain handles every Ready of the node through the driver (c.mu held).
func (c *Client) drain(now time.Time) {
	if c.d == nil {
		return
	}
	left := false
	err := c.d.Handle(func(rd *session.Ready, _ []session.HashReport) {
		c.status = rd.Status
		c.lobby = c.node.Lobby()
		for _, ev := range rd.Events {
			c.onEvent(ev)
		}
		if len(rd.Committed) > 0 {
			c.stepped.Store(now.UnixNano())
		}
		left = left || rd.Status.Left
	})
	if err != nil {
		c.log.Error("offline game stopped", "err", err)
		c.push(client.Event{Kind: client.EvLeft, Text: "The game stopped: " + err.Error()})
	}
	if err != nil || left {
		c.reset()
	}
}

// begin drives node with a new match (c.mu held). The match keeps every
// turn's world events, not only the last one's (it may step several at once).
func (c *Client) begin(n *session.Node) {
	c.match = match.New(match.Options{OnStep: func(_ uint64, evs []game.Event) { c.wevents.Add(evs) }})
	c.node, c.d = n, match.NewDriver(n, c.match)
	c.clk.Reset(time.Now())
	c.drain(time.Now())
}

func (c *Client) onEvent(ev session.Event) {
	switch ev.Kind {
	case session.EvLoad:
		if ev.Lobby != nil {
			me, ok := c.match.Player(c.status.Slot)
			c.roster.Set(client.SessionPlayers(ev.Lobby), me, ok)
		}
	case session.EvDesync:
		c.log.Warn("desync", "turn", ev.Turn)
	}
	if e, ok := client.SessionEvent(ev, &c.lobby, int(c.opt.Tick/time.Millisecond)); ok {
		c.push(e)
	}
}

func (c *Client) push(e client.Event) { c.events.Push(e) }

// reset forgets the session (c.mu held): the browser shows again.
func (c *Client) reset() {
	c.d, c.node, c.match = nil, nil, nil
	c.roster.Set(nil, 0, false)
	c.status, c.lobby = session.Status{}, session.Lobby{}
	c.wevents.Reset()
}

// Sessions returns nothing: there is no network to find sessions on.
func (c *Client) Sessions() []client.Listing { return nil }

// Create hosts a new session alone.
func (c *Client) Create(o client.CreateOptions) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.node != nil {
		return errors.New("leave this session before creating another one")
	}
	name := o.PlayerName
	if name == "" {
		name = c.opt.Name
	}
	n, err := session.NewNode(session.Config{Self: "local", Name: name, GameVersion: c.opt.GameVersion,
		Rand: client.CryptoRand{}, CountdownTicks: c.opt.Countdown})
	if err != nil {
		return err
	}
	if err := n.Host(o.Settings()); err != nil {
		return fmt.Errorf("cannot create the game: %w", err)
	}
	c.begin(n)
	return nil
}

// Save writes the running game after its last turn into Options.SaveDir
// and returns the file's path.
func (c *Client) Save() (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.node == nil {
		return "", errors.New("you are not in a game")
	}
	if c.opt.SaveDir == "" {
		return "", errors.New("this game has no place to keep saves")
	}
	data, err := c.match.SaveState(c.status.Turn)
	if err != nil {
		return "", err
	}
	sv, err := c.node.Save(c.status.Turn, data)
	if err != nil {
		return "", err
	}
	return savegame.WriteFile(c.opt.SaveDir, &savegame.Save{Saved: sv, At: time.Now()})
}

// LoadGame is Load for the browser (client.GameLoader): the offline
// player is this client's, whatever the browser's name field says.
func (c *Client) LoadGame(path string, _ client.CreateOptions) error { return c.Load(path) }

// Load resumes a saved game alone: the local player takes the slot the save
// has for it (the offline player, or a player of the same name), bots take
// over the other players, and the game starts.
func (c *Client) Load(path string) error {
	s, err := savegame.ReadFile(path)
	if err != nil {
		return err
	}
	if _, err := match.CheckSaved(s.Saved); err != nil {
		return fmt.Errorf("%s cannot be resumed: %w", path, err)
	}
	c.mu.Lock()
	if c.node != nil {
		c.mu.Unlock()
		return errors.New("leave this session before loading a game")
	}
	n, err := session.NewNode(session.Config{Self: "local", Name: c.opt.Name, GameVersion: c.opt.GameVersion,
		Rand: client.CryptoRand{}, CountdownTicks: c.opt.Countdown})
	if err == nil {
		err = n.Host(session.Settings{Resume: &s.Saved})
	}
	if err != nil {
		c.mu.Unlock()
		return fmt.Errorf("cannot load the game: %w", err)
	}
	c.begin(n)
	c.mu.Unlock()
	l, _ := c.Lobby()
	for i, sl := range l.Slots {
		if sl.Kind == session.SlotHuman && i != c.Slot() {
			_ = c.SetSlot(i, session.SlotBot, uint8(ai.Hard)) // refused for players who had left: they stay out
		}
	}
	return c.do(func(n *session.Node) error { return n.Start() })
}

// Join is refused: there is no network yet.
func (c *Client) Join(string, client.JoinOptions) error { return ErrNoNetwork }

// JoinCode is refused: there is no network yet.
func (c *Client) JoinCode(string, client.JoinOptions) error { return ErrNoNetwork }

// Leave ends the session.
func (c *Client) Leave() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.node == nil {
		return
	}
	c.node.Leave()
	c.drain(time.Now())
	c.reset()
}

// Lobby returns the session's lobby.
func (c *Client) Lobby() (session.Lobby, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.node == nil {
		return session.Lobby{}, false
	}
	return c.lobby.Clone(), true
}

// Slot returns the local slot.
func (c *Client) Slot() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.node == nil {
		return -1
	}
	return c.status.Slot
}

// do runs fn on the node and drains what it produced.
func (c *Client) do(fn func(n *session.Node) error) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.node == nil {
		return errors.New("you are not in a game")
	}
	err := fn(c.node)
	c.drain(time.Now())
	return err
}

// SetSlot changes a slot (open, closed, bot).
func (c *Client) SetSlot(slot int, kind session.SlotKind, level uint8) error {
	return c.do(func(n *session.Node) error { return n.SetSlot(slot, kind, level) })
}

// EditSlot changes the local player's slot.
func (c *Client) EditSlot(e session.SlotEdit) error {
	return c.do(func(n *session.Node) error { return n.EditSlot(e) })
}

// Configure changes the map, the game speed and the away policy
// (client.LobbyHost); an offline game has no password.
func (c *Client) Configure(st client.Setup) error {
	return c.do(func(n *session.Node) error {
		l := n.Lobby()
		return n.Configure(st.Settings(&l, ""))
	})
}

// EditBot sets a bot's colour and team.
func (c *Client) EditBot(slot int, e session.SlotEdit) error {
	return c.do(func(n *session.Node) error { return n.EditBot(slot, e) })
}

// Kick is refused: an offline game has no other player to remove.
func (c *Client) Kick(slot int) error {
	return c.do(func(n *session.Node) error { return n.Kick(slot) })
}

// Say sends a chat line (offline, to oneself).
func (c *Client) Say(team uint8, text string) error {
	return c.do(func(n *session.Node) error { return n.Say(team, text) })
}

// Start starts the countdown; a game needs someone to play against.
func (c *Client) Start() error {
	return c.do(func(n *session.Node) error {
		if err := match.CheckStart(n.Lobby()); err != nil {
			return err
		}
		return n.Start()
	})
}

// View reads the world.
func (c *Client) View(fn func(w *game.World, stepped time.Time)) bool {
	c.mu.Lock()
	m := c.match
	c.mu.Unlock()
	if m == nil {
		return false
	}
	at := time.Unix(0, c.stepped.Load())
	return m.View(func(w *game.World) { fn(w, at) })
}

// Players returns the game's players.
func (c *Client) Players() []client.Player { return c.roster.Players() }

// Me returns the local game player.
func (c *Client) Me() (game.PlayerID, bool) { return c.roster.Me() }

// Propose queues an order of the local player for the next turn.
func (c *Client) Propose(cmd game.Command) error {
	b, err := cmd.MarshalBinary()
	if err != nil {
		return err
	}
	return c.do(func(*session.Node) error { return c.d.Propose(c.status.Slot, b) })
}

// WorldEvents drains the world's events.
func (c *Client) WorldEvents(dst []game.Event) []game.Event { return c.wevents.Drain(dst) }

// Status describes the (absent) network.
func (c *Client) Status() client.NetStatus {
	c.mu.Lock()
	defer c.mu.Unlock()
	st := client.NetStatus{Epoch: c.status.Epoch, Turn: c.status.Turn, InputDelay: int(c.status.Delay),
		TurnMillis: int(c.lobby.TurnTicks) * int(c.opt.Tick/time.Millisecond)}
	if s := c.status.Slot; s >= 0 && s < len(c.lobby.Slots) {
		st.Host = c.lobby.Slots[s].Name
		st.Peers = []client.PeerStatus{{Name: st.Host, Slot: s, Host: true, Self: true, PingMillis: 0}}
	}
	return st
}

// Events drains the events.
func (c *Client) Events(dst []client.Event) []client.Event { return c.events.Drain(dst) }

// SetPaused stops or restarts the game clock.
func (c *Client) SetPaused(p bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if p {
		c.clk.Pause()
	} else {
		c.clk.Resume(time.Now())
	}
}

// Skirmish creates a game of the local player against bots of the given
// levels (0 easy, 1 normal, 2 hard) and starts it: what `make play` opens on.
func (c *Client) Skirmish(o client.CreateOptions, bots []uint8) error {
	return client.Skirmish(c, o, bots, true)
}
