package session

// A planned silence. When the transport replaces a relay circuit that
// reached its limit (p2p/transport/circuit.go), the link to that peer is down for a
// circuit set-up: a few round trips, half a second at an 80 ms round trip,
// longer than FailTicks. The transport says so (MsgRenewing, Count = the
// ticks it allows itself), and for that long neither side takes the silence
// for a lost peer: the host shows no "waiting for" (it still holds its
// turns back quietly when the player lags) and a follower does not suspect
// its host. A peer that really went away is found once the allowance ends.

// renewingTicksMax bounds an allowance, whatever the transport asks: a
// dead peer is still found within seconds.
const renewingTicksMax = 500

// renewing reports whether p is within a renewal the transport announced.
func (n *Node) renewing(p PeerID) bool {
	until, ok := n.renewals[p]
	if ok && n.now >= until {
		delete(n.renewals, p)
		return false
	}
	return ok
}

// stepRenewing notes a renewal of the link to p for ticks.
func (n *Node) stepRenewing(p PeerID, ticks uint32) {
	if n.renewals == nil {
		n.renewals = map[PeerID]int{}
	}
	for q, until := range n.renewals { // entries nobody asked about again
		if n.now >= until {
			delete(n.renewals, q)
		}
	}
	n.renewals[p] = n.now + int(min(ticks, renewingTicksMax))
}
