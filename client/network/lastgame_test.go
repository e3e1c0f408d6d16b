package network

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"
)

// fixedIDs are peer IDs made from fixed keys, so the seed corpus is stable.
func fixedIDs(t testing.TB, n int) []peer.ID {
	t.Helper()
	var ids []peer.ID
	for i := range n {
		seed := bytes.Repeat([]byte{byte(i + 1)}, 32)
		k, _, err := crypto.GenerateEd25519Key(bytes.NewReader(seed))
		if err != nil {
			t.Fatal(err)
		}
		id, err := peer.IDFromPrivateKey(k)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	return ids
}

// goodRecord is Cy's record of a game of three that Ann hosts.
func goodRecord(t testing.TB) *LastGame {
	ids := fixedIDs(t, 3)
	a := ma.StringCast("/ip4/10.0.0.1/tcp/4001")
	b := ma.StringCast("/ip4/10.0.0.2/udp/4002/quic-v1")
	return &LastGame{Version: lastGameVersion, Session: "Friday LAN", Self: ids[2], Name: "Cy", Slot: 2, Host: ids[0],
		Password: "hunter2", Updated: time.Date(2026, 11, 25, 20, 0, 0, 0, time.UTC),
		Members: []LastMember{
			{Peer: ids[0], Name: "Ann", Slot: 0, Addrs: []ma.Multiaddr{a}},
			{Peer: ids[1], Name: "Bo", Slot: 1, Addrs: []ma.Multiaddr{b, a}},
			{Peer: ids[2], Name: "Cy", Slot: 2},
		}}
}

func encoded(t testing.TB, g *LastGame) []byte {
	t.Helper()
	data, err := g.Encode()
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// A record decodes to what was written; every kind of damage is an error
// that says what is wrong.
func TestDecodeLastGame(t *testing.T) {
	good := goodRecord(t)
	data := encoded(t, good)
	got, err := DecodeLastGame(data)
	if err != nil {
		t.Fatal(err)
	}
	if !got.sameGame(good) || !got.Updated.Equal(good.Updated) {
		t.Fatalf("decoded %+v, want %+v", got, good)
	}
	edit := func(fn func(g *LastGame)) []byte {
		g := goodRecord(t)
		fn(g)
		return encoded(t, g)
	}
	for _, tt := range []struct {
		name, data, want string
	}{
		{"empty", "", "not a record"},
		{"not JSON", "lastgame", "not a record"},
		{"cut short", string(data[:len(data)/2]), "not a record"},
		{"two records", string(data) + string(data), "more follows"},
		{"too big", string(data) + strings.Repeat(" ", maxLastGameSize), "more than a record"},
		{"another format", string(edit(func(g *LastGame) { g.Version = 2 })), "format 2"},
		{"no session", string(edit(func(g *LastGame) { g.Session = "" })), "no session name"},
		{"no host", strings.Replace(string(data), `"host": "`+good.Host.String(), `"host": "`, 1), "not a record"},
		{"a bad peer ID", strings.Replace(string(data), good.Self.String(), "12D3KooWnotapeerid", -1), "not a record"},
		{"a bad address", strings.Replace(string(data), "/ip4/10.0.0.1/tcp/4001", "/ip4/10.0.0.1/tcpx/1", 1), "not a record"},
		{"a null address", strings.Replace(string(data), `"/ip4/10.0.0.1/tcp/4001"`, "null", 1), "not a record"},
		{"a slot out of range", string(edit(func(g *LastGame) { g.Slot, g.Members[2].Slot = 99, 99 })), "no slot"},
		{"alone", string(edit(func(g *LastGame) { g.Members = g.Members[2:]; g.Host = g.Self })), "1 players"},
		{"a player twice", string(edit(func(g *LastGame) { g.Members[1].Peer = g.Members[0].Peer })), "listed twice"},
		{"the player not in its slot", string(edit(func(g *LastGame) { g.Members[2].Slot = 3 })), "not among the game's players in its slot"},
		{"the host not a player", string(edit(func(g *LastGame) { g.Host = fixedIDs(t, 4)[3] })), "host is not among"},
		{"too many addresses", string(edit(func(g *LastGame) {
			for range maxMemberAddrs {
				g.Members[0].Addrs = append(g.Members[0].Addrs, g.Members[0].Addrs[0])
			}
		})), "addresses"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			g, err := DecodeLastGame([]byte(tt.data))
			if err == nil {
				t.Fatalf("decoded %+v", g)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %q does not say %q", err, tt.want)
			}
		})
	}
}

// Writing replaces the record whole; reading tells a missing record from a
// damaged one, and the damaged one's error names the file and what to do.
func TestReadWriteLastGame(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "lastgame")
	g := goodRecord(t)
	if _, err := ReadLastGame(dir, g.Self); !errors.Is(err, ErrNoLastGame) {
		t.Fatalf("no record: %v", err)
	}
	for range 2 {
		if err := WriteLastGame(dir, g); err != nil {
			t.Fatal(err)
		}
	}
	got, err := ReadLastGame(dir, g.Self)
	if err != nil || !got.sameGame(g) {
		t.Fatalf("read %+v, %v", got, err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("the directory holds %d files, want the record alone", len(entries))
	}
	if fi, err := os.Stat(lastGamePath(dir, g.Self)); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the record's mode: %v %v", fi.Mode(), err)
	}
	if _, err := ReadLastGame(dir, g.Members[0].Peer); !errors.Is(err, ErrNoLastGame) {
		t.Errorf("another identity's record: %v", err)
	}
	if err := os.WriteFile(lastGamePath(dir, g.Self), []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = ReadLastGame(dir, g.Self)
	if !errors.Is(err, ErrBadLastGame) || !strings.Contains(err.Error(), lastGamePath(dir, g.Self)) || !strings.Contains(err.Error(), "delete it") {
		t.Errorf("a damaged record: %v", err)
	}
	if err := RemoveLastGame(dir, g.Self); err != nil {
		t.Fatal(err)
	}
	if err := RemoveLastGame(dir, g.Self); err != nil {
		t.Errorf("removing no record: %v", err)
	}
}

// The decoder never panics and never accepts half a record: whatever it
// accepts passes the checks and reads back the same once written again.
func FuzzDecodeLastGame(f *testing.F) {
	good := goodRecord(f)
	data := encoded(f, good)
	f.Add(data)
	f.Add(data[:len(data)-10])
	f.Add([]byte(`{"version":1}`))
	f.Add([]byte(`null`))
	f.Add([]byte(`{"version":1,"session":"x","members":[{"peer":null}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := DecodeLastGame(data)
		if err != nil {
			return
		}
		if err := g.check(); err != nil {
			t.Fatalf("accepted a record that fails its checks: %v", err)
		}
		again, err := DecodeLastGame(encoded(t, g))
		if err != nil {
			t.Fatalf("a record written again does not read: %v", err)
		}
		if !again.sameGame(g) {
			t.Fatalf("read back %+v, want %+v", again, g)
		}
	})
}
