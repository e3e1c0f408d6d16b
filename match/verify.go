package match

import (
	"errors"
	"fmt"

	"hostfall/game"
	"hostfall/session"
	"hostfall/session/replay"
)

// ErrReplayMismatch is returned when a replayed game's state differs from the
// hash its recording peer reported.
var ErrReplayMismatch = errors.New("replay does not reproduce the recorded game")

// Verify plays a replay back from its lobby and checks every recorded hash.
// progress, if set, is called after every turn. It returns the number of
// turns played and the number of hashes checked.
func Verify(r *replay.Replay, progress func(turn uint64)) (turns, checked int, err error) {
	m, err := Replay(r)
	if err != nil {
		return 0, 0, err
	}
	want := map[uint64]uint64{}
	for _, h := range r.Hashes { // a later report of a turn corrects an earlier one
		want[h.Turn] = h.Hash
	}
	var n nopNode
	for _, t := range r.Turns {
		t.WantHash = false
		if err := m.applyTurn(t, n); err != nil {
			return turns, checked, fmt.Errorf("replay turn %d: %w", t.Number, err)
		}
		turns++
		if h, ok := want[t.Number]; ok {
			if got := m.world.Hash(); got != h {
				return turns, checked, fmt.Errorf("%w: after turn %d the state hash is %016x, the recording says %016x",
					ErrReplayMismatch, t.Number, got, h)
			}
			checked++
		}
		if progress != nil {
			progress(t.Number)
		}
	}
	return turns, checked, nil
}

// ErrReplayRules is returned for a replay of a game played under other game
// rules than this build's: its turns would make another game.
var ErrReplayRules = errors.New("replay is of other game rules")

// withRules records this build's game rules in a replay just started.
func withRules(rw *replay.Writer, err error) (*replay.Writer, error) {
	if err != nil {
		return rw, err
	}
	return rw, rw.WriteRules(game.RulesVersion)
}

// checkRules refuses a replay of other rules with a sentence that says so.
func checkRules(r *replay.Replay) error {
	switch {
	case r.Rules == game.RulesVersion:
		return nil
	case r.Rules == 0 || r.Rules < game.RulesVersion:
		return fmt.Errorf("%w: it was recorded by an older Hostfall (game rules %d; this one plays rules %d) and cannot be played back by this one",
			ErrReplayRules, r.Rules, game.RulesVersion)
	}
	return fmt.Errorf("%w: it was recorded by a newer Hostfall (game rules %d; this one plays rules %d); update Hostfall to play it back",
		ErrReplayRules, r.Rules, game.RulesVersion)
}

// Replay returns a match loaded from a replay's lobby (and, for a resumed
// game, its start state), for playing it back turn by turn with Step (the
// window's replay viewer). A replay of other game rules is refused.
func Replay(r *replay.Replay) (*Match, error) {
	if err := checkRules(r); err != nil {
		return nil, err
	}
	m := New(Options{})
	if err := m.Load(r.Lobby); err != nil {
		return nil, fmt.Errorf("replay lobby: %w", err)
	}
	switch {
	case r.Start != nil:
		if err := m.Restore(r.Start.Data); err != nil {
			return nil, fmt.Errorf("replay start state: %w", err)
		}
		if got := uint64(m.world.Turn()); got != r.Start.Turn {
			return nil, fmt.Errorf("replay start state: it is the state of turn %d, the file says turn %d", got, r.Start.Turn)
		}
	case r.Lobby.Resume > 0:
		return nil, fmt.Errorf("replay lobby: it resumes a saved game after turn %d, but the file has no start state", r.Lobby.Resume)
	}
	m.Publish()
	return m, nil
}

// Step applies one recorded turn (replay playback; no session involved).
func (m *Match) Step(t session.Turn) error {
	t.WantHash = false
	return m.applyTurn(t, nopNode{})
}

// nopNode stands in for the session where there is none (replays).
type nopNode struct{}

func (nopNode) Loaded()                       {}
func (nopNode) ReportHash(uint64, uint64)     {}
func (nopNode) Snapshot(uint64, []byte) error { return nil }
func (nopNode) Propose(int, []byte) error     { return nil }
