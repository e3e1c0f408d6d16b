package app

import (
	"context"
	"errors"
	"fmt"
	"io"

	"hostfall/client/playback"
	"hostfall/match"
	"hostfall/status"
)

// verifyEvery is how many turns apart VerifyReplay reports progress.
const verifyEvery = 2000

// VerifyReplay is `replay --headless --verify`: it plays the replay file at
// path back without a window and checks every recorded state hash
// (match.Verify). Progress and the result go to line (JSON lines with
// --status-json: "progress" every 2,000 turns, then one "end" with "ok"
// and a "result" of ok, mismatch or damaged); the summary of a good replay
// goes to out when line is not JSON.
func VerifyReplay(ctx context.Context, path string, line *status.Line, out io.Writer) error {
	r, err := playback.ReadFile(path)
	if err != nil {
		status.ReplayDamaged(line, err)
		return err
	}
	total := len(r.Turns)
	var last uint64
	if total > 0 {
		last = r.Turns[total-1].Number
	}
	turns, checked, err := match.Verify(r, func(turn uint64) {
		if turn%verifyEvery == 0 {
			status.ReplayProgress(line, turn, last)
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
		status.ReplayFailed(line, result, at, checked, err)
		return fmt.Errorf("%s: %w", path, err)
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	status.ReplayVerified(line, out, path, last, turns, checked)
	return nil
}
