package app

import (
	"context"
	"io"

	"hostfall/game/ai"
	"hostfall/status"
)

// Sim plays m, b's bots offline, until a team wins or b.Turns run out,
// printing what `sim` prints. With asJSON: a turn line every 20 turns and
// the end line on out. Otherwise: a progress line every 1,000 turns on
// progress (nil: none), then the result on out.
func (b BotMatch) Sim(ctx context.Context, m *ai.Match, asJSON bool, out, progress io.Writer) error {
	line := &status.Line{JSON: true, Out: out}
	w := m.World
	err := playBots(ctx, m, b.Turns, func() {
		switch t := w.Turn(); {
		case asJSON && t%20 == 0:
			line.Turn(uint64(t), 0, "local", w.Hash())
		case !asJSON && progress != nil && t%1000 == 0:
			status.SimProgress(progress, t, b.Turns, w.Time())
		}
	})
	if err != nil {
		return err
	}
	status.SimEnd(out, m, asJSON)
	return nil
}

// armiesEvery is how many turns apart `play --headless` prints the army
// sizes: five minutes of game time.
const armiesEvery = 6000

// Watch plays m as Sim does and prints what `play --headless` prints on
// out: what is played, the players' army sizes every five minutes of game
// time and at the end the result, a table of each player's game and the
// map in text.
func (b BotMatch) Watch(ctx context.Context, m *ai.Match, out io.Writer) error {
	status.BotsPlaying(out, m, b.Seed)
	err := playBots(ctx, m, b.Turns, func() {
		if m.World.Turn()%armiesEvery == 0 {
			status.Armies(out, m.World)
		}
	})
	if err != nil {
		return err
	}
	status.BotSummary(out, m)
	return nil
}

// playBots runs m until a team wins or turns run out, calling after once
// each turn is played.
func playBots(ctx context.Context, m *ai.Match, turns int, after func()) error {
	w := m.World
	for w.Turn() < turns && !w.Over() {
		if err := ctx.Err(); err != nil {
			return err
		}
		if _, err := m.Turn(); err != nil {
			return err
		}
		after()
	}
	return nil
}
