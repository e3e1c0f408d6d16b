package session

// A snapshot's state can be megabytes (a big map's terrain and fog, many
// units). Sent whole it would be one frame that holds the link for its
// full length and costs its size at once on both sides; so it travels in
// parts of at most Config.SnapshotChunk bytes, each a MsgSnapshot that
// repeats the small fields (turn, chain, sequence numbers) and leaves the
// lobby and the turns after the snapshot to the last part. The receiving
// node puts the parts back together before anything looks at the snapshot,
// so the rules of who may send one (follower.go, host.go) see it whole.
// Parts are kept only from a peer this node could take a snapshot from
// (its host, the source the host named, the host it asks to let it in),
// one snapshot each, and never more than MaxMessageSize in all.

// maxSnapshotParts bounds the parts of one snapshot (and so what a
// receiver keeps while it waits for the rest).
const maxSnapshotParts = 64

// snapAssembly is a snapshot whose parts are arriving from one peer.
type snapAssembly struct {
	first Message // the metadata of the part that came first (its Data, Lobby and Turns left out)
	data  [][]byte
	got   int
	size  int
}

// sendParts splits m (a MsgSnapshot) into parts when its state is larger
// than a chunk, and queues them in order.
func (n *Node) sendParts(m Message) {
	s := m.Snapshot
	chunk := max(n.cfg.SnapshotChunk, (len(s.Data)+maxSnapshotParts-1)/maxSnapshotParts)
	parts := (len(s.Data) + chunk - 1) / chunk
	for i := range parts {
		p := m
		ps := *s
		ps.Data = s.Data[i*chunk : min((i+1)*chunk, len(s.Data))]
		ps.Part, ps.Parts = uint32(i), uint32(parts)
		p.Snapshot = &ps
		if i < parts-1 {
			p.Lobby, p.Turns = nil, nil // with the last part
		}
		n.out.msgs = append(n.out.msgs, p)
	}
}

// snapSource reports whether this node could take a snapshot from p.
func (n *Node) snapSource(p PeerID) bool {
	return p != "" && (p == n.host || p == n.snapFrom || p == n.joinHost)
}

// assemble takes one part of a snapshot, in any order (a link may reorder
// messages; a sender that sends the snapshot again fills the parts that
// were lost). It returns the whole message once every part is in, and
// false until then (or for a part it does not keep).
func (n *Node) assemble(m Message) (Message, bool) {
	s := m.Snapshot
	if !n.snapSource(m.From) {
		return Message{}, false
	}
	a := n.snaps[m.From]
	if a == nil || !sameSnapshot(a.first, m) {
		a = &snapAssembly{first: m, data: make([][]byte, s.Parts)}
		a.first.Snapshot = &Snapshot{Turn: s.Turn, Chain: s.Chain, NextSeq: s.NextSeq, Departed: s.Departed, Away: s.Away, DepartedWhy: s.DepartedWhy, Parts: s.Parts}
		a.first.Lobby, a.first.Turns = nil, nil
		n.dropAssemblies(m.From)
		n.snaps[m.From] = a
	}
	if old := a.data[s.Part]; old != nil {
		a.size -= len(old) // sent again: the same part
		a.got--
	}
	if a.size+len(s.Data) > MaxMessageSize {
		delete(n.snaps, m.From)
		return Message{}, false
	}
	a.data[s.Part] = s.Data
	a.size += len(s.Data)
	a.got++
	// A joining node asks again for a snapshot that does not come
	// (snapshotLost); a part is progress, so a big snapshot on a slow link
	// is not asked for again while it arrives.
	n.snapAskedAt, n.snapHeard = n.now, 0
	if s.Part == s.Parts-1 {
		a.first.Lobby, a.first.Turns = m.Lobby, m.Turns
	}
	if a.got < len(a.data) {
		return Message{}, false
	}
	delete(n.snaps, m.From)
	whole := a.first
	ws := *whole.Snapshot
	ws.Part, ws.Parts = 0, 0
	ws.Data = make([]byte, 0, a.size)
	for _, d := range a.data {
		ws.Data = append(ws.Data, d...)
	}
	whole.Snapshot = &ws
	return whole, true
}

// sameSnapshot reports whether part m continues the snapshot first began.
func sameSnapshot(first, m Message) bool {
	a, b := first.Snapshot, m.Snapshot
	return first.Kind == m.Kind && first.Epoch == m.Epoch && a.Turn == b.Turn && a.Chain == b.Chain && a.Parts == b.Parts
}

// dropAssemblies forgets the half-received snapshots of peers this node
// no longer takes one from (keeping from's).
func (n *Node) dropAssemblies(from PeerID) {
	for p := range n.snaps {
		if p != from && !n.snapSource(p) {
			delete(n.snaps, p)
		}
	}
}
