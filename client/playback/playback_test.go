package playback

import (
	"bytes"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"hostfall/client"
	"hostfall/client/fake"
	"hostfall/game"
	"hostfall/internal/testwait"
	"hostfall/session"
	"hostfall/session/replay"
)

const recorded = 300 // turns in the test replay

var quiet = slog.New(slog.DiscardHandler)

var t0 = time.Date(2025, 6, 1, 20, 0, 0, 0, time.UTC)

func record(t *testing.T) *replay.Replay {
	t.Helper()
	data, err := fake.Replay(5, 2, 64, recorded)
	if err != nil {
		t.Fatal(err)
	}
	r, err := replay.Read(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// stopped returns a client whose goroutine is stopped, so the test drives
// its clock with made-up times.
func stopped(t *testing.T, r *replay.Replay) *Client {
	t.Helper()
	c, err := New(r, Options{Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
	c.mu.Lock()
	c.setClock(t0)
	c.mu.Unlock()
	return c
}

func TestPlaysAtTheRecordedRateAndSpeed(t *testing.T) {
	c := stopped(t, record(t))
	now := t0
	played := func(d time.Duration) uint64 {
		before := c.Replay().Turn
		for end := now.Add(d); now.Before(end); {
			now = now.Add(10 * time.Millisecond)
			c.advance(now)
		}
		return c.Replay().Turn - before
	}
	// 50 ms turns: 20 a second at 1×.
	for _, s := range []struct {
		speed float64
		want  uint64
	}{{1, 20}, {4, 80}, {0.25, 5}, {8, 160}} {
		c.setSpeed(s.speed, now)
		if got := played(time.Second); got != s.want {
			t.Errorf("speed %v: %d turns in a second, want %d", s.speed, got, s.want)
		}
	}
	c.setSpeed(100, now)
	if st := c.Replay(); st.Speed != MaxSpeed {
		t.Errorf("speed %v after asking for 100×, want %v", st.Speed, MaxSpeed)
	}
	c.setPaused(true, now)
	if got := played(time.Second); got != 0 {
		t.Errorf("paused: %d turns played", got)
	}
	c.setPaused(false, now)
	c.setSpeed(1, now)
	if got := played(time.Second); got != 20 {
		t.Errorf("after the pause: %d turns in a second, want 20", got)
	}
	if st := c.Status(); st.TurnMillis != 50 {
		t.Errorf("turn length %d ms at 1×, want 50", st.TurnMillis)
	}
	if evs := c.WorldEvents(nil); len(evs) == 0 {
		t.Error("no world events from the turns played")
	}
}

func TestSeekPlaysToTheEndAndChecksEveryHash(t *testing.T) {
	r := record(t)
	c := stopped(t, r)
	c.Seek(0.5)
	if st := c.Replay(); st.Turn != recorded/2 || st.Over || st.Checked != recorded/20 {
		t.Fatalf("seek to the middle: %+v", st)
	}
	c.Seek(1)
	st := c.Replay()
	if st.Turn != recorded || st.Turns != recorded || !st.Over || st.Problem != "" || st.Checked != recorded/10 {
		t.Fatalf("seek to the end: %+v", st)
	}
	var end uint64
	c.View(func(w *game.World, _ time.Time) { end = w.Hash() })
	if want, _ := r.HashAt(recorded); end != want {
		t.Fatalf("end hash %016x, recorded %016x", end, want)
	}
	c.Seek(0.1) // backwards: starts over
	if st := c.Replay(); st.Turn != recorded/10 || st.Checked != recorded/100 || st.Over {
		t.Fatalf("seek back: %+v", st)
	}
	if evs := c.WorldEvents(nil); len(evs) != 0 {
		t.Errorf("a seek left %d world events for the screens", len(evs))
	}
}

func TestAMismatchIsToldAndPlaybackGoesOn(t *testing.T) {
	r := record(t)
	r.Hashes[3].Hash ^= 1 // the hash after turn 40
	c := stopped(t, r)
	c.Seek(1)
	st := c.Replay()
	if !st.Over || st.Stopped || !strings.Contains(st.Problem, "does not reproduce the recorded game") || !strings.Contains(st.Problem, "turn 40") {
		t.Fatalf("status %+v: want the mismatch at turn 40 told, and playback to the end", st)
	}
}

func TestATurnThatCannotBePlayedStopsPlayback(t *testing.T) {
	r := record(t)
	r.Turns = append(r.Turns[:100:100], r.Turns[101:]...) // turn 101 is missing
	c := stopped(t, r)
	c.Seek(1)
	st := c.Replay()
	if !st.Stopped || st.Over || st.Turn != 100 || !strings.Contains(st.Problem, "Turn 102") {
		t.Fatalf("status %+v: want playback stopped after turn 100, at turn 102", st)
	}
	c.Seek(0) // starting over clears it until it happens again
	if st := c.Replay(); st.Stopped || st.Problem != "" || st.Turn != 0 {
		t.Fatalf("after starting over: %+v", st)
	}
}

func TestASpectatorChangesNothing(t *testing.T) {
	c, err := New(record(t), Options{Paused: true})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Propose(game.Command{Kind: game.CmdStop}); !errors.Is(err, ErrSpectator) {
		t.Errorf("Propose: %v", err)
	}
	for _, err := range []error{c.Create(client.CreateOptions{}), c.Join("x", client.JoinOptions{}), c.Say(0, "hi"), c.Start(),
		c.SetSlot(0, session.SlotOpen, 0), c.EditSlot(session.SlotEdit{})} {
		if !errors.Is(err, ErrSpectator) {
			t.Errorf("an action of a player: %v, want ErrSpectator", err)
		}
	}
	if _, ok := c.Me(); ok || c.Slot() != -1 {
		t.Error("the viewer is a player")
	}
	l, ok := c.Lobby()
	if !ok || l.State != session.StatePlaying || len(c.Players()) != 2 || c.Players()[1].Name != "Bot 2" {
		t.Fatalf("lobby %v %v, players %+v", ok, l.State, c.Players())
	}
	if st := c.Replay(); !st.Paused || st.Turn != 0 {
		t.Errorf("a replay opened paused: %+v", st)
	}
	c.Leave()
	if _, ok := c.Lobby(); ok || c.View(func(*game.World, time.Time) {}) {
		t.Error("the replay still shows after Leave")
	}
}

// The real goroutine plays turns by itself (no timing asserted).
func TestPlaysByItself(t *testing.T) {
	c, err := New(record(t), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetSpeed(MaxSpeed)
	testwait.For(t, "a turn played", 10*time.Second, func() bool { return c.Replay().Turn > 0 })
}
