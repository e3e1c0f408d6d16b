package session

// Announce is what a peer advertises while it looks for a session with --auto.
type Announce struct {
	Peer    PeerID
	Hosting bool   // it already hosts a lobby
	Players uint32 // players in that lobby
}

// ElectHost is the --auto rule: peers that meet with no session each run it
// over the same announcements and agree on one host without talking. A peer
// that already hosts wins (the fullest lobby first), so late arrivals join the
// running lobby; otherwise the smallest peer ID hosts. Order of the input does
// not matter; an empty input returns "".
func ElectHost(seen []Announce) PeerID {
	var best *Announce
	better := func(a, b *Announce) bool {
		if a.Hosting != b.Hosting {
			return a.Hosting
		}
		if a.Hosting && a.Players != b.Players {
			return a.Players > b.Players
		}
		return a.Peer < b.Peer
	}
	for i := range seen {
		if seen[i].Peer == "" {
			continue
		}
		if best == nil || better(&seen[i], best) {
			best = &seen[i]
		}
	}
	if best == nil {
		return ""
	}
	return best.Peer
}
