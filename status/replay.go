package status

import (
	"context"
	"errors"
	"fmt"
	"io"

	"hostfall/client/playback"
	"hostfall/match"
)

// verifyEvery is how many turns apart VerifyReplay reports progress.
const verifyEvery = 2000

// VerifyReplay is `replay --headless --verify`: it plays the replay file at
// path back without a window and checks every recorded state hash
// (match.Verify). Progress and the result go to line (JSON lines with
// --status-json: "progress" every 2,000 turns, then one "end" with "ok"
// and a "result" of ok, mismatch or damaged); the summary of a good replay
// goes to out when line is not JSON.
func VerifyReplay(ctx context.Context, path string, line *Line, out io.Writer) error {
	r, err := playback.ReadFile(path)
	if err != nil {
		line.Emit("end", "", KV("ok", false), KV("result", "damaged"), KV("error", err.Error()))
		return err
	}
	total := len(r.Turns)
	var last uint64
	if total > 0 {
		last = r.Turns[total-1].Number
	}
	turns, checked, err := match.Verify(r, func(turn uint64) {
		if turn%verifyEvery == 0 {
			line.Emit("progress", fmt.Sprintf("turn %d/%d", turn, last), KV("turn", turn), KV("turns", last))
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
		line.Emit("end", "", KV("ok", false), KV("result", result), KV("turn", at), KV("checked", checked), KV("error", err.Error()))
		return fmt.Errorf("%s: %w", path, err)
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	line.Emit("end", "", KV("ok", true), KV("result", "ok"), KV("turn", last), KV("turns", turns), KV("checked", checked))
	if !line.JSON {
		fmt.Fprintf(out, "%s: %d turns replayed, %d state hashes match the recording\n", path, turns, checked)
	}
	return nil
}
