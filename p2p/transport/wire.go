package transport

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"
	"google.golang.org/protobuf/proto"

	"hostfall/p2p/internal/wirepb"
)

// Limits of the transport's own frames: enough for a peer with many
// interfaces and a 16-player session, small enough to refuse junk early.
const (
	maxAddrs     = 32
	maxAddrBytes = 512
	maxPeers     = 64
	pingBodySize = 8
)

// ErrBadFrame wraps every reason a transport frame's body is refused.
var ErrBadFrame = errors.New("malformed frame")

func encodeHello(addrs []ma.Multiaddr) []byte {
	h := &wirepb.Hello{Version: frameVersion, Addrs: addrBytes(addrs)}
	b, _ := proto.Marshal(h) // cannot fail for this message
	return b
}

func decodeHello(b []byte) ([]ma.Multiaddr, error) {
	var h wirepb.Hello
	if err := proto.Unmarshal(b, &h); err != nil {
		return nil, fmt.Errorf("%w: hello: %v", ErrBadFrame, err)
	}
	if h.Version != frameVersion {
		return nil, fmt.Errorf("%w: hello of frame version %d; this peer speaks version %d", ErrBadFrame, h.Version, frameVersion)
	}
	return parseAddrs(h.Addrs)
}

func encodePeers(ps []peer.AddrInfo) []byte {
	w := &wirepb.Peers{}
	for _, p := range ps {
		w.Peers = append(w.Peers, &wirepb.PeerAddrs{Id: []byte(p.ID), Addrs: addrBytes(p.Addrs)})
	}
	b, _ := proto.Marshal(w)
	return b
}

func decodePeers(b []byte) ([]peer.AddrInfo, error) {
	var w wirepb.Peers
	if err := proto.Unmarshal(b, &w); err != nil {
		return nil, fmt.Errorf("%w: peers: %v", ErrBadFrame, err)
	}
	if len(w.Peers) > maxPeers {
		return nil, fmt.Errorf("%w: %d peers in a directory, at most %d", ErrBadFrame, len(w.Peers), maxPeers)
	}
	out := make([]peer.AddrInfo, 0, len(w.Peers))
	for _, wp := range w.Peers {
		id, err := peer.IDFromBytes(wp.Id)
		if err != nil {
			return nil, fmt.Errorf("%w: peers: %v", ErrBadFrame, err)
		}
		addrs, err := parseAddrs(wp.Addrs)
		if err != nil {
			return nil, err
		}
		out = append(out, peer.AddrInfo{ID: id, Addrs: addrs})
	}
	return out, nil
}

func addrBytes(addrs []ma.Multiaddr) [][]byte {
	var out [][]byte
	for _, a := range addrs {
		if b := a.Bytes(); len(b) <= maxAddrBytes && len(out) < maxAddrs {
			out = append(out, b)
		}
	}
	return out
}

func parseAddrs(bs [][]byte) ([]ma.Multiaddr, error) {
	if len(bs) > maxAddrs {
		return nil, fmt.Errorf("%w: %d addresses, at most %d", ErrBadFrame, len(bs), maxAddrs)
	}
	out := make([]ma.Multiaddr, 0, len(bs))
	for _, b := range bs {
		if len(b) > maxAddrBytes {
			return nil, fmt.Errorf("%w: an address of %d bytes", ErrBadFrame, len(b))
		}
		a, err := ma.NewMultiaddrBytes(b)
		if err != nil {
			return nil, fmt.Errorf("%w: address: %v", ErrBadFrame, err)
		}
		out = append(out, a)
	}
	return out, nil
}

func encodePing(v uint64) []byte { return binary.LittleEndian.AppendUint64(nil, v) }

func decodePing(b []byte) (uint64, error) {
	if len(b) != pingBodySize {
		return 0, fmt.Errorf("%w: ping of %d bytes, want %d", ErrBadFrame, len(b), pingBodySize)
	}
	return binary.LittleEndian.Uint64(b), nil
}
