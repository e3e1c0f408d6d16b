// Package fake is a scripted client.Client for tests and screenshots: the
// test sets the sessions, the lobby, the world, the network status and the
// events the screens see, and reads back what the screens asked for.
package fake

import (
	"bytes"
	"fmt"
	"sync"
	"time"

	"hostfall/client"
	"hostfall/game"
	"hostfall/game/ai"
	"hostfall/match"
	"hostfall/session"
)

// Client is a client.Client whose state the test sets. Safe for use from
// several goroutines.
type Client struct {
	mu       sync.Mutex
	listings []client.Listing
	lobby    *session.Lobby
	slot     int
	world    *game.World
	stepped  time.Time
	roster   client.Roster
	status   client.NetStatus
	events   client.EventLog
	wevents  client.WorldLog
	refuse   string
	last     *client.LastGame
	lastErr  error
	rejoin   client.RejoinStatus

	proposed []game.Command
	calls    []string
}

var (
	_ client.Client    = (*Client)(nil)
	_ client.Rejoiner  = (*Client)(nil)
	_ client.LobbyHost = (*Client)(nil)
)

// New returns a client that is browsing and sees nothing.
func New() *Client { return &Client{slot: -1} }

// SetSessions sets what the browser lists.
func (c *Client) SetSessions(ls ...client.Listing) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.listings = append([]client.Listing(nil), ls...)
}

// SetLobby puts the client in lobby l at slot.
func (c *Client) SetLobby(l session.Lobby, slot int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	l = l.Clone()
	c.lobby, c.slot = &l, slot
}

// SetGame loads world w (stepped at the given moment) with its players;
// the local player is me.
func (c *Client) SetGame(w *game.World, stepped time.Time, players []client.Player, me game.PlayerID) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.world, c.stepped = w, stepped
	c.roster.Set(players, me, true)
}

// SetStatus sets the network panel's content.
func (c *Client) SetStatus(s client.NetStatus) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.status = s
}

// SetLastGame sets the game to rejoin (nil: none), or why its record
// cannot be used (err).
func (c *Client) SetLastGame(g *client.LastGame, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.last, c.lastErr = g, err
}

// SetRejoining sets the progress of a rejoin.
func (c *Client) SetRejoining(st client.RejoinStatus) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.rejoin = st
}

// LastGame returns the scripted game to rejoin (client.Rejoiner).
func (c *Client) LastGame() (client.LastGame, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case c.lastErr != nil:
		return client.LastGame{}, c.lastErr
	case c.last == nil:
		return client.LastGame{}, client.ErrNoLastGame
	}
	return *c.last, nil
}

// Rejoin records the call (and refuses it when told to).
func (c *Client) Rejoin(client.JoinOptions) error { return c.join("rejoin") }

// Rejoining returns the scripted progress.
func (c *Client) Rejoining() client.RejoinStatus {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.rejoin
}

// ForgetLastGame records the call and drops the game to rejoin.
func (c *Client) ForgetLastGame() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.call("forget")
	c.last, c.lastErr = nil, nil
}

// RefuseJoins makes every join fail with an EvRefused of text.
func (c *Client) RefuseJoins(text string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.refuse = text
}

// Push queues events for the screens.
func (c *Client) Push(evs ...client.Event) { c.events.Push(evs...) }

// PushWorld queues world events for the screens.
func (c *Client) PushWorld(evs ...game.Event) { c.wevents.Add(evs) }

// Proposed returns the orders the screens proposed.
func (c *Client) Proposed() []game.Command {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]game.Command(nil), c.proposed...)
}

// Calls returns the actions the screens took, one line each ("create Name",
// "join ID", "say 0 hello", "start" …).
func (c *Client) Calls() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.calls...)
}

func (c *Client) call(format string, args ...any) {
	c.calls = append(c.calls, fmt.Sprintf(format, args...))
}

// Sessions returns the scripted listings.
func (c *Client) Sessions() []client.Listing {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]client.Listing(nil), c.listings...)
}

// Create records the call and opens a lobby of four slots hosted by the
// local player.
func (c *Client) Create(o client.CreateOptions) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if o.Internet {
		c.call("create %s (internet)", o.Name)
	} else {
		c.call("create %s", o.Name)
	}
	l := Lobby(o.Name, max(o.MaxPlayers, 2))
	l.Slots[0] = session.Slot{Kind: session.SlotHuman, Name: o.PlayerName, Peer: "me"}
	c.lobby, c.slot = &l, 0
	return nil
}

func (c *Client) join(what string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.call("%s", what)
	if c.refuse != "" {
		c.events.Push(client.Event{Kind: client.EvRefused, Text: c.refuse})
	}
	return nil
}

// Join records the call (and refuses it when told to).
func (c *Client) Join(id string, o client.JoinOptions) error { return c.join("join " + id) }

// JoinCode records the call (and refuses it when told to).
func (c *Client) JoinCode(code string, o client.JoinOptions) error {
	return c.join("join-code " + code)
}

// Leave returns to browsing.
func (c *Client) Leave() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.call("leave")
	c.lobby, c.slot, c.world = nil, -1, nil
	c.roster.Set(nil, 0, false)
}

// Lobby returns the scripted lobby.
func (c *Client) Lobby() (session.Lobby, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.lobby == nil {
		return session.Lobby{}, false
	}
	return c.lobby.Clone(), true
}

// Slot returns the scripted slot.
func (c *Client) Slot() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.slot
}

// SetSlot records the call and applies it to the lobby.
func (c *Client) SetSlot(slot int, kind session.SlotKind, level uint8) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.call("set-slot %d %v %d", slot, kind, level)
	if c.lobby != nil && slot >= 0 && slot < len(c.lobby.Slots) {
		s := &c.lobby.Slots[slot]
		*s = session.Slot{Kind: kind, Color: s.Color, Team: s.Team, BotLevel: level, Ready: kind == session.SlotBot}
		if kind == session.SlotBot {
			s.Name = fmt.Sprintf("Bot %d", slot+1)
		}
		c.lobby.Revision++
	}
	return nil
}

// EditSlot records the call and applies it to the local slot.
func (c *Client) EditSlot(e session.SlotEdit) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.call("edit %q color=%d team=%d ready=%v", e.Name, e.Color, e.Team, e.Ready)
	if c.lobby != nil && c.slot >= 0 && c.slot < len(c.lobby.Slots) {
		s := &c.lobby.Slots[c.slot]
		if e.Name != "" {
			s.Name = e.Name
		}
		s.Color, s.Team, s.Ready = e.Color, e.Team, e.Ready
		c.lobby.Revision++
	}
	return nil
}

// Configure records the call and applies it to the lobby.
func (c *Client) Configure(st client.Setup) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.call("configure seed=%d size=%d turn=%d away=%d", st.MapSeed, st.MapSize, st.TurnTicks, st.AwayBot)
	if c.lobby != nil {
		c.lobby.MapSeed, c.lobby.MapSize, c.lobby.TurnTicks, c.lobby.AwayBot = st.MapSeed, st.MapSize, st.TurnTicks, st.AwayBot
		c.lobby.Revision++
	}
	return nil
}

// EditBot records the call and applies it to the bot's slot.
func (c *Client) EditBot(slot int, e session.SlotEdit) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.call("edit-bot %d color=%d team=%d", slot, e.Color, e.Team)
	if c.lobby != nil && slot >= 0 && slot < len(c.lobby.Slots) {
		s := &c.lobby.Slots[slot]
		s.Color, s.Team = e.Color, e.Team
		c.lobby.Revision++
	}
	return nil
}

// Kick records the call and opens the player's slot.
func (c *Client) Kick(slot int) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.call("kick %d", slot)
	if c.lobby != nil && slot >= 0 && slot < len(c.lobby.Slots) {
		s := &c.lobby.Slots[slot]
		*s = session.Slot{Kind: session.SlotOpen, Color: s.Color}
		c.lobby.Revision++
	}
	return nil
}

// Say records the call and echoes the line as a chat event.
func (c *Client) Say(team uint8, text string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.call("say %d %s", team, text)
	name := "me"
	if c.lobby != nil && c.slot >= 0 && c.slot < len(c.lobby.Slots) {
		name = c.lobby.Slots[c.slot].Name
	}
	c.events.Push(client.Event{Kind: client.EvChat, Name: name, Team: team, Text: text})
	return nil
}

// Start records the call.
func (c *Client) Start() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.call("start")
	return nil
}

// View reads the scripted world.
func (c *Client) View(fn func(w *game.World, stepped time.Time)) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.world == nil {
		return false
	}
	fn(c.world, c.stepped)
	return true
}

// Players returns the scripted players.
func (c *Client) Players() []client.Player { return c.roster.Players() }

// Me returns the scripted local player.
func (c *Client) Me() (game.PlayerID, bool) { return c.roster.Me() }

// Propose records the order.
func (c *Client) Propose(cmd game.Command) error {
	if _, err := cmd.MarshalBinary(); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	cmd.Units = append([]game.UnitID(nil), cmd.Units...)
	c.proposed = append(c.proposed, cmd)
	return nil
}

// WorldEvents drains the scripted world events.
func (c *Client) WorldEvents(dst []game.Event) []game.Event { return c.wevents.Drain(dst) }

// Status returns the scripted status.
func (c *Client) Status() client.NetStatus {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.status
	s.Peers = append([]client.PeerStatus(nil), s.Peers...)
	return s
}

// Events drains the scripted events.
func (c *Client) Events(dst []client.Event) []client.Event { return c.events.Drain(dst) }

// Lobby returns a lobby named name with n open slots, colors in slot order.
func Lobby(name string, n int) session.Lobby {
	l := session.Lobby{Revision: 1, Name: name, MapSeed: 7, MaxPlayers: uint32(n), TurnTicks: 5, Slots: make([]session.Slot, n)}
	for i := range l.Slots {
		l.Slots[i].Color = uint8(i)
	}
	return l
}

// Skirmish returns the world of a bot match of n players on seed, played to
// turn turns, with the players the screens name.
func Skirmish(seed uint64, n, turns int) (*game.World, []client.Player, error) {
	m, err := ai.NewMatch(game.FreeForAll(seed, n), []ai.Level{ai.Hard}, seed)
	if err != nil {
		return nil, nil, err
	}
	for m.World.Turn() < turns && !m.World.Over() {
		if _, err := m.Turn(); err != nil {
			return nil, nil, err
		}
	}
	ps := make([]client.Player, n)
	for i := range ps {
		ps[i] = client.Player{Name: fmt.Sprintf("Bot %d", i+1), Slot: i, Color: uint8(i), Bot: i > 0}
	}
	ps[0].Name = "You"
	return m.World, ps, nil
}

// Replay records the replay file of a bot match as a hosting peer's match
// would: n hard bots on a size×size map of seed, turns turns, a state hash
// every 10 turns. The players are named "Bot 1" … in colours 0, 1, ….
func Replay(seed uint64, n, size, turns int) ([]byte, error) {
	lobby := Lobby("Replay", n)
	lobby.MapSeed, lobby.MapSize, lobby.State = seed, uint32(size), session.StateLoading
	st := session.Status{Slot: -1}
	for i := range lobby.Slots {
		lobby.Slots[i] = session.Slot{Kind: session.SlotBot, Name: fmt.Sprintf("Bot %d", i+1), Color: uint8(i), BotLevel: uint8(ai.Hard)}
		st.Drives = append(st.Drives, i)
	}
	var buf bytes.Buffer
	m := match.New(match.Options{Replay: &buf})
	var node proposals
	load := session.Ready{Events: []session.Event{{Kind: session.EvLoad, Lobby: &lobby}}, Status: st}
	if err := m.Apply(&load, &node); err != nil {
		return nil, err
	}
	for t := uint64(1); t <= uint64(turns); t++ {
		rd := session.Ready{Committed: []session.Turn{{Number: t, Commands: node.take(), WantHash: t%10 == 0}}, Status: st}
		if err := m.Apply(&rd, &node); err != nil {
			return nil, err
		}
	}
	if err := m.CloseReplay(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// proposals stands in for the session node of Replay: what the bots
// propose goes into the next turn.
type proposals struct {
	cmds []session.Command
	seq  [session.MaxSlots]uint64
}

func (p *proposals) Loaded()                       {}
func (p *proposals) ReportHash(uint64, uint64)     {}
func (p *proposals) Snapshot(uint64, []byte) error { return nil }

func (p *proposals) Propose(slot int, data []byte) error {
	p.seq[slot]++
	p.cmds = append(p.cmds, session.Command{Slot: slot, Seq: p.seq[slot], Data: append([]byte(nil), data...)})
	return nil
}

func (p *proposals) take() []session.Command {
	out := p.cmds
	p.cmds = nil
	return out
}
