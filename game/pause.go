package game

import "fmt"

// Pausing. A pause is a command like any other, so every peer pauses at the
// same turn and a replay pauses where the game did. While the game is
// paused, turns keep coming (the session stays live: pings, chat, away and
// back, host changes) and Step still counts them (Turn), but nothing in the
// world moves: no unit, no production, no research, and the game clock
// (Time, which ScoreTurn counts) stands still. Only pause, resume and
// surrender commands are taken meanwhile; any other is refused with
// RejPaused.
//
// Who may do what:
//   - Any player still in the game, but no bot, may pause: PausesPerPlayer
//     times a game when two or more people play; as often as they like in
//     a game of one person against bots.
//   - The player who paused, or the host (Command.Host), may resume; when
//     the pauser is out of the game, any player may. A resume starts a
//     countdown of ResumeTurns turns, after which the world moves again.
//   - A pause during the countdown stops it and counts as a pause.

const (
	// PausesPerPlayer is how often each player may pause a game that two
	// or more people play.
	PausesPerPlayer = 3
	// ResumeTurns is the resume countdown: 3 s at the normal game speed.
	ResumeTurns = 60
)

// pauseState is the world's pause: part of its hash and snapshot. While
// the game runs it is the zero value.
type pauseState struct {
	on      bool
	by      PlayerID // who paused
	resumer PlayerID // who started the countdown; NoPlayer when none
	count   int32    // countdown turns left; 0 while none runs
}

func (ps pauseState) String() string {
	switch {
	case !ps.on:
		return "off"
	case ps.count > 0:
		return fmt.Sprintf("by player %d, resumed by player %d, %d turns to go", ps.by, ps.resumer, ps.count)
	}
	return fmt.Sprintf("by player %d", ps.by)
}

// Pause describes the game's pause for the screens.
type Pause struct {
	Paused    bool     // the world stands still (the countdown included)
	By        PlayerID // who paused
	ResumedBy PlayerID // who started the countdown, NoPlayer while none runs
	Countdown int      // turns until the world moves again; 0: no countdown
}

// Paused returns the game's pause.
func (w *World) Paused() Pause {
	if !w.pause.on {
		return Pause{By: NoPlayer, ResumedBy: NoPlayer}
	}
	return Pause{Paused: true, By: w.pause.by, ResumedBy: w.pause.resumer, Countdown: int(w.pause.count)}
}

// Time returns the game time in ticks: the turns the world moved, which
// stop while the game is paused. ClockRate ticks are a second of the
// clock the players see.
func (w *World) Time() int { return int(w.clock) }

// ClockRate is how many ticks of Time make a second of the game clock.
const ClockRate = 20

// PauseLimited reports whether pauses are counted: in a game two or more
// people play. Alone against bots, a player pauses at will.
func (w *World) PauseLimited() bool {
	humans := 0
	for _, pc := range w.cfg.Players {
		if !pc.Bot {
			humans++
		}
	}
	return humans > 1
}

// PausesLeft returns how often player p may still pause; -1 means no limit.
func (w *World) PausesLeft(p PlayerID) int {
	if int(p) >= w.np || w.cfg.Players[p].Bot || w.pl[p].out {
		return 0
	}
	if !w.PauseLimited() {
		return -1
	}
	return PausesPerPlayer - int(w.pl[p].pauses)
}

// MayResume reports whether player p (host: p hosts the game) may resume
// the game now.
func (w *World) MayResume(p PlayerID, host bool) bool {
	return w.canResume(p, host) == ReasonNone
}

func (w *World) canResume(p PlayerID, host bool) Reason {
	switch {
	case int(p) >= w.np:
		return RejUnknownPlayer
	case !w.pause.on:
		return RejNotPaused
	case w.pause.count > 0:
		return RejResuming
	case p != w.pause.by && !host && !w.pl[w.pause.by].out:
		return RejNotResumer
	}
	return ReasonNone
}

// pausedCommand reports whether command kind k is taken while paused.
func pausedCommand(k CommandKind) bool {
	return k == CmdPause || k == CmdResume || k == CmdSurrender
}

func (w *World) cmdPause(c *Command) Reason {
	p := c.Player
	switch {
	case w.cfg.Players[p].Bot:
		return RejBotPause
	case w.pause.on && w.pause.count == 0:
		return RejAlreadyPaused
	case w.PausesLeft(p) == 0:
		return RejNoPauses
	}
	if w.PauseLimited() {
		w.pl[p].pauses++
	}
	w.pause = pauseState{on: true, by: p, resumer: NoPlayer}
	w.emit(Event{Kind: EvPaused, Player: p, Other: NoPlayer, Count: int32(w.PausesLeft(p))})
	return ReasonNone
}

func (w *World) cmdResume(c *Command) Reason {
	if r := w.canResume(c.Player, c.Host); r != ReasonNone {
		return r
	}
	w.pause.resumer = c.Player
	w.pause.count = ResumeTurns
	w.emit(Event{Kind: EvResuming, Player: c.Player, Other: w.pause.by, Count: ResumeTurns})
	return ReasonNone
}

// pausedStep ends a Step while the game is paused: the countdown runs, and
// a surrender may still end the game. It reports false once the countdown
// is over; that Step then moves the world.
func (w *World) pausedStep() bool {
	if w.pause.count > 0 {
		w.pause.count--
		if w.pause.count == 0 {
			w.emit(Event{Kind: EvResumed, Player: w.pause.resumer, Other: w.pause.by})
			w.pause = pauseState{}
			return false
		}
	}
	w.checkPlayers()
	w.turn++
	if w.over {
		w.pause = pauseState{}
	}
	return true
}

// checkPause refuses a restored pause that play could not have made.
func (w *World) checkPause() error {
	ps := &w.pause
	for p := range w.np {
		if w.pl[p].pauses > PausesPerPlayer {
			return snapErr("player %d used %d pauses; a game allows %d", p, w.pl[p].pauses, PausesPerPlayer)
		}
	}
	switch {
	case !ps.on && *ps != pauseState{}:
		return snapErr("a pause that is off has a pauser or a countdown")
	case ps.on && int(ps.by) >= w.np:
		return snapErr("the game is paused by player %d of %d", ps.by, w.np)
	case ps.on && (ps.count > 0) != (int(ps.resumer) < w.np):
		return snapErr("the resume countdown (%d turns) and its player (%d) disagree", ps.count, ps.resumer)
	case ps.on && ps.count == 0 && ps.resumer != NoPlayer:
		return snapErr("no countdown runs but player %d resumed", ps.resumer)
	}
	return nil
}
