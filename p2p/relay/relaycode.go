package relay

import (
	"cmp"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"

	"hostfall/p2p/codes"
	"hostfall/p2p/discovery"
	"hostfall/p2p/rendezvous"
	"hostfall/p2p/transport"
)

// A game hosted through a relay of one's own gets a short code too: the
// host registers in the relay's rendezvous under the code's namespace, and
// answers CodeProtocol with the salt its code was made from. A joiner given
// the relay and the code discovers the registrations under that namespace
// and takes the one whose peer ID and salt make the code (CodeFor), as a
// joiner through the DHT does: another registrant under the same namespace
// cannot pass for the host.

// CodeProtocol answers the salt of the host's short code.
const CodeProtocol = "/hostfall/code/1"

const codeSaltLen = 16

func codeNamespace(c codes.Code) string { return "hostfall/code/1/" + string(c) }

// RegisterCode keeps a short code for p's session in the relay's
// rendezvous while p hosts it (keepRegistered). The code is the same for the life of the
// call (a host change within the game gets the new host its own code).
// registered, when set, is called once, when the code first resolves.
func RegisterCode(ctx context.Context, h *transport.Host, p discovery.Hosting, relay peer.AddrInfo, log *slog.Logger, registered func()) (codes.Code, func()) {
	log = cmp.Or(log, slog.Default())
	salt := make([]byte, codeSaltLen)
	_, _ = rand.Read(salt)
	code := codes.CodeFor(h.ID(), salt)
	h.LibP2P().SetStreamHandler(CodeProtocol, func(s network.Stream) {
		defer s.Close()
		_ = s.SetDeadline(time.Now().Add(listingLimit))
		if _, ok := p.Announce(); !ok {
			s.Reset()
			return
		}
		_, _ = s.Write(salt)
	})
	stop := keepRegistered(ctx, h, p, relay, codeNamespace(code), "the game's short code "+string(code), log, registered)
	return code, func() {
		stop()
		h.LibP2P().RemoveStreamHandler(CodeProtocol)
	}
}

// CodeResolver finds the host of a short code in a relay's rendezvous.
type CodeResolver struct {
	Relay peer.AddrInfo
	Code  codes.Code
}

// Resolve discovers the code's registrations and returns the first whose
// host proves the code is its own. With none it answers ErrNoGame.
func (r CodeResolver) Resolve(ctx context.Context, h *transport.Host) (peer.AddrInfo, error) {
	regs, err := rendezvous.Discover(ctx, h.LibP2P(), r.Relay, codeNamespace(r.Code), 8)
	if err != nil {
		return peer.AddrInfo{}, fmt.Errorf("finding %s on the relay: %w", r.Code, dirErr(err))
	}
	var why []error
	for _, reg := range regs {
		ai := peer.AddrInfo{ID: reg.Peer.ID, Addrs: viaRelay(r.Relay, reg.Peer.Addrs)}
		salt, err := askSalt(ctx, h, ai)
		if err == nil && codes.CodeFor(ai.ID, salt) == r.Code {
			return ai, nil
		}
		if err == nil {
			err = fmt.Errorf("%s registered under %s, but the code is not its own", ai.ID, r.Code)
		}
		why = append(why, err)
	}
	if len(why) > 0 {
		return peer.AddrInfo{}, fmt.Errorf("%w %s on the relay: %w", codes.ErrNoGame, r.Code, errors.Join(why...))
	}
	return peer.AddrInfo{}, fmt.Errorf("%w %s on the relay (check the code, and that your friend hosts through the same relay)", codes.ErrNoGame, r.Code)
}

// askSalt asks the host at ai for the salt of its short code.
func askSalt(ctx context.Context, h *transport.Host, ai peer.AddrInfo) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, listingLimit)
	defer cancel()
	if err := h.LibP2P().Connect(ctx, ai); err != nil {
		return nil, fmt.Errorf("cannot reach %s: %w", ai.ID, err)
	}
	s, err := h.LibP2P().NewStream(network.WithAllowLimitedConn(ctx, "code"), ai.ID, CodeProtocol)
	if err != nil {
		return nil, fmt.Errorf("%s does not answer for its code: %w", ai.ID, err)
	}
	defer s.Close()
	if dl, ok := ctx.Deadline(); ok {
		_ = s.SetDeadline(dl)
	}
	_ = s.CloseWrite()
	salt, err := io.ReadAll(io.LimitReader(s, codeSaltLen+1))
	if err != nil || len(salt) != codeSaltLen {
		s.Reset()
		return nil, fmt.Errorf("%s answered no salt for its code (%d bytes, %v)", ai.ID, len(salt), err)
	}
	return salt, nil
}
