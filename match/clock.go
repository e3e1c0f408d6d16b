package match

import (
	"fmt"

	"hostfall/game"
	"hostfall/session"
	"hostfall/session/replay"
)

// ReplayTime returns the game time at the end of replay r, in ticks
// (game.World.Time: the clock of the top bar, which stood still while the
// game was paused), without playing the game: playing a long replay takes
// seconds, too long for a list of files. It follows the turns' pause,
// resume and surrender commands and their departures by the rules of
// game/pause.go (TestReplayTimeIsTheGameClock holds the two together). A
// player put out by the fighting is not seen; such a player can no longer
// pause (the window offers it no pause), so the time differs only for a
// forged command.
func ReplayTime(r *replay.Replay) (int, error) {
	cfg, slots, err := Config(r.Lobby)
	if err != nil {
		return 0, err
	}
	pc := newPauseClock(cfg)
	if r.Start != nil {
		if err := pc.restore(r.Start.Data); err != nil {
			return 0, err
		}
	}
	player := make(map[int]game.PlayerID, len(slots))
	for p, s := range slots {
		player[s] = game.PlayerID(p)
	}
	for _, t := range r.Turns {
		host := session.EpochSlot(t.Epoch)
		for _, c := range t.Commands {
			p, ok := player[c.Slot]
			if !ok {
				continue
			}
			if cmd, err := game.DecodeCommand(p, c.Data); err == nil {
				pc.apply(cmd.Kind, p, c.Slot == host)
			}
		}
		for _, d := range t.Departures {
			if p, ok := player[d.Slot]; ok {
				pc.apply(game.CmdSurrender, p, false)
			}
		}
		pc.step()
	}
	return pc.clock, nil
}

// pauseClock is the part of a world that the game clock depends on.
type pauseClock struct {
	clock   int
	limited bool // pauses are counted: two or more people play
	bot     []bool
	out     []bool
	pauses  []int         // pauses used
	on      bool          // paused
	by      game.PlayerID // who paused
	count   int           // resume countdown turns left; 0: none
}

func newPauseClock(cfg game.Config) *pauseClock {
	n := len(cfg.Players)
	pc := &pauseClock{bot: make([]bool, n), out: make([]bool, n), pauses: make([]int, n)}
	humans := 0
	for i, p := range cfg.Players {
		pc.bot[i] = p.Bot
		if !p.Bot {
			humans++
		}
	}
	pc.limited = humans > 1
	return pc
}

// restore takes the clock, the pause and who is out from a saved state.
func (pc *pauseClock) restore(state []byte) error {
	_, rest, err := parseHeader(state)
	if err != nil {
		return err
	}
	var w game.World
	if err := w.Restore(rest); err != nil {
		return fmt.Errorf("%w: %w", ErrBadSnapshot, err)
	}
	pc.clock = w.Time()
	ps := w.Paused()
	pc.on, pc.by, pc.count = ps.Paused, ps.By, ps.Countdown
	for p := range pc.out {
		id := game.PlayerID(p)
		pc.out[p] = w.Player(id).Out
		if left := w.PausesLeft(id); pc.limited && !pc.bot[p] && !pc.out[p] {
			pc.pauses[p] = game.PausesPerPlayer - left
		}
	}
	return nil
}

// apply is game.World's apply for the commands that touch the clock.
func (pc *pauseClock) apply(k game.CommandKind, p game.PlayerID, host bool) {
	if int(p) >= len(pc.out) || pc.out[p] {
		return
	}
	switch k {
	case game.CmdSurrender:
		pc.out[p] = true
	case game.CmdPause:
		if pc.bot[p] || (pc.on && pc.count == 0) || (pc.limited && pc.pauses[p] >= game.PausesPerPlayer) {
			return
		}
		if pc.limited {
			pc.pauses[p]++
		}
		pc.on, pc.by, pc.count = true, p, 0
	case game.CmdResume:
		if !pc.on || pc.count > 0 || (p != pc.by && !host && !pc.out[pc.by]) {
			return
		}
		pc.count = game.ResumeTurns
	}
}

// step is game.World.Step's clock: it stands still while paused, and the
// turn whose countdown ends moves again.
func (pc *pauseClock) step() {
	if pc.on {
		if pc.count == 0 {
			return
		}
		if pc.count--; pc.count > 0 {
			return
		}
		pc.on = false
	}
	pc.clock++
}
