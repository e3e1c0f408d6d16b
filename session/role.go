package session

import (
	"fmt"
	"slices"
)

// A node's role decides which step and tick functions handle what comes
// in. Every role is entered through its become… below, as etcd's raft
// enters its roles: each takes what the role needs (an epoch and its host,
// a migration record) and ends the old role in one reset, so no caller
// patches role fields by hand.

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

// reset ends the role this node leaves, for every become…: a host's state
// goes (its own unsequenced commands back to pending) and the migration
// record becomes el: nil, unless a migration goes on in the new role (a
// follower of a claim, a candidate).
func (n *Node) reset(el *election) {
	n.keepOwnOpen()
	n.el = el
}

// becomeJoining starts the join handshake with host, or a seek for the game
// (see seek): no host is followed, suspected or waited for any more.
func (n *Node) becomeJoining(host PeerID) {
	n.setRole(roleJoining) // a candidate that goes seeking ends its wait
	n.reset(nil)
	n.deferred = nil
	n.hostLost, n.awaitResume = false, false
	n.snapTargets = nil
	n.joinHost, n.joinedAt = host, n.now
}

// becomeFollower makes this node follow host, which sequences epoch. With el
// nil the host runs and any migration is over; with el this node follows a
// candidate's claim, and the migration's record stays until the candidate
// resumes (see heardHost).
func (n *Node) becomeFollower(epoch uint64, host PeerID, el *election) {
	n.setRole(roleFollower)
	n.reset(el)
	n.epoch, n.host = epoch, host
	n.hostLost, n.hostHeard = false, n.now
	n.awaitResume = el != nil
	if el != nil {
		el.expect = ""
		n.deferred = nil // the claim it follows answers any it put off
	}
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

// becomeCandidate runs for host in the migration el: it claims a new
// epoch of a generation nobody used and asks every other player to follow.
func (n *Node) becomeCandidate(el *election) {
	n.setRole(roleCandidate)
	n.reset(el)
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
		n.send(Message{Kind: MsgClaim, To: p, Epoch: el.claim, Turn: n.hist.last(), Chain: n.hist.lastChain()})
	}
	for _, p := range n.lobby.Spectators {
		n.send(Message{Kind: MsgClaim, To: p, Epoch: el.claim, Turn: n.hist.last(), Chain: n.hist.lastChain()})
	}
	n.maybeDecide()
}

// becomeHost makes this node sequence epoch: a new host state, its bots'
// and its own unsequenced commands taken into the first turn.
func (n *Node) becomeHost(epoch uint64) {
	n.setRole(roleHost)
	n.reset(nil)
	n.epoch, n.host = epoch, n.self
	n.hostLost = false
	n.hs = &hostState{
		nonces: map[PeerID]challenge{}, hellos: map[PeerID]Message{}, offences: map[PeerID]offenceRec{}, hashes: map[uint64][]PeerHash{},
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
		if s.Kind == SlotBot || n.propSeq[i] < n.hist.nextSeq[i]-1 {
			n.propSeq[i] = n.hist.nextSeq[i] - 1
		}
	}
	// This node's own unsequenced commands go into the first turn. Numbers
	// past the history's next one were used on a branch the game discarded:
	// they are numbered on from it, or a gap would stop the slot for good.
	if n.slot >= 0 && n.hist.nextSeq[n.slot] > 0 {
		n.renumberFrom(n.hist.nextSeq[n.slot])
	}
	for _, p := range n.pending {
		if p.cmd.Seq == n.hs.expectSeq(n, p.cmd.Slot) {
			n.hs.open = append(n.hs.open, p.cmd)
		}
	}
	n.pending = nil
}

// becomeLeft ends this node's part in the session with a reason a person
// reads; the node is inert from then on.
func (n *Node) becomeLeft(why string) {
	if n.role == roleLeft {
		return
	}
	n.setRole(roleLeft)
	n.reset(nil)
	n.emit(Event{Kind: EvLeft, Text: why})
}
