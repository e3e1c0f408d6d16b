package session

import (
	"bytes"
	"errors"
	"reflect"
	"runtime"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
)

func sampleMessages() []Message {
	l := Lobby{Revision: 4, Name: "lan party", MapSeed: 99, MapSize: 128, TurnTicks: 5, Password: true, MaxPlayers: 4,
		State: StateLobby, GameVersion: "0.1.0", TurnLimit: 600, Spectators: []PeerID{"s"},
		Slots: []Slot{{Kind: SlotHuman, Peer: "a", Name: "Ann", Color: 1, Team: 1, Ready: true}, {Kind: SlotBot, Name: "Bot", BotLevel: 2}}}
	turn := Turn{Epoch: 33, Number: 12, Commands: []Command{{Slot: 1, Seq: 7, Data: []byte{1, 2, 3}}}, Departures: []Departure{{Slot: 2, Reason: DepartHostLost}}}
	return []Message{
		{Kind: MsgHello, Hello: &Hello{Protocol: 1, GameVersion: "0.1.0", Name: "Ann", Spectate: true}},
		{Kind: MsgChallenge, Nonce: []byte("0123456789abcdef")},
		{Kind: MsgProof, Proof: bytes.Repeat([]byte{7}, 32)},
		{Kind: MsgWelcome, Slot: 1, Lobby: &l, NextSeq: 3, Epoch: 16},
		{Kind: MsgRefuse, Refusal: &Refusal{Code: RefuseFull, Text: "The session is full (4 players)."}},
		{Kind: MsgLobby, Epoch: 16, Lobby: &l},
		{Kind: MsgEdit, Edit: &SlotEdit{Name: "Bob", Color: 3, Team: 2, Ready: true}},
		{Kind: MsgChat, Chat: &Chat{FromSlot: -1, FromName: "Ann", Team: 2, Text: "gl hf"}},
		{Kind: MsgCountdown, Count: 3},
		{Kind: MsgCommands, Epoch: 16, Commands: []Command{{Slot: 0, Seq: 1, Data: []byte("x")}}},
		{Kind: MsgTurns, Epoch: 33, Turns: []Turn{turn}, Delay: 1},
		{Kind: MsgAck, Epoch: 33, Have: 12, Need: true, Hashes: []HashReport{{Turn: 10, Hash: 1 << 63}}, Loaded: true},
		{Kind: MsgDesync, Desync: &DesyncInfo{Turn: 10, Majority: 5, Hashes: []PeerHash{{Peer: "a", Hash: 5}, {Peer: "b", Hash: 6}}}},
		{Kind: MsgSnapshotReq, Targets: []PeerID{"b", "c"}},
		{Kind: MsgSnapshot, Snapshot: &Snapshot{Turn: 10, Data: []byte("state"), Chain: 77, NextSeq: []uint64{1, 2}, Departed: 4 | 1<<15, DepartedWhy: uint64(DepartKicked)<<8 | uint64(DepartMisbehaved)<<60}, Turns: []Turn{turn}},
		{Kind: MsgClaim, Epoch: 50, Turn: 12, Chain: 1234},
		{Kind: MsgFollow, Epoch: 50, Turn: 13, Chain: 4321, Turns: []Turn{turn}, Lobby: &l, Commands: turn.Commands},
		{Kind: MsgReject, Epoch: 33, Targets: []PeerID{"a"}},
		{Kind: MsgWaiting, Slot: 2, Count: 250},
		{Kind: MsgBye, Epoch: 33},
		{Kind: MsgPing, Epoch: 33, Turn: 12},
	}
}

func TestMessagesRoundTrip(t *testing.T) {
	for _, m := range sampleMessages() {
		b, err := m.Marshal()
		if err != nil {
			t.Fatalf("%v: %v", m.Kind, err)
		}
		got, err := UnmarshalMessage(b)
		if err != nil {
			t.Fatalf("%v: %v", m.Kind, err)
		}
		if !reflect.DeepEqual(got, m) {
			t.Errorf("%v:\n got %+v\nwant %+v", m.Kind, got, m)
		}
	}
}

func TestLocalKindsAreNotEncoded(t *testing.T) {
	if _, err := (Message{Kind: MsgDisconnected}).Marshal(); err == nil {
		t.Fatal("a local message was encoded")
	}
}

func TestOversizedAndGarbageAreRefused(t *testing.T) {
	for _, b := range [][]byte{make([]byte, MaxMessageSize+1), {0xff, 0xff, 0xff}, {0x08, 0x7f}} {
		if _, err := UnmarshalMessage(b); !errors.Is(err, ErrMalformed) {
			t.Errorf("%d bytes: err = %v", len(b), err)
		}
	}
}

func TestIdleTurnIsSmall(t *testing.T) {
	b, _ := Message{Kind: MsgTurns, Epoch: 33, Turns: []Turn{{Epoch: 33, Number: 72000}}}.Marshal()
	a, _ := Message{Kind: MsgAck, Epoch: 33, Have: 72000}.Marshal()
	if len(b) > 16 || len(a) > 12 {
		t.Fatalf("empty turn %d bytes, ack %d bytes", len(b), len(a))
	}
}

func FuzzUnmarshalMessage(f *testing.F) {
	for _, m := range sampleMessages() {
		b, _ := m.Marshal()
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := UnmarshalMessage(data)
		if err != nil {
			if !errors.Is(err, ErrMalformed) {
				t.Fatalf("unwrapped error %v", err)
			}
			return
		}
		// Whatever decodes must encode again and decode to the same value.
		b, err := m.Marshal()
		if err != nil {
			t.Fatalf("re-encode: %v", err)
		}
		m2, err := UnmarshalMessage(b)
		if err != nil || !reflect.DeepEqual(m, m2) {
			t.Fatalf("round trip: %v\n%+v\n%+v", err, m, m2)
		}
	})
}

// A snapshot's departure reasons: only the slots that departed have one,
// and only a reason there is; a snapshot from a peer before the field
// (DepartedWhy absent) reads as every departed slot having left on purpose.
func TestSnapshotReasons(t *testing.T) {
	for _, c := range []struct {
		departed uint32
		why      uint64
		ok       bool
	}{
		{0, 0, true},
		{1<<3 | 1<<15, uint64(DepartLost)<<12 | uint64(DepartMisbehaved)<<60, true},
		{1 << 3, uint64(DepartMisbehaved+1) << 12, false}, // no such reason
		{1 << 3, uint64(DepartLost) << 16, false},         // slot 4 did not depart
		{0, 0xf << 60, false},
	} {
		b, _ := Message{Kind: MsgSnapshot, Snapshot: &Snapshot{Turn: 9, Departed: c.departed, DepartedWhy: c.why}}.Marshal()
		m, err := UnmarshalMessage(b)
		if (err == nil) != c.ok || err != nil && !errors.Is(err, ErrMalformed) {
			t.Errorf("departed %b why %x: err %v, want ok %v", c.departed, c.why, err, c.ok)
		}
		if err == nil && m.Snapshot.DepartedWhy != c.why {
			t.Errorf("departed %b why %x: decoded %x", c.departed, c.why, m.Snapshot.DepartedWhy)
		}
	}
	// The encoding of an older peer: the same message without field 9.
	old := protowire.AppendTag(nil, 1, protowire.VarintType)
	old = protowire.AppendVarint(old, uint64(MsgSnapshot))
	var snap []byte
	snap = protowire.AppendTag(snap, 1, protowire.VarintType)
	snap = protowire.AppendVarint(snap, 9)
	snap = protowire.AppendTag(snap, 5, protowire.VarintType)
	snap = protowire.AppendVarint(snap, 1<<2)
	old = protowire.AppendTag(old, snapshotField(t), protowire.BytesType)
	old = protowire.AppendBytes(old, snap)
	m, err := UnmarshalMessage(old)
	if err != nil || m.Snapshot == nil || m.Snapshot.Departed != 1<<2 || m.Snapshot.Reason(2) != DepartLeft {
		t.Fatalf("an older peer's snapshot: %+v, %v", m.Snapshot, err)
	}
}

// snapshotField finds the field number of Message.snapshot on the wire by
// encoding one.
func snapshotField(t *testing.T) protowire.Number {
	b, _ := Message{Kind: MsgSnapshot, Snapshot: &Snapshot{Turn: 1}}.Marshal()
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			break
		}
		b = b[n:]
		if typ == protowire.BytesType {
			return num
		}
		n = protowire.ConsumeFieldValue(num, typ, b)
		if n < 0 {
			break
		}
		b = b[n:]
	}
	t.Fatal("no snapshot field in an encoded snapshot message")
	return 0
}

// FuzzSnapshotReasons: whatever departed mask and reasons a peer sends, the
// decoder either refuses them with ErrMalformed or yields reasons that
// exist for the slots that departed, and encodes them back the same.
func FuzzSnapshotReasons(f *testing.F) {
	f.Add(uint32(1<<3), uint64(DepartLost)<<12)
	f.Add(uint32(0), uint64(1))
	f.Fuzz(func(t *testing.T, departed uint32, why uint64) {
		b, _ := Message{Kind: MsgSnapshot, Snapshot: &Snapshot{Turn: 3, Departed: departed, DepartedWhy: why}}.Marshal()
		m, err := UnmarshalMessage(b)
		if err != nil {
			if !errors.Is(err, ErrMalformed) {
				t.Fatalf("unwrapped error %v", err)
			}
			return
		}
		s := m.Snapshot
		for i := range MaxSlots {
			if r := s.Reason(i); r > DepartMisbehaved || s.Departed&(1<<i) == 0 && r != 0 {
				t.Fatalf("slot %d: reason %d kept (departed %b)", i, r, s.Departed)
			}
		}
		if s.Departed != departed || s.DepartedWhy != why {
			t.Fatalf("decoded departed %b why %x from %b %x", s.Departed, s.DepartedWhy, departed, why)
		}
	})
}

func FuzzUnmarshalLobbyAndTurn(f *testing.F) {
	l, _ := MarshalLobby(*sampleMessages()[3].Lobby)
	tr, _ := MarshalTurn(sampleMessages()[10].Turns[0])
	f.Add(l, tr)
	f.Fuzz(func(t *testing.T, lb, tb []byte) {
		if _, err := UnmarshalLobby(lb); err != nil && !errors.Is(err, ErrMalformed) {
			t.Fatal(err)
		}
		if _, err := UnmarshalTurn(tb); err != nil && !errors.Is(err, ErrMalformed) {
			t.Fatal(err)
		}
	})
}

type fixedRand uint64

func (r *fixedRand) Uint64() uint64 { *r++; return uint64(*r) }

// FuzzStep feeds whatever decodes to a host and to a follower: a hostile or
// broken peer must never make a node panic.
func FuzzStep(f *testing.F) {
	for _, m := range sampleMessages() {
		b, _ := m.Marshal()
		f.Add(b, true)
		f.Add(b, false)
	}
	f.Fuzz(func(t *testing.T, data []byte, toHost bool) {
		m, err := UnmarshalMessage(data)
		if err != nil {
			return
		}
		var r fixedRand
		host, _ := NewNode(Config{Self: "h", GameVersion: "0.1.0", Rand: &r})
		_ = host.Host(Settings{MaxPlayers: 4})
		joiner, _ := NewNode(Config{Self: "j", GameVersion: "0.1.0", Rand: &r})
		_ = joiner.Join("h")
		// Wire the two up properly first, then inject the fuzzed message.
		for range 5 {
			for _, pair := range [][2]*Node{{host, joiner}, {joiner, host}} {
				rd := pair[0].Ready()
				for _, out := range rd.Messages {
					b, _ := out.Marshal()
					in, _ := UnmarshalMessage(b)
					in.From = pair[0].Self()
					_ = pair[1].Step(in)
				}
				pair[0].Advance()
			}
			host.Tick()
			joiner.Tick()
		}
		m.From = "j"
		target := host
		if !toHost {
			m.From, target = "h", joiner
		}
		_ = target.Step(m)
		for range 50 {
			target.Tick()
			rd := target.Ready()
			if rd.SnapshotAt != 0 {
				_ = target.Snapshot(rd.SnapshotAt, []byte("s"))
			}
			target.Advance()
		}
	})
}

// Repeated fields are counted on the wire before decoding: a message of
// empty elements (two bytes each on the wire, a struct each once decoded) is
// refused having allocated almost nothing, for each repeated field; a
// message at the caps still decodes.
func TestRepeatedFieldsCountedBeforeDecoding(t *testing.T) {
	for _, tc := range []struct {
		name string
		msg  []byte
	}{
		{"1 MiB of empty turns", flood(1<<19, fieldMsgTurns)},
		{"1 MiB of empty commands", flood(1<<19, fieldMsgCmds)},
		{"1 MiB of empty hash reports", flood(1<<19, fieldMsgHashes)},
		{"1 MiB of empty targets", flood(1<<19, fieldMsgTargets)},
		{"one turn of 1 MiB of empty commands", nest(fieldMsgTurns, flood(1<<19, fieldTurnCmds))},
		{"a lobby of 1 MiB of empty slots", nest(fieldMsgLobby, flood(1<<19, fieldLobbySlots))},
		{"a desync of 1 MiB of empty hashes", nest(fieldMsgDesync, flood(1<<19, fieldDesyncHashes))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			msg := append([]byte{1 << 3, byte(MsgTurns)}, tc.msg...) // kind = turns
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			_, err := UnmarshalMessage(msg)
			runtime.ReadMemStats(&after)
			if !errors.Is(err, ErrMalformed) {
				t.Fatalf("a %d-byte flood decoded: %v", len(msg), err)
			}
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 1<<20 {
				t.Errorf("refusing it allocated %d bytes (want under 1 MiB): %v", alloc, err)
			}
			t.Logf("%d bytes refused: %v", len(msg), err)
		})
	}
	at := Message{Kind: MsgTurns, Turns: make([]Turn, maxTurnsInMsg)}
	for i := range at.Turns {
		at.Turns[i] = Turn{Epoch: 16, Number: uint64(i + 1), Commands: make([]Command, 64)}
		for j := range at.Turns[i].Commands {
			at.Turns[i].Commands[j] = Command{Slot: j % MaxSlots, Seq: uint64(i*64 + j + 1), Data: []byte{1}}
		}
	}
	b, err := at.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := UnmarshalMessage(b); err != nil {
		t.Fatalf("a message at the caps (%d turns of 64 commands) does not decode: %v", maxTurnsInMsg, err)
	}
}

// flood is n empty elements of repeated message field num.
func flood(n int, num protowire.Number) []byte {
	return bytes.Repeat(protowire.AppendBytes(protowire.AppendTag(nil, num, protowire.BytesType), nil), n)
}

// nest wraps body as the embedded message field num.
func nest(num protowire.Number, body []byte) []byte {
	return protowire.AppendBytes(protowire.AppendTag(nil, num, protowire.BytesType), body)
}

// BenchmarkUnmarshalTurns decodes a typical turns message of a 16-player
// game (one turn, a command from each slot), counting fields first.
func BenchmarkUnmarshalTurns(b *testing.B) {
	t := Turn{Epoch: 16, Number: 1200}
	for s := range MaxSlots {
		t.Commands = append(t.Commands, Command{Slot: s, Seq: 77, Data: bytes.Repeat([]byte{7}, 24)})
	}
	data, err := Message{Kind: MsgTurns, Turns: []Turn{t}, Chain: 99, NextSeq: 78}.Marshal()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := UnmarshalMessage(data); err != nil {
			b.Fatal(err)
		}
	}
}

// Only the kinds that carry turns or a snapshot may be large: a Hello, a
// Ping or a Lobby of 1 MiB is refused before decoding; turns of 2 MiB are
// not.
func TestMessageSizeByKind(t *testing.T) {
	big := bytes.Repeat([]byte{1}, 1<<20)
	for _, tc := range []struct {
		m  Message
		ok bool
	}{
		{Message{Kind: MsgHello, Nonce: big, Hello: &Hello{Protocol: ProtocolVersion, GameVersion: "0.1.0"}}, false},
		{Message{Kind: MsgPing, Nonce: big}, false},
		{Message{Kind: MsgLobby, Proof: big, Lobby: &Lobby{Name: "x"}}, false},
		{Message{Kind: MsgAck, Nonce: big}, false},
		{Message{Kind: MsgCommands, Commands: []Command{{Slot: 1, Seq: 1, Data: big[:60<<10]}}}, true},
		{Message{Kind: MsgTurns, Turns: turnsOf(40, big[:60<<10])}, true},
		{Message{Kind: MsgSnapshot, Snapshot: &Snapshot{Turn: 9, Data: append(big, big...)}}, true},
	} {
		b, err := tc.m.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		_, err = UnmarshalMessage(b)
		runtime.ReadMemStats(&after)
		if (err == nil) != tc.ok {
			t.Errorf("a %v message of %d bytes: err %v, want decoded %v", tc.m.Kind, len(b), err, tc.ok)
		}
		if alloc := after.TotalAlloc - before.TotalAlloc; !tc.ok && alloc > 64<<10 {
			t.Errorf("refusing a %v message of %d bytes allocated %d bytes: it was decoded first", tc.m.Kind, len(b), alloc)
		}
	}
}

// turnsOf is n turns of one command each, of data.
func turnsOf(n int, data []byte) []Turn {
	ts := make([]Turn, n)
	for i := range ts {
		ts[i] = Turn{Epoch: 16, Number: uint64(i + 1), Commands: []Command{{Slot: 0, Seq: uint64(i + 1), Data: data}}}
	}
	return ts
}

// A catch-up of heavy turns goes in chunks: each message's turns hold at
// most maxTurnBytesInMsg of commands (one turn always goes), every chunk
// encodes within MaxMessageSize, and the chunks together are the whole log.
func TestCatchUpIsChunkedByBytes(t *testing.T) {
	heavy := func(number uint64) Turn {
		t := Turn{Epoch: 1, Number: number}
		for slot := range MaxSlots {
			for seq := range 64 { // a slot's budget in one turn: 64 commands, 64 KiB
				t.Commands = append(t.Commands, Command{Slot: slot, Seq: uint64(seq + 1), Data: make([]byte, 1<<10)})
			}
		}
		return t
	}
	n := &Node{}
	for i := range uint64(40) {
		n.hist.turns = append(n.hist.turns, heavy(i+1))
	}
	var got uint64
	for from := uint64(0); from < n.hist.last(); {
		turns := n.hist.turnsAfter(from, n.hist.last())
		if len(turns) == 0 || turns[0].Number != from+1 {
			t.Fatalf("the chunk after turn %d starts at %v", from, turns)
		}
		b, err := (&Message{Kind: MsgTurns, Turns: turns}).Marshal()
		if err != nil || len(b) > MaxMessageSize {
			t.Fatalf("a chunk of %d turns does not encode within the limit: %d bytes, %v", len(turns), len(b), err)
		}
		if len(turns) > 1 && len(b) > maxTurnBytesInMsg+len(turns[0].Commands)*(1<<10+32) {
			t.Errorf("a chunk of %d turns is %d bytes, more than the %d-byte chunk", len(turns), len(b), maxTurnBytesInMsg)
		}
		got += uint64(len(turns))
		from = turns[len(turns)-1].Number
	}
	if got != n.hist.last() {
		t.Errorf("the chunks held %d turns of %d", got, n.hist.last())
	}
}
