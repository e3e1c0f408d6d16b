package network

import (
	"fmt"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"hostfall/client"
	"hostfall/session"
)

// convert maps a peer's event to what the screens show. The session's own
// events go through client.SessionEvent, so the window words them the same
// way whichever client runs the session; names come from lobby (the lobby
// the game started with, once it has). Events the screens do not show, and
// those the client handles itself (reports, the end), give ok false. self
// is this peer: a host change away from it is told as such.
func convert(ev Event, lobby *session.Lobby, tick time.Duration, self peer.ID) (client.Event, bool) {
	var se session.Event
	switch ev.Kind {
	case EvRefused:
		se = session.Event{Kind: session.EvRefused, Text: ev.Text}
	case EvChat:
		se = session.Event{Kind: session.EvChat, Chat: ev.Chat}
	case EvCountdown:
		se = session.Event{Kind: session.EvCountdown, Count: ev.Count}
	case EvWaiting:
		se = session.Event{Kind: session.EvWaiting, Slot: ev.Slot, Name: ev.Name, TicksLeft: int(ev.Left / tick)}
	case EvWaitOver:
		se = session.Event{Kind: session.EvWaitOver, Slot: ev.Slot, Name: ev.Name}
	case EvPlayerLeft:
		se = session.Event{Kind: session.EvPlayerLeft, Slot: ev.Slot, Turn: ev.Turn, Reason: ev.Reason}
	case EvPlayerAway:
		se = session.Event{Kind: session.EvPlayerAway, Slot: ev.Slot, Turn: ev.Turn}
	case EvPlayerBack:
		se = session.Event{Kind: session.EvPlayerBack, Slot: ev.Slot, Turn: ev.Turn}
	case EvDesync:
		se = session.Event{Kind: session.EvDesync, Turn: ev.Turn, Desync: ev.Desync}
	case EvDesyncRepaired:
		se = session.Event{Kind: session.EvDesyncRepaired, Turn: ev.Turn}
	case EvLeft:
		se = session.Event{Kind: session.EvLeft, Text: ev.Text}
	case EvHostChanged:
		se = session.Event{Kind: session.EvHostChanged, OldHost: session.PeerID(ev.OldHost.String()),
			NewHost: session.PeerID(ev.Host.String()), Epoch: ev.Epoch}
		out, ok := client.SessionEvent(se, lobby, tickMillis(tick))
		if ok && out.Name == ev.Host.String() {
			out.Name = shortID(out.Name) // not in the lobby: a peer ID is no name
		}
		// p2p measured the hand-over: from the loss to the new host's first turn.
		out.Millis = int(ev.Took.Milliseconds())
		switch {
		case ev.OldHost == self && ev.Host != self && ev.Epoch < ev.OldEpoch:
			// This player took over from a host that went quiet; that host
			// came back and its side kept the game (the split rule): an
			// older epoch won, and this player was not the one away
			// (play-test: the player who stayed read "You were away too long").
			out.Text = out.Name + " is back and hosts the game again"
		case ev.OldHost == self && ev.Host != self:
			// This player hosted, went quiet (stopped, cut off) and the
			// game went on under another, a newer epoch: nobody left.
			out.Text = "You were away too long — " + out.Name + " took over hosting"
		}
		if ev.Host == self && ev.OldHost != self {
			// Play-test: Bo's own screen read "Bo is now hosting".
			out.Text = fmt.Sprintf("Host left — you are now hosting (hand-over took %d ms)", out.Millis)
		}
		return out, ok
	default:
		return client.Event{}, false
	}
	return client.SessionEvent(se, lobby, tickMillis(tick))
}

// netStatus maps a peer's status to the network panel: the session's
// players in slot order (this one marked Self, the host Host), then its
// spectators, with the round trip to each and, given path, how each is
// reached over the internet (and through which relay without limits).
func netStatus(st Status, l *session.Lobby, tick time.Duration, path func(id string) (client.Path, string)) client.NetStatus {
	turn := time.Duration(max(l.TurnTicks, 1)) * tick
	ns := client.NetStatus{
		Online: true, Host: hostName(l, st.Host.String()), Epoch: session.EpochGeneration(st.Epoch), Turn: st.Turn,
		InputDelay: int((st.Delay + turn/2) / turn), TurnMillis: int(turn / time.Millisecond),
		BytesIn: st.InRate, BytesOut: st.OutRate,
	}
	if !st.Joined {
		ns.Host = ""
	}
	byID := map[string]PeerStatus{}
	for _, ps := range st.Peers {
		byID[ps.ID.String()] = ps
	}
	add := func(id string, name string, slot int) {
		p := client.PeerStatus{Name: name, Slot: slot, Host: id == st.Host.String(), Self: id == st.Self.String(), PingMillis: -1}
		ps, ok := byID[id]
		if ok && ps.Connected && ps.RTT > 0 {
			p.PingMillis = float64(ps.RTT.Microseconds()) / 1000
		}
		if p.Self {
			p.PingMillis = 0
		} else if path != nil {
			var relay string
			p.Path, relay = path(id)
			if s := l.SlotOf(session.PeerID(relay)); relay != "" && s >= 0 {
				p.Via = l.Slots[s].Name
			}
		}
		if ok && ps.Limited && !p.Self {
			p.Limited, p.Renewed, p.Path = true, int(ps.Circuits), client.PathRelayed
		}
		ns.Peers = append(ns.Peers, p)
	}
	for i, s := range l.Slots {
		if s.Kind == session.SlotHuman {
			add(string(s.Peer), s.Name, i)
		}
	}
	for _, id := range l.Spectators {
		add(string(id), "spectator "+shortID(string(id)), -1)
	}
	return ns
}

// hostName names the player whose peer has this ID, or shortens the ID.
func hostName(l *session.Lobby, id string) string {
	if id == "" {
		return ""
	}
	if s := l.SlotOf(session.PeerID(id)); s >= 0 && l.Slots[s].Name != "" {
		return l.Slots[s].Name
	}
	return shortID(id)
}

// shortID is the end of a peer ID, as libp2p tools show it.
func shortID(id string) string {
	if len(id) <= 8 {
		return id
	}
	return "…" + id[len(id)-6:]
}

func tickMillis(tick time.Duration) int { return max(int(tick/time.Millisecond), 1) }
