package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/netip"
	"os"
	"os/signal"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/p2p/protocol/circuitv2/relay"
	ma "github.com/multiformats/go-multiaddr"

	"hostfall/p2p/codes"
)

// A simulated public libp2p network: one process (this test binary run
// again with dhtNetEnv set) in one namespace holds many DHT servers with
// the relay service on, each on an address of its own on the "public"
// switch, as the public network's servers are. It prints one JSON line per
// node ({"ev":"node","i":…,"addr":…}), then {"ev":"ready"} once every node
// knows the others; on SIGUSR1 it closes the nodes listed in the file
// dhtKillEnv names and prints {"ev":"killed",…}.
const (
	dhtNetEnv   = "HFLAN_DHTNET"       // the nodes' IPs, comma-separated
	dhtKillEnv  = "HFLAN_DHTNET_KILL"  // a file of node indexes to close on SIGUSR1
	dhtLimitEnv = "HFLAN_DHTNET_LIMIT" // each relayed connection's limit: "DURATION,BYTES" ("" go-libp2p's default)
	dhtQUICEnv  = "HFLAN_DHTNET_QUIC"  // "1": the nodes listen on QUIC too (their node lines then carry "quic")
	dhtPort     = 4001
)

// runDHTNet serves the simulated network when dhtNetEnv is set, and exits.
func runDHTNet() {
	ips := os.Getenv(dhtNetEnv)
	if ips == "" {
		return
	}
	limit, err := parseCircuitLimit(os.Getenv(dhtLimitEnv))
	if err == nil {
		err = serveDHTNet(strings.Split(ips, ","), os.Getenv(dhtKillEnv), limit)
	}
	fmt.Fprintln(os.Stderr, "dhtnet:", err)
	os.Exit(1)
}

// parseCircuitLimit reads "DURATION,BYTES"; "" is nil (the default).
func parseCircuitLimit(s string) (*relay.RelayLimit, error) {
	if s == "" {
		return nil, nil
	}
	d, n, ok := strings.Cut(s, ",")
	dur, err := time.ParseDuration(d)
	if err != nil || !ok {
		return nil, fmt.Errorf("%s %q: want DURATION,BYTES", dhtLimitEnv, s)
	}
	var data int64
	if _, err := fmt.Sscan(n, &data); err != nil || data <= 0 {
		return nil, fmt.Errorf("%s %q: want DURATION,BYTES", dhtLimitEnv, s)
	}
	return &relay.RelayLimit{Duration: dur, Data: data}, nil
}

func serveDHTNet(ips []string, kill string, limit *relay.RelayLimit) error {
	ctx := context.Background()
	emit := json.NewEncoder(os.Stdout)
	var nodes []*codes.DHTNode
	var boot []peer.AddrInfo
	for i, ip := range ips {
		k, _, err := crypto.GenerateEd25519Key(nil)
		if err != nil {
			return err
		}
		// The nodes share a namespace, so they all dial from its first
		// address: spare it the limits per address.
		shared := netip.MustParsePrefix(ips[0] + "/32")
		listen := []string{fmt.Sprintf("/ip4/%s/tcp/%d", ip, dhtPort)}
		if os.Getenv(dhtQUICEnv) == "1" {
			listen = append(listen, fmt.Sprintf("/ip4/%s/udp/%d/quic-v1", ip, dhtPort))
		}
		n, err := codes.NewDHTNode(ctx, k, listen, boot,
			codes.DHTNodeOptions{Unlimited: []netip.Prefix{shared}, CircuitLimit: limit})
		if err != nil {
			return fmt.Errorf("node %d: %w", i, err)
		}
		nodes = append(nodes, n)
		ai := n.Host.AddrInfo()
		if len(boot) < 2 {
			boot = append(boot, ai)
		}
		line := map[string]any{"ev": "node", "i": i}
		for _, a := range ai.Addrs {
			kind := "addr"
			if _, err := a.ValueForProtocol(ma.P_QUIC_V1); err == nil {
				kind = "quic"
			}
			line[kind] = fmt.Sprintf("%s/p2p/%s", a, ai.ID)
		}
		emit.Encode(line)
	}
	if err := joinDHTNet(ctx, nodes, boot); err != nil {
		return err
	}
	emit.Encode(map[string]any{"ev": "ready"})
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGUSR1)
	for range sig {
		var closed []int
		list, _ := os.ReadFile(kill)
		for _, f := range strings.Fields(string(list)) {
			var i int
			if _, err := fmt.Sscan(f, &i); err == nil && i >= 0 && i < len(nodes) {
				nodes[i].Close()
				closed = append(closed, i)
			}
		}
		emit.Encode(map[string]any{"ev": "killed", "nodes": closed})
	}
	return nil
}

// joinDHTNet connects every node to the bootstrap nodes and to the next
// few nodes around a ring, so a lookup takes a few hops as on the real
// network, and waits until each has the peers it met in its routing table
// (60 s at most: CI shares two cores).
func joinDHTNet(ctx context.Context, nodes []*codes.DHTNode, boot []peer.AddrInfo) error {
	const ring = 5
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	for i, n := range nodes {
		wg.Go(func() {
			peers := slices.Clone(boot)
			for k := 1; k <= ring; k++ {
				peers = append(peers, nodes[(i+k)%len(nodes)].Host.AddrInfo())
			}
			for _, b := range peers {
				if b.ID != n.Host.ID() {
					_ = n.Host.LibP2P().Connect(ctx, b)
				}
			}
		})
	}
	wg.Wait()
	for ctx.Err() == nil && slices.ContainsFunc(nodes, func(n *codes.DHTNode) bool { return n.DHT.RoutingTable().Size() < ring }) {
		time.Sleep(50 * time.Millisecond)
	}
	if ctx.Err() != nil {
		var sizes []int
		for _, n := range nodes {
			sizes = append(sizes, n.DHT.RoutingTable().Size())
		}
		return fmt.Errorf("the nodes did not learn of each other within 60 s: routing table sizes %v", sizes)
	}
	return nil
}

// sigKill tells the simulated network to close the nodes dhtKillEnv lists.
const sigKill = syscall.SIGUSR1
