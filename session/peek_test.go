package session_test

import (
	"testing"

	"hostfall/session"
)

// PeekKind agrees with UnmarshalMessage on every message the latter takes.
func FuzzPeekKind(f *testing.F) {
	for _, m := range []session.Message{
		{Kind: session.MsgHello, Hello: &session.Hello{Name: "a"}},
		{Kind: session.MsgCommands, Commands: []session.Command{{Slot: 1, Seq: 2, Data: []byte("x")}}},
		{Kind: session.MsgAck, Have: 7, Need: true},
	} {
		b, err := m.Marshal()
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte{0x08, 0x01, 0x08, 0x05})
	f.Add([]byte{0x0a, 0x00})
	f.Fuzz(func(t *testing.T, b []byte) {
		k, perr := session.PeekKind(b)
		m, err := session.UnmarshalMessage(b)
		if err == nil && (perr != nil || k != m.Kind) {
			t.Fatalf("PeekKind says %v (%v), UnmarshalMessage %v", k, perr, m.Kind)
		}
	})
}

func TestPeekKind(t *testing.T) {
	for _, tc := range []struct {
		name string
		b    []byte
		want session.MsgKind
		ok   bool
	}{
		{"hello", []byte{0x08, byte(session.MsgHello)}, session.MsgHello, true},
		{"the last kind counts", []byte{0x08, byte(session.MsgHello), 0x08, byte(session.MsgProof)}, session.MsgProof, true},
		{"no kind", nil, session.MsgNone, false},
		{"cut varint", []byte{0x08, 0x80}, session.MsgNone, false},
		{"cut bytes field", []byte{0x12, 0x05, 0x01}, session.MsgNone, false},
		{"kind out of range", []byte{0x08, 0xff, 0x01}, session.MsgNone, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			k, err := session.PeekKind(tc.b)
			if (err == nil) != tc.ok || k != tc.want {
				t.Errorf("PeekKind(%x) = %v, %v; want %v, ok %v", tc.b, k, err, tc.want, tc.ok)
			}
		})
	}
}
