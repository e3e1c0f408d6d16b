package main

import (
	"context"
	"errors"
	"flag"
	"os"

	"hostfall/app"
	"hostfall/cli"
	"hostfall/game"
	"hostfall/game/ai"
)

func runSim(ctx context.Context, args []string) error {
	m, b, asJSON, err := parseSim("sim", args)
	if err != nil {
		return err
	}
	done, err := b.RecordFile(m)
	if err != nil {
		return err
	}
	err = b.Sim(ctx, m, asJSON, os.Stdout, os.Stderr)
	return errors.Join(err, done(asJSON))
}

// parseSim reads the command line of sim, and of play --headless: the bot
// match, set up, its settings, and whether to print JSON.
func parseSim(name string, args []string) (m *ai.Match, b app.BotMatch, asJSON bool, err error) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.IntVar(&b.Players, "players", 4, "number of bots, 2 to 8")
	fs.Uint64Var(&b.Seed, "seed", 7, "map and bot seed")
	fs.IntVar(&b.Turns, "turns", game.ScoreTurn, "stop after this many turns (20 a second) if nobody has won; the game itself ends on score at the default")
	fs.IntVar(&b.Size, "size", game.DefaultMapSize, "map width and height in tiles")
	fs.IntVar(&b.Size, "map-size", game.DefaultMapSize, "the same as --size")
	fs.StringVar(&b.Replay, "replay", "", "write the game's replay to this file (watch it with hostfall replay FILE)")
	levels := fs.String("levels", "hard", "bot levels by player, comma separated (easy, normal, hard); the last repeats")
	teams := fs.String("teams", "", "team of each player, comma separated (default: every player alone)")
	fs.BoolVar(&asJSON, "status-json", false, "print one JSON object a line (the operating contract)")
	cli.AddVerbose(fs)
	if err = cli.Parse(fs, args); err != nil {
		return nil, b, asJSON, err
	}
	if b.Turns < 1 {
		return nil, b, asJSON, cli.Usagef("--turns must be at least 1")
	}
	if b.Levels, err = ai.ParseLevels(*levels); err != nil {
		return nil, b, asJSON, cli.Usagef("%v", err)
	}
	if b.Teams, err = cli.Teams(*teams, b.Players); err != nil {
		return nil, b, asJSON, err
	}
	if m, err = b.Match(); err != nil {
		return nil, b, asJSON, cli.Usagef("%v", err)
	}
	return m, b, asJSON, nil
}
