package match

import (
	"strings"
	"testing"

	"hostfall/game"
	"hostfall/session"
)

type hashNode struct {
	nopNode
	hashes map[uint64]uint64
}

func (h *hashNode) ReportHash(turn, hash uint64) { h.hashes[turn] = hash }

// TestDesyncReportSaysWhatDiffered plays one game on two matches, lets the
// minority train a worker the majority never saw, and restores the majority's
// state into it: its report names the turn, both hashes and what differed.
func TestDesyncReportSaysWhatDiffered(t *testing.T) {
	lobby := session.Lobby{MapSeed: 2, MapSize: 64, State: session.StateLoading,
		Slots: []session.Slot{{Kind: session.SlotHuman, Peer: "me"}, {Kind: session.SlotHuman, Peer: "you"}}}
	var reports []Report
	mine := New(Options{OnDesyncReport: func(r Report) { reports = append(reports, r) }})
	theirs := New(Options{})
	mine.Load(lobby)
	theirs.Load(lobby)
	nMine, nTheirs := &hashNode{hashes: map[uint64]uint64{}}, &hashNode{hashes: map[uint64]uint64{}}

	var base game.UnitID
	us := mine.World().Units()
	for i := range us.Len() {
		if us.Alive(i) && us.Owner(i) == 0 && us.Kind(i) == game.Base {
			base = us.ID(i)
		}
	}
	train, _ := game.Command{Kind: game.CmdTrain, Units: []game.UnitID{base}, Build: game.Worker}.AppendBinary(nil)
	for n := uint64(1); n <= 20; n++ {
		turn := session.Turn{Number: n, WantHash: n%10 == 0}
		theirs.Apply(&session.Ready{Committed: []session.Turn{turn}}, nTheirs)
		if n == 12 { // a command only this peer applies: the divergence
			turn.Commands = []session.Command{{Slot: 0, Seq: 1, Data: train}}
		}
		mine.Apply(&session.Ready{Committed: []session.Turn{turn}}, nMine)
	}
	if nMine.hashes[20] == nTheirs.hashes[20] || nMine.hashes[10] != nTheirs.hashes[10] {
		t.Fatal("the test's divergence did not happen between turns 10 and 20")
	}
	info := session.DesyncInfo{Turn: 20, Majority: nTheirs.hashes[20], Hashes: []session.PeerHash{
		{Peer: "me", Hash: nMine.hashes[20]}, {Peer: "you", Hash: nTheirs.hashes[20]}, {Peer: "them", Hash: nTheirs.hashes[20]}}}
	rd := session.Ready{
		Events:  []session.Event{{Kind: session.EvDesync, Desync: &info}},
		Restore: &session.Snapshot{Turn: 20, Data: theirs.Snapshot()},
		Status:  session.Status{Self: "me"},
	}
	if err := mine.Apply(&rd, nMine); err != nil {
		t.Fatal(err)
	}
	if len(reports) != 1 {
		t.Fatalf("%d reports, want 1", len(reports))
	}
	text := reports[0].String()
	for _, want := range []string{"turn 20", "DIFFERS", "majority", "restored the majority's state of turn 20", "player 0: gold"} {
		if !strings.Contains(text, want) {
			t.Errorf("report lacks %q:\n%s", want, text)
		}
	}
	if mine.World().Hash() != nTheirs.hashes[20] {
		t.Error("the minority did not take the majority's state")
	}

	// A majority peer reports at once, with nothing restored.
	var theirReports []Report
	theirs.opt.OnDesyncReport = func(r Report) { theirReports = append(theirReports, r) }
	theirs.Apply(&session.Ready{Events: rd.Events, Status: session.Status{Self: "you"}}, nTheirs)
	if len(theirReports) != 1 || !strings.Contains(theirReports[0].String(), "had the majority state") {
		t.Errorf("majority report: %+v", theirReports)
	}
}
