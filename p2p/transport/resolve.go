package transport

import (
	"context"
	"fmt"

	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"
)

// Resolver finds the host of the session a player wants to join: from an
// address (AddrResolver), an mDNS session name or an invite code (branch lan).
type Resolver interface {
	Resolve(ctx context.Context, h *Host) (peer.AddrInfo, error)
}

// AddrResolver is a multiaddr that ends in /p2p/<host peer ID>, e.g.
// /ip4/192.168.1.7/tcp/4001/p2p/12D3KooW…
type AddrResolver string

// Resolve parses the address; it needs no network.
func (a AddrResolver) Resolve(context.Context, *Host) (peer.AddrInfo, error) {
	return ParseAddr(string(a))
}

// ParseAddr reads a multiaddr that names a peer (ends in /p2p/<id>).
func ParseAddr(s string) (peer.AddrInfo, error) {
	m, err := ma.NewMultiaddr(s)
	if err != nil {
		return peer.AddrInfo{}, fmt.Errorf("%q is not a multiaddr: %w", s, err)
	}
	ai, err := peer.AddrInfoFromP2pAddr(m)
	if err != nil {
		return peer.AddrInfo{}, fmt.Errorf("%q does not name a peer; it must end in /p2p/<peer ID> (the host prints it): %w", s, err)
	}
	return *ai, nil
}

// AddrInfo is a peer ID with its addresses (libp2p's peer.AddrInfo).
type AddrInfo = peer.AddrInfo

// Known is a host found already (by --auto's agreement, say).
type Known peer.AddrInfo

// Resolve returns it.
func (k Known) Resolve(context.Context, *Host) (peer.AddrInfo, error) { return peer.AddrInfo(k), nil }
