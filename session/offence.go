package session

import "fmt"

// A member's client that sends what no honest client sends (hash reports
// for turns far beyond any played, command batches larger than a client
// ever resends, commands for another slot) is a modified or broken client.
// Each such message is ignored, as before, and counted: the host warns the
// member privately at warnOffences, and removes it from the game at
// dropOffences, as a sequenced departure every peer shows with its reason
// (DepartMisbehaved), refused from rejoining like a kicked player. A quiet
// spell of offenceWindow ticks forgives the count, so a rare slip (a stale
// report after a migration) never adds up to a removal.
const (
	warnOffences  = 3
	dropOffences  = 10
	offenceWindow = 6000 // ticks: a minute at 10 ms
)

// lieLeadTurns is how far past the host's newest turn a hash report must
// be to count as an offence: a peer that followed an old host further than
// the new one may still report a few of those turns.
const lieLeadTurns = 1000

// offenceRec is a member's count in its current spell of offences. It is
// kept by peer, not in its peerInfo, so that a Hello (which makes a new
// peerInfo for a member coming back) does not wipe it.
type offenceRec struct {
	count, at int // at: tick of the last one
}

// offence counts one message from pi that no honest client sends.
func (h *hostState) offence(n *Node, pi *peerInfo, what string) {
	r := h.offences[pi.id]
	if r.count > 0 && n.now-r.at > offenceWindow {
		r.count = 0
	}
	r.count++
	r.at = n.now
	h.offences[pi.id] = r
	switch r.count {
	case warnOffences:
		text := fmt.Sprintf("Warning from the host: your client sent %s. It will be removed from the game if this goes on.", what)
		n.hostSend(pi, Message{Kind: MsgChat, Chat: &Chat{FromSlot: n.slot, FromName: n.cfg.Name, Text: text}})
	case dropOffences:
		n.kicked = append(n.kicked, pi.id)
		n.send(Message{Kind: MsgRefuse, To: pi.id, Refusal: &Refusal{Code: RefuseKicked,
			Text: fmt.Sprintf("The host removed you from the game: your client kept sending %s.", what)}})
		h.dropPeer(n, pi.id, DepartMisbehaved)
	}
}

// checkCommands counts a command batch no honest client sends: more than
// a follower's resend carries (see follower.go), or commands for a slot that
// is not the sender's.
func (h *hostState) checkCommands(n *Node, pi *peerInfo, cmds []Command) {
	size := 0
	for _, c := range cmds {
		size += len(c.Data)
		if c.Slot != pi.slot {
			h.offence(n, pi, "commands for another player's slot")
			return
		}
	}
	if len(cmds) > 4*maxSlotCmdsPerTurn || size > 5*maxSlotBytesPerTurn {
		h.offence(n, pi, fmt.Sprintf("a batch of %d commands (%d bytes), more than any client resends", len(cmds), size))
	}
}

// checkReports counts an ack whose hash reports are of turns far past any
// this host has sequenced.
func (h *hostState) checkReports(n *Node, pi *peerInfo, reports []HashReport) {
	for _, hr := range reports {
		if hr.Turn > n.hist.last()+lieLeadTurns {
			h.offence(n, pi, fmt.Sprintf("state hashes of turn %d, which nobody has played", hr.Turn))
			return
		}
	}
}
