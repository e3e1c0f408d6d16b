package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"

	"hostfall/client/playback"
	"hostfall/match"
	"hostfall/render"
	"hostfall/status"
)

func init() {
	register(command{
		name:    "replay",
		summary: "play back a replay file in the window, or check it with --headless --verify",
		run:     runReplay,
	})
}

// replayFlags are replay's flags beyond the window's.
type replayFlags struct {
	headless, verify, json bool
	follow                 int
	speed                  float64
}

func runReplay(ctx context.Context, args []string) error {
	var w windowFlags
	var rf replayFlags
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	w.add(fs)
	fs.BoolVar(&rf.headless, "headless", false, "no window")
	fs.BoolVar(&rf.verify, "verify", false, "replay every turn and check every recorded state hash (with --headless)")
	fs.BoolVar(&rf.json, "status-json", false, "with --verify: print one JSON object a line on stdout (progress, then the result)")
	fs.IntVar(&rf.follow, "follow", 0, "follow this player (1 is the first) with their fog of war; 0 shows every player")
	fs.Float64Var(&rf.speed, "speed", 1, "playback speed, 0.25 to 8 (1 is the recorded rate)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if fs.NArg() != 1 {
		return fmt.Errorf("%w: name one replay file (they are saved in %s)", errUsage, replayDir())
	}
	path := fs.Arg(0)
	switch {
	case rf.headless && !rf.verify:
		return fmt.Errorf("%w: with --headless, say --verify", errUsage)
	case rf.headless:
		line := &status.Line{JSON: rf.json, Out: os.Stdout, Human: os.Stderr}
		return status.VerifyReplay(ctx, path, line, os.Stdout)
	case rf.json:
		return fmt.Errorf("%w: --status-json goes with --headless --verify", errUsage)
	case rf.speed < playback.MinSpeed || rf.speed > playback.MaxSpeed:
		return fmt.Errorf("%w: --speed %v is not between %v and %v", errUsage, rf.speed, playback.MinSpeed, playback.MaxSpeed)
	}
	if err := render.CheckDisplay(); err != nil {
		return err
	}
	r, err := playback.ReadFile(path)
	if err != nil {
		return err
	}
	if _, players, err := match.Config(r.Lobby); err == nil && (rf.follow < 0 || rf.follow > len(players)) {
		return fmt.Errorf("%w: --follow %d: the game of this replay has players 1 to %d (0 shows them all)", errUsage, rf.follow, len(players))
	}
	c, err := playback.New(r, playback.Options{Follow: rf.follow})
	if err != nil {
		return fmt.Errorf("%s cannot be played back: %w", path, err)
	}
	defer c.Close()
	c.SetSpeed(rf.speed)
	return openWindow(ctx, c, w)
}
