package codes

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"strings"

	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"

	"hostfall/internal/clip"
	"hostfall/internal/codeform"
	"hostfall/p2p/transport"
)

// An invite code carries what a friend on the internet needs to join: the
// host's peer ID, the relay it holds a reservation on, and a few direct
// addresses worth a try. It is binary, then Crockford base32 (no I, L, O, U;
// case and the letters I, L, O read as 1, 1, 0 on input) in dash-separated
// groups of five, with a CRC-32 so a mistyped code is refused rather than
// dialled:
//
//	HF1-XXXXX-XXXXX-…
//
// Binary layout (version 1): version byte; host peer ID; uvarint-length
// relay transport multiaddr (empty: no relay) and, if there is one, the
// relay's peer ID; a count byte and uvarint-length direct multiaddrs;
// CRC-32 (IEEE, big endian) of all before it. A peer ID is a kind byte:
// 1 and the 32-byte Ed25519 key of an identity-hashed ID (what Hostfall
// peers have), or 0 and the uvarint-length ID bytes.

const (
	inviteVersion   = 1
	maxInviteAddrs  = 4
	maxInviteBytes  = 512
	inviteGroupSize = 5
)

// ErrBadInvite wraps every reason an invite code is refused.
var ErrBadInvite = errors.New("not a valid invite code")

// Invite is the decoded content of an invite code.
type Invite struct {
	Host   peer.ID
	Relay  ma.Multiaddr   // the relay's address with /p2p/<relay ID>; nil if none
	Direct []ma.Multiaddr // the host's direct addresses (may be unreachable behind NAT)
}

// RelayInvite is the invite code content for h, reachable through rc: its
// ID, the relay, and its public direct addresses (none behind NAT, unless
// observed).
func RelayInvite(rc *transport.RelayClient, h *transport.Host) Invite {
	return Invite{Host: h.ID(), Relay: rc.RelayAddr(), Direct: transport.Direct(h)}
}

// AddrInfo is how to dial the host: through the relay's circuit first, then
// the direct addresses.
func (inv *Invite) AddrInfo() peer.AddrInfo {
	ai := peer.AddrInfo{ID: inv.Host}
	if inv.Relay != nil {
		ai.Addrs = append(ai.Addrs, inv.Relay.Encapsulate(ma.StringCast("/p2p-circuit")))
	}
	return peer.AddrInfo{ID: ai.ID, Addrs: append(ai.Addrs, inv.Direct...)}
}

// Encode returns the invite code.
func (inv *Invite) Encode() (string, error) {
	if inv.Host == "" {
		return "", fmt.Errorf("%w: no host", ErrBadInvite)
	}
	if inv.Relay != nil {
		if _, err := relayID(inv.Relay); err != nil {
			return "", err
		}
	}
	b := []byte{inviteVersion}
	b = appendPeer(b, inv.Host)
	if inv.Relay == nil {
		b = appendBytes(b, nil)
	} else {
		transport, _ := ma.SplitLast(inv.Relay)
		id, _ := relayID(inv.Relay)
		b = appendPeer(appendBytes(b, transport.Bytes()), id)
	}
	direct := inv.Direct
	if len(direct) > maxInviteAddrs {
		direct = direct[:maxInviteAddrs]
	}
	b = append(b, byte(len(direct)))
	for _, m := range direct {
		b = appendBytes(b, m.Bytes())
	}
	b = binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
	if len(b) > maxInviteBytes {
		return "", fmt.Errorf("%w: %d bytes is too long", ErrBadInvite, len(b))
	}
	return codeform.LongPrefix + group(crockford.encode(b)), nil
}

// DecodeInvite reads an invite code as a person may have typed it: any
// case, with or without the dashes, spaces or line breaks.
func DecodeInvite(code string) (Invite, error) {
	var inv Invite
	s := strings.ToUpper(strings.TrimSpace(code))
	if len(s) < 3 || s[:2] != "HF" || crockford.values[s[2]] != 1 {
		return inv, fmt.Errorf("%w: it starts with %q, not %q", ErrBadInvite, clip.String(s, 4), codeform.LongPrefix)
	}
	b, err := crockford.decode(s[3:])
	if err != nil {
		return inv, err
	}
	if len(b) < 1+4 || len(b) > maxInviteBytes {
		return inv, fmt.Errorf("%w: %d bytes", ErrBadInvite, len(b))
	}
	body, sum := b[:len(b)-4], binary.BigEndian.Uint32(b[len(b)-4:])
	if crc32.ChecksumIEEE(body) != sum {
		return inv, fmt.Errorf("%w: the checksum does not match (a typo?)", ErrBadInvite)
	}
	if body[0] != inviteVersion {
		return inv, fmt.Errorf("%w: version %d; this Hostfall reads version %d", ErrBadInvite, body[0], inviteVersion)
	}
	r := inviteReader{b: body[1:]}
	id, err := r.peer()
	if err != nil {
		return inv, fmt.Errorf("%w: host peer ID: %v", ErrBadInvite, err)
	}
	inv.Host = id
	if rb := r.bytes(); len(rb) > 0 {
		m, err := ma.NewMultiaddrBytes(rb)
		if err != nil {
			return inv, fmt.Errorf("%w: relay address: %v", ErrBadInvite, err)
		}
		rid, err := r.peer()
		if err != nil {
			return inv, fmt.Errorf("%w: relay peer ID: %v", ErrBadInvite, err)
		}
		p2pPart, err := ma.NewComponent("p2p", rid.String())
		if err != nil {
			return inv, fmt.Errorf("%w: relay peer ID: %v", ErrBadInvite, err)
		}
		inv.Relay = m.Encapsulate(p2pPart)
	}
	n := int(r.byte())
	if n > maxInviteAddrs {
		return inv, fmt.Errorf("%w: %d direct addresses", ErrBadInvite, n)
	}
	for range n {
		m, err := ma.NewMultiaddrBytes(r.bytes())
		if err != nil {
			return inv, fmt.Errorf("%w: direct address: %v", ErrBadInvite, err)
		}
		inv.Direct = append(inv.Direct, m)
	}
	if r.err != nil {
		return inv, r.err
	}
	if len(r.b) != 0 {
		return inv, fmt.Errorf("%w: %d bytes too many", ErrBadInvite, len(r.b))
	}
	return inv, nil
}

// InviteResolver joins by invite code (join --invite).
type InviteResolver string

// Resolve decodes the code; dialing the circuit address connects to the
// relay first by itself.
func (c InviteResolver) Resolve(context.Context, *transport.Host) (peer.AddrInfo, error) {
	inv, err := DecodeInvite(string(c))
	if err != nil {
		return peer.AddrInfo{}, err
	}
	return inv.AddrInfo(), nil
}

// relayID is the peer ID a relay multiaddr ends in.
func relayID(m ma.Multiaddr) (peer.ID, error) {
	_, last := ma.SplitLast(m)
	if last == nil || last.Code() != ma.P_P2P {
		return "", fmt.Errorf("%w: the relay address %s must end in /p2p/<relay peer ID>", ErrBadInvite, m)
	}
	return peer.IDFromBytes(last.RawValue())
}

// ed25519IDPrefix starts the bytes of an identity-hashed Ed25519 peer ID:
// multihash identity, length 36, then the protobuf key (type Ed25519, 32 bytes).
var ed25519IDPrefix = []byte{0x00, 0x24, 0x08, 0x01, 0x12, 0x20}

func appendPeer(b []byte, id peer.ID) []byte {
	raw := []byte(id)
	if len(raw) == len(ed25519IDPrefix)+32 && bytes.HasPrefix(raw, ed25519IDPrefix) {
		return append(append(b, 1), raw[len(ed25519IDPrefix):]...)
	}
	return appendBytes(append(b, 0), raw)
}

func appendBytes(b, v []byte) []byte {
	return append(binary.AppendUvarint(b, uint64(len(v))), v...)
}

// inviteReader reads the binary layout; the first error sticks.
type inviteReader struct {
	b   []byte
	err error
}

func (r *inviteReader) byte() byte {
	if r.err != nil || len(r.b) == 0 {
		r.fail("truncated")
		return 0
	}
	v := r.b[0]
	r.b = r.b[1:]
	return v
}

func (r *inviteReader) bytes() []byte {
	if r.err != nil {
		return nil
	}
	n, k := binary.Uvarint(r.b)
	if k <= 0 || n > uint64(len(r.b)-k) {
		r.fail("truncated")
		return nil
	}
	v := r.b[k : k+int(n)]
	r.b = r.b[k+int(n):]
	return v
}

func (r *inviteReader) peer() (peer.ID, error) {
	var raw []byte
	switch kind := r.byte(); kind {
	case 0:
		raw = r.bytes()
	case 1:
		if r.err == nil && len(r.b) < 32 {
			r.fail("truncated")
		}
		if r.err == nil {
			raw = append(append([]byte(nil), ed25519IDPrefix...), r.b[:32]...)
			r.b = r.b[32:]
		}
	default:
		r.fail(fmt.Sprintf("peer ID kind %d", kind))
	}
	if r.err != nil {
		return "", r.err
	}
	return peer.IDFromBytes(raw)
}

func (r *inviteReader) fail(why string) {
	if r.err == nil {
		r.err = fmt.Errorf("%w: %s", ErrBadInvite, why)
	}
}

// group splits s into dash-separated groups.
func group(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i += inviteGroupSize {
		if i > 0 {
			b.WriteByte('-')
		}
		b.WriteString(s[i:min(i+inviteGroupSize, len(s))])
	}
	return b.String()
}

// base32Crockford is Douglas Crockford's base32: digits and letters without
// I, L, O, U, so that no two symbols look alike.
type base32Crockford struct {
	alphabet string
	values   [256]int8
}

var crockford = newCrockford()

func newCrockford() *base32Crockford {
	c := &base32Crockford{alphabet: "0123456789ABCDEFGHJKMNPQRSTVWXYZ"}
	for i := range c.values {
		c.values[i] = -1
	}
	for i := range len(c.alphabet) {
		c.values[c.alphabet[i]] = int8(i)
		c.values[strings.ToLower(c.alphabet[i : i+1])[0]] = int8(i)
	}
	for _, alias := range []struct {
		from string
		to   int8
	}{{"oO", 0}, {"iIlL", 1}} {
		for i := range len(alias.from) {
			c.values[alias.from[i]] = alias.to
		}
	}
	return c
}

// encode writes 5 bits a symbol, most significant first; the last symbol is
// padded with zero bits.
func (c *base32Crockford) encode(b []byte) string {
	var out strings.Builder
	var acc uint32
	bits := 0
	for _, x := range b {
		acc = acc<<8 | uint32(x)
		bits += 8
		for bits >= 5 {
			bits -= 5
			out.WriteByte(c.alphabet[(acc>>bits)&31])
		}
	}
	if bits > 0 {
		out.WriteByte(c.alphabet[(acc<<(5-bits))&31])
	}
	return out.String()
}

// decode skips dashes and white space; padding bits must be zero.
func (c *base32Crockford) decode(s string) ([]byte, error) {
	var out []byte
	var acc uint32
	bits := 0
	for i := range len(s) {
		ch := s[i]
		if ch == '-' || ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' {
			continue
		}
		v := c.values[ch]
		if v < 0 {
			return nil, fmt.Errorf("%w: %q is not a letter of invite codes", ErrBadInvite, rune(ch))
		}
		acc = acc<<5 | uint32(v)
		bits += 5
		if bits >= 8 {
			bits -= 8
			out = append(out, byte(acc>>bits))
		}
		if len(out) > maxInviteBytes {
			return nil, fmt.Errorf("%w: too long", ErrBadInvite)
		}
	}
	if bits >= 5 || acc&(1<<bits-1) != 0 {
		return nil, fmt.Errorf("%w: its length is off (a letter missing or extra?)", ErrBadInvite)
	}
	return out, nil
}
