package session

// SRTTs exposes the host's smoothed round trips (ticks×8) to the tests.
func (n *Node) SRTTs() []int {
	var r []int
	if n.hs != nil {
		for _, pi := range n.hs.peers {
			r = append(r, pi.srtt8)
		}
	}
	return r
}

// RoleName exposes the node's role to debugging tests.
func (n *Node) RoleName() string { return n.role.String() }

// Footprint counts the entries this node keeps in its session state's
// collections, besides the turn log (which the game's length and the
// per-turn budget bound): what a hostile peer could try to grow. Largest
// names the largest collection.
func (n *Node) Footprint() (total int, largest string) {
	most := -1
	add := func(name string, k int) {
		total += k
		if k > most {
			most, largest = k, name
		}
	}
	add("kicked", len(n.kicked))
	add("pending", len(n.pending))
	add("hashQueue", len(n.hashQueue))
	add("connLost", len(n.connLost))
	add("snapTargets", len(n.snapTargets))
	add("snapshots in parts", len(n.snaps))
	add("seek's lists", len(n.seeking.named)+len(n.seeking.silent)+len(n.seeking.doubted))
	if h := n.hs; h != nil {
		add("open", len(h.open))
		add("openDeps", len(h.openDeps))
		add("openPres", len(h.openPres))
		add("peers", len(h.peers))
		add("nonces", len(h.nonces))
		add("hellos", len(h.hellos))
		add("offences", len(h.offences))
		add("wrong", len(h.wrong))
		reports := 0
		for _, rs := range h.hashes {
			reports += 1 + len(rs)
		}
		add("hashes", reports)
		add("loaded", len(h.loaded))
		add("repairing", len(h.repairing))
		add("newer", len(h.newer))
		add("wonOver", len(h.wonOver))
		add("rivalAt", len(h.rivalAt))
		add("sides", len(h.sides))
	}
	if e := n.el; e != nil {
		add("failedHosts", len(e.failedHosts))
		add("skipped", len(e.skipped))
		add("followers", len(e.followers))
		add("answered", len(e.answered))
		add("byes", len(e.byes))
		add("outbid", len(e.outbid))
		add("parked", len(e.parked))
		held := 0
		for _, f := range e.followers {
			held += len(f.turns) + len(f.cmds)
		}
		add("followers' turns and commands", held)
	}
	return total, largest
}

// Seeking reports whether the node has lost its game and asks around for
// it, and whom it asks now.
func (n *Node) Seeking() (bool, PeerID) { return n.role == roleJoining && n.rejoin, n.joinHost }

// HistoryBytes is the estimated size of the turns this node holds.
func (n *Node) HistoryBytes() int { return n.hist.bytes }
