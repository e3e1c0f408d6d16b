package network

import (
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"hostfall/session"
)

// Status is the network panel's view of a Peer, refreshed by its loop after
// every change and once a second.
type Status struct {
	Self     peer.ID
	Host     peer.ID
	IsHost   bool
	Joined   bool
	Left     bool
	State    session.LobbyState
	Epoch    uint64
	Turn     uint64
	Slot     int
	Delay    time.Duration // input delay (turns held back × turn length)
	InRate   float64       // bytes a second received, all peers
	OutRate  float64       // bytes a second sent, all peers
	Peers    []PeerStatus  // the session's other members, in slot order, then others
	Over     bool          // the game has ended
	Dropped  uint64        // frames dropped because a peer's queue was full
	Messages uint64        // session messages received
	// Stall is the longest the loop went without ticking, beyond one tick:
	// how long this peer could not answer (nothing may hold the loop up).
	Stall time.Duration
	// A stall is the loop busy or the loop not run. Busy is the most CPU
	// one pass of the loop took (one message, tick or request with what
	// followed), BusyIn what that pass handled; Late is the most of one
	// stall the loop's thread was not on a CPU: the process not scheduled,
	// the goroutine waiting behind others, a garbage collector's pause.
	Busy   time.Duration
	BusyIn string
	Late   time.Duration
	// Redirect: while joining, the peer asked is a member, not the host,
	// and named this one as its host.
	Redirect peer.ID
	// HostTurn is the newest turn heard of from the host (at least Turn):
	// a rejoining player catches up to it.
	HostTurn uint64
}

// PeerStatus is one other peer as this one sees it.
type PeerStatus struct {
	ID        peer.ID
	Name      string
	Slot      int  // -1: spectator or not in the lobby
	Connected bool // a libp2p connection is open
	Stream    bool // the session stream is up
	RTT       time.Duration
	InRate    float64
	OutRate   float64
	// Limited: the session runs over a relay circuit with a time or data
	// limit; Circuits counts the fresh circuits that followed limited ones.
	Limited  bool
	Circuits uint64
}
