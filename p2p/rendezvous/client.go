package rendezvous

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/record"
	"github.com/libp2p/go-msgio"
	ma "github.com/multiformats/go-multiaddr"
)

// callLimit bounds one call (dial, request, answer) when ctx allows longer.
const callLimit = 10 * time.Second

// discoverPages bounds how many pages one Discover reads.
const discoverPages = 8

// ErrUnreachable wraps failures to reach a rendezvous point or read its
// answer; a refusal is an *Error instead.
var ErrUnreachable = errors.New("rendezvous point unreachable")

// Error is a rendezvous point's refusal.
type Error struct {
	Status Status
	Text   string
}

func (e *Error) Error() string {
	return fmt.Sprintf("the rendezvous point refused (%v): %s", e.Status, e.Text)
}

// Registration is a peer found by Discover.
type Registration struct {
	Ns   string
	Peer peer.AddrInfo // from the peer's own signed record
	TTL  time.Duration // how much longer the point keeps it
}

// Register registers h under ns at the rendezvous point rp (dialled at
// rp.Addrs when given), with a signed peer record of addrs (nil: h.Addrs()),
// asking for ttl (0: the point's default). It returns the TTL granted:
// register again well within it. A point that refuses a short TTL is asked
// again for its default.
func Register(ctx context.Context, h host.Host, rp peer.AddrInfo, ns string, ttl time.Duration, addrs []ma.Multiaddr) (time.Duration, error) {
	if addrs == nil {
		addrs = h.Addrs()
	}
	env, err := signedRecord(h, addrs)
	if err != nil {
		return 0, err
	}
	req := &Message{Type: TypeRegister, Register: &RegisterMsg{Ns: ns, SignedPeerRecord: env, TTL: int64(ttl / time.Second)}}
	granted, err := register(ctx, h, rp, req)
	var refused *Error
	if errors.As(err, &refused) && refused.Status == StatusInvalidTTL && req.Register.TTL != 0 {
		req.Register.TTL = 0
		granted, err = register(ctx, h, rp, req)
	}
	return granted, err
}

func register(ctx context.Context, h host.Host, rp peer.AddrInfo, req *Message) (time.Duration, error) {
	var granted time.Duration
	err := call(ctx, h, rp, func(r msgio.Reader, w msgio.Writer) error {
		resp, err := ask(r, w, req)
		if err != nil {
			return err
		}
		rr := resp.RegisterResponse
		if resp.Type != TypeRegisterResponse || rr == nil {
			return fmt.Errorf("%w: the answer to REGISTER is a message of type %d", ErrUnreachable, resp.Type)
		}
		if rr.Status != StatusOK {
			return &Error{Status: rr.Status, Text: rr.StatusText}
		}
		granted = seconds(rr.TTL)
		if rr.TTL <= 0 {
			granted = DefaultTTL // the spec's implied TTL
		}
		return nil
	})
	return granted, err
}

// seconds is a TTL in seconds as a duration: 0 when negative, and cut to
// 2^32 s (136 years) so that no value overflows.
func seconds(n int64) time.Duration {
	return time.Duration(min(max(n, 0), 1<<32)) * time.Second
}

// signedRecord seals a peer record of h at addrs with h's key.
func signedRecord(h host.Host, addrs []ma.Multiaddr) ([]byte, error) {
	key := h.Peerstore().PrivKey(h.ID())
	if key == nil {
		return nil, errors.New("rendezvous: the host has no private key to sign its peer record")
	}
	env, err := record.Seal(peer.PeerRecordFromAddrInfo(peer.AddrInfo{ID: h.ID(), Addrs: addrs}), key)
	if err != nil {
		return nil, fmt.Errorf("rendezvous: sign the peer record: %w", err)
	}
	return env.Marshal()
}

// Unregister removes h's registration under ns (the spec gives no answer,
// so success means the request was sent).
func Unregister(ctx context.Context, h host.Host, rp peer.AddrInfo, ns string) error {
	return call(ctx, h, rp, func(_ msgio.Reader, w msgio.Writer) error {
		return w.WriteMsg((&Message{Type: TypeUnregister, Unregister: &UnregisterMsg{Ns: ns}}).Marshal())
	})
}

// Discover lists the peers registered under ns at rp, at most limit of
// them (0: all the point gives in up to 8 pages). A registration whose
// record does not verify is skipped; a peer listed twice counts once.
func Discover(ctx context.Context, h host.Host, rp peer.AddrInfo, ns string, limit int) ([]Registration, error) {
	var out []Registration
	seen := map[string]bool{}
	err := call(ctx, h, rp, func(r msgio.Reader, w msgio.Writer) error {
		var cookie []byte
		for range discoverPages {
			req := &DiscoverMsg{Ns: ns, Cookie: cookie}
			if limit > 0 {
				req.Limit = int64(limit - len(out))
			}
			resp, err := ask(r, w, &Message{Type: TypeDiscover, Discover: req})
			if err != nil {
				return err
			}
			dr := resp.DiscoverResponse
			if resp.Type != TypeDiscoverResponse || dr == nil {
				return fmt.Errorf("%w: the answer to DISCOVER is a message of type %d", ErrUnreachable, resp.Type)
			}
			if dr.Status != StatusOK {
				return &Error{Status: dr.Status, Text: dr.StatusText}
			}
			added := collect(&out, seen, dr.Registrations)
			if added == 0 || len(dr.Cookie) == 0 || (limit > 0 && len(out) >= limit) {
				return nil
			}
			cookie = dr.Cookie
		}
		return nil
	})
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return out, err
}

// collect appends the verified registrations not seen yet; it returns how
// many it added.
func collect(out *[]Registration, seen map[string]bool, regs []RegisterMsg) int {
	added := 0
	for _, reg := range regs {
		pr, err := OpenRecord(reg.SignedPeerRecord)
		if err != nil {
			continue
		}
		key := reg.Ns + "\x00" + string(pr.PeerID)
		if seen[key] {
			continue
		}
		seen[key] = true
		*out = append(*out, Registration{Ns: reg.Ns, Peer: peer.AddrInfo{ID: pr.PeerID, Addrs: pr.Addrs},
			TTL: seconds(reg.TTL)})
		added++
	}
	return added
}

// ask sends req and reads one answer.
func ask(r msgio.Reader, w msgio.Writer, req *Message) (*Message, error) {
	if err := w.WriteMsg(req.Marshal()); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUnreachable, err)
	}
	b, err := r.ReadMsg()
	if err != nil {
		return nil, fmt.Errorf("%w: no answer: %v", ErrUnreachable, err)
	}
	defer r.ReleaseMsg(b)
	return Unmarshal(b)
}

// call opens a stream to rp and runs f on it.
func call(ctx context.Context, h host.Host, rp peer.AddrInfo, f func(msgio.Reader, msgio.Writer) error) error {
	ctx, cancel := context.WithTimeout(ctx, callLimit)
	defer cancel()
	if len(rp.Addrs) > 0 {
		if err := h.Connect(ctx, rp); err != nil {
			return fmt.Errorf("%w: cannot reach %s: %v", ErrUnreachable, rp.ID, err)
		}
	}
	s, err := h.NewStream(ctx, rp.ID, ProtocolID)
	if err != nil {
		return fmt.Errorf("%w: %s does not serve %s: %v", ErrUnreachable, rp.ID, ProtocolID, err)
	}
	if dl, ok := ctx.Deadline(); ok {
		_ = s.SetDeadline(dl)
	}
	err = f(msgio.NewVarintReaderSize(s, maxMessage), msgio.NewVarintWriter(s))
	if err != nil {
		_ = s.Reset()
		return err
	}
	return closeWrite(s)
}

// closeWrite ends the stream politely: the point sees EOF and closes too.
func closeWrite(s network.Stream) error {
	_ = s.CloseWrite()
	return s.Close()
}
