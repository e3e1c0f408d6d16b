package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"hostfall/client/playback"
	"hostfall/match"
	"hostfall/render"
	"hostfall/session/replay"
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
		return verifyReplay(ctx, path, line, os.Stdout)
	case rf.json:
		return fmt.Errorf("%w: --status-json goes with --headless --verify", errUsage)
	case rf.speed < playback.MinSpeed || rf.speed > playback.MaxSpeed:
		return fmt.Errorf("%w: --speed %v is not between %v and %v", errUsage, rf.speed, playback.MinSpeed, playback.MaxSpeed)
	}
	if err := render.CheckDisplay(); err != nil {
		return err
	}
	r, err := readReplay(path)
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

// readReplay reads a whole replay file; a damaged one is refused in words.
func readReplay(path string) (*replay.Replay, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r, err := replay.Read(f)
	if err != nil {
		return nil, fmt.Errorf("%s cannot be played back: %w", path, err)
	}
	return r, nil
}

// verifyEvery is how many turns apart verify reports progress.
const verifyEvery = 2000

// verifyReplay plays a replay back without a window and checks every
// recorded state hash. Progress and the result go to line (JSON lines
// with --status-json: "progress" every verifyEvery turns, then one "end"
// with "ok" and a "result" of ok, mismatch or damaged); the summary of a
// good replay goes to out.
func verifyReplay(ctx context.Context, path string, line *status.Line, out io.Writer) error {
	r, err := readReplay(path)
	if err != nil {
		line.Emit("end", "", status.KV("ok", false), status.KV("result", "damaged"), status.KV("error", err.Error()))
		return err
	}
	total := len(r.Turns)
	var last uint64
	if total > 0 {
		last = r.Turns[total-1].Number
	}
	turns, checked, err := match.Verify(r, func(turn uint64) {
		if turn%verifyEvery == 0 {
			line.Emit("progress", fmt.Sprintf("turn %d/%d", turn, last), status.KV("turn", turn), status.KV("turns", last))
		}
	})
	if err != nil {
		result := "damaged"
		if errors.Is(err, match.ErrReplayMismatch) {
			result = "mismatch"
		}
		var at uint64
		if turns > 0 {
			at = r.Turns[turns-1].Number
		}
		line.Emit("end", "", status.KV("ok", false), status.KV("result", result), status.KV("turn", at), status.KV("checked", checked), status.KV("error", err.Error()))
		return fmt.Errorf("%s: %w", path, err)
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	line.Emit("end", "", status.KV("ok", true), status.KV("result", "ok"), status.KV("turn", last), status.KV("turns", turns), status.KV("checked", checked))
	if !line.JSON {
		fmt.Fprintf(out, "%s: %d turns replayed, %d state hashes match the recording\n", path, turns, checked)
	}
	return nil
}
