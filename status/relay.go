package status

import (
	"fmt"
	"strings"

	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"
)

// RelayListening is a relay's "listening" line: its peer ID, the
// addresses hosts behind NAT give as --relay, and how many peers its
// allow-list names (0: everyone may use it).
func (s *Line) RelayListening(id peer.ID, addrs []ma.Multiaddr, allow int) {
	var as []string
	for _, a := range addrs {
		as = append(as, a.String())
	}
	s.Emit("listening", fmt.Sprintf("relay %s listening on:\n  %s\nhosts behind NAT: hostfall host --headless --relay <one of these> …",
		id, strings.Join(as, "\n  ")), KV("peer", id.String()), KV("addrs", as), KV("allow", allow))
}
