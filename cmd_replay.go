package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"hostfall/app"
	"hostfall/cli"
	"hostfall/client/playback"
	"hostfall/datadir"
	"hostfall/match"
	"hostfall/status"
)

func runReplay(ctx context.Context, args []string) error {
	var w app.Window
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	cli.AddWindow(fs, &w)
	headless := fs.Bool("headless", false, "no window")
	verify := fs.Bool("verify", false, "replay every turn and check every recorded state hash (with --headless)")
	asJSON := fs.Bool("status-json", false, "with --verify: print one JSON object a line on stdout (progress, then the result)")
	follow := fs.Int("follow", 0, "follow this player (1 is the first) with their fog of war; 0 shows every player")
	speed := fs.Float64("speed", 1, "playback speed, 0.25 to 8 (1 is the recorded rate)")
	if err := cli.ParseOperands(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return cli.Usagef("name one replay file (they are saved in %s)", datadir.Replays())
	}
	path := fs.Arg(0)
	switch {
	case *headless && !*verify:
		return cli.Usagef("with --headless, say --verify")
	case *headless:
		return app.VerifyReplay(ctx, path, &status.Line{JSON: *asJSON, Out: os.Stdout, Human: os.Stderr}, os.Stdout)
	case *asJSON:
		return cli.Usagef("--status-json goes with --headless --verify")
	case *speed < playback.MinSpeed || *speed > playback.MaxSpeed:
		return cli.Usagef("--speed %v is not between %v and %v", *speed, playback.MinSpeed, playback.MaxSpeed)
	}
	return playBack(ctx, w, path, *follow, *speed)
}

// playBack opens the window on the replay at path.
func playBack(ctx context.Context, w app.Window, path string, follow int, speed float64) error {
	if err := app.CheckWindow(); err != nil {
		return err
	}
	r, err := playback.ReadFile(path)
	if err != nil {
		return err
	}
	if _, players, err := match.Config(r.Lobby); err == nil && (follow < 0 || follow > len(players)) {
		return cli.Usagef("--follow %d: the game of this replay has players 1 to %d (0 shows them all)", follow, len(players))
	}
	c, err := playback.New(r, playback.Options{Follow: follow})
	if err != nil {
		return fmt.Errorf("%s cannot be played back: %w", path, err)
	}
	defer c.Close()
	c.SetSpeed(speed)
	return app.OpenWindow(ctx, c, w)
}
