package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"time"

	"hostfall/game"
)

// statusLine writes progress for the operating contract. With JSON on, each
// event is one object a line on out (stdout), "ev" first; otherwise events
// that have a readable text go to human (stderr).
type statusLine struct {
	mu    sync.Mutex
	json  bool
	out   io.Writer
	human io.Writer
	stamp bool // add "unix_ms" (wall clock) to every JSON line: benchmarks line up processes with it
}

// field is one key and value of a JSON status line, in order.
type field struct {
	k string
	v any
}

func kv(k string, v any) field { return field{k, v} }

// emit writes one event: the JSON line, or text (if any) for a person.
func (s *statusLine) emit(ev, text string, fields ...field) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.json {
		if text != "" && s.human != nil {
			fmt.Fprintln(s.human, text)
		}
		return
	}
	var b bytes.Buffer
	b.WriteString(`{"ev":`)
	writeJSON(&b, ev)
	if s.stamp {
		fields = append(fields, kv("unix_ms", time.Now().UnixMilli()))
	}
	for _, f := range fields {
		b.WriteByte(',')
		writeJSON(&b, f.k)
		b.WriteByte(':')
		writeJSON(&b, f.v)
	}
	b.WriteString("}\n")
	_, _ = s.out.Write(b.Bytes())
}

func writeJSON(b *bytes.Buffer, v any) {
	j, err := json.Marshal(v)
	if err != nil {
		j, _ = json.Marshal(fmt.Sprint(v))
	}
	b.Write(j)
}

func hex64(h uint64) string { return fmt.Sprintf("%016x", h) }

// turn is the contract's line every 20 turns.
func (s *statusLine) turn(turn, epoch uint64, host string, hash uint64) {
	s.emit("turn", "", kv("turn", turn), kv("epoch", epoch), kv("host", host), kv("hash", hex64(hash)))
}

// end is the contract's last line of a game.
func (s *statusLine) end(turn uint64, hash uint64, win *winnerJSON, reason string, extra ...field) {
	text := fmt.Sprintf("game over at turn %d (%s): %s; state hash %s", turn, gameTime(int(turn)), reason, hex64(hash))
	s.emit("end", text, append([]field{kv("turn", turn), kv("hash", hex64(hash)), kv("winner", win), kv("reason", reason)}, extra...)...)
}

// worldEnd describes how a game ended for the end line.
func worldEnd(w *game.World) (*winnerJSON, string) {
	return winners(w), endReason(w)
}
