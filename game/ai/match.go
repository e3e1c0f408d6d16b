package ai

import (
	"fmt"

	"hostfall/game"
)

// Match plays bots against each other offline: the engine behind
// `hostfall sim` and `hostfall play`, and the harness of the determinism
// tests. Every command goes through its binary encoding and DecodeCommand on
// its way to the world, as it would over the network.
type Match struct {
	World *game.World
	Bots  []*Bot
	// OnTurn, when set, is told every turn's commands after the world
	// stepped with them (to record a replay); cmds is valid during the call.
	OnTurn func(cmds []game.Command) error
	buf    []byte
	cmds   []game.Command
}

// NewMatch makes the world of cfg and one bot per player; levels[i] is the
// level of player i (missing entries repeat the last one, default Hard).
func NewMatch(cfg game.Config, levels []Level, seed uint64) (*Match, error) {
	w, err := game.NewWorld(cfg)
	if err != nil {
		return nil, err
	}
	m := &Match{World: w}
	for p := range w.NumPlayers() {
		l := Hard
		switch {
		case p < len(levels):
			l = levels[p]
		case len(levels) > 0:
			l = levels[len(levels)-1]
		}
		m.Bots = append(m.Bots, New(game.PlayerID(p), l, seed^uint64(p+1)*0x9e3779b97f4a7c15))
	}
	return m, nil
}

// Turn lets every bot think, then steps the world with their commands
// followed by extra. It returns the commands applied, valid until the next
// Turn.
func (m *Match) Turn(extra ...game.Command) ([]game.Command, error) {
	m.cmds = m.cmds[:0]
	for _, b := range m.Bots {
		for _, c := range b.Think(m.World) {
			var err error
			m.buf, err = c.AppendBinary(m.buf[:0])
			if err != nil {
				return nil, fmt.Errorf("bot %d made a command it cannot encode: %w", b.player, err)
			}
			d, err := game.DecodeCommand(b.player, m.buf)
			if err != nil {
				return nil, fmt.Errorf("bot %d: %w", b.player, err)
			}
			m.cmds = append(m.cmds, d)
		}
	}
	m.cmds = append(m.cmds, extra...)
	m.World.Step(m.cmds)
	if m.OnTurn != nil {
		if err := m.OnTurn(m.cmds); err != nil {
			return nil, err
		}
	}
	return m.cmds, nil
}
