package session

import "slices"

// A seeking node asks the players in turn, and a hostile member among them
// could answer for a game of its own: welcome the seeker into an epoch it
// made up and feed it turns, or refuse it so that it leaves. So a seeker
// takes a Welcome or a Refuse only from a peer something vouches for: the
// host it was sent to, a host another player named when asked, or the
// player its own rule names — the first one listed that it has not found
// silent, the one an election would pick too. Any other answer is ignored,
// and its sender's pings no longer draw the seeker's questions; the seeker
// asks on, and a player that redirects it names the host to believe.

// seekTrust is what one seek has learnt about whose answer to take. Every
// list holds players of the lobby only, so it is bounded by MaxSlots.
type seekTrust struct {
	trusted PeerID   // where the seek was sent
	named   []PeerID // hosts named by the players asked
	silent  []PeerID // players asked that did not answer
	doubted []PeerID // players that answered for a game nothing vouches for
}

// vouched reports whether a seeking node takes p's answer.
func (n *Node) vouched(p PeerID) bool {
	st := &n.seeking
	if p == "" || p == n.self {
		return false
	}
	return p == st.trusted || slices.Contains(st.named, p) || p == n.rightful()
}

// rightful is the player the seeker's own rule names: the first one listed
// (itself aside) that it has not found silent, or "" when all are.
func (n *Node) rightful() PeerID {
	for _, q := range n.otherPlayers() {
		if !slices.Contains(n.seeking.silent, q) {
			return q
		}
	}
	return ""
}

// unvouched answers a Welcome or Refuse from p that nothing vouches for:
// p is doubted, and the seeker asks the player its rule names, whose answer
// (a Welcome, or its host's name) settles it; p's Welcome is taken once
// the players listed before it are found silent. The first doubt of each
// player restarts the wait before the seeker runs for host itself: it
// heard from somebody, and checks.
func (n *Node) unvouched(p PeerID) {
	if !slices.Contains(n.seeking.doubted, p) {
		n.seekSince = n.now
	}
	n.seeking.doubt(p)
	if r := n.rightful(); r != "" && r != n.joinHost {
		n.ask(r)
	}
}

// heard notes that p, asked, answered: it is not silent.
func (st *seekTrust) heard(p PeerID) {
	st.silent = slices.DeleteFunc(st.silent, func(q PeerID) bool { return q == p })
}

// noAnswer notes that p, asked, said nothing for seekTicks (one that
// answered with a doubted game did say something).
func (st *seekTrust) noAnswer(p PeerID) {
	if p != "" && !slices.Contains(st.doubted, p) && !slices.Contains(st.silent, p) && len(st.silent) < MaxSlots {
		st.silent = append(st.silent, p)
	}
}

// name records that a player asked named p as the host to ask; a doubt
// about p ends.
func (n *Node) name(p PeerID) {
	st := &n.seeking
	if n.lobby.SlotOf(p) < 0 || slices.Contains(st.named, p) || len(st.named) >= MaxSlots {
		return
	}
	st.named = append(st.named, p)
	st.doubted = slices.DeleteFunc(st.doubted, func(q PeerID) bool { return q == p })
}

// doubt records that p answered for a game nothing vouches for.
func (st *seekTrust) doubt(p PeerID) {
	if !slices.Contains(st.doubted, p) && len(st.doubted) < MaxSlots {
		st.doubted = append(st.doubted, p)
	}
}
