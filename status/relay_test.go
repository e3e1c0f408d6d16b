package status

import (
	"bytes"
	"strings"
	"testing"

	ma "github.com/multiformats/go-multiaddr"
)

// A relay's listening line names it, where it listens and its allow-list.
func TestRelayListening(t *testing.T) {
	id := testPeerID(t)
	addr := ma.StringCast("/ip4/192.0.2.1/tcp/4001/p2p/" + id.String())
	var out, human bytes.Buffer
	(&Line{JSON: true, Out: &out}).RelayListening(id, []ma.Multiaddr{addr}, 2)
	(&Line{Human: &human}).RelayListening(id, []ma.Multiaddr{addr}, 2)
	want := `{"ev":"listening","peer":"` + id.String() + `","addrs":["` + addr.String() + `"],"allow":2}` + "\n"
	if out.String() != want {
		t.Fatalf("JSON line %s, want %s", out.String(), want)
	}
	if !strings.HasPrefix(human.String(), "relay "+id.String()+" listening on:\n  "+addr.String()+"\nhosts behind NAT:") {
		t.Fatalf("text %q", human.String())
	}
}
