package codes

import (
	"context"
	"fmt"
	"net/netip"

	"github.com/libp2p/go-libp2p"
	dht "github.com/libp2p/go-libp2p-kad-dht"
	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/p2p/protocol/circuitv2/relay"

	"hostfall/p2p/transport"
)

// DHTNode is a peer of the public libp2p network as most of its servers
// are: a DHT server with the circuit relay v2 service on (default limits:
// 2 minutes and 128 KiB a relayed connection, enough to hole punch). The
// tests build a simulated public network of them.
type DHTNode struct {
	Host *transport.Host
	DHT  *dht.IpfsDHT
}

// DHTNodeOptions tune a DHTNode.
type DHTNodeOptions struct {
	// Unlimited: connections from these networks are not limited per
	// address (see Options.Unlimited).
	Unlimited []netip.Prefix
	// CircuitLimit, when set, replaces the relay's default limit of each
	// relayed connection (tests that must see circuits end soon).
	CircuitLimit *relay.RelayLimit
}

// NewDHTNode starts a node with identity key, listening on listen and
// knowing bootstrap. It is public by decree (no AutoNAT wait), serves
// AutoNAT v2 (dials a client's address back, as the public network's
// servers do) and stops
// when ctx ends or on Close.
func NewDHTNode(ctx context.Context, key crypto.PrivKey, listen []string, bootstrap []peer.AddrInfo, opt DHTNodeOptions) (*DHTNode, error) {
	var ropts []relay.Option
	if opt.CircuitLimit != nil {
		ropts = append(ropts, relay.WithLimit(opt.CircuitLimit))
	}
	h, err := transport.NewHost(ctx, transport.Options{Identity: key, Listen: listen, Unlimited: opt.Unlimited,
		Libp2p: []libp2p.Option{libp2p.ForceReachabilityPublic(), libp2p.EnableRelayService(ropts...), libp2p.EnableAutoNATv2()}})
	if err != nil {
		return nil, err
	}
	kad, err := dht.New(h.LibP2P(), dht.Mode(dht.ModeServer), dht.BootstrapPeers(bootstrap...))
	if err != nil {
		h.Close()
		return nil, fmt.Errorf("codes: DHT server: %w", err)
	}
	context.AfterFunc(ctx, func() { kad.Close() })
	return &DHTNode{Host: h, DHT: kad}, nil
}

// Close stops the node.
func (n *DHTNode) Close() error {
	n.DHT.Close()
	return n.Host.Close()
}
