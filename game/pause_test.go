package game

import (
	"bytes"
	"testing"
)

// pauseWorld returns a small world whose players are bots where bots says.
func pauseWorld(tb testing.TB, bots ...bool) *World {
	tb.Helper()
	cfg := Config{Seed: 9, Width: 48, Height: 48}
	for i, b := range bots {
		cfg.Players = append(cfg.Players, PlayerConfig{Team: Team(i), Bot: b})
	}
	w, err := NewWorld(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	return w
}

// step applies one command and returns the reason it was refused (or
// ReasonNone) and the pause/resume event it made, if any.
func stepOne(w *World, c Command) (Reason, Event) {
	w.Step([]Command{c})
	r, ev := ReasonNone, Event{}
	for _, e := range w.Events() {
		switch e.Kind {
		case EvRejected:
			r = e.Reason
		case EvPaused, EvResuming, EvResumed:
			ev = e
		}
	}
	return r, ev
}

// running resumes w if chaos paused it, and returns a player who may pause.
func running(tb testing.TB, w *World) PlayerID {
	tb.Helper()
	if w.Paused().Paused {
		w.Step([]Command{{Player: w.Paused().By, Kind: CmdResume, Host: true}})
		for w.Paused().Paused {
			w.Step(nil)
		}
	}
	for p := range w.np {
		if w.PausesLeft(PlayerID(p)) != 0 {
			return PlayerID(p)
		}
	}
	tb.Fatal("nobody may pause")
	return 0
}

func TestPauseRules(t *testing.T) {
	pause := func(p PlayerID) Command { return Command{Player: p, Kind: CmdPause} }
	resume := func(p PlayerID, host bool) Command { return Command{Player: p, Kind: CmdResume, Host: host} }
	type step struct {
		c    Command
		want Reason
		ev   EventKind // the event the command made, EvNone for none
		left int32     // EvPaused: the pauses left
	}
	two := []bool{false, false}
	tests := []struct {
		name  string
		bots  []bool
		steps []step
	}{
		{"pauser resumes", two, []step{
			{pause(0), ReasonNone, EvPaused, 2},
			{resume(0, false), ReasonNone, EvResuming, 0},
		}},
		{"host resumes another's pause", two, []step{
			{pause(1), ReasonNone, EvPaused, 2},
			{resume(0, true), ReasonNone, EvResuming, 0},
		}},
		{"neither pauser nor host", two, []step{
			{pause(1), ReasonNone, EvPaused, 2},
			{resume(0, false), RejNotResumer, EvNone, 0},
		}},
		{"resume while running", two, []step{
			{resume(0, true), RejNotPaused, EvNone, 0},
		}},
		{"pause while paused", two, []step{
			{pause(0), ReasonNone, EvPaused, 2},
			{pause(1), RejAlreadyPaused, EvNone, 0},
		}},
		{"resume during the countdown", two, []step{
			{pause(0), ReasonNone, EvPaused, 2},
			{resume(0, false), ReasonNone, EvResuming, 0},
			{resume(0, false), RejResuming, EvNone, 0},
		}},
		{"a pause stops the countdown", two, []step{
			{pause(0), ReasonNone, EvPaused, 2},
			{resume(0, false), ReasonNone, EvResuming, 0},
			{pause(1), ReasonNone, EvPaused, 2},
			{resume(0, false), RejNotResumer, EvNone, 0},
			{resume(1, false), ReasonNone, EvResuming, 0},
		}},
		{"orders wait while paused", two, []step{
			{pause(0), ReasonNone, EvPaused, 2},
			{Command{Player: 1, Kind: CmdStop}, RejPaused, EvNone, 0},
		}},
		{"three pauses, then none", two, []step{
			{pause(0), ReasonNone, EvPaused, 2},
			{resume(0, false), ReasonNone, EvResuming, 0},
			{pause(0), ReasonNone, EvPaused, 1},
			{resume(0, false), ReasonNone, EvResuming, 0},
			{pause(0), ReasonNone, EvPaused, 0},
			{resume(0, false), ReasonNone, EvResuming, 0},
			{pause(0), RejNoPauses, EvNone, 0},
			{pause(1), ReasonNone, EvPaused, 2},
		}},
		{"alone against bots: no limit", []bool{false, true}, []step{
			{pause(0), ReasonNone, EvPaused, -1},
			{resume(0, false), ReasonNone, EvResuming, 0},
			{pause(0), ReasonNone, EvPaused, -1},
			{resume(0, false), ReasonNone, EvResuming, 0},
			{pause(0), ReasonNone, EvPaused, -1},
			{resume(0, false), ReasonNone, EvResuming, 0},
			{pause(0), ReasonNone, EvPaused, -1},
		}},
		{"a bot may not pause", []bool{false, true}, []step{
			{pause(1), RejBotPause, EvNone, 0},
		}},
		{"an unknown player", two, []step{
			{pause(5), RejUnknownPlayer, EvNone, 0},
		}},
		{"the pauser left: anyone resumes", []bool{false, false, false}, []step{
			{pause(2), ReasonNone, EvPaused, 2},
			{Command{Player: 2, Kind: CmdSurrender}, ReasonNone, EvNone, 0},
			{resume(1, false), ReasonNone, EvResuming, 0},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w := pauseWorld(t, tc.bots...)
			for i, s := range tc.steps {
				r, ev := stepOne(w, s.c)
				if r != s.want || ev.Kind != s.ev {
					t.Fatalf("step %d (%s by %d): refused %q and event %s, want %q and %s", i, s.c.Kind, s.c.Player, r, ev.Kind, s.want, s.ev)
				}
				if ev.Kind == EvPaused && (ev.Count != s.left || ev.Player != s.c.Player) {
					t.Fatalf("step %d: paused by %d with %d left, want %d with %d", i, ev.Player, ev.Count, s.c.Player, s.left)
				}
				if ev.Kind == EvPaused && w.PausesLeft(s.c.Player) != int(s.left) {
					t.Fatalf("step %d: PausesLeft %d, want %d", i, w.PausesLeft(s.c.Player), s.left)
				}
			}
		})
	}
}

// TestPausedWorldStandsStill pauses a busy game: while paused the turns
// count on but nothing else changes, the hash covers the pause, and after
// the countdown the world moves at the turn the rule says.
func TestPausedWorldStandsStill(t *testing.T) {
	w, _ := chaosWorld(t, 4, 400)
	pauser := running(t, w)
	w.Step([]Command{{Player: pauser, Kind: CmdPause}})
	if p := w.Paused(); !p.Paused || p.By != pauser || p.Countdown != 0 {
		t.Fatalf("after a pause: %+v", p)
	}
	at, clock := w.Turn(), w.Time()
	frozen := new(World)
	w.CopyTo(frozen)
	r := NewRNG(5, 5)
	for range 200 {
		var cmds []Command
		for _, c := range Chaos(w, &r) {
			if c.Kind != CmdResume && c.Kind != CmdSurrender {
				cmds = append(cmds, c) // every one refused
			}
		}
		w.Step(cmds)
	}
	if w.Turn() != at+200 || w.Time() != clock {
		t.Fatalf("after 200 paused turns: turn %d (want %d), time %d (want %d)", w.Turn(), at+200, w.Time(), clock)
	}
	frozen.turn = w.turn
	if !bytes.Equal(frozen.Snapshot(), w.Snapshot()) {
		t.Fatal("the world changed while paused")
	}
	running := new(World)
	w.CopyTo(running)
	running.pause = pauseState{}
	if running.Hash() == w.Hash() {
		t.Fatal("the hash does not cover the pause")
	}

	by := w.Paused().By
	w.Step([]Command{{Player: by, Kind: CmdResume}})
	if p := w.Paused(); !p.Paused || p.Countdown != ResumeTurns-1 || p.ResumedBy != by {
		t.Fatalf("after a resume: %+v", p)
	}
	moved := 0
	for range ResumeTurns {
		w.Step(nil)
		if w.Time() != clock {
			break
		}
		moved++
	}
	if moved != ResumeTurns-2 || w.Paused().Paused {
		t.Fatalf("the world moved after %d countdown turns (paused %v), want %d", moved+1, w.Paused().Paused, ResumeTurns-1)
	}
}

// TestPausedSnapshotRoundTrip restores snapshots taken while paused and
// during the countdown: the restored world encodes to the same bytes and
// plays on to the same hashes.
func TestPausedSnapshotRoundTrip(t *testing.T) {
	for _, countdown := range []bool{false, true} {
		w, _ := chaosWorld(t, 3, 200)
		p := running(t, w)
		w.Step([]Command{{Player: p, Kind: CmdPause}})
		if countdown {
			w.Step([]Command{{Player: p, Kind: CmdResume}})
		}
		snap := w.Snapshot()
		r := new(World)
		if err := r.Restore(snap); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(r.Snapshot(), snap) || r.Hash() != w.Hash() || r.Paused() != w.Paused() {
			t.Fatalf("countdown %v: the restored world differs", countdown)
		}
		for range 2 * ResumeTurns {
			cmds := []Command{{Player: p, Kind: CmdResume}}
			w.Step(cmds)
			r.Step(cmds)
			if w.Hash() != r.Hash() {
				t.Fatalf("countdown %v: desync at turn %d", countdown, w.Turn())
			}
		}
		if w.Paused().Paused {
			t.Fatal("still paused")
		}
	}
}

// TestPauseReplays records a game with pauses and plays the commands again
// into a fresh world: every turn's hash is the same.
func TestPauseReplays(t *testing.T) {
	w := pauseWorld(t, false, false, false)
	cfg := w.cfg
	var turns [][]Command
	var hashes []uint64
	r := NewRNG(7, 7)
	paused := 0
	for turn := range 1500 {
		cmds := Chaos(w, &r)
		switch turn % 300 {
		case 10:
			cmds = append(cmds, Command{Player: PlayerID(turn / 300 % 3), Kind: CmdPause})
		case 100:
			cmds = append(cmds, Command{Player: 0, Kind: CmdResume, Host: true})
		}
		w.Step(cmds)
		if w.Paused().Paused {
			paused++
		}
		turns = append(turns, cmds)
		hashes = append(hashes, w.Hash())
	}
	if paused < 100 {
		t.Fatalf("only %d paused turns", paused)
	}
	again, err := NewWorld(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for i, cmds := range turns {
		again.Step(cmds)
		if again.Hash() != hashes[i] {
			t.Fatalf("the replay differs at turn %d", i+1)
		}
	}
}

// TestSurrenderWhilePausedEndsTheGame: a departure during a pause still
// counts, and the game that ends is no longer paused.
func TestSurrenderWhilePausedEndsTheGame(t *testing.T) {
	w := pauseWorld(t, false, false)
	w.Step([]Command{{Player: 0, Kind: CmdPause}})
	w.Step([]Command{{Player: 1, Kind: CmdSurrender}})
	if team, ok := w.Winner(); !w.Over() || !ok || team != 0 || w.Paused().Paused {
		t.Fatalf("over %v, winner %d (%v), paused %v", w.Over(), team, ok, w.Paused().Paused)
	}
}

func TestRestoreRefusesABadPause(t *testing.T) {
	w := pauseWorld(t, false, false)
	w.Step([]Command{{Player: 1, Kind: CmdPause}})
	for name, mut := range map[string]func(*World){
		"pauser out of range": func(w *World) { w.pause.by = 7 },
		"countdown, nobody":   func(w *World) { w.pause.count = 5 },
		"off with a pauser":   func(w *World) { w.pause = pauseState{by: 1} },
		"too many pauses":     func(w *World) { w.pl[0].pauses = PausesPerPlayer + 1 },
	} {
		bad := new(World)
		w.CopyTo(bad)
		mut(bad)
		if err := new(World).Restore(bad.Snapshot()); err == nil {
			t.Errorf("%s: restored", name)
		}
	}
}

// TestOutTimeIsGameTime: the time a player went out is game time, so the
// turns of a pause and of its resume countdown do not count (the end
// screen's "out at M:SS" would otherwise run ahead of the game clock).
func TestOutTimeIsGameTime(t *testing.T) {
	tests := []struct {
		name     string
		before   int  // turns played before the pause
		paused   int  // turns paused before the resume
		after    int  // turns played after the countdown
		inPause  bool // the player surrenders while the game is paused
		wantTime int
	}{
		{"no pause", 100, 0, 0, false, 100},
		{"out after a pause", 100, 500, 40, false, 140},
		{"out during a pause", 100, 500, 0, true, 100},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := pauseWorld(t, false, false, false)
			for range tt.before {
				w.Step(nil)
			}
			if tt.paused > 0 || tt.inPause {
				w.Step([]Command{{Player: 0, Kind: CmdPause}})
				for range tt.paused {
					w.Step(nil)
				}
			}
			if !tt.inPause && tt.paused > 0 {
				w.Step([]Command{{Player: 0, Kind: CmdResume}})
				for w.Paused().Paused {
					w.Step(nil)
				}
				for range tt.after - 1 {
					w.Step(nil)
				}
			}
			w.Step([]Command{{Player: 2, Kind: CmdSurrender}})
			info := w.Player(2)
			if !info.Out || info.OutTime != tt.wantTime {
				t.Fatalf("out %v at game time %d, want %d (turn %d, game time now %d)", info.Out, info.OutTime, tt.wantTime, w.Turn(), w.Time())
			}
			if info.OutTime > w.Time() {
				t.Fatalf("out at %d, after the game clock's %d", info.OutTime, w.Time())
			}
		})
	}
}
