package main

import (
	"context"

	"hostfall/p2p"
)

// announceOnLAN advertises the session with mDNS whenever this peer hosts
// it (from the start, or after a migration) until the game is closed.
func (g *netGame) announceOnLAN() {
	g.unlan = p2p.AnnounceLobby(context.Background(), g.peer, false, p2p.AdvertiseOptions{Logger: g.log})
}
