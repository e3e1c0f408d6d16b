package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"

	"hostfall/match"
	"hostfall/session/replay"
)

func init() {
	register(command{
		name:    "replay",
		summary: "play back a replay file, or check it with --headless --verify",
		run:     runReplay,
	})
}

func runReplay(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	headless := fs.Bool("headless", false, "no window")
	verify := fs.Bool("verify", false, "replay every turn and check every recorded state hash (with --headless)")
	addVerbose(fs)
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
	if !*headless {
		return fmt.Errorf("%w: the replay viewer is not built yet; check a replay with --headless --verify", errUsage)
	}
	if !*verify {
		return fmt.Errorf("%w: with --headless, say --verify", errUsage)
	}
	return verifyReplay(ctx, path)
}

func verifyReplay(ctx context.Context, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	r, err := replay.Read(f)
	if err != nil {
		return fmt.Errorf("%s cannot be played back: %w", path, err)
	}
	total := len(r.Turns)
	turns, checked, err := match.Verify(r, func(turn uint64) {
		if turn%2000 == 0 {
			fmt.Fprintf(os.Stderr, "turn %d/%d\n", turn, total)
		}
	})
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	fmt.Printf("%s: %d turns replayed, %d state hashes match the recording\n", path, turns, checked)
	return nil
}
