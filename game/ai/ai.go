// Package ai has the bots of Hostfall. A bot plays one player's slot by
// issuing the same game.Commands a person would. It is deterministic: the
// same world and the same seed give the same commands. It draws random
// numbers only from its own generator, never from the world's, and it looks
// only at what its player may see (its own units, enemies in its vision,
// buildings it saw before, and the public start positions).
//
// Call Think once a turn, before the world steps; it returns the commands for
// that turn (usually none: a bot decides every few turns).
package ai

import (
	"fmt"
	"strings"

	"hostfall/game"
)

// Level is how well a bot plays.
type Level uint8

const (
	Easy Level = iota // slow decisions, few workers, small soldier-only waves
	Hard              // quick decisions, a strong economy, mixed army, big waves, defends
	numLevels
)

func (l Level) String() string {
	switch l {
	case Easy:
		return "easy"
	case Hard:
		return "hard"
	}
	return fmt.Sprintf("level-%d", uint8(l))
}

// ParseLevel reads "easy" or "hard".
func ParseLevel(s string) (Level, error) {
	for l := range numLevels {
		if strings.EqualFold(s, l.String()) {
			return l, nil
		}
	}
	return 0, fmt.Errorf("unknown bot level %q; the levels are easy and hard", s)
}

// ParseLevels reads a comma-separated list of levels ("easy, hard,easy").
func ParseLevels(s string) ([]Level, error) {
	var ls []Level
	for _, f := range strings.Split(s, ",") {
		l, err := ParseLevel(strings.TrimSpace(f))
		if err != nil {
			return nil, err
		}
		ls = append(ls, l)
	}
	return ls, nil
}

// profile holds the numbers that make a level.
type profile struct {
	period     int  // turns between decisions
	workers    int  // workers wanted per base
	barracks   int  // barracks wanted
	archers    bool // trains archers too
	firstWave  int  // army size of the first attack
	waveGrowth int  // each later attack waits for this many more
	waveMax    int
	defend     bool // answers "under attack" near home
	expand     bool // builds a second base
	queue      int  // units kept queued per building
}

var profiles = [numLevels]profile{
	Easy: {period: 40, workers: 7, barracks: 1, firstWave: 5, waveGrowth: 2, waveMax: 12, queue: 1},
	Hard: {period: 10, workers: 16, barracks: 3, archers: true, firstWave: 12, waveGrowth: 4, waveMax: 30,
		defend: true, expand: true, queue: 2},
}

// Bot plays one player.
type Bot struct {
	player game.PlayerID
	level  Level
	prof   profile
	rng    game.RNG

	wave     int          // army size that launches the next attack
	known    []game.Point // enemy buildings seen and not seen destroyed
	alarm    game.Point   // where we were last attacked
	alarmAt  int          // turn of that alarm, -1 for none
	target   game.Point   // current attack target
	attacked bool         // an attack is under way
	peak     int          // largest army since the last attack
	peakAt   int          // turn it was reached

	// Per-think scratch, rebuilt every decision.
	v view
}

// New returns a bot for player at the given level. The seed selects its
// random choices (where to build, which enemy to attack first).
func New(player game.PlayerID, level Level, seed uint64) *Bot {
	if level >= numLevels {
		level = Hard
	}
	return &Bot{
		player:  player,
		level:   level,
		prof:    profiles[level],
		rng:     game.NewRNG(seed, 0xb07+uint64(player)),
		wave:    profiles[level].firstWave,
		alarmAt: -1,
	}
}

// Player returns the slot the bot plays.
func (b *Bot) Player() game.PlayerID { return b.player }

// Level returns the bot's level.
func (b *Bot) Level() Level { return b.level }

// Think looks at the world as the bot's player sees it and returns the
// commands for this turn. Call it once per turn, before World.Step.
func (b *Bot) Think(w *game.World) []game.Command {
	b.listen(w)
	if w.Over() || w.Player(b.player).Out {
		return nil
	}
	if (w.Turn()+int(b.player)*7)%b.prof.period != 0 {
		return nil
	}
	b.v.scan(w, b.player)
	b.remember(w)
	var cmds []game.Command
	cmds = b.economy(w, cmds)
	cmds = b.construction(w, cmds)
	cmds = b.army(w, cmds)
	return cmds
}

// listen notes attacks on our units from the last step's events.
func (b *Bot) listen(w *game.World) {
	for _, ev := range w.Events() {
		if ev.Kind == game.EvUnderAttack && ev.Player == b.player {
			b.alarm, b.alarmAt = ev.Pos, w.Turn()
		}
	}
}

func (b *Bot) cmd(kind game.CommandKind, units []game.UnitID) game.Command {
	return game.Command{Player: b.player, Kind: kind, Units: units}
}
