package network

import (
	"slices"
	"sync/atomic"

	"github.com/libp2p/go-libp2p/core/peer"

	"hostfall/session"
)

// admission is the set of peers the transport lets send large frames
// (turns, snapshots, command batches): the members of this peer's lobby and
// the peers it asked to be let in or followed (a host it joins, a candidate
// it follows, a game it merges into). Anyone else may only knock, with
// frames of transport.Limits.StrangerFrame at most, so a stranger's flood costs a
// small buffer, not a snapshot-sized one per fresh peer ID.
//
// The loop writes it; transport readers read it through an atomic pointer
// to an immutable set.
type admission struct {
	set   atomic.Pointer[map[peer.ID]bool]
	asked []peer.ID // loop only; the newest last, at most maxAsked
	lobby []peer.ID // loop only; the lobby's members
	gone  []peer.ID // loop only; players whose departure a turn held: never admitted again
	// protect is told the admitted peers whenever they change: the
	// transport keeps their connections from being trimmed for strangers.
	protect func([]peer.ID)
}

// maxAsked bounds the peers remembered as asked: a peer asks its host, the
// candidates of a migration and a merged game's host, a handful a game.
const maxAsked = 64

// askingKinds are the messages a peer sends to a host it chose to join or
// follow: the answers to them (a Welcome and snapshot, turns) may be large.
// A Welcome is the host's side of the same choice: the joiner may speak as
// a member from then on (the transport reads only a stranger's Hello and
// Proof), even before the lobby that lists it is published.
var askingKinds = map[session.MsgKind]bool{
	session.MsgHello: true, session.MsgProof: true, session.MsgFollow: true,
	session.MsgCommands: true, session.MsgAck: true, session.MsgLoaded: true,
	session.MsgWelcome: true,
}

func (a *admission) admitted(p peer.ID) bool {
	s := a.set.Load()
	return s != nil && (*s)[p]
}

// sent notes a message this peer sends to p.
func (a *admission) sent(p peer.ID, kind session.MsgKind) {
	if !askingKinds[kind] || a.admitted(p) || slices.Contains(a.asked, p) {
		return // already known: a departed player stays out without a new set per message
	}
	if len(a.asked) == maxAsked {
		a.asked = a.asked[1:]
	}
	a.asked = append(a.asked, p)
	a.publish()
}

// departed notes a player whose departure a turn held: a removed member
// that keeps sending is a stranger from then on.
func (a *admission) departed(p peer.ID) {
	if len(a.gone) < maxGone {
		a.gone = append(a.gone, p)
	}
	a.publish()
}

// maxGone bounds the departed players remembered (a game has 8 slots).
const maxGone = 64

// members takes the lobby's members (players and spectators).
func (a *admission) members(ids []peer.ID) {
	a.lobby = ids
	a.publish()
}

func (a *admission) publish() {
	s := make(map[peer.ID]bool, len(a.asked)+len(a.lobby))
	for _, p := range a.asked {
		s[p] = true
	}
	for _, p := range a.lobby {
		s[p] = true
	}
	for _, p := range a.gone {
		delete(s, p)
	}
	a.set.Store(&s)
	if a.protect != nil {
		ids := make([]peer.ID, 0, len(s))
		for p := range s {
			ids = append(ids, p)
		}
		a.protect(ids)
	}
}
