package match

import (
	"math/rand/v2"
	"testing"

	"hostfall/game"
	"hostfall/session"
	"hostfall/session/replay"
)

// pauseGame makes a replay of players slots (a bot in the last) whose
// turns hold nothing but pauses, resumes and surrenders, from any player,
// with the host moving between slots and departures now and then, up to
// the game's end.
func pauseGame(t *testing.T, rng *rand.Rand, humans int) *replay.Replay {
	t.Helper()
	lb := session.Lobby{MapSeed: 3, MapSize: 64, State: session.StateLoading}
	for range humans {
		lb.Slots = append(lb.Slots, session.Slot{Kind: session.SlotHuman})
	}
	lb.Slots = append(lb.Slots, session.Slot{Kind: session.SlotBot})
	r := &replay.Replay{Lobby: lb, Rules: game.RulesVersion}
	m, err := Replay(r)
	if err != nil {
		t.Fatal(err)
	}
	kinds := []game.CommandKind{game.CmdPause, game.CmdPause, game.CmdResume, game.CmdResume, game.CmdResume, game.CmdSurrender}
	host := 0
	for n := uint64(1); n <= 1500 && !m.ended(); n++ {
		if rng.IntN(100) == 0 {
			host = rng.IntN(len(lb.Slots))
		}
		tn := session.Turn{Number: n, Epoch: uint64(host)}
		for range rng.IntN(3) {
			if rng.IntN(12) != 0 {
				continue
			}
			slot := rng.IntN(len(lb.Slots))
			k := kinds[rng.IntN(len(kinds))]
			if k == game.CmdSurrender && rng.IntN(6) != 0 {
				continue
			}
			data, err := game.Command{Kind: k}.AppendBinary(nil)
			if err != nil {
				t.Fatal(err)
			}
			tn.Commands = append(tn.Commands, session.Command{Slot: slot, Data: data})
		}
		if rng.IntN(700) == 0 {
			tn.Departures = append(tn.Departures, session.Departure{Slot: rng.IntN(len(lb.Slots))})
		}
		if err := m.Step(tn); err != nil {
			t.Fatal(err)
		}
		r.Turns = append(r.Turns, tn)
	}
	return r
}

// The length a list shows for a replay is the game clock its players saw
// at the end: ReplayTime, which reads only the commands, agrees with the
// world played to the end, in games of one person or more against a bot
// with pauses, resume countdowns, surrenders and departures, played from
// the start or resumed from a save.
func TestReplayTimeIsTheGameClock(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 1))
	paused := 0
	for i := range 40 {
		r := pauseGame(t, rng, 1+i%3)
		m, err := Replay(r)
		if err != nil {
			t.Fatal(err)
		}
		// The same game resumed from a save at turn k: its replay starts
		// from the saved state.
		k := rng.IntN(len(r.Turns))
		resumed := &replay.Replay{Lobby: r.Lobby.Clone(), Rules: r.Rules, Turns: r.Turns[k:]}
		resumed.Lobby.Resume = uint64(k)
		for j, tn := range r.Turns {
			if j == k {
				resumed.Start = &session.Snapshot{Turn: uint64(k), Data: m.Snapshot()}
			}
			if err := m.Step(tn); err != nil {
				t.Fatal(err)
			}
		}
		want := m.World().Time()
		for _, rp := range []*replay.Replay{r, resumed} {
			got, err := ReplayTime(rp)
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Fatalf("game %d (%d humans, %d turns, resumed %v): ReplayTime %d, the world's clock %d",
					i, 1+i%3, len(r.Turns), rp.Start != nil, got, want)
			}
		}
		if want < len(r.Turns) {
			paused++
		}
	}
	if paused < 20 {
		t.Fatalf("only %d of 40 games were ever paused: the test tests little", paused)
	}
	t.Logf("%d of 40 games paused", paused)
}
