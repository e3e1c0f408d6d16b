// Package ai has the bots of Hostfall. A bot plays one player's slot by
// issuing the same game.Commands a person would. It is deterministic: the
// same world and the same seed give the same commands. It draws random
// numbers only from its own generator, never from the world's, and it looks
// only at what its player may see (its own units, enemies in its vision,
// buildings it saw before, and the public start positions).
//
// Call Think once a turn, before the world steps; it returns the commands for
// that turn (usually none: a bot decides every few turns).
//
// Three levels: easy (a first opponent: a small army, no attack before six
// minutes), normal and hard. Every level uses what a player has: normal
// and hard build towers and a workshop, train catapults and research
// upgrades; easy builds a tower. What sets hard above normal is how it
// spends, not more gold: it keeps its supply ahead of its army (two
// buildings at once, gold saved for the one it needs), researches from the
// start at two workshops (both upgrades at once), and trains two soldiers
// for every archer, the mix that won every fight of equal gold in a test
// of the mixes (normal trains one for one). A bot whose income has stopped for a
// minute (its gold fields mined out) and that cannot pay for more fighters
// attacks with everything it has, and with its workers once the army is
// gone, so games between bots end rather than stall; an army that knows of
// no enemy building wanders the map until it finds one.
package ai

import (
	"fmt"
	"strings"

	"hostfall/game"
)

// Level is how well a bot plays. Levels are ordered from weakest to
// strongest; a lobby stores a slot's level as this number.
type Level uint8

const (
	Easy   Level = iota // slow, small, soldier-only waves, no attack before 6 minutes: a first game
	Normal              // a fair economy, mixed army with catapults, a tower, two upgrade levels, defends
	Hard                // quick decisions, supply ahead, early upgrades at two workshops, two soldiers per archer, big waves, towers, defends, expands
	numLevels
)

// Levels lists every level, weakest first.
func Levels() []Level { return []Level{Easy, Normal, Hard} }

// Valid reports whether l is a real level.
func (l Level) Valid() bool { return l < numLevels }

func (l Level) String() string {
	switch l {
	case Easy:
		return "easy"
	case Normal:
		return "normal"
	case Hard:
		return "hard"
	}
	return fmt.Sprintf("level-%d", uint8(l))
}

// ParseLevel reads "easy", "normal" or "hard".
func ParseLevel(s string) (Level, error) {
	for _, l := range Levels() {
		if strings.EqualFold(s, l.String()) {
			return l, nil
		}
	}
	return 0, fmt.Errorf("unknown bot level %q; the levels are easy, normal and hard", s)
}

// Quick is the bots of a quick game, the one `hostfall play` and the lobby
// browser's Quick game start: three easy ones, a first game.
func Quick() []Level { return []Level{Easy, Easy, Easy} }

// FormatLevels writes levels as ParseLevels reads them: "easy,hard".
func FormatLevels(ls []Level) string {
	s := make([]string, len(ls))
	for i, l := range ls {
		s[i] = l.String()
	}
	return strings.Join(s, ",")
}

// ParseLevels reads a comma-separated list of levels ("easy, hard,normal").
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
	period      int // turns between decisions
	workers     int // workers wanted per base
	barracks    int // barracks wanted
	archers     int // trains an archer for every this many soldiers (0: none)
	catapults   int // one catapult for every this many other fighters (0: none)
	towers      int // towers wanted at home
	upgrades    int // highest level of each upgrade it researches
	armyMax     int // trains no more fighters than this
	armyFrom    int // trains no fighters before this turn
	armyGrowth  int // after the first attack armyMax grows by one every this many turns (0: never)
	firstAttack int // no attack before this turn
	firstWave   int // army size of the first attack
	waveGrowth  int // each later attack waits for this many more
	waveMax     int
	defend      bool // answers "under attack" near home
	expand      bool // builds a second base when the gold near home runs low
	queue       int  // units kept queued per building
	supplyAhead int  // builds supply when no more than this is left
	builds      int  // buildings it puts up at once
	workshops   int  // workshops wanted (two research both upgrades at once)
	earlyTech   bool // researches from the start, not only after its first attack
	saves       bool // saves for the building it needs next rather than spend on units
}

var profiles = [numLevels]profile{
	Easy: {period: 60, workers: 6, barracks: 1, towers: 1, armyMax: 6, armyFrom: 2400, armyGrowth: 600, firstAttack: 7200,
		firstWave: 4, waveGrowth: 1, waveMax: 6, queue: 1, supplyAhead: 2, builds: 1, workshops: 0},
	Normal: {period: 30, workers: 9, barracks: 2, archers: 1, catapults: 6, towers: 1, upgrades: 2,
		armyMax: 60, firstAttack: 4800, firstWave: 8, waveGrowth: 3, waveMax: 20, defend: true, expand: true, queue: 1,
		supplyAhead: 2, builds: 1, workshops: 1},
	Hard: {period: 10, workers: 16, barracks: 3, archers: 2, catapults: 6, towers: 2, upgrades: game.MaxUpgradeLevel,
		armyMax: 200, firstWave: 18, waveGrowth: 4, waveMax: 36, defend: true, expand: true, queue: 2,
		supplyAhead: 8, builds: 2, workshops: 2, earlyTech: true, saves: true},
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
	siege    int          // catapults ordered since the last research
	shookAt  int          // turn allIn last sent every unit, busy or not
	mined    int32        // gold mined so far, as of minedAt
	minedAt  int          // last turn the bot saw its mined gold grow

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
// commands for this turn. Call it once per turn, before World.Step. A bot
// does nothing while the game is paused: nothing it could order is taken.
func (b *Bot) Think(w *game.World) []game.Command {
	b.listen(w)
	if w.Over() || w.Player(b.player).Out || w.Paused().Paused {
		return nil
	}
	if (w.Turn()+int(b.player)*7)%b.prof.period != 0 {
		return nil
	}
	b.v.scan(w, b.player)
	b.remember(w)
	b.noteIncome(w)
	var cmds []game.Command
	cmds = b.economy(w, cmds)
	cmds = b.construction(w, cmds)
	cmds = b.research(w, cmds)
	cmds = b.army(w, cmds)
	return cmds
}

// noteIncome remembers when the bot's mined gold last grew.
func (b *Bot) noteIncome(w *game.World) {
	if m := w.Player(b.player).Mined; m != b.mined {
		b.mined, b.minedAt = m, w.Turn()
	}
}

// broke reports whether the bot's income has stopped (a minute without gold
// coming home, past the opening) and it cannot pay for a fighter: from now
// on waiting builds no army, so it attacks with everything it has.
func (b *Bot) broke() bool {
	v := &b.v
	return v.turn > 2400 && v.turn-b.minedAt > 1200 && v.gold < 2*game.Soldier.Stats().Cost
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
