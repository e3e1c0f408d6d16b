package match

import (
	"errors"
	"fmt"

	"hostfall/game"
	"hostfall/session"
)

// ErrCannotSave says why a game cannot be saved now.
var ErrCannotSave = errors.New("match: the game cannot be saved")

// SaveState returns the match snapshot a save of turn holds: turn must be
// the turn the world is at (the last turn applied), and the game must still
// be running — a finished game has nothing left to resume.
func (m *Match) SaveState(turn uint64) ([]byte, error) {
	switch {
	case m.world == nil:
		return nil, fmt.Errorf("%w: no game is loaded", ErrCannotSave)
	case m.ended():
		return nil, fmt.Errorf("%w: it is over", ErrCannotSave)
	case uint64(m.world.Turn()) != turn:
		return nil, fmt.Errorf("%w: the world is at turn %d, not %d", ErrCannotSave, m.world.Turn(), turn)
	}
	return m.Snapshot(), nil
}

// CheckSaved loads a saved game's state the way a resumed session will and
// returns the world's hash: it must restore, be the state of the saved
// turn, and map its players to slots of the saved lobby that hold a player.
func CheckSaved(sv session.Saved) (uint64, error) {
	m := New(Options{})
	l := sv.Lobby.Clone()
	l.Resume, l.State = sv.State.Turn, session.StateLoading
	if err := m.Load(l); err != nil {
		return 0, fmt.Errorf("saved lobby: %w", err)
	}
	if err := m.Restore(sv.State.Data); err != nil {
		return 0, fmt.Errorf("saved game state: %w", err)
	}
	if got := uint64(m.world.Turn()); got != sv.State.Turn {
		return 0, fmt.Errorf("saved game state: it is the state of turn %d, the save says turn %d", got, sv.State.Turn)
	}
	for _, slot := range m.players {
		if slot >= len(l.Slots) || !l.Slots[slot].HoldsPlayer() {
			return 0, fmt.Errorf("saved game state: its player of slot %d has no place in the saved lobby", slot)
		}
	}
	return m.world.Hash(), nil
}

// SavedTime returns the game time (game.World.Time, in ticks: the paused
// turns not counted) at which the state of a save was taken.
func SavedTime(state []byte) (int, error) {
	_, rest, err := parseHeader(state)
	if err != nil {
		return 0, err
	}
	var w game.World
	if err := w.Restore(rest); err != nil {
		return 0, fmt.Errorf("%w: %w", ErrBadSnapshot, err)
	}
	return w.Time(), nil
}
