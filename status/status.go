// Package status prints the operating contract's status lines: with JSON
// on, one object a line on stdout, "ev" first (what scripts, benchmarks and
// the end-to-end tests read); otherwise a sentence for a person on stderr
// when the event has one. Headless peers, window peers, `sim` and the
// relay print through it, so they print the same lines.
//
// It also holds what the other commands print, so that the root package
// only reads the command line and picks a printer or a window: `list`'s
// sessions (Sessions, SessionChanges), the bot matches of `sim` and `play
// --headless` and the replay check of `replay --headless --verify`. It
// prints and nothing more: app plays those games and runs the loops. Their
// texts and JSON field names are read by scripts and tests; they do not
// change by the way.
package status

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"time"

	"hostfall/game"
)

// Line writes status lines; safe for concurrent use. A nil *Line prints
// nothing.
type Line struct {
	mu    sync.Mutex
	JSON  bool
	Out   io.Writer // the JSON lines
	Human io.Writer // the sentences (nil: none)
	Stamp bool      // add "unix_ms" (wall clock) to every JSON line: benchmarks line up processes with it
}

// Field is one key and value of a JSON status line, in order.
type Field struct {
	k string
	v any
}

// KV is a Field.
func KV(k string, v any) Field { return Field{k, v} }

// Emit writes one event: the JSON line, or text (if any) for a person.
func (s *Line) Emit(ev, text string, fields ...Field) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.JSON {
		if text != "" && s.Human != nil {
			fmt.Fprintln(s.Human, text)
		}
		return
	}
	var b bytes.Buffer
	b.WriteString(`{"ev":`)
	writeJSON(&b, ev)
	if s.Stamp {
		fields = append(fields, KV("unix_ms", time.Now().UnixMilli()))
	}
	for _, f := range fields {
		b.WriteByte(',')
		writeJSON(&b, f.k)
		b.WriteByte(':')
		writeJSON(&b, f.v)
	}
	b.WriteString("}\n")
	_, _ = s.Out.Write(b.Bytes())
}

func writeJSON(b *bytes.Buffer, v any) {
	j, err := json.Marshal(v)
	if err != nil {
		j, _ = json.Marshal(fmt.Sprint(v))
	}
	b.Write(j)
}

// Hex64 is how the lines print a state hash.
func Hex64(h uint64) string { return fmt.Sprintf("%016x", h) }

// Turn is the contract's line every 20 turns.
func (s *Line) Turn(turn, epoch uint64, host string, hash uint64) {
	s.Emit("turn", "", KV("turn", turn), KV("epoch", epoch), KV("host", host), KV("hash", Hex64(hash)))
}

// End is the contract's last line of a game; ticks is the game time
// (game.World.Time: paused turns do not count).
func (s *Line) End(turn uint64, ticks int, hash uint64, win *Winner, reason string, extra ...Field) {
	text := fmt.Sprintf("game over at turn %d (%s of game time): %s; state hash %s", turn, GameTime(ticks), reason, Hex64(hash))
	s.Emit("end", text, append([]Field{KV("turn", turn), KV("hash", Hex64(hash)), KV("winner", win), KV("reason", reason)}, extra...)...)
}

// GameTime is ticks of game time (game.World.Time) as minutes and seconds
// (20 ticks a second).
func GameTime(ticks int) string {
	s := ticks / 20
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

// Winner is the winner of an end line: the team and its players.
type Winner struct {
	Team    game.Team `json:"team"`
	Players []int     `json:"players"` // game player numbers (not a byte slice: JSON would print base64)
}

// WinnerOf is the winner of team t with its players.
func WinnerOf(t game.Team, players []game.PlayerID) *Winner {
	win := &Winner{Team: t, Players: []int{}}
	for _, p := range players {
		win.Players = append(win.Players, int(p))
	}
	return win
}

// WorldEnd says how w's game ended: the winner (nil for none) and why.
func WorldEnd(w *game.World) (*Winner, string) {
	t, ok := w.Winner()
	switch {
	case ok && w.ByScore():
		return WinnerOf(t, w.Winners()), "score"
	case ok:
		return WinnerOf(t, w.Winners()), "victory"
	case w.Over():
		return nil, "draw"
	}
	return nil, "turn limit"
}
