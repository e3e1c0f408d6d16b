package match

import (
	"fmt"
	"strings"

	"hostfall/game"
	"hostfall/session"
)

// keptStates is how many of its own recent hashed states a match keeps, to
// tell after a desync repair what differed. Repairs finish within
// 6 × HashEvery turns (session's bound), so 8 hashed states reach back far
// enough at any HashEvery.
const keptStates = 8

type keptState struct {
	turn uint64
	data []byte
}

// Report is what a desync report file says: the hashes every peer reported,
// and, on a peer that restored the majority's state, how its own state of
// that turn differed.
type Report struct {
	Desync    session.DesyncInfo
	Restored  uint64   // turn of the restored snapshot; 0 if this peer kept its state
	Differs   []string // this peer's state vs the majority's at Restored
	Unmatched bool     // the own state of turn Restored was no longer kept
}

// String formats the report for a file a person reads.
func (r Report) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Hostfall desync report\n\nturn %d: the peers' game states differed.\n", r.Desync.Turn)
	fmt.Fprintf(&b, "majority state hash: %016x\n", r.Desync.Majority)
	for _, h := range r.Desync.Hashes {
		mark := "majority"
		if h.Hash != r.Desync.Majority {
			mark = "DIFFERS"
		}
		fmt.Fprintf(&b, "  %-56s %016x  %s\n", h.Peer, h.Hash, mark)
	}
	switch {
	case r.Restored == 0:
		b.WriteString("\nThis peer had the majority state and kept it.\n")
	case r.Unmatched:
		fmt.Fprintf(&b, "\nThis peer restored the majority's state of turn %d; its own state of that turn was no longer kept.\n", r.Restored)
	case len(r.Differs) == 0:
		fmt.Fprintf(&b, "\nThis peer restored the majority's state of turn %d, which equals its own.\n", r.Restored)
	default:
		fmt.Fprintf(&b, "\nThis peer restored the majority's state of turn %d. What differed (this peer vs the majority):\n", r.Restored)
		for _, l := range r.Differs {
			fmt.Fprintf(&b, "  %s\n", l)
		}
	}
	return b.String()
}

// keep records the own state after a hashed turn.
func (m *Match) keep(turn uint64) {
	s := keptState{turn: turn, data: m.Snapshot()}
	if len(m.kept) < keptStates {
		m.kept = append(m.kept, s)
		return
	}
	copy(m.kept, m.kept[1:])
	m.kept[len(m.kept)-1] = s
}

func (m *Match) keptAt(turn uint64) []byte {
	for _, s := range m.kept {
		if s.turn == turn {
			return s.data
		}
	}
	return nil
}

// noteDesync starts a report; a peer whose hash is the majority's reports at
// once, the others when they restore.
func (m *Match) noteDesync(info session.DesyncInfo, self session.PeerID) {
	for _, h := range info.Hashes {
		if h.Peer == self && h.Hash == info.Majority {
			m.report(Report{Desync: info})
			return
		}
	}
	m.desync = &info
}

// repaired finishes the pending report after restoring the majority's state.
func (m *Match) repaired(turn uint64, before []byte) {
	if m.desync == nil {
		return
	}
	r := Report{Desync: *m.desync, Restored: turn}
	m.desync = nil
	own := new(game.World)
	if _, state, err := parseHeader(before); err != nil || own.Restore(state) != nil {
		r.Unmatched = true
	} else {
		r.Differs = game.Compare(own, m.world, 20)
	}
	m.report(r)
}

func (m *Match) report(r Report) {
	if m.opt.OnDesyncReport != nil {
		m.opt.OnDesyncReport(r)
	}
}
