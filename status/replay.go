package status

import (
	"fmt"
	"io"
)

// ReplayProgress is the line `replay --verify` prints now and then: the
// turn it checked up to, of the replay's last.
func ReplayProgress(s *Line, turn, last uint64) {
	s.Emit("progress", fmt.Sprintf("turn %d/%d", turn, last), KV("turn", turn), KV("turns", last))
}

// ReplayDamaged is the end of `replay --verify` on a file it cannot read.
func ReplayDamaged(s *Line, err error) {
	s.Emit("end", "", KV("ok", false), KV("result", "damaged"), KV("error", err.Error()))
}

// ReplayFailed is the end of `replay --verify` when a turn cannot be
// played (result "damaged") or a state hash differs ("mismatch"): at is the
// last turn played, checked the hashes that matched before.
func ReplayFailed(s *Line, result string, at uint64, checked int, err error) {
	s.Emit("end", "", KV("ok", false), KV("result", result), KV("turn", at), KV("checked", checked), KV("error", err.Error()))
}

// ReplayVerified is the end of `replay --verify` when every hash matched:
// the end line, and without JSON the summary on out.
func ReplayVerified(s *Line, out io.Writer, path string, last uint64, turns, checked int) {
	s.Emit("end", "", KV("ok", true), KV("result", "ok"), KV("turn", last), KV("turns", turns), KV("checked", checked))
	if !s.JSON {
		fmt.Fprintf(out, "%s: %d turns replayed, %d state hashes match the recording\n", path, turns, checked)
	}
}
