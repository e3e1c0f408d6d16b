package transport

import "github.com/libp2p/go-libp2p/core/network"

// Moving a session stream off a relay. Two peers behind NAT first talk
// through the relay; when DCUtR hole punching (or any dial) opens a direct
// connection, or a circuit without limits through a player of the game
// (playerrelay.go) follows a limited one, libp2p keeps the open streams
// where they are, so the link opens a new one, which libp2p puts on the
// best connection (direct beats relayed, unlimited beats limited), and
// drops the old one. Frames in flight on the old stream may be lost; the
// session resends what matters.

// directConnected tells the link to c's peer that a better path is there:
// a direct connection, or a relayed one without limits. Only the peer with
// the smaller ID moves the stream: the other side adopts the new inbound
// stream (link.run's tie-break keeps the smaller peer's stream), so the
// two never race.
func (t *transport) directConnected(c network.Conn) {
	p := c.RemotePeer()
	if c.Stat().Limited || t.self >= p {
		return
	}
	t.mu.Lock()
	l := t.links[p]
	t.mu.Unlock()
	if l == nil {
		return
	}
	select {
	case l.reopen <- struct{}{}:
	default:
	}
}

// reopenDirect opens a new stream when cur runs over a relay and the new one
// would run on a better connection (direct, or without limits where cur's
// has them); nil when there is nothing to do.
func (l *link) reopenDirect(cur network.Stream) network.Stream {
	if cur == nil || !IsCircuit(cur.Conn().RemoteMultiaddr()) {
		return nil
	}
	s, err := l.open()
	if err != nil {
		l.t.log.Debug("cannot open a session stream on the direct connection", "peer", l.p, "err", err)
		return nil
	}
	if s.Conn() == cur.Conn() || IsCircuit(s.Conn().RemoteMultiaddr()) && (s.Conn().Stat().Limited || !cur.Conn().Stat().Limited) {
		s.Reset()
		return nil
	}
	l.t.log.Debug("session stream moved to a better connection", "peer", l.p, "addr", s.Conn().RemoteMultiaddr())
	return s
}
