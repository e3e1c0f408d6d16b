// Package match is one game as a peer plays it: it turns the session's
// committed turns into game steps, drives the bots of the slots this peer
// proposes for, and records the replay. It is the glue between the pure
// session engine and the pure game, owned by the goroutine that owns the
// session.Node; the window reads the world through View from its own goroutine.
//
// The owner never waits for the window: it steps a world of its own and
// publishes a copy of it (game.World.CopyTo, a tenth of a millisecond for a
// large game) for View, whenever no reader holds the copy. A window that
// spends half a second building its game screen inside View only sees the
// newest state a little later; the session keeps ticking and answering.
//
// Slots and players: the lobby's slots that hold a human or a bot when the game
// loads become the game's players, in slot order. The mapping travels inside
// every snapshot, so a peer that joins late or restores after a desync uses the
// mapping the game started with, whatever the lobby says by then.
package match

import (
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"

	"hostfall/game"
	"hostfall/game/ai"
	"hostfall/session"
	"hostfall/session/replay"
)

// Node is what a Match needs of a session.Node.
type Node interface {
	Loaded()
	ReportHash(turn, hash uint64)
	Snapshot(turn uint64, data []byte) error
	Propose(slot int, data []byte) error
}

// Options set up a Match.
type Options struct {
	// SelfBot, when set, lets a bot of this level play the peer's own slot
	// (headless peers); otherwise the player's input is the only source.
	SelfBot   bool
	SelfLevel ai.Level
	// Replay, when set, receives the replay of a game this peer plays from
	// its first turn; a late joiner's (a player that came back in a new
	// process) starts from the snapshot it joined with.
	Replay io.Writer
	// NextReplay, when set, gives the writer of this peer's next replay.
	// A peer that takes the game back by snapshot after it lost it (it was
	// away, or its side of a split lost the merge) cannot go on with the
	// replay it wrote: its turns stop before the snapshot, or went on along
	// a branch the game discarded. That replay ends there, whole, and the
	// game goes on in a new one that starts from the snapshot. Without
	// NextReplay the replay just ends.
	NextReplay func() io.Writer
	// OnReplayError is told once when the replay cannot be written; the game
	// goes on without it.
	OnReplayError func(error)
	// OnDesyncReport receives a report for every desync this peer sees; the
	// caller writes it to a file and tells the player where.
	OnDesyncReport func(Report)
	// ScreenLoads: the owner tells the node Loaded itself, once a window has
	// shown the loaded game, so turn 1 waits for every player's game screen
	// (a window takes a moment to build it). Otherwise Apply tells it at once.
	ScreenLoads bool
	// OnStep, when set, is called after each turn steps the world, with the
	// turn's number and the world's events of it (World.Events keeps only
	// the last turn's, and Apply may step several). It runs on the
	// goroutine that applies turns; events is valid only during the call.
	OnStep func(turn uint64, events []game.Event)
}

// Match is one game. Its methods other than View, Over and Stats belong to
// the goroutine that owns the session node.
type Match struct {
	opt Options

	world   *game.World   // the owner's: only the owner goroutine touches it
	lobby   session.Lobby // as the game started
	limit   uint64        // the lobby's turn limit
	players []int         // game player → lobby slot
	slots   [session.MaxSlots]int8

	// What other goroutines read: a published copy of world, the end, stats.
	vmu   sync.RWMutex // guards view; a reader holds it while it looks
	view  *game.World
	stale bool // owner only: world changed since the last publish
	over  atomic.Bool
	smu   sync.Mutex // guards stats

	bots   [session.MaxSlots]*ai.Bot
	rec    *replay.Writer
	recRes bool                // a resumed game: the replay starts with the restored state
	recTo  uint64              // last turn written to the replay
	stats  Stats               // guarded by mu
	kept   []keptState         // own recent hashed states, oldest first
	desync *session.DesyncInfo // a desync whose report waits for the restore
	buf    []byte
	cmds   []game.Command

	// A late joiner: its replay starts with the first snapshot.
	recLate bool
}

// Stats counts what the match did; for the network panel and tests.
type Stats struct {
	Turns       uint64 // turns applied (re-applied ones after a restore count again)
	BadCommands uint64 // commands that did not decode and were skipped by every peer
	Restores    uint64
	BotCommands uint64
}

// Sentinel errors for callers that branch on them.
var (
	ErrNotLoaded = errors.New("match: no game loaded")
	ErrTurnGap   = errors.New("match: turn out of order")
)

// New returns a match with no game yet; it loads on the session's EvLoad.
func New(opt Options) *Match {
	m := &Match{opt: opt}
	for i := range m.slots {
		m.slots[i] = -1
	}
	return m
}

// Loaded reports whether a game is loaded.
func (m *Match) Loaded() bool { return m.world != nil }

// CheckStart says whether the game takes a lobby's configuration (at most
// game.MaxPlayers players). Hosts call it before session.Node.Start, which
// keeps the session's own rule: two sides, every human ready.
func CheckStart(l session.Lobby) error {
	_, _, err := Config(l)
	return err
}

// Config derives the game config from a lobby: the slots holding a human or a
// bot become players in slot order. Players of team 0 ("no team") each get a
// team of their own; lobby teams 1..8 are shared.
func Config(l session.Lobby) (game.Config, []int, error) {
	cfg := game.Config{Seed: l.MapSeed, Width: int(l.MapSize), Height: int(l.MapSize)}
	var players []int
	used := [game.MaxPlayers + 1]bool{}
	for i, s := range l.Slots {
		if s.HoldsPlayer() {
			players = append(players, i)
			if s.Team > 0 && int(s.Team) <= game.MaxPlayers {
				used[s.Team] = true
			}
		}
	}
	if len(players) > game.MaxPlayers {
		return cfg, nil, fmt.Errorf("match: the lobby has %d players; a game takes at most %d", len(players), game.MaxPlayers)
	}
	// Lobby team t (1..8) is game team t-1; solo players take the free ones.
	free := 0
	for _, slot := range players {
		t := l.Slots[slot].Team
		if t == 0 || int(t) > game.MaxPlayers {
			for used[free+1] {
				free++
			}
			used[free+1] = true
			t = uint8(free + 1)
		}
		cfg.Players = append(cfg.Players, game.PlayerConfig{Team: game.Team(t - 1), Bot: l.Slots[slot].Kind == session.SlotBot})
	}
	return cfg, players, nil
}

// Load starts the game of lobby at turn 0. A lobby that resumes a save
// (Resume > 0) loads no world: the saved state comes as the session's
// Restore right after (Apply handles both in one Ready).
func (m *Match) Load(l session.Lobby) error {
	cfg, players, err := Config(l)
	if err != nil {
		return err
	}
	m.recLate = m.opt.Replay != nil && l.State >= session.StatePlaying
	if l.Resume > 0 {
		m.limit = l.TurnLimit
		m.setPlayers(l, players)
		m.recRes = m.opt.Replay != nil && l.State < session.StatePlaying
		return nil
	}
	w, err := game.NewWorld(cfg)
	if err != nil {
		return fmt.Errorf("match: %w", err)
	}
	m.world = w
	m.limit = l.TurnLimit
	m.changed()
	m.setPlayers(l, players)
	if m.opt.Replay != nil && l.State < session.StatePlaying {
		m.rec, err = withRules(replay.NewWriter(m.opt.Replay, l))
		m.replayFailed(err)
	}
	return nil
}

func (m *Match) setPlayers(l session.Lobby, players []int) {
	m.lobby = l.Clone()
	m.players = players
	for i := range m.slots {
		m.slots[i] = -1
	}
	for p, slot := range players {
		m.slots[slot] = int8(p)
	}
	m.bots = [session.MaxSlots]*ai.Bot{}
}

// Player returns the game player of a lobby slot.
func (m *Match) Player(slot int) (game.PlayerID, bool) {
	if slot < 0 || slot >= len(m.slots) || m.slots[slot] < 0 {
		return 0, false
	}
	return game.PlayerID(m.slots[slot]), true
}

// Slot returns the lobby slot of a game player, or -1.
func (m *Match) Slot(p game.PlayerID) int {
	if int(p) >= len(m.players) {
		return -1
	}
	return m.players[p]
}

// Lobby returns the lobby the game started from.
func (m *Match) Lobby() session.Lobby { return m.lobby.Clone() }

// View calls fn with the latest published copy of the world, which no turn
// changes while fn runs; fn must only read it, and may take its time: the
// owner goes on stepping its own world meanwhile. It reports whether there
// was a world to show (none before the game loads). Safe from any goroutine.
func (m *Match) View(fn func(w *game.World)) bool {
	m.vmu.RLock()
	defer m.vmu.RUnlock()
	if m.view == nil {
		return false
	}
	fn(m.view)
	return true
}

// World is the owner's world (nil before the game loads): for the owner
// goroutine only, between two Applies.
func (m *Match) World() *game.World { return m.world }

// Publish brings View's copy up to date when the world changed since the
// last copy and no reader holds it now; otherwise it leaves that for a later
// call. Apply publishes; an owner also calls it on its clock, so a copy a
// reader held back is published soon after.
func (m *Match) Publish() {
	if !m.stale || m.world == nil || !m.vmu.TryLock() {
		return
	}
	if m.view == nil {
		m.view = new(game.World)
	}
	m.world.CopyTo(m.view)
	m.vmu.Unlock()
	m.stale = false
}

// changed notes that the owner's world changed (owner only).
func (m *Match) changed() {
	m.stale = true
	m.over.Store(m.ended())
}

// Stats returns the counters. Safe from any goroutine.
func (m *Match) Stats() Stats {
	m.smu.Lock()
	defer m.smu.Unlock()
	return m.stats
}

// ended reports whether the game is over: a team won (or nobody is left), or
// the lobby's turn limit is reached. Every peer applies the same turns, so
// every peer ends at the same turn with the same state.
func (m *Match) ended() bool {
	return m.world != nil && (m.world.Over() || m.limit > 0 && uint64(m.world.Turn()) >= m.limit)
}

// Over reports whether the game has ended (victory, draw or turn limit); the
// turns the session closes after that change nothing. Safe from any goroutine.
func (m *Match) Over() bool { return m.over.Load() }
