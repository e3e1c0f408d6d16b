package session

// The follower's failure detector. A host is suspected after hostSilence
// ticks without a message from it: FailTicks on a clean link, where a lost
// packet costs little. On a lossy one (Wi-Fi, 5 % loss and 80 ms each way)
// every lost packet holds the stream up for a retransmission timeout, TCP's
// or QUIC's, a few hundred milliseconds, and the messages behind it wait:
// FailTicks alone would suspect a live host every second or two, and each
// suspicion runs a migration that comes to nothing. So each false
// suspicion (the suspected host proves alive) lengthens the limit to cover
// the silence just seen, up to 4 × FailTicks; ten calm seconds shorten it
// by a tick again. This is the classic way to an eventually perfect failure
// detector: after finitely many mistakes the timeout exceeds the link's
// real stalls, and a dead host is still found within a bounded time.

// silenceCalmTicks is how long without a false suspicion takes a tick off
// the extra silence allowed.
const silenceCalmTicks = 1000

// hostSilence is how many ticks of silence this follower allows its host.
func (n *Node) hostSilence() int { return n.cfg.FailTicks + n.silenceExtra }

// maxSilenceExtra caps the extra: a dead host is suspected within
// 4 × FailTicks (1.2 s with the defaults) however bad the link was.
func (n *Node) maxSilenceExtra() int { return 3 * n.cfg.FailTicks }

// falseSuspicion notes that the host this node suspected was alive after
// all, after a silence of gap ticks (0 when unknown): the limit grows by
// half of FailTicks, or to the silence seen and half of FailTicks more.
func (n *Node) falseSuspicion(gap int) {
	n.silenceExtra = n.grownSilence(n.silenceExtra, gap)
	n.silenceCalm = n.now
}

// grownSilence is the extra silence after a mistake: half of FailTicks
// more, or the silence seen and half of FailTicks more, capped.
func (n *Node) grownSilence(extra, gap int) int {
	step := n.cfg.FailTicks / 2
	return min(max(extra+step, gap+step-n.cfg.FailTicks), n.maxSilenceExtra())
}

// calmSilence takes a tick off the extra for every calm silenceCalmTicks.
func (n *Node) calmSilence() {
	if n.silenceExtra > 0 && n.now-n.silenceCalm >= silenceCalmTicks {
		n.silenceExtra--
		n.silenceCalm = n.now
	}
}

// The host waits the same way for a player that goes silent: the others
// see "waiting for NAME" and the game holds its turns. On a lossy link a
// player's acks stall now and then, and each stall held the whole game for
// a moment; a player whose silence ended on its own, connection up, long
// before it would have been marked away, is given that much more silence
// next time, by the same rule.

// peerSilence is how many ticks of silence the host allows player pi.
func (n *Node) peerSilence(pi *peerInfo) int { return n.cfg.FailTicks + pi.silenceExtra }

// heardAfter notes a message from pi after gap ticks of silence: a wait
// for it that ends this way was a link stall, not an absence.
func (n *Node) heardAfter(pi *peerInfo, gap int) {
	if pi.stallSince >= 0 && !pi.away && !pi.connLost && gap > n.peerSilence(pi) && gap < n.cfg.DropTicks {
		pi.silenceExtra = n.grownSilence(pi.silenceExtra, gap)
		pi.silenceCalm = n.now
	}
	n.calmPeer(pi)
}

// calmPeer takes a tick off pi's extra for every calm silenceCalmTicks.
func (n *Node) calmPeer(pi *peerInfo) {
	if pi.silenceExtra > 0 && n.now-pi.silenceCalm >= silenceCalmTicks {
		pi.silenceExtra--
		pi.silenceCalm = n.now
	}
}
