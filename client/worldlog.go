package client

import "hostfall/game"

// maxWorldEvents bounds a WorldLog, for a window that does not drain it.
const maxWorldEvents = 8192

// WorldLog keeps the world's events of every turn a client applies until
// the screens drain them (Client.WorldEvents: World.Events holds only the
// last turn's). The oldest are dropped past a bound. The client guards it.
type WorldLog struct{ evs []game.Event }

// Add appends a turn's events.
func (l *WorldLog) Add(evs []game.Event) {
	l.evs = append(l.evs, evs...)
	if over := len(l.evs) - maxWorldEvents; over > 0 {
		l.evs = l.evs[over:]
	}
}

// Drain appends the events kept to dst and forgets them.
func (l *WorldLog) Drain(dst []game.Event) []game.Event {
	dst = append(dst, l.evs...)
	l.Reset()
	return dst
}

// Reset forgets the events kept.
func (l *WorldLog) Reset() { l.evs = l.evs[:0] }
