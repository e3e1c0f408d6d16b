package app

import (
	"sync/atomic"
	"time"

	"hostfall/client/network"
	"hostfall/session"
	"hostfall/status"
)

// hookLines makes the client's reports print as ps's lines: events, files,
// the host found, and with a relay or the internet how peers are reached,
// the invite codes and the steps of internet play. With trace, also the
// command and traffic lines the network benchmark matches up across
// processes.
func hookLines(ps *status.PeerLines, o *network.Options, wi *network.Wiring, trace bool) {
	var last atomic.Pointer[network.Peer] // for the traffic lines
	o.OnEvent = func(p *network.Peer, ev network.Event) {
		last.Store(p)
		ps.Event(p.Status(), ev)
	}
	o.OnFile = ps.File
	o.OnFound = ps.Found
	wi.OnPath = ps.Path
	wi.OnProgress = ps.Internet()
	wi.OnInvite = ps.Invite
	wi.OnRelayCode = ps.RelayCode
	o.PeerOptions = func(po *network.PeerOptions) {
		po.OnCircuit = ps.Circuit
		if !trace {
			return
		}
		po.OnPropose = ps.Proposed
		po.OnTurn = func(t session.Turn, at time.Time) {
			ps.Applied(t, at)
			if p := last.Load(); p != nil && t.Number%20 == 0 {
				st := p.Status()
				ps.Traffic(t.Number, st.InRate, st.OutRate)
			}
		}
	}
}
