package beacon

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// Port is the UDP port every beacon is sent to and heard on.
const Port = 47800

// magic leads every packet; version follows it.
const (
	magic   = "HFLB"
	version = 1
)

// Size bounds: a packet fits one unfragmented Ethernet frame, and holds at
// most MaxStrings TXT strings (each at most 255 bytes by its length byte).
const (
	MaxPacket  = 1200
	MaxStrings = 32
	headerLen  = len(magic) + 1 + 1 + 8 + 1
)

// Kind is what a packet asks or tells.
type Kind uint8

const (
	KindQuery    Kind = 1 // a browser asks every host to announce now
	KindAnnounce Kind = 2 // a host's announcement
	KindGoodbye  Kind = 3 // the host stops announcing
)

func (k Kind) String() string {
	switch k {
	case KindQuery:
		return "query"
	case KindAnnounce:
		return "announce"
	case KindGoodbye:
		return "goodbye"
	}
	return fmt.Sprintf("kind %d", uint8(k))
}

// Packet is one beacon.
type Packet struct {
	Kind     Kind
	Instance uint64   // the announcer's random number for this run (0 in a query)
	TXT      []string // the announcement (none in a query)
}

// Reasons Decode refuses a packet; callers branch on them.
var (
	ErrNotBeacon = errors.New("not a Hostfall beacon")
	ErrNewer     = errors.New("beacon of a newer version")
	ErrMalformed = errors.New("malformed beacon")
)

// Encode returns the packet's bytes, or an error if it would not fit.
func (p *Packet) Encode() ([]byte, error) {
	if p.Kind < KindQuery || p.Kind > KindGoodbye {
		return nil, fmt.Errorf("beacon: cannot encode %v", p.Kind)
	}
	if len(p.TXT) > MaxStrings {
		return nil, fmt.Errorf("beacon: %d strings (at most %d)", len(p.TXT), MaxStrings)
	}
	b := make([]byte, 0, MaxPacket)
	b = append(b, magic...)
	b = append(b, version, byte(p.Kind))
	b = binary.BigEndian.AppendUint64(b, p.Instance)
	b = append(b, byte(len(p.TXT)))
	for _, s := range p.TXT {
		if len(s) > 255 {
			return nil, fmt.Errorf("beacon: a TXT string of %d bytes (at most 255)", len(s))
		}
		b = append(b, byte(len(s)))
		b = append(b, s...)
	}
	if len(b) > MaxPacket {
		return nil, fmt.Errorf("beacon: %d bytes (at most %d)", len(b), MaxPacket)
	}
	return b, nil
}

// Decode reads a packet. A newer version is ErrNewer (its layout is not
// read); anything else that does not parse is ErrNotBeacon or ErrMalformed.
func Decode(b []byte) (Packet, error) {
	var p Packet
	if len(b) > MaxPacket {
		return p, fmt.Errorf("%w: %d bytes (at most %d)", ErrMalformed, len(b), MaxPacket)
	}
	if len(b) < len(magic)+1 || string(b[:len(magic)]) != magic {
		return p, ErrNotBeacon
	}
	if v := b[len(magic)]; v != version {
		if v > version {
			return p, fmt.Errorf("%w: version %d (this peer reads %d)", ErrNewer, v, version)
		}
		return p, fmt.Errorf("%w: version %d", ErrMalformed, v)
	}
	if len(b) < headerLen {
		return p, fmt.Errorf("%w: %d bytes of header (needs %d)", ErrMalformed, len(b), headerLen)
	}
	p.Kind = Kind(b[len(magic)+1])
	p.Instance = binary.BigEndian.Uint64(b[len(magic)+2:])
	n := int(b[headerLen-1])
	rest := b[headerLen:]
	switch {
	case p.Kind < KindQuery || p.Kind > KindGoodbye:
		return Packet{}, fmt.Errorf("%w: %v", ErrMalformed, p.Kind)
	case n > MaxStrings:
		return Packet{}, fmt.Errorf("%w: %d strings (at most %d)", ErrMalformed, n, MaxStrings)
	case p.Kind == KindQuery && n != 0:
		return Packet{}, fmt.Errorf("%w: a query with %d strings", ErrMalformed, n)
	}
	if n > 0 {
		p.TXT = make([]string, 0, n)
	}
	for range n {
		if len(rest) < 1 || len(rest) < 1+int(rest[0]) {
			return Packet{}, fmt.Errorf("%w: a string runs past the end", ErrMalformed)
		}
		end := 1 + int(rest[0])
		p.TXT = append(p.TXT, string(rest[1:end]))
		rest = rest[end:]
	}
	if len(rest) != 0 {
		return Packet{}, fmt.Errorf("%w: %d bytes after the last string", ErrMalformed, len(rest))
	}
	return p, nil
}
