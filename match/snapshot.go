package match

import (
	"errors"
	"fmt"

	"hostfall/game"
	"hostfall/session"
)

// A match snapshot is the slot mapping followed by the game's snapshot:
//
//	"HFm" version(1) n(1) slot[n](1 each) game-snapshot…
//
// so a peer restoring it plays the same players the game started with.
const (
	snapMagic   = "HFm"
	snapVersion = 1
)

// ErrBadSnapshot wraps every reason a snapshot is refused.
var ErrBadSnapshot = errors.New("match: bad snapshot")

// Snapshot returns the match state after the current turn.
func (m *Match) Snapshot() []byte {
	b := make([]byte, 0, 5+len(m.players)+64<<10)
	b = append(b, snapMagic...)
	b = append(b, snapVersion, byte(len(m.players)))
	for _, slot := range m.players {
		b = append(b, byte(slot))
	}
	return m.world.AppendSnapshot(b)
}

// Restore replaces the match state by a snapshot; on error nothing changes.
func (m *Match) Restore(data []byte) error {
	players, rest, err := parseHeader(data)
	if err != nil {
		return err
	}
	w := new(game.World)
	if err := w.Restore(rest); err != nil {
		return fmt.Errorf("%w: %w", ErrBadSnapshot, err)
	}
	if w.NumPlayers() != len(players) {
		return fmt.Errorf("%w: it maps %d slots to a game of %d players", ErrBadSnapshot, len(players), w.NumPlayers())
	}
	m.world = w
	m.changed()
	m.smu.Lock()
	m.stats.Restores++
	m.smu.Unlock()
	lobby := m.lobby
	m.setPlayers(lobby, players)
	return nil
}

func parseHeader(data []byte) ([]int, []byte, error) {
	if len(data) < 5 || string(data[:3]) != snapMagic {
		return nil, nil, fmt.Errorf("%w: it does not start with %q", ErrBadSnapshot, snapMagic)
	}
	if data[3] != snapVersion {
		return nil, nil, fmt.Errorf("%w: version %d; this build reads version %d", ErrBadSnapshot, data[3], snapVersion)
	}
	n := int(data[4])
	if n > game.MaxPlayers || len(data) < 5+n {
		return nil, nil, fmt.Errorf("%w: the slot table is damaged", ErrBadSnapshot)
	}
	players := make([]int, n)
	seen := [session.MaxSlots]bool{}
	for i := range n {
		slot := int(data[5+i])
		if slot >= session.MaxSlots || seen[slot] {
			return nil, nil, fmt.Errorf("%w: the slot table is damaged", ErrBadSnapshot)
		}
		seen[slot] = true
		players[i] = slot
	}
	return players, data[5+n:], nil
}
