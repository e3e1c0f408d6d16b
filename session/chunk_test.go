package session

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// chunkNodes are a sender and a receiver whose host is the sender.
func chunkNodes(t *testing.T, chunk int) (from, to *Node) {
	t.Helper()
	mk := func(id PeerID) *Node {
		n, err := NewNode(Config{Self: id, Rand: rand.New(rand.NewPCG(1, 2)), SnapshotChunk: chunk})
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	from, to = mk("host"), mk("joiner")
	to.host = "host"
	return from, to
}

// parts is what from sends for a snapshot of data.
func parts(from *Node, data []byte) []Message {
	from.out.msgs = nil
	from.send(Message{Kind: MsgSnapshot, To: "joiner", Epoch: 16, Lobby: &Lobby{Name: "g"}, Turns: []Turn{{Epoch: 16, Number: 8}},
		Snapshot: &Snapshot{Turn: 7, Data: data, Chain: 99, NextSeq: []uint64{1, 2}}})
	return from.out.msgs
}

// A snapshot larger than a chunk travels in parts that the receiver puts
// back together whole, in any order; parts from anyone else, a snapshot
// with a part missing, or one mixed with a part of another never make a
// whole one.
func TestSnapshotTravelsInParts(t *testing.T) {
	data := make([]byte, 5<<20+123)
	for i := range data {
		data[i] = byte(i * 7)
	}
	from, to := chunkNodes(t, 1<<20)
	ps := parts(from, data)
	if len(ps) != 6 {
		t.Fatalf("a snapshot of %d bytes went in %d parts, want 6", len(data), len(ps))
	}
	for i, p := range ps {
		b, err := p.Marshal()
		if err != nil || len(b) > 1<<20+1<<10 {
			t.Fatalf("part %d: %d bytes, %v", i, len(b), err)
		}
		if (p.Lobby != nil) != (i == len(ps)-1) {
			t.Errorf("part %d carries the lobby: %v", i, p.Lobby != nil)
		}
	}
	for i, p := range ps {
		to.now = 100 + i
		whole, ok := to.assemble(p)
		if to.snapAskedAt != to.now {
			t.Errorf("part %d at tick %d: the wait for the snapshot was not renewed (%d)", i, to.now, to.snapAskedAt)
		}
		if ok != (i == len(ps)-1) {
			t.Fatalf("part %d: whole %v", i, ok)
		}
		if ok {
			s := whole.Snapshot
			if !bytes.Equal(s.Data, data) || s.Turn != 7 || s.Chain != 99 || s.Parts != 0 || whole.Lobby == nil || len(whole.Turns) != 1 {
				t.Errorf("put back together: turn %d chain %d parts %d lobby %v turns %d, data equal %v",
					s.Turn, s.Chain, s.Parts, whole.Lobby != nil, len(whole.Turns), bytes.Equal(s.Data, data))
			}
		}
	}
	if len(to.snaps) != 0 {
		t.Errorf("%d snapshots still kept after the whole one", len(to.snaps))
	}
	// Out of order, and the lost part sent again later.
	shuffled := []Message{ps[3], ps[5], ps[0], ps[1], ps[3], ps[4]}
	for _, p := range shuffled {
		if _, ok := to.assemble(p); ok {
			t.Fatal("whole with a part missing")
		}
	}
	if whole, ok := to.assemble(ps[2]); !ok || !bytes.Equal(whole.Snapshot.Data, data) || whole.Lobby == nil {
		t.Errorf("out of order: whole %v", ok)
	}

	for _, tc := range []struct {
		name string
		mess func([]Message) []Message
	}{
		{"from a stranger", func(ps []Message) []Message {
			for i := range ps {
				ps[i].From = "stranger"
			}
			return ps
		}},
		{"the first part missing", func(ps []Message) []Message { return ps[1:] }},
		{"a part twice, another missing", func(ps []Message) []Message { return append(ps[:3:3], ps[2:5]...) }},
		{"a part of another snapshot", func(ps []Message) []Message {
			other := *ps[2].Snapshot
			other.Turn = 8
			ps[2].Snapshot = &other
			return ps
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			from, to := chunkNodes(t, 1<<20)
			ps := tc.mess(parts(from, data))
			for _, p := range ps {
				if p.From == "" {
					p.From = "host"
				}
				if _, ok := to.assemble(p); ok {
					t.Fatal("a whole snapshot came of it")
				}
			}
		})
	}
}

// A small snapshot goes whole; a tiny chunk is raised so that no snapshot
// takes more than maxSnapshotParts parts.
func TestSnapshotPartsAreBounded(t *testing.T) {
	from, _ := chunkNodes(t, 1<<20)
	if ps := parts(from, make([]byte, 1000)); len(ps) != 1 || ps[0].Snapshot.Parts != 0 {
		t.Errorf("a 1000-byte snapshot went in %d parts", len(ps))
	}
	from, to := chunkNodes(t, 8)
	data := bytes.Repeat([]byte{5}, 1<<20)
	ps := parts(from, data)
	if len(ps) != maxSnapshotParts {
		t.Errorf("1 MiB in chunks of 8 went in %d parts, want %d", len(ps), maxSnapshotParts)
	}
	var whole Message
	for _, p := range ps {
		p.From = "host"
		whole, _ = to.assemble(p)
	}
	if whole.Snapshot == nil || !bytes.Equal(whole.Snapshot.Data, data) {
		t.Error("the parts did not make the snapshot")
	}
}
