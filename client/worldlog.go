package client

import (
	"sync"

	"hostfall/game"
)

// The logs below are what every client keeps for the screens between two
// frames; each guards itself, so a client's loop adds while the window
// drains.

// maxWorldEvents bounds a WorldLog, for a window that does not drain it.
const maxWorldEvents = 8192

// WorldLog keeps the world's events of every turn a client applies until
// the screens drain them (Client.WorldEvents: World.Events holds only the
// last turn's). The oldest are dropped past a bound.
type WorldLog struct {
	mu  sync.Mutex
	evs []game.Event
}

// Add appends a turn's events.
func (l *WorldLog) Add(evs []game.Event) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.evs = append(l.evs, evs...)
	if over := len(l.evs) - maxWorldEvents; over > 0 {
		l.evs = l.evs[over:]
	}
}

// Drain appends the events kept to dst and forgets them.
func (l *WorldLog) Drain(dst []game.Event) []game.Event {
	l.mu.Lock()
	defer l.mu.Unlock()
	dst = append(dst, l.evs...)
	l.evs = l.evs[:0]
	return dst
}

// Reset forgets the events kept.
func (l *WorldLog) Reset() { l.Drain(nil) }

// maxEvents bounds an EventLog.
const maxEvents = 256

// EventLog keeps the events for the screens (Client.Events) until they
// drain them; the oldest are dropped past a bound.
type EventLog struct {
	mu  sync.Mutex
	evs []Event
}

// Push appends events.
func (l *EventLog) Push(evs ...Event) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.evs = append(l.evs, evs...)
	if over := len(l.evs) - maxEvents; over > 0 {
		l.evs = l.evs[over:]
	}
}

// Drain appends the events kept to dst and forgets them.
func (l *EventLog) Drain(dst []Event) []Event {
	l.mu.Lock()
	defer l.mu.Unlock()
	dst = append(dst, l.evs...)
	l.evs = l.evs[:0]
	return dst
}

// Roster is the game's players and which one is the local player
// (Client.Players, Client.Me).
type Roster struct {
	mu      sync.Mutex
	players []Player
	me      game.PlayerID
	hasMe   bool
}

// Set replaces the roster; hasMe false means a spectator.
func (r *Roster) Set(players []Player, me game.PlayerID, hasMe bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.players, r.me, r.hasMe = append([]Player(nil), players...), me, hasMe
}

// Players returns a copy of the players.
func (r *Roster) Players() []Player {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Player(nil), r.players...)
}

// Me returns the local player, if there is one.
func (r *Roster) Me() (game.PlayerID, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.me, r.hasMe
}
