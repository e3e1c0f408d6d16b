package session

import (
	"fmt"
	"slices"
)

type role uint8

const (
	roleNone      role = iota // created, not in a session
	roleJoining               // Hello sent, waiting for Welcome
	roleFollower              // following a host (or a candidate that has not resumed yet)
	roleCandidate             // gathering followers for a new epoch
	roleHost                  // sequencing
	roleLeft                  // left the session; the node is inert
)

var roleNames = [...]string{"none", "joining", "follower", "candidate", "host", "left"}

func (r role) String() string { return roleNames[r] }

// transitions lists the roles a node may move to from each role. Roles change
// only through the become… functions, which check this table: any other move
// is a bug in this package, and, as etcd's raft does, the node panics rather
// than run on in a state nobody reasoned about.
var transitions = [...][]role{
	roleNone:      {roleJoining, roleHost, roleLeft},
	roleJoining:   {roleFollower, roleCandidate, roleLeft},
	roleFollower:  {roleFollower, roleCandidate, roleJoining, roleLeft},
	roleCandidate: {roleFollower, roleCandidate, roleHost, roleJoining, roleLeft},
	roleHost:      {roleFollower, roleJoining, roleLeft},
	roleLeft:      nil,
}

func (n *Node) setRole(to role) {
	if !slices.Contains(transitions[n.role], to) {
		panic(fmt.Sprintf("session: %s cannot become %s", n.role, to))
	}
	if n.role == roleCandidate && to != roleCandidate && n.el != nil && n.el.waiting {
		// However the candidacy ends, its wait for the others is over:
		// nothing shown may count it down any more.
		n.el.waiting = false
		n.emit(Event{Kind: EvWaitOver, Slot: -1, Name: OtherPlayers})
	}
	n.role = to
}

// becomeJoining starts the join handshake with host.
func (n *Node) becomeJoining(host PeerID) {
	n.setRole(roleJoining)
	n.joinHost = host
	n.joinedAt = n.now
}

// becomeFollower makes this node follow a host (the caller sets which, and
// what it knows of it); a follower keeps no host state.
func (n *Node) becomeFollower() {
	n.setRole(roleFollower)
	n.keepOwnOpen()
}

// keepOwnOpen ends a host's state: its own commands it had not sequenced
// yet go back to pending, so the next host gets them (dropping them would
// leave a gap in the slot's numbers, and the next host would refuse every
// later command of the slot).
func (n *Node) keepOwnOpen() {
	if n.hs == nil {
		return
	}
	var own []pendingCmd
	for _, c := range n.hs.open {
		if c.Slot == n.slot && n.slot >= 0 {
			own = append(own, pendingCmd{cmd: c, sentAt: n.now})
		}
	}
	n.pending = append(own, n.pending...)
	n.hs = nil
}

func (n *Node) becomeCandidate() {
	el := n.el
	n.setRole(roleCandidate)
	gen := max(epochGen(n.epoch), el.maxGen, n.maxGen) + 1
	n.maxGen = gen
	el.maxGen = gen
	el.claim = makeEpoch(gen, n.slot)
	el.gatherEnd = n.now + n.cfg.GatherTicks
	el.followers, el.answered, el.alive = nil, nil, nil
	// Every other player is asked, the host whose loss began this
	// migration included: if it is alive after all, its answer sends the
	// candidate back to it.
	for _, p := range n.otherPlayers() {
		n.send(Message{Kind: MsgClaim, To: p, Epoch: el.claim, Turn: n.last(), Chain: n.lastChain()})
	}
	for _, p := range n.lobby.Spectators {
		n.send(Message{Kind: MsgClaim, To: p, Epoch: el.claim, Turn: n.last(), Chain: n.lastChain()})
	}
	n.maybeDecide()
}

func (n *Node) becomeHost() {
	n.setRole(roleHost)
	n.host = n.self
	n.hs = &hostState{
		nonces: map[PeerID]challenge{}, hellos: map[PeerID]*Hello{}, offences: map[PeerID]offenceRec{}, hashes: map[uint64][]PeerHash{},
		wrong:  map[PeerID]guesses{},
		loaded: map[PeerID]bool{}, repairing: map[PeerID]int{}, newer: map[PeerID]int{}, rivalAt: map[uint64]int{},
		sides: map[PeerID]sideNote{},
	}
	if n.loaded {
		n.hs.loaded[n.self] = true
	}
	// Bot commands the old host had not sequenced died with it: the bots
	// continue after the last sequenced command of their slot.
	for i, s := range n.lobby.Slots {
		if s.Kind == SlotBot || n.propSeq[i] < n.nextSeq[i]-1 {
			n.propSeq[i] = n.nextSeq[i] - 1
		}
	}
	// This node's own unsequenced commands go into the first turn. Numbers
	// past the history's next one were used on a branch the game discarded:
	// they are numbered on from it, or a gap would stop the slot for good.
	if n.slot >= 0 && n.nextSeq[n.slot] > 0 {
		n.renumberFrom(n.nextSeq[n.slot])
	}
	for _, p := range n.pending {
		if p.cmd.Seq == n.hs.expectSeq(n, p.cmd.Slot) {
			n.hs.open = append(n.hs.open, p.cmd)
		}
	}
	n.pending = nil
}

// leave ends this node's part in the session with a reason a person reads.
func (n *Node) leave(why string) {
	if n.role == roleLeft {
		return
	}
	n.setRole(roleLeft)
	n.hs, n.el = nil, nil
	n.emit(Event{Kind: EvLeft, Text: why})
}
