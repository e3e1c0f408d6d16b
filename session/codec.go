package session

import (
	"errors"
	"fmt"
	"unicode/utf8"

	"google.golang.org/protobuf/proto"

	"hostfall/session/internal/wirepb"
)

// MaxMessageSize is the largest encoded message (a snapshot included). The
// p2p layer uses it as its frame limit; decoders refuse anything larger.
const MaxMessageSize = 16 << 20

// Limits checked when decoding, so a hostile peer cannot make us allocate much.
const (
	maxNameLen    = 64
	maxChatLen    = 512
	maxTurnsInMsg = 4096
	// maxTurnBytesInMsg bounds the command bytes of the turns one message
	// carries (a turn holds up to ~1 MiB: 8 slots at their budget).
	maxTurnBytesInMsg = 4 << 20
	maxCmdsInMsg      = 65536
	maxCmdSize        = 64 << 10
)

// ErrMalformed wraps every decoding failure.
var ErrMalformed = errors.New("malformed session message")

// Marshal encodes m for the wire. Local kinds cannot be encoded.
func (m Message) Marshal() ([]byte, error) {
	if m.Kind == MsgNone || m.Kind.IsLocal() {
		return nil, fmt.Errorf("session: cannot encode a %v message", m.Kind)
	}
	b, err := proto.Marshal(msgToWire(&m))
	if err != nil {
		return nil, fmt.Errorf("session: encode %v: %w", m.Kind, err)
	}
	if len(b) > MaxMessageSize {
		return nil, fmt.Errorf("session: %v message of %d bytes exceeds the %d-byte limit", m.Kind, len(b), MaxMessageSize)
	}
	return b, nil
}

// UnmarshalMessage decodes a message from the wire. From and To are left
// empty: the caller sets From to the peer it came from.
func UnmarshalMessage(b []byte) (Message, error) {
	if len(b) > MaxMessageSize {
		return Message{}, fmt.Errorf("%w: %d bytes exceed the %d-byte limit", ErrMalformed, len(b), MaxMessageSize)
	}
	if err := precount(b); err != nil {
		return Message{}, fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	var w wirepb.Message
	if err := proto.Unmarshal(b, &w); err != nil {
		return Message{}, fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	m, err := msgFromWire(&w)
	if err != nil {
		return Message{}, fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	return m, nil
}

// MarshalLobby and UnmarshalLobby encode a Lobby alone (replay files use them).
func MarshalLobby(l Lobby) ([]byte, error) { return proto.Marshal(lobbyToWire(&l)) }

func UnmarshalLobby(b []byte) (Lobby, error) {
	var w wirepb.Lobby
	if err := proto.Unmarshal(b, &w); err != nil {
		return Lobby{}, fmt.Errorf("%w: lobby: %v", ErrMalformed, err)
	}
	l, err := lobbyFromWire(&w)
	if err != nil {
		return Lobby{}, fmt.Errorf("%w: lobby: %v", ErrMalformed, err)
	}
	return *l, nil
}

// MarshalTurn and UnmarshalTurn encode a Turn alone (replay files use them).
func MarshalTurn(t Turn) ([]byte, error) { return proto.Marshal(turnToWire(&t)) }

func UnmarshalTurn(b []byte) (Turn, error) {
	var w wirepb.Turn
	if err := proto.Unmarshal(b, &w); err != nil {
		return Turn{}, fmt.Errorf("%w: turn: %v", ErrMalformed, err)
	}
	t, err := turnFromWire(&w)
	if err != nil {
		return Turn{}, fmt.Errorf("%w: turn: %v", ErrMalformed, err)
	}
	return t, nil
}

func msgToWire(m *Message) *wirepb.Message {
	w := &wirepb.Message{
		Kind: uint32(m.Kind), Epoch: m.Epoch, Turn: m.Turn, Nonce: m.Nonce, Proof: m.Proof,
		Count: m.Count, Have: m.Have, Need: m.Need, Slot: int32(m.Slot), Chain: m.Chain,
		NextSeq: m.NextSeq, Delay: m.Delay, Loaded: m.Loaded,
	}
	for i := range m.Turns {
		w.Turns = append(w.Turns, turnToWire(&m.Turns[i]))
	}
	w.Cmds = cmdsToWire(m.Commands)
	if m.Lobby != nil {
		w.Lobby = lobbyToWire(m.Lobby)
	}
	if h := m.Hello; h != nil {
		w.Hello = &wirepb.Hello{Protocol: h.Protocol, GameVersion: h.GameVersion, Name: h.Name, Spectate: h.Spectate}
	}
	if r := m.Refusal; r != nil {
		w.Refusal = &wirepb.Refusal{Code: uint32(r.Code), Text: r.Text}
	}
	if c := m.Chat; c != nil {
		w.Chat = &wirepb.Chat{FromSlot: int32(c.FromSlot), FromName: c.FromName, Team: uint32(c.Team), Text: c.Text}
	}
	for _, h := range m.Hashes {
		w.Hashes = append(w.Hashes, &wirepb.HashReport{Turn: h.Turn, Hash: h.Hash})
	}
	if s := m.Snapshot; s != nil {
		w.Snapshot = &wirepb.Snapshot{Turn: s.Turn, Data: s.Data, Chain: s.Chain, NextSeq: s.NextSeq, Gone: s.Departed, Away: s.Away, GoneWhy: s.DepartedWhy, Part: s.Part, Parts: s.Parts}
	}
	if e := m.Edit; e != nil {
		w.Edit = &wirepb.SlotEdit{Name: e.Name, Color: uint32(e.Color), Team: uint32(e.Team), Ready: e.Ready}
	}
	for _, t := range m.Targets {
		w.Targets = append(w.Targets, string(t))
	}
	if d := m.Desync; d != nil {
		wd := &wirepb.Desync{Turn: d.Turn, Majority: d.Majority}
		for _, ph := range d.Hashes {
			wd.Hashes = append(wd.Hashes, &wirepb.PeerHash{Peer: string(ph.Peer), Hash: ph.Hash})
		}
		w.Desync = wd
	}
	return w
}

func msgFromWire(w *wirepb.Message) (Message, error) {
	k := MsgKind(w.Kind)
	if w.Kind >= uint32(msgLocal) || k == MsgNone {
		return Message{}, fmt.Errorf("unknown message kind %d", w.Kind)
	}
	if len(w.Turns) > maxTurnsInMsg || len(w.Cmds) > maxCmdsInMsg || len(w.Hashes) > maxTurnsInMsg || len(w.Targets) > 64 {
		return Message{}, errors.New("too many elements")
	}
	if w.Slot < -1 || w.Slot >= MaxSlots {
		return Message{}, fmt.Errorf("slot %d out of range", w.Slot)
	}
	m := Message{
		Kind: k, Epoch: w.Epoch, Turn: w.Turn, Nonce: w.Nonce, Proof: w.Proof, Count: w.Count,
		Have: w.Have, Need: w.Need, Slot: int(w.Slot), Chain: w.Chain, NextSeq: w.NextSeq,
		Delay: w.Delay, Loaded: w.Loaded,
	}
	if len(m.Nonce) > 64 || len(m.Proof) > 64 {
		return Message{}, errors.New("nonce or proof too long")
	}
	for _, wt := range w.Turns {
		t, err := turnFromWire(wt)
		if err != nil {
			return Message{}, err
		}
		m.Turns = append(m.Turns, t)
	}
	cmds, err := cmdsFromWire(w.Cmds)
	if err != nil {
		return Message{}, err
	}
	m.Commands = cmds
	if w.Lobby != nil {
		if m.Lobby, err = lobbyFromWire(w.Lobby); err != nil {
			return Message{}, err
		}
	}
	if h := w.Hello; h != nil {
		if err := checkText("name", h.Name, maxNameLen); err != nil {
			return Message{}, err
		}
		if err := checkText("game version", h.GameVersion, maxNameLen); err != nil {
			return Message{}, err
		}
		m.Hello = &Hello{Protocol: h.Protocol, GameVersion: h.GameVersion, Name: h.Name, Spectate: h.Spectate}
	}
	if r := w.Refusal; r != nil {
		if err := checkText("refusal", r.Text, maxChatLen); err != nil {
			return Message{}, err
		}
		m.Refusal = &Refusal{Code: RefusalCode(r.Code), Text: r.Text}
	}
	if c := w.Chat; c != nil {
		if err := checkText("chat", c.Text, maxChatLen); err != nil {
			return Message{}, err
		}
		if err := checkText("name", c.FromName, maxNameLen); err != nil {
			return Message{}, err
		}
		if c.Team > 255 || c.FromSlot < -1 || c.FromSlot >= MaxSlots {
			return Message{}, errors.New("chat team or slot out of range")
		}
		m.Chat = &Chat{FromSlot: int(c.FromSlot), FromName: c.FromName, Team: uint8(c.Team), Text: c.Text}
	}
	for _, h := range w.Hashes {
		m.Hashes = append(m.Hashes, HashReport{Turn: h.Turn, Hash: h.Hash})
	}
	if s := w.Snapshot; s != nil {
		if len(s.NextSeq) > MaxSlots {
			return Message{}, errors.New("too many sequence numbers in snapshot")
		}
		if s.Parts > maxSnapshotParts || s.Parts > 0 && s.Part >= s.Parts || s.Parts == 0 && s.Part > 0 {
			return Message{}, fmt.Errorf("snapshot part %d of %d (at most %d parts)", s.Part, s.Parts, maxSnapshotParts)
		}
		if err := checkDepartedWhy(s.Gone, s.GoneWhy); err != nil {
			return Message{}, err
		}
		m.Snapshot = &Snapshot{Turn: s.Turn, Data: s.Data, Chain: s.Chain, NextSeq: s.NextSeq, Departed: s.Gone, Away: s.Away, DepartedWhy: s.GoneWhy, Part: s.Part, Parts: s.Parts}
	}
	if e := w.Edit; e != nil {
		if err := checkText("name", e.Name, maxNameLen); err != nil {
			return Message{}, err
		}
		if e.Color > 255 || e.Team > 255 {
			return Message{}, errors.New("color or team out of range")
		}
		m.Edit = &SlotEdit{Name: e.Name, Color: uint8(e.Color), Team: uint8(e.Team), Ready: e.Ready}
	}
	for _, t := range w.Targets {
		if err := checkText("peer", t, 256); err != nil {
			return Message{}, err
		}
		m.Targets = append(m.Targets, PeerID(t))
	}
	if d := w.Desync; d != nil {
		if len(d.Hashes) > 64 {
			return Message{}, errors.New("too many desync hashes")
		}
		di := &DesyncInfo{Turn: d.Turn, Majority: d.Majority}
		for _, ph := range d.Hashes {
			di.Hashes = append(di.Hashes, PeerHash{Peer: PeerID(ph.Peer), Hash: ph.Hash})
		}
		m.Desync = di
	}
	return m, nil
}

func checkText(what, s string, max int) error {
	if len(s) > max*4 || utf8.RuneCountInString(s) > max {
		return fmt.Errorf("%s longer than %d characters", what, max)
	}
	return nil
}

func turnToWire(t *Turn) *wirepb.Turn {
	w := &wirepb.Turn{Epoch: t.Epoch, Number: t.Number, Cmds: cmdsToWire(t.Commands)}
	for _, d := range t.Departures {
		w.Departures = append(w.Departures, &wirepb.Departure{Slot: uint32(d.Slot), Reason: uint32(d.Reason)})
	}
	for _, p := range t.Presence {
		w.Presence = append(w.Presence, &wirepb.Presence{Slot: uint32(p.Slot), Away: p.Away})
	}
	return w
}

func turnFromWire(w *wirepb.Turn) (Turn, error) {
	t := Turn{Epoch: w.Epoch, Number: w.Number}
	if w.Number == 0 {
		return Turn{}, errors.New("turn number 0")
	}
	cmds, err := cmdsFromWire(w.Cmds)
	if err != nil {
		return Turn{}, err
	}
	t.Commands = cmds
	if len(w.Departures) > MaxSlots {
		return Turn{}, errors.New("too many departures")
	}
	for _, d := range w.Departures {
		if d.Slot >= MaxSlots || d.Reason > uint32(DepartMisbehaved) {
			return Turn{}, errors.New("departure out of range")
		}
		t.Departures = append(t.Departures, Departure{Slot: int(d.Slot), Reason: DepartReason(d.Reason)})
	}
	if len(w.Presence) > MaxSlots {
		return Turn{}, errors.New("too many presence changes")
	}
	for _, p := range w.Presence {
		if p.Slot >= MaxSlots {
			return Turn{}, errors.New("presence slot out of range")
		}
		t.Presence = append(t.Presence, Presence{Slot: int(p.Slot), Away: p.Away})
	}
	return t, nil
}

func cmdsToWire(cs []Command) []*wirepb.Command {
	var out []*wirepb.Command
	for _, c := range cs {
		out = append(out, &wirepb.Command{Slot: uint32(c.Slot), Seq: c.Seq, Data: c.Data})
	}
	return out
}

func cmdsFromWire(ws []*wirepb.Command) ([]Command, error) {
	if len(ws) > maxCmdsInMsg {
		return nil, errors.New("too many commands")
	}
	var out []Command
	for _, c := range ws {
		if c.Slot >= MaxSlots || len(c.Data) > maxCmdSize || c.Seq == 0 {
			return nil, errors.New("command slot, sequence or size out of range")
		}
		out = append(out, Command{Slot: int(c.Slot), Seq: c.Seq, Data: c.Data})
	}
	return out, nil
}

func lobbyToWire(l *Lobby) *wirepb.Lobby {
	w := &wirepb.Lobby{
		Revision: l.Revision, Name: l.Name, MapSeed: l.MapSeed, MapSize: l.MapSize,
		TurnTicks: l.TurnTicks, Password: l.Password, MaxPlayers: l.MaxPlayers,
		State: uint32(l.State), GameVersion: l.GameVersion, TurnLimit: l.TurnLimit, Resume: l.Resume, AwayBot: l.AwayBot,
	}
	for _, s := range l.Slots {
		w.Slots = append(w.Slots, &wirepb.Slot{Kind: uint32(s.Kind), Peer: string(s.Peer), Name: s.Name,
			Color: uint32(s.Color), Team: uint32(s.Team), Ready: s.Ready, BotLevel: uint32(s.BotLevel)})
	}
	for _, p := range l.Spectators {
		w.Spectators = append(w.Spectators, string(p))
	}
	return w
}

func lobbyFromWire(w *wirepb.Lobby) (*Lobby, error) {
	if len(w.Slots) > MaxSlots || len(w.Spectators) > 64 {
		return nil, errors.New("too many slots or spectators")
	}
	if w.State > uint32(StatePlaying) || w.MaxPlayers > MaxSlots || w.TurnTicks > 1000 {
		return nil, errors.New("lobby state, player count or turn length out of range")
	}
	if err := checkText("session name", w.Name, maxNameLen); err != nil {
		return nil, err
	}
	l := &Lobby{
		Revision: w.Revision, Name: w.Name, MapSeed: w.MapSeed, MapSize: w.MapSize,
		TurnTicks: w.TurnTicks, Password: w.Password, MaxPlayers: w.MaxPlayers,
		State: LobbyState(w.State), GameVersion: w.GameVersion, TurnLimit: w.TurnLimit, Resume: w.Resume, AwayBot: w.AwayBot,
	}
	for _, s := range w.Slots {
		if s.Kind > uint32(SlotBot) || s.Color > 255 || s.Team > 255 || s.BotLevel > 255 {
			return nil, errors.New("slot field out of range")
		}
		if err := checkText("name", s.Name, maxNameLen); err != nil {
			return nil, err
		}
		l.Slots = append(l.Slots, Slot{Kind: SlotKind(s.Kind), Peer: PeerID(s.Peer), Name: s.Name,
			Color: uint8(s.Color), Team: uint8(s.Team), Ready: s.Ready, BotLevel: uint8(s.BotLevel)})
	}
	for _, p := range w.Spectators {
		l.Spectators = append(l.Spectators, PeerID(p))
	}
	return l, nil
}

// checkDepartedWhy refuses departure reasons a snapshot cannot hold: one past
// the last reason, or one for a slot that did not depart.
func checkDepartedWhy(departed uint32, why uint64) error {
	for i := range MaxSlots {
		r := why >> (4 * i) & 0xf
		if departed&(1<<i) == 0 && r != 0 || r > uint64(DepartMisbehaved) {
			return fmt.Errorf("snapshot: departure reason %d for slot %d (departed: %v)", r, i, departed&(1<<i) != 0)
		}
	}
	return nil
}
