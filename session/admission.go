package session

import (
	"crypto/hmac"
	"fmt"
	"slices"
)

// Admission: the handshake a joiner passes (versions, kick list, the
// password proof and its throttling) and the seat it gets.

func (n *Node) onHello(m Message) {
	h := n.hs
	hello := m.Hello
	if hello == nil {
		return
	}
	refuse := func(code RefusalCode, text string) {
		n.send(Message{Kind: MsgRefuse, To: m.From, Refusal: &Refusal{Code: code, Text: text}})
	}
	if hello.Protocol != ProtocolVersion || hello.GameVersion != n.cfg.GameVersion {
		host := n.cfg.Name
		if host == "" {
			host = "The host"
		}
		refuse(RefuseVersion, fmt.Sprintf(
			"%s runs Hostfall %s (protocol %d); you run Hostfall %s (protocol %d): players need the same version to play together (hostfall version shows yours).",
			host, n.cfg.GameVersion, ProtocolVersion, hello.GameVersion, hello.Protocol))
		return
	}
	if n.isKicked(m.From) {
		refuse(RefuseKicked, "The host removed you from this session; you cannot join it again.")
		return
	}
	if n.lobby.Password && n.hs.guessing(n, m.From) {
		refuse(RefusePassword, "Too many wrong passwords from you; wait a little and try again.")
		return
	}
	if n.lobby.Password && h.challenges(n) >= maxChallenges {
		refuse(RefuseFull, "Too many players are joining at once; try again in a moment.")
		return
	}
	if n.lobby.Password && n.password == "" {
		// A host that took over without knowing the password (it joined
		// before the password was set) cannot check proofs: nobody new
		// gets in rather than anybody.
		refuse(RefusePassword, "This game has a password that its current host does not know, so nobody can join it now; ask the players to start a new game.")
		return
	}
	if n.rosterIndex(m.From) < 0 {
		m.Targets = nil // only a player's Byes count (admit)
	}
	h.hellos[m.From] = m
	if n.lobby.Password {
		nonce := n.random(nonceSize)
		h.nonces[m.From] = challenge{nonce: nonce, at: n.now}
		n.send(Message{Kind: MsgChallenge, To: m.From, Nonce: append(slices.Clone(n.hostSalt()), nonce...)})
		return
	}
	n.admit(m)
}

func (n *Node) onProof(m Message) {
	h := n.hs
	c, ok := h.nonces[m.From]
	nonce := c.nonce
	hello, asked := h.hellos[m.From]
	if !ok || !asked {
		return
	}
	delete(h.nonces, m.From)
	if !hmac.Equal(m.Proof, passwordProof(n.pwKey(n.password, n.hostSalt()), nonce, n.self, m.From)) {
		h.guessed(n, m.From)
		delete(h.hellos, m.From)
		n.send(Message{Kind: MsgRefuse, To: m.From, Refusal: &Refusal{Code: RefusePassword,
			Text: "The password is wrong; ask the host for the right one and try again."}})
		return
	}
	n.admit(hello)
}

// admit seats a joiner that passed the handshake: a known player rejoins its
// slot, a newcomer takes the first open slot in the lobby, and a spectator (or
// a known player whose slot has departed) watches.
func (n *Node) admit(m Message) {
	h := n.hs
	p, hello := m.From, m.Hello
	delete(h.hellos, p)
	if old := h.peer(p); old != nil && old.welcomedAt > 0 && !old.connLost && n.now-old.welcomedAt < seekTicks/2 {
		// A Hello repeated before the answer to the last one could
		// arrive (that answer, a snapshot, is on its way): each would
		// cost a snapshot and a lobby broadcast. A node that lost its
		// answer asks again after seekTicks.
		return
	}
	slot := n.lobby.SlotOf(p)
	if slot < 0 && !hello.Spectate {
		slot = n.reservedFor(p, hello.Name)
	}
	playing := n.lobby.State != StateLobby
	spectate := hello.Spectate
	switch {
	case slot >= 0 && n.hist.isDeparted(slot):
		spectate = true
		slot = -1
	case slot >= 0:
	case spectate:
	case n.lobby.Resume > 0 && !playing:
		n.send(Message{Kind: MsgRefuse, To: p, Refusal: &Refusal{Code: RefuseNotMember,
			Text: "This session resumes a saved game, and you were not one of its players; you can join it as a spectator."}})
		return
	case playing:
		n.send(Message{Kind: MsgRefuse, To: p, Refusal: &Refusal{Code: RefuseInProgress,
			Text: "The game has already started; you can join it as a spectator."}})
		return
	default:
		for i, s := range n.lobby.Slots {
			if s.Kind == SlotOpen {
				slot = i
				break
			}
		}
		if slot < 0 {
			n.send(Message{Kind: MsgRefuse, To: p, Refusal: &Refusal{Code: RefuseFull,
				Text: fmt.Sprintf("The session is full (%d players).", n.lobby.MaxPlayers)}})
			return
		}
		n.lobby.Slots[slot] = Slot{Kind: SlotHuman, Peer: p, Name: hello.Name, Color: n.lobby.Slots[slot].Color}
	}
	if spectate && !n.lobby.isSpectator(p) {
		n.lobby.Spectators = append(n.lobby.Spectators, p)
	}
	if old := h.peer(p); old != nil && old.stallSince >= 0 && slot >= 0 {
		h.broadcastWait(n, slot, 0) // it is back: the wait is over
	}
	if slot >= 0 && !spectate && n.lobby.State >= StateLoading && h.lostTo(n, p) {
		n.believeByes(p, m.Targets)
	}
	pi := h.addPeer(n, p, slot, n.hist.last())
	n.lobbyChanged()
	next := uint64(1)
	if slot >= 0 {
		next = h.expectSeq(n, slot)
	}
	l := n.lobby.Clone()
	n.hostSend(pi, Message{Kind: MsgWelcome, Slot: slot, Lobby: &l, NextSeq: next})
	if n.lobby.State == StatePlaying {
		pi.welcomedAt = n.now
	}
	if n.lobby.State == StateLoading {
		n.sendResume(pi)
	}
	if n.lobby.State == StatePlaying {
		// Catch up by snapshot plus the turns since (late join / rejoin).
		n.snapTargets = append(n.snapTargets, p)
		if n.released == 0 {
			n.snapTargets = n.snapTargets[:len(n.snapTargets)-1]
			n.answer(pi, Message{Kind: MsgSnapshot, Lobby: &l, Turns: n.hist.turnsAfter(0, n.hist.last())})
		}
	}
}

// believeByes takes the Byes a player coming back from elsewhere heard
// (byesHeld): when its side of a split lost the merge, the departures it
// played went with that side's play, and this host, which never heard
// them, has those players only away. A Bye counts for a player this host
// has lost too, so a lie costs no player present its seat.
func (n *Node) believeByes(from PeerID, byes []PeerID) {
	for _, p := range byes {
		if p != from && p != n.self && n.rosterIndex(p) >= 0 && n.hs.lostTo(n, p) {
			n.hs.dropPeer(n, p, DepartLeft)
		}
	}
}

// lostTo reports whether this host does not have player p: away,
// disconnected, silent past FailTicks, or none of its peers.
func (h *hostState) lostTo(n *Node, p PeerID) bool {
	pi := h.peer(p)
	return pi == nil || pi.away || pi.connLost || n.now-pi.heard > n.cfg.FailTicks
}

// Password guessing is throttled per peer: after freeGuesses wrong proofs in
// a row (a player who mistyped retries at once), a peer waits before it is
// challenged again, a second longer for each further wrong proof (up to a
// minute), and the host keeps at most maxChallenges open
// challenges, so fresh peer IDs cannot grow its memory either. (Per
// address, the transport budgets proofs, transport.Limits.ProofRate: the
// session sees peer IDs only.)
const (
	freeGuesses   = 2
	maxChallenges = 64
	maxGuessers   = 256
	guessWait     = 100 // ticks (1 s) per wrong proof in a row
	maxGuessWait  = 6000
)

// challenge is a nonce sent to a joiner, and when.
type challenge struct {
	nonce []byte
	at    int
}

// challengeTicks is how long a challenge waits for its proof (10 s).
const challengeTicks = 1000

// challenges drops the challenges no proof answered in time and counts the
// others.
func (h *hostState) challenges(n *Node) int {
	for p, c := range h.nonces {
		if n.now-c.at > challengeTicks {
			delete(h.nonces, p)
			delete(h.hellos, p)
		}
	}
	return len(h.nonces)
}

type guesses struct {
	wrong int // wrong proofs in a row
	until int // tick before which the peer is not challenged again
}

func (h *hostState) guessing(n *Node, p PeerID) bool {
	g, ok := h.wrong[p]
	return ok && n.now < g.until
}

func (h *hostState) guessed(n *Node, p PeerID) {
	if len(h.wrong) >= maxGuessers {
		for q, g := range h.wrong { // forget those whose wait is over
			if n.now >= g.until {
				delete(h.wrong, q)
			}
		}
		if len(h.wrong) >= maxGuessers {
			return // every slot waits already; the challenge cap still holds
		}
	}
	g := h.wrong[p]
	g.wrong++
	if g.wrong > freeGuesses {
		g.until = n.now + min(guessWait*(g.wrong-freeGuesses), maxGuessWait)
	}
	h.wrong[p] = g
}
