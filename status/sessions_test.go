package status

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"

	"hostfall/p2p/discovery"
	"hostfall/session"
)

func testPeerID(t *testing.T) peer.ID {
	t.Helper()
	k, _, _ := crypto.GenerateEd25519Key(nil)
	id, err := peer.IDFromPrivateKey(k)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// `list --json` prints the field names scripts read, and says whether this
// version may join; a lobby it may not join says so in the table.
func TestSessions(t *testing.T) {
	id := testPeerID(t)
	seen := []discovery.Seen{{
		Announcement: discovery.Announcement{Protocol: session.ProtocolVersion, GameVersion: "1.0", Name: "Bob's game",
			Players: 2, MaxPlayers: 4, State: discovery.AnnLobby, Password: true, Host: id,
			Addrs: []ma.Multiaddr{ma.StringCast("/ip4/192.0.2.7/tcp/4001")}},
		Instance: "Bob", Iface: "eth0",
	}}
	var out bytes.Buffer
	if err := Sessions(&out, seen, "1.0", true); err != nil {
		t.Fatal(err)
	}
	var got []map[string]any
	if err := json.Unmarshal(out.Bytes(), &got); err != nil || len(got) != 1 {
		t.Fatalf("%v: %s", err, out.String())
	}
	var keys []string
	for k := range got[0] {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	want := []string{"addrs", "auto", "game_version", "host", "iface", "instance", "joinable", "max_players", "name", "password", "players", "protocol", "state"}
	if !slices.Equal(keys, want) {
		t.Fatalf("fields %v, want %v", keys, want)
	}
	if g := got[0]; g["name"] != "Bob's game" || g["host"] != id.String() || g["state"] != "lobby" || g["joinable"] != true ||
		g["players"] != 2.0 || g["addrs"].([]any)[0] != "/ip4/192.0.2.7/tcp/4001" {
		t.Fatalf("session %v", g)
	}

	out.Reset()
	if err := Sessions(&out, seen, "2.0", false); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "NAME") || !strings.Contains(lines[1], "lobby (cannot join)") ||
		!strings.Contains(lines[1], "2/4") || !strings.Contains(lines[1], "yes") {
		t.Fatalf("table:\n%s", out.String())
	}

	for _, tt := range []struct {
		json bool
		want string
	}{{true, "[]\n"}, {false, "no sessions on the LAN\n"}} {
		out.Reset()
		if err := Sessions(&out, nil, "1.0", tt.json); err != nil || out.String() != tt.want {
			t.Fatalf("no sessions (json %v): %q, %v; want %q", tt.json, out.String(), err, tt.want)
		}
	}
}

// `list --watch` prints a session once as it comes, again when it changes
// and once as it goes; what did not change prints nothing.
func TestSessionChanges(t *testing.T) {
	id := testPeerID(t)
	lobby := discovery.Seen{Announcement: discovery.Announcement{Protocol: session.ProtocolVersion, GameVersion: "1.0",
		Name: "Bob's game", Players: 1, MaxPlayers: 4, State: discovery.AnnLobby, Host: id}}
	fuller := lobby
	fuller.Players = 2
	var out bytes.Buffer
	c := &SessionChanges{Out: &out, GameVersion: "1.0"}
	for _, step := range []struct {
		seen []discovery.Seen
		want string
	}{
		{[]discovery.Seen{lobby}, "up      \"Bob's game\" lobby 1/4 host " + id.String() + "\n"},
		{[]discovery.Seen{lobby}, ""},
		{[]discovery.Seen{fuller}, "changed \"Bob's game\" lobby 2/4 host " + id.String() + "\n"},
		{nil, "down    \"Bob's game\" lobby 2/4 host " + id.String() + "\n"},
		{nil, ""},
	} {
		out.Reset()
		c.Print(step.seen)
		if out.String() != step.want {
			t.Fatalf("printed %q, want %q", out.String(), step.want)
		}
	}
}
