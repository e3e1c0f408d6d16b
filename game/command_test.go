package game

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// sampleCommands has one command of every kind, with extreme values.
func sampleCommands() []Command {
	many := make([]UnitID, MaxCommandUnits)
	for j := range many {
		many[j] = UnitID(0xFFFF0000 | uint32(j))
	}
	return []Command{
		{Kind: CmdMove, Units: []UnitID{makeID(1, 1), makeID(2, 7)}, X: 10, Y: 20},
		{Kind: CmdAttack, Units: []UnitID{makeID(3, 1)}, Target: makeID(9, 65535)},
		{Kind: CmdAttackMove, Units: many, X: -1, Y: 1 << 20},
		{Kind: CmdStop, Units: []UnitID{1}},
		{Kind: CmdGather, Units: []UnitID{makeID(4, 2)}, X: 127, Y: 0},
		{Kind: CmdBuild, Units: []UnitID{makeID(5, 1)}, Build: Barracks, X: 3, Y: 4},
		{Kind: CmdTrain, Units: []UnitID{makeID(6, 1)}, Build: Archer},
		{Kind: CmdRally, Units: []UnitID{makeID(6, 1)}, X: 50, Y: 51},
		{Kind: CmdSurrender},
		{Kind: CmdResearch, Units: []UnitID{makeID(7, 3)}, Upgrade: UpArmor},
		{Kind: CmdPause},
		{Kind: CmdResume},
	}
}

func TestCommandRoundTrip(t *testing.T) {
	for _, c := range sampleCommands() {
		t.Run(c.Kind.String(), func(t *testing.T) {
			b, err := c.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			got, err := DecodeCommand(5, b)
			if err != nil {
				t.Fatal(err)
			}
			c.Player = 5
			if !reflect.DeepEqual(got, c) {
				t.Fatalf("decoded %+v, want %+v", got, c)
			}
		})
	}
}

func TestCommandEncodingDoesNotCarryPlayer(t *testing.T) {
	c := Command{Kind: CmdStop, Units: []UnitID{1}}
	a, _ := Command{Player: 1, Kind: c.Kind, Units: c.Units}.MarshalBinary()
	b, _ := Command{Player: 7, Kind: c.Kind, Units: c.Units}.MarshalBinary()
	if string(a) != string(b) {
		t.Fatal("the encoding depends on the player")
	}
	d, _ := DecodeCommand(3, a)
	if d.Player != 3 {
		t.Fatalf("decoded player %d, want the sender's slot 3", d.Player)
	}
}

func TestDecodeCommandErrors(t *testing.T) {
	valid, _ := Command{Kind: CmdMove, Units: []UnitID{1}, X: 1, Y: 2}.MarshalBinary()
	tooMany := []byte{CommandVersion, byte(CmdStop), 0x81, 0x02} // 257 units
	for _, tc := range []struct {
		name string
		b    []byte
		want string
	}{
		{"empty", nil, "too short"},
		{"version 0", []byte{0, 1, 0}, "version 0"},
		{"newer version", []byte{9, 1, 0}, "version 9 is newer than this build (1); update Hostfall"},
		{"unknown kind", []byte{1, 200, 0}, "unknown command kind 200"},
		{"kind none", []byte{1, 0, 0}, "unknown command kind 0"},
		{"too many units", tooMany, "257 units in one command; at most 256"},
		{"truncated", valid[:len(valid)-1], "truncated"},
		{"trailing bytes", append(append([]byte{}, valid...), 0, 0), "2 stray bytes"},
		{"bad varint", []byte{1, byte(CmdStop), 1, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01}, "malformed varint"},
		{"id out of range", []byte{1, byte(CmdStop), 1, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F}, "out of range"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := DecodeCommand(0, tc.b)
			if err == nil || !errors.Is(err, ErrBadCommand) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestAppendBinaryRefuses(t *testing.T) {
	if _, err := (Command{Kind: numCommandKinds}).MarshalBinary(); err == nil {
		t.Error("encoded an unknown kind")
	}
	if _, err := (Command{Kind: CmdStop, Units: make([]UnitID, MaxCommandUnits+1)}).MarshalBinary(); err == nil {
		t.Error("encoded too many units")
	}
}

// FuzzDecodeCommand: any bytes decode or fail cleanly; what decodes encodes
// back to a command that decodes the same, and Step accepts or refuses it
// without panicking.
func FuzzDecodeCommand(f *testing.F) {
	for _, c := range sampleCommands() {
		b, _ := c.MarshalBinary()
		f.Add(uint8(0), b)
	}
	f.Add(uint8(9), []byte{1, 1, 1, 0x80, 0x80, 0x01, 0, 0})
	f.Add(uint8(1), []byte{})
	f.Add(uint8(0x81), mustEncode(Command{Kind: CmdResume}))
	f.Add(uint8(0x80), mustEncode(Command{Kind: CmdResume}))
	w := newTestWorld(f, 2)
	snap := w.Snapshot()
	w.Step([]Command{{Player: 1, Kind: CmdPause}})
	pausedSnap := w.Snapshot()
	if err := w.Restore(snap); err != nil {
		f.Fatal(err)
	}
	ids := w.Units()
	f.Add(uint8(1), mustEncode(Command{Kind: CmdMove, Units: []UnitID{ids.ID(1), ids.ID(2)}, X: 5, Y: 5}))
	f.Fuzz(func(t *testing.T, player uint8, b []byte) {
		c, err := DecodeCommand(PlayerID(player), b)
		if err != nil {
			if !errors.Is(err, ErrBadCommand) {
				t.Fatalf("error does not wrap ErrBadCommand: %v", err)
			}
			return
		}
		again, err := c.MarshalBinary()
		if err != nil {
			t.Fatalf("decoded command does not encode: %v", err)
		}
		c2, err := DecodeCommand(PlayerID(player), again)
		if err != nil || !reflect.DeepEqual(c, c2) {
			t.Fatalf("re-decoding changed the command: %+v → %+v (%v)", c, c2, err)
		}
		// The player byte's high bit says whether the sender hosts, and
		// the command goes to a running and to a paused world.
		c.Host = player&0x80 != 0
		for _, s := range [][]byte{snap, pausedSnap} {
			if err := w.Restore(s); err != nil {
				t.Fatal(err)
			}
			w.Step([]Command{c})
			w.Step(nil)
			checkInvariants(t, w)
		}
	})
}

func mustEncode(c Command) []byte {
	b, err := c.MarshalBinary()
	if err != nil {
		panic(err)
	}
	return b
}
