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

// learntSilence is what one side has learnt of a link's stalls: the ticks of
// silence it allows beyond FailTicks, and when that last changed.
type learntSilence struct{ extra, calm int }

// limit is the silence allowed: FailTicks and the extra.
func (s *learntSilence) limit(cfg *Config) int { return cfg.FailTicks + s.extra }

// grow notes a mistake after a silence of gap ticks (0 when unknown): the
// extra grows by half of FailTicks, or to the silence seen and half of
// FailTicks more, at most 3 × FailTicks, so that a dead peer is still
// found within 4 × FailTicks (1.2 s with the defaults) however bad the
// link was.
func (s *learntSilence) grow(cfg *Config, now, gap int) {
	step := cfg.FailTicks / 2
	s.extra = min(max(s.extra+step, gap+step-cfg.FailTicks), 3*cfg.FailTicks)
	s.calm = now
}

// relax takes a tick off the extra for every calm silenceCalmTicks.
func (s *learntSilence) relax(now int) {
	if s.extra > 0 && now-s.calm >= silenceCalmTicks {
		s.extra--
		s.calm = now
	}
}

// hostSilence is how many ticks of silence this follower allows its host.
func (n *Node) hostSilence() int { return n.silence.limit(&n.cfg) }

// falseSuspicion notes that the host this node suspected was alive after
// all, after a silence of gap ticks (0 when unknown).
func (n *Node) falseSuspicion(gap int) { n.silence.grow(&n.cfg, n.now, gap) }

// The host waits the same way for a player that goes silent: the others
// see "waiting for NAME" and the game holds its turns. On a lossy link a
// player's acks stall now and then, and each stall held the whole game for
// a moment; a player whose silence ended on its own, connection up, long
// before it would have been marked away, is given that much more silence
// next time, by the same rule.

// peerSilence is how many ticks of silence the host allows player pi.
func (n *Node) peerSilence(pi *peerInfo) int { return pi.silence.limit(&n.cfg) }

// heardAfter notes a message from pi after gap ticks of silence: a wait
// for it that ends this way was a link stall, not an absence.
func (n *Node) heardAfter(pi *peerInfo, gap int) {
	if pi.stallSince >= 0 && !pi.away && !pi.connLost && gap > n.peerSilence(pi) && gap < n.cfg.DropTicks {
		pi.silence.grow(&n.cfg, n.now, gap)
	}
	pi.silence.relax(n.now)
}
