package session

import (
	"fmt"
	"slices"
	"strings"
)

// Host opens a new session with this node as host in slot 0.
func (n *Node) Host(s Settings) error {
	if n.role != roleNone {
		return fmt.Errorf("%w: the node is already %v", ErrBadArgument, n.role)
	}
	if s.Resume != nil {
		return n.hostSaved(s)
	}
	maxP := s.MaxPlayers
	if maxP == 0 {
		maxP = 8
	}
	if maxP < 1 || maxP > MaxSlots {
		return fmt.Errorf("%w: max players %d (1..%d)", ErrBadArgument, maxP, MaxSlots)
	}
	tt := s.TurnTicks
	if tt == 0 {
		tt = uint32(n.cfg.TurnTicks)
	}
	n.lobby = Lobby{
		Revision: 1, Name: s.Name, MapSeed: s.MapSeed, MapSize: s.MapSize, TurnTicks: tt,
		Password: s.Password != "", MaxPlayers: maxP, GameVersion: n.cfg.GameVersion,
		TurnLimit: s.TurnLimit, AwayBot: s.AwayBot, Slots: make([]Slot, maxP),
	}
	n.lobby.Slots[0] = Slot{Kind: SlotHuman, Peer: n.self, Name: n.cfg.Name, Color: 0}
	for i := 1; i < int(maxP); i++ {
		n.lobby.Slots[i].Color = uint8(i)
	}
	n.password = s.Password
	n.slot = 0
	n.becomeHost(makeEpoch(1, 0))
	n.emit(Event{Kind: EvJoined, Slot: 0})
	n.lobbyChanged()
	return nil
}

// Join asks host to let this node in (as a player, or as a spectator when
// Config.Spectate is set). A Welcome leads to EvJoined; a refusal to EvRefused.
// Joining a game in progress as a known player (same peer ID) is a rejoin.
func (n *Node) Join(host PeerID) error {
	if n.role != roleNone {
		return fmt.Errorf("%w: the node is already %v", ErrBadArgument, n.role)
	}
	n.becomeJoining(host)
	n.sendHello()
	return nil
}

func (n *Node) sendHello() {
	n.send(Message{Kind: MsgHello, To: n.joinHost, Hello: &Hello{
		Protocol: ProtocolVersion, GameVersion: n.cfg.GameVersion, Name: n.cfg.Name, Spectate: n.cfg.Spectate,
	}, Targets: n.byesHeld()})
}

// byesHeld lists the other players whose Bye this node's history holds. A
// seeker whose side of a split lost the merge carries them to the winner,
// which never heard them leave and has them only away: without them their
// departure would go with the side's discarded play, and a player who left
// on purpose would show as away (see believeByes).
func (n *Node) byesHeld() []PeerID {
	if n.lobby.State < StateLoading {
		return nil
	}
	var r []PeerID
	for i, s := range n.lobby.Slots {
		if s.Kind == SlotHuman && i != n.slot && n.hist.isDeparted(i) && n.hist.why[i] == DepartLeft {
			r = append(r, s.Peer)
		}
	}
	return r
}

func (n *Node) stepJoining(m Message) {
	if n.rejoin && m.Kind == MsgPing && m.Count > 0 && n.rosterIndex(m.From) >= 0 && !slices.Contains(n.seeking.doubted, m.From) &&
		(m.From != n.joinHost || n.now-n.joinedAt > n.cfg.HeartbeatTicks*2) {
		// A host of this game pings the players it misses: ask it.
		n.ask(m.From)
		return
	}
	if m.From != n.joinHost {
		return
	}
	if n.rejoin {
		n.seeking.heard(m.From)
		if (m.Kind == MsgWelcome || m.Kind == MsgRefuse) && (!n.vouched(m.From) || m.Kind == MsgWelcome && !n.owns(m.From, m.Epoch)) {
			n.unvouched(m.From) // a member answering for a game of its own, perhaps
			return
		}
	}
	switch m.Kind {
	case MsgChallenge:
		salt, nonce, ok := challengeOf(m)
		if !ok {
			return // not a challenge this version answers: the host refuses at its version check
		}
		key := n.pwKey(n.cfg.Password, salt)
		n.send(Message{Kind: MsgProof, To: m.From, Proof: passwordProof(key, nonce, m.From, n.self)})
	case MsgRefuse:
		if m.Refusal == nil {
			return
		}
		n.emit(Event{Kind: EvRefused, Refusal: m.Refusal, Text: m.Refusal.Text})
		n.becomeLeft(m.Refusal.Text)
	case MsgReject:
		// A member, not the host: it names the host to ask. A process
		// restarted mid-game asks whoever it can reach, as a seeking one does.
		if len(m.Targets) == 1 && m.Targets[0] != "" && m.Targets[0] != n.self && m.Targets[0] != n.joinHost {
			if n.rosterIndex(m.From) >= 0 {
				n.name(m.Targets[0]) // a player vouches for its host
			}
			n.ask(m.Targets[0])
		}
	case MsgWelcome:
		if m.Lobby == nil || m.Lobby.SlotOf(m.From) != epochSlot(m.Epoch) {
			return // only the player whose slot the epoch names hosts it
		}
		if n.rejoin {
			n.rejoinWelcome(m)
			return
		}
		n.lobby = m.Lobby.Clone()
		n.slot = m.Slot
		if n.lobby.Password {
			// The password this node proved: as a later host it checks
			// the proofs of those who join after a migration.
			n.password = n.cfg.Password
		}
		n.becomeFollower(m.Epoch, m.From, nil)
		if m.Slot >= 0 && m.NextSeq > 0 {
			n.propSeq[m.Slot] = m.NextSeq - 1
		}
		n.emit(Event{Kind: EvJoined, Slot: m.Slot})
		switch {
		case n.lobby.State == StateLoading && n.lobby.Resume > 0:
			n.expectSnap, n.resumeWait = true, true // EvLoad comes with the saved state
		case n.lobby.State >= StateLoading:
			if n.lobby.State == StatePlaying {
				n.awaitSnapshot()
			}
			n.emit(Event{Kind: EvLoad, Lobby: n.Lobby().ptr()})
		}
		n.emit(Event{Kind: EvLobbyChanged, Revision: n.lobby.Revision, Lobby: n.Lobby().ptr()})
	}
}

func (l Lobby) ptr() *Lobby { return &l }

// lobbyChanged bumps the revision and broadcasts the lobby (host only).
func (n *Node) lobbyChanged() {
	if n.lobby.State == StateLobby {
		n.lobby.uniqueColors()
	}
	n.lobby.Revision++
	n.emit(Event{Kind: EvLobbyChanged, Revision: n.lobby.Revision, Lobby: n.Lobby().ptr()})
	if n.hs == nil {
		return
	}
	l := n.lobby.Clone()
	for _, p := range n.hs.recipients(n) {
		n.send(Message{Kind: MsgLobby, To: p, Epoch: n.epoch, Lobby: &l})
	}
}

// followerLobby adopts a newer lobby revision from the host.
func (n *Node) followerLobby(l *Lobby) {
	if l == nil || l.Revision <= n.lobby.Revision {
		return
	}
	old := n.lobby.State
	n.lobby = l.Clone()
	if n.slot >= 0 && n.lobby.SlotOf(n.self) != n.slot && n.lobby.State == StateLobby {
		n.becomeLeft("The host removed you from the lobby.")
		return
	}
	n.emit(Event{Kind: EvLobbyChanged, Revision: n.lobby.Revision, Lobby: n.Lobby().ptr()})
	n.reachedState(old)
}

// reachedState emits what a follower owes its caller when its lobby moved
// from state was to the one it holds now, in however many steps at once (a
// node that followed a failed claim during the countdown comes back to a
// game already loading or playing): EvLoad on reaching loading, so that the
// caller holds a game before any turn (a resumed game's comes with the saved
// state), and EvGameStarted on reaching play.
func (n *Node) reachedState(was LobbyState) {
	if was < StateLoading && n.lobby.State >= StateLoading {
		if n.lobby.State == StateLoading && n.lobby.Resume > 0 && n.released < n.lobby.Resume {
			n.expectSnap, n.resumeWait = true, true // EvLoad comes with the saved state
		} else {
			n.emit(Event{Kind: EvLoad, Lobby: n.Lobby().ptr()})
		}
	}
	if was < StatePlaying && n.lobby.State == StatePlaying {
		n.resume = nil
		n.emit(Event{Kind: EvGameStarted, Turn: n.lobby.Resume + 1})
	}
}

// EditSlot changes this player's own slot (name, color, team, ready).
func (n *Node) EditSlot(e SlotEdit) error {
	if err := checkText("name", e.Name, maxNameLen); err != nil {
		return fmt.Errorf("%w: %v", ErrBadArgument, err)
	}
	if n.lobby.State != StateLobby {
		return ErrNotInLobby
	}
	switch n.role {
	case roleHost:
		n.applyEdit(n.slot, e)
	case roleFollower:
		n.send(Message{Kind: MsgEdit, To: n.host, Epoch: n.epoch, Edit: &e})
	default:
		return ErrLeft
	}
	return nil
}

func (n *Node) applyEdit(slot int, e SlotEdit) {
	if slot < 0 || slot >= len(n.lobby.Slots) || n.lobby.State != StateLobby {
		return
	}
	s := &n.lobby.Slots[slot]
	if e.Name != "" {
		s.Name = e.Name
	}
	if !n.lobby.colorTaken(e.Color, slot) { // two players asked for one colour at once: the first keeps it
		s.Color = e.Color
	}
	s.Team, s.Ready = e.Team, e.Ready
	n.lobbyChanged()
}

// EditBot sets a bot's colour and team (host only, in the lobby): the host
// plays the bots, so it sets them up. A colour another slot uses is
// refused, as a player's own edit keeps its colour then.
func (n *Node) EditBot(slot int, e SlotEdit) error {
	if n.role != roleHost {
		return ErrNotHost
	}
	if n.lobby.State != StateLobby {
		return ErrNotInLobby
	}
	if slot < 0 || slot >= len(n.lobby.Slots) || n.lobby.Slots[slot].Kind != SlotBot {
		return fmt.Errorf("%w: slot %d holds no bot", ErrBadArgument, slot)
	}
	if n.lobby.colorTaken(e.Color, slot) {
		return fmt.Errorf("%w: another player has colour %d", ErrBadArgument, e.Color)
	}
	s := &n.lobby.Slots[slot]
	s.Color, s.Team = e.Color, e.Team
	n.lobbyChanged()
	return nil
}

// NumColors is how many player colours there are; colour numbers wrap.
const NumColors = 8

// HoldsPlayer reports whether the slot holds a player, a person or a bot
// (the glossary's "slot"): the one test of it every package asks.
func (s *Slot) HoldsPlayer() bool { return s.Kind == SlotHuman || s.Kind == SlotBot }

// colorTaken reports whether a slot other than slot plays colour c.
func (l *Lobby) colorTaken(c uint8, slot int) bool {
	for i := range l.Slots {
		if i != slot && l.Slots[i].HoldsPlayer() && l.Slots[i].Color%NumColors == c%NumColors {
			return true
		}
	}
	return false
}

// uniqueColors gives every played slot a colour of its own: a bot put in,
// or a player who joined, a slot whose colour someone took meanwhile gets
// the first free one (the earlier slot keeps its colour). With more played
// slots than colours, the rest share.
func (l *Lobby) uniqueColors() {
	for i := range l.Slots {
		s := &l.Slots[i]
		if !s.HoldsPlayer() || !l.colorTakenBefore(s.Color, i) {
			continue
		}
		for c := range uint8(NumColors) {
			if !l.colorTaken(c, i) {
				s.Color = c
				break
			}
		}
	}
}

// colorTakenBefore reports whether a slot before slot plays colour c.
func (l *Lobby) colorTakenBefore(c uint8, slot int) bool {
	for i := range slot {
		if l.Slots[i].HoldsPlayer() && l.Slots[i].Color%NumColors == c%NumColors {
			return true
		}
	}
	return false
}

// Configure changes the session settings (host only, in the lobby).
func (n *Node) Configure(s Settings) error {
	if n.role != roleHost {
		return ErrNotHost
	}
	if n.lobby.State != StateLobby {
		return ErrNotInLobby
	}
	if err := checkText("session name", s.Name, maxNameLen); err != nil {
		return fmt.Errorf("%w: %v", ErrBadArgument, err)
	}
	n.lobby.Name, n.lobby.MapSeed, n.lobby.MapSize = s.Name, s.MapSeed, s.MapSize
	n.lobby.TurnLimit = s.TurnLimit
	n.lobby.AwayBot = s.AwayBot
	if s.TurnTicks > 0 {
		n.lobby.TurnTicks = s.TurnTicks
	}
	n.password = s.Password
	n.lobby.Password = s.Password != ""
	n.lobbyChanged()
	return nil
}

// SetSlot opens, closes or puts a bot of level into an empty slot (host only).
func (n *Node) SetSlot(slot int, kind SlotKind, botLevel uint8) error {
	if n.role != roleHost {
		return ErrNotHost
	}
	if n.lobby.State != StateLobby {
		return ErrNotInLobby
	}
	if n.lobby.Resume > 0 && slot >= 0 && slot < len(n.lobby.Slots) {
		return n.setSavedSlot(slot, kind, botLevel)
	}
	if slot < 0 || slot >= len(n.lobby.Slots) || n.lobby.Slots[slot].Kind == SlotHuman || kind == SlotHuman {
		return fmt.Errorf("%w: slot %d cannot become %v", ErrBadArgument, slot, kind)
	}
	s := &n.lobby.Slots[slot]
	*s = Slot{Kind: kind, Color: s.Color, Team: s.Team, BotLevel: botLevel, Ready: kind == SlotBot}
	if kind == SlotBot {
		s.Name = fmt.Sprintf("Bot %d", slot+1)
	}
	n.lobbyChanged()
	return nil
}

// Kick removes a player (host only). It is refused from rejoining; in a
// running game its departure is sequenced.
func (n *Node) Kick(slot int) error {
	if n.role != roleHost {
		return ErrNotHost
	}
	if slot <= 0 || slot >= len(n.lobby.Slots) || slot == n.slot || n.lobby.Slots[slot].Kind != SlotHuman {
		return fmt.Errorf("%w: slot %d holds no other player", ErrBadArgument, slot)
	}
	p := n.lobby.Slots[slot].Peer
	n.kicked = append(n.kicked, p)
	n.send(Message{Kind: MsgRefuse, To: p, Refusal: &Refusal{Code: RefuseKicked, Text: "The host removed you from the session."}})
	n.hs.dropPeer(n, p, DepartKicked)
	return nil
}

// Say sends a chat line to everyone (team 0) or to one team.
func (n *Node) Say(team uint8, text string) error {
	if err := checkText("chat", text, maxChatLen); err != nil {
		return fmt.Errorf("%w: %v", ErrBadArgument, err)
	}
	c := &Chat{FromSlot: n.slot, Team: team, Text: text, FromName: n.cfg.Name}
	switch n.role {
	case roleHost:
		n.hs.relayChat(n, c)
	case roleFollower, roleCandidate:
		n.send(Message{Kind: MsgChat, To: n.host, Epoch: n.epoch, Chat: c})
	default:
		return ErrLeft
	}
	return nil
}

// Start begins the countdown 5..1 (host only; every other human must be ready).
func (n *Node) Start() error {
	if n.role != roleHost {
		return ErrNotHost
	}
	if n.lobby.State != StateLobby {
		return ErrNotInLobby
	}
	if name, ok := n.absent(); ok {
		return fmt.Errorf("%w: %s has not come back to the saved game (wait, or put a bot in the slot)", ErrNotReady, name)
	}
	if text, kind := n.lobby.startProblem(n.slot); kind != nil {
		return fmt.Errorf("%w: %s", kind, text)
	}
	n.lobby.State = StateCountdown
	n.hs.count = 5
	n.hs.countTimer = 0
	n.lobbyChanged()
	n.hs.sendCount(n)
	return nil
}

// Loaded tells the node that the caller has loaded the game (after the
// Advance of the Ready that held EvLoad).
// Turn 1 starts when every player has loaded.
func (n *Node) Loaded() {
	n.loaded = true
	switch n.role {
	case roleHost:
		n.hs.loaded[n.self] = true
	case roleFollower:
		n.send(Message{Kind: MsgLoaded, To: n.host, Epoch: n.epoch, Loaded: true})
	}
}

// StartProblem says why the host in slot host cannot start the game of
// lobby l yet, as a sentence a person reads; "" when it can. A game needs
// two players on two sides (a player of team 0 is a side alone), and every
// human player but the host ready. Node.Start refuses for the same reason;
// a lobby screen shows it instead of a Start button.
func (l *Lobby) StartProblem(host int) string {
	text, _ := l.startProblem(host)
	return text
}

// startProblem is StartProblem with the error Node.Start wraps it in (nil
// when the game can start).
func (l *Lobby) startProblem(host int) (string, error) {
	players, sides := 0, 0
	var teams [256]bool
	var waiting []string
	for i, s := range l.Slots {
		if !s.HoldsPlayer() {
			continue
		}
		players++
		if s.Team == 0 || !teams[s.Team] {
			sides++
			teams[s.Team] = s.Team != 0
		}
		if s.Kind == SlotHuman && i != host && !s.Ready {
			waiting = append(waiting, s.Name)
		}
	}
	switch {
	case players < 2:
		return "A game needs two players: put a bot in an open slot or wait for someone to join.", ErrOneSide
	case sides < 2:
		return "Everyone is on one team: put a player on another team.", ErrOneSide
	case len(waiting) > 0:
		return "Waiting for " + joinNames(waiting) + " to be ready.", ErrNotReady
	}
	return "", nil
}

// joinNames lists names as a sentence does: "Bo", "Bo and Cy", "Bo, Cy and Di".
func joinNames(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

func (n *Node) isKicked(p PeerID) bool { return slices.Contains(n.kicked, p) }
