package session

import (
	"fmt"
	"slices"
	"strings"
)

// Saving and resuming a game.
//
// Save captures the session's state after a turn (chain hash, next sequence
// number per slot, departed slots) beside the caller's state data. Hosting
// with Settings.Resume opens a lobby whose slots are the save's: bots stay
// bots, departed players stay departed, and every other human slot is
// reserved for its player — a joiner takes it by peer ID, or failing that by
// name. A reserved slot is not ready until its player is back (or the host
// puts a bot in it), so the game cannot start without them. When the
// countdown ends, the host restores the saved state itself and sends it to
// every peer as a snapshot; a follower announces EvLoad only once it holds
// that snapshot, so "loaded" means "at the saved turn", and the first turn
// the host closes is Resume+1. From then on the game is like any other:
// late joins, desync repair and migration all work from the restored base.

// Save returns what a save file needs to resume the game after turn: the
// lobby and the session's state at that turn, with the caller's state data
// (its state after turn). turn must be the last turn handed over (Status.Turn).
func (n *Node) Save(turn uint64, data []byte) (Saved, error) {
	if n.role == roleLeft {
		return Saved{}, ErrLeft
	}
	if n.lobby.State != StatePlaying {
		return Saved{}, ErrNotPlaying
	}
	if turn == 0 || turn != n.released {
		return Saved{}, fmt.Errorf("%w: save at turn %d, but the last turn handed over is %d", ErrWrongTurn, turn, n.released)
	}
	chain, ok := n.hist.chainAt(turn)
	if !ok {
		return Saved{}, fmt.Errorf("%w: turn %d is no longer held", ErrWrongTurn, turn)
	}
	return Saved{
		Lobby: n.lobby.Clone(),
		State: Snapshot{Turn: turn, Data: slices.Clone(data), Chain: chain, Departed: n.hist.departedAt(turn), NextSeq: n.hist.nextSeqAt(turn)},
	}, nil
}

// hostSaved opens a lobby that resumes a saved game, with this node in the
// slot the save has for it (by peer ID, else by name).
func (n *Node) hostSaved(s Settings) error {
	sv := s.Resume
	st := sv.State
	src := sv.Lobby
	if st.Turn == 0 || len(st.NextSeq) > MaxSlots || len(src.Slots) < 1 || len(src.Slots) > MaxSlots {
		return fmt.Errorf("%w: the saved game is incomplete (turn %d, %d slots)", ErrBadArgument, st.Turn, len(src.Slots))
	}
	departed := func(i int) bool { return st.Departed&(1<<i) != 0 }
	self := findSlot(src, n.self, n.cfg.Name, departed)
	if self < 0 {
		return fmt.Errorf("%w: you were not a player of this saved game (players: %s)", ErrBadArgument, playerNames(src, departed))
	}
	l := Lobby{
		Revision: 1, Name: src.Name, MapSeed: src.MapSeed, MapSize: src.MapSize, TurnTicks: src.TurnTicks,
		MaxPlayers: uint32(len(src.Slots)), GameVersion: n.cfg.GameVersion, TurnLimit: src.TurnLimit,
		Resume: st.Turn, Slots: slices.Clone(src.Slots),
	}
	if l.TurnTicks == 0 {
		l.TurnTicks = uint32(n.cfg.TurnTicks)
	}
	if s.Name != "" {
		l.Name = s.Name
	}
	if s.TurnLimit != 0 {
		l.TurnLimit = s.TurnLimit
	}
	l.AwayBot = s.AwayBot
	l.Password = s.Password != ""
	for i := range l.Slots {
		sl := &l.Slots[i]
		switch {
		case sl.Kind == SlotOpen:
			sl.Kind = SlotClosed // not a player of the game: nobody new may take it
		case sl.Kind == SlotHuman:
			sl.Ready = departed(i) // departed players are not waited for
		}
	}
	l.Slots[self].Peer, l.Slots[self].Name, l.Slots[self].Ready = n.self, n.cfg.Name, true
	n.lobby = l
	n.password = s.Password
	n.slot = self
	n.hist.restore(&st)
	n.released = st.Turn
	n.shown = st.Departed // they left before the save
	for i := range n.propSeq {
		n.propSeq[i] = n.hist.nextSeq[i] - 1
	}
	n.resume = &Snapshot{Turn: st.Turn, Data: slices.Clone(st.Data), Chain: st.Chain, Departed: st.Departed, NextSeq: slices.Clone(n.hist.nextSeq[:])}
	n.becomeHost(makeEpoch(1, self))
	n.emit(Event{Kind: EvJoined, Slot: self})
	n.lobbyChanged()
	return nil
}

// findSlot finds the human slot of a saved lobby that a peer plays: its own
// (same peer ID), else one of the same name. Departed slots do not count.
func findSlot(l Lobby, p PeerID, name string, departed func(int) bool) int {
	for i, s := range l.Slots {
		if s.Kind == SlotHuman && s.Peer == p && !departed(i) {
			return i
		}
	}
	for i, s := range l.Slots {
		if s.Kind == SlotHuman && s.Name == name && name != "" && !departed(i) {
			return i
		}
	}
	return -1
}

func playerNames(l Lobby, departed func(int) bool) string {
	var names []string
	for i, s := range l.Slots {
		if s.Kind == SlotHuman && !departed(i) {
			names = append(names, s.Name)
		}
	}
	return strings.Join(names, ", ")
}

// reservedFor finds the reserved slot of a resumed lobby a joiner may take:
// its own by peer ID was found by SlotOf already, so this is the fallback by
// name among the slots whose player has not come back.
func (n *Node) reservedFor(p PeerID, name string) int {
	if n.lobby.Resume == 0 || n.lobby.State != StateLobby {
		return -1
	}
	for i, s := range n.lobby.Slots {
		if s.Kind == SlotHuman && s.Name == name && name != "" && !n.hist.isDeparted(i) && !n.present(s.Peer) {
			n.lobby.Slots[i].Peer = p
			return i
		}
	}
	return -1
}

// present reports whether a player has joined this host's session.
func (n *Node) present(p PeerID) bool { return p == n.self || n.hs != nil && n.hs.peer(p) != nil }

// absent names the first reserved player of a resumed lobby not back yet.
func (n *Node) absent() (string, bool) {
	if n.lobby.Resume == 0 {
		return "", false
	}
	for i, s := range n.lobby.Slots {
		if s.Kind == SlotHuman && !n.hist.isDeparted(i) && !n.present(s.Peer) {
			return s.Name, true
		}
	}
	return "", false
}

// sendResume hands a peer the state a resumed game starts from (host, while
// loading). The snapshot follows the lobby on the same ordered stream.
func (n *Node) sendResume(pi *peerInfo) {
	if n.resume == nil || n.lobby.Resume == 0 {
		return
	}
	l := n.lobby.Clone()
	n.answer(pi, Message{Kind: MsgSnapshot, Snapshot: n.resume, Lobby: &l})
}

// startLoading is the host's move from the countdown to loading: every peer
// loads the map, or, resuming a save, the saved state.
func (n *Node) startLoading() {
	n.lobby.State = StateLoading
	n.hs.loadFrom = n.now
	n.lobbyChanged()
	n.emit(Event{Kind: EvLoad, Lobby: n.Lobby().ptr()})
	if n.resume == nil {
		return
	}
	n.out.restore = &Snapshot{Turn: n.resume.Turn, Data: n.resume.Data}
	for _, pi := range n.hs.peers {
		n.sendResume(pi)
	}
}

// setSavedSlot is SetSlot in a resumed lobby: the only change is a bot
// taking over a player who has not come back.
func (n *Node) setSavedSlot(slot int, kind SlotKind, botLevel uint8) error {
	s := &n.lobby.Slots[slot]
	if kind != SlotBot || s.Kind != SlotHuman || n.hist.isDeparted(slot) || n.present(s.Peer) {
		return fmt.Errorf("%w: this lobby resumes a saved game; only a player who has not come back can be replaced, by a bot", ErrBadArgument)
	}
	*s = Slot{Kind: SlotBot, Name: fmt.Sprintf("Bot %d", slot+1), Color: s.Color, Team: s.Team, BotLevel: botLevel, Ready: true}
	n.lobbyChanged()
	return nil
}
