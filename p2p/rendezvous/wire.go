// Package rendezvous speaks the libp2p rendezvous protocol
// (github.com/libp2p/specs, rendezvous/README.md, /rendezvous/1.0.0): peers
// REGISTER themselves under a namespace with a signed peer record and a TTL,
// UNREGISTER, and DISCOVER who is registered. Server is a rendezvous point;
// Register, Unregister and Discover are the client's calls. Any other
// implementation of the spec can stand in for either side.
//
// The messages are encoded by hand with protowire: the spec's schema is
// small and stable, and hand encoding keeps its field numbers visible here.
package rendezvous

import (
	"errors"
	"fmt"

	"google.golang.org/protobuf/encoding/protowire"
)

// ProtocolID is the spec's stream protocol.
const ProtocolID = "/rendezvous/1.0.0"

// MessageType says which of a Message's parts is set.
type MessageType int32

const (
	TypeRegister         MessageType = 0
	TypeRegisterResponse MessageType = 1
	TypeUnregister       MessageType = 2
	TypeDiscover         MessageType = 3
	TypeDiscoverResponse MessageType = 4
)

// Status is a response's outcome (the spec's ResponseStatus).
type Status int32

const (
	StatusOK                 Status = 0
	StatusInvalidNamespace   Status = 100
	StatusInvalidPeerRecord  Status = 101
	StatusInvalidTTL         Status = 102
	StatusInvalidCookie      Status = 103
	StatusPoWRequired        Status = 104
	StatusDifficultyTooLow   Status = 105
	StatusNotAuthorized      Status = 200
	StatusInternalError      Status = 300
	StatusUnavailable        Status = 400
	maxNamespace                    = 255 // the spec's bound on a namespace's length
	maxMessage                      = 1 << 20
	maxRequest                      = 16 << 10
	maxRecord                       = 8 << 10
	maxRegistrationsInAnswer        = 1000
)

var statusNames = map[Status]string{
	StatusOK: "OK", StatusInvalidNamespace: "E_INVALID_NAMESPACE", StatusInvalidPeerRecord: "E_INVALID_SIGNED_PEER_RECORD",
	StatusInvalidTTL: "E_INVALID_TTL", StatusInvalidCookie: "E_INVALID_COOKIE", StatusPoWRequired: "E_POW_REQUIRED",
	StatusDifficultyTooLow: "E_DIFFICULTY_TOO_LOW", StatusNotAuthorized: "E_NOT_AUTHORIZED",
	StatusInternalError: "E_INTERNAL_ERROR", StatusUnavailable: "E_UNAVAILABLE",
}

func (s Status) String() string {
	if n, ok := statusNames[s]; ok {
		return n
	}
	return fmt.Sprintf("status %d", int32(s))
}

// Message is one message of the protocol; Type says which part is set.
type Message struct {
	Type             MessageType
	Register         *RegisterMsg
	RegisterResponse *RegisterResponse
	Unregister       *UnregisterMsg
	Discover         *DiscoverMsg
	DiscoverResponse *DiscoverResponse
}

// RegisterMsg registers the sender under Ns, or is one registration in a
// DiscoverResponse. TTL is in seconds; 0 means the point's default.
type RegisterMsg struct {
	Ns               string
	SignedPeerRecord []byte
	TTL              int64
}

type RegisterResponse struct {
	Status     Status
	StatusText string
	TTL        int64
}

type UnregisterMsg struct{ Ns string }

// DiscoverMsg asks for registrations under Ns ("" is every namespace), at
// most Limit of them (0: the point's default), after Cookie.
type DiscoverMsg struct {
	Ns     string
	Limit  int64
	Cookie []byte
}

type DiscoverResponse struct {
	Registrations []RegisterMsg
	Cookie        []byte
	Status        Status
	StatusText    string
}

// Field numbers of the spec's schema.
const (
	fType, fRegister, fRegisterResponse, fUnregister, fDiscover, fDiscoverResponse = 1, 2, 3, 4, 5, 6
)

// Marshal encodes m.
func (m *Message) Marshal() []byte {
	var b []byte
	if m.Type != 0 {
		b = protowire.AppendTag(b, fType, protowire.VarintType)
		b = protowire.AppendVarint(b, uint64(m.Type))
	}
	if m.Register != nil {
		b = appendSub(b, fRegister, m.Register.marshal())
	}
	if r := m.RegisterResponse; r != nil {
		var s []byte
		s = appendVarint(s, 1, uint64(r.Status))
		s = appendString(s, 2, r.StatusText)
		s = appendVarint(s, 3, uint64(r.TTL))
		b = appendSub(b, fRegisterResponse, s)
	}
	if m.Unregister != nil {
		b = appendSub(b, fUnregister, appendString(nil, 1, m.Unregister.Ns))
	}
	if d := m.Discover; d != nil {
		var s []byte
		s = appendString(s, 1, d.Ns)
		s = appendVarint(s, 2, uint64(d.Limit))
		s = appendBytes(s, 3, d.Cookie)
		b = appendSub(b, fDiscover, s)
	}
	if d := m.DiscoverResponse; d != nil {
		var s []byte
		for i := range d.Registrations {
			s = appendSub(s, 1, d.Registrations[i].marshal())
		}
		s = appendBytes(s, 2, d.Cookie)
		s = appendVarint(s, 3, uint64(d.Status))
		s = appendString(s, 4, d.StatusText)
		b = appendSub(b, fDiscoverResponse, s)
	}
	return b
}

func (r *RegisterMsg) marshal() []byte {
	var s []byte
	s = appendString(s, 1, r.Ns)
	s = appendBytes(s, 2, r.SignedPeerRecord)
	return appendVarint(s, 3, uint64(r.TTL))
}

// appendSub appends a sub-message, even an empty one: its presence counts.
func appendSub(b []byte, n protowire.Number, sub []byte) []byte {
	b = protowire.AppendTag(b, n, protowire.BytesType)
	return protowire.AppendBytes(b, sub)
}

func appendVarint(b []byte, n protowire.Number, v uint64) []byte {
	if v == 0 {
		return b
	}
	b = protowire.AppendTag(b, n, protowire.VarintType)
	return protowire.AppendVarint(b, v)
}

func appendString(b []byte, n protowire.Number, s string) []byte {
	if s == "" {
		return b
	}
	b = protowire.AppendTag(b, n, protowire.BytesType)
	return protowire.AppendString(b, s)
}

func appendBytes(b []byte, n protowire.Number, v []byte) []byte {
	if len(v) == 0 {
		return b
	}
	b = protowire.AppendTag(b, n, protowire.BytesType)
	return protowire.AppendBytes(b, v)
}

// ErrMalformed wraps every decoding failure.
var ErrMalformed = errors.New("rendezvous: malformed message")

// Unmarshal decodes a message. Unknown fields are skipped, as protobuf
// readers do; a message that does not parse is an ErrMalformed. The
// message shares no memory with b, which may go back to a buffer pool.
func Unmarshal(b []byte) (*Message, error) {
	m := &Message{}
	err := fields(b, func(n protowire.Number, v uint64, sub []byte) error {
		if n >= fRegister && n <= fDiscoverResponse && sub == nil {
			return fmt.Errorf("%w: field %d is not a message", ErrMalformed, n)
		}
		var err error
		switch n {
		case fType:
			m.Type = MessageType(int32(v))
		case fRegister:
			m.Register, err = unmarshalRegister(sub)
		case fRegisterResponse:
			m.RegisterResponse, err = unmarshalRegisterResponse(sub)
		case fUnregister:
			m.Unregister = &UnregisterMsg{}
			err = fields(sub, func(n protowire.Number, _ uint64, s []byte) error {
				if n == 1 {
					m.Unregister.Ns = string(s)
				}
				return nil
			})
		case fDiscover:
			m.Discover, err = unmarshalDiscover(sub)
		case fDiscoverResponse:
			m.DiscoverResponse, err = unmarshalDiscoverResponse(sub)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return m, nil
}

func unmarshalRegister(b []byte) (*RegisterMsg, error) {
	r := &RegisterMsg{}
	return r, fields(b, func(n protowire.Number, v uint64, s []byte) error {
		switch n {
		case 1:
			r.Ns = string(s)
		case 2:
			r.SignedPeerRecord = s
		case 3:
			r.TTL = int64(v)
		}
		return nil
	})
}

func unmarshalRegisterResponse(b []byte) (*RegisterResponse, error) {
	r := &RegisterResponse{}
	return r, fields(b, func(n protowire.Number, v uint64, s []byte) error {
		switch n {
		case 1:
			r.Status = Status(int32(v))
		case 2:
			r.StatusText = string(s)
		case 3:
			r.TTL = int64(v)
		}
		return nil
	})
}

func unmarshalDiscover(b []byte) (*DiscoverMsg, error) {
	d := &DiscoverMsg{}
	return d, fields(b, func(n protowire.Number, v uint64, s []byte) error {
		switch n {
		case 1:
			d.Ns = string(s)
		case 2:
			d.Limit = int64(v)
		case 3:
			d.Cookie = s
		}
		return nil
	})
}

func unmarshalDiscoverResponse(b []byte) (*DiscoverResponse, error) {
	d := &DiscoverResponse{}
	return d, fields(b, func(n protowire.Number, v uint64, s []byte) error {
		switch n {
		case 1:
			if len(d.Registrations) == maxRegistrationsInAnswer {
				return fmt.Errorf("%w: more than %d registrations", ErrMalformed, maxRegistrationsInAnswer)
			}
			r, err := unmarshalRegister(s)
			if err != nil {
				return err
			}
			d.Registrations = append(d.Registrations, *r)
		case 2:
			d.Cookie = s
		case 3:
			d.Status = Status(int32(v))
		case 4:
			d.StatusText = string(s)
		}
		return nil
	})
}

// fields calls f with each field of b: a varint's value, or a
// length-delimited field's bytes (never nil; nil for a varint). Other wire
// types are skipped.
func fields(b []byte, f func(n protowire.Number, v uint64, sub []byte) error) error {
	for len(b) > 0 {
		n, typ, l := protowire.ConsumeTag(b)
		if l < 0 {
			return fmt.Errorf("%w: %v", ErrMalformed, protowire.ParseError(l))
		}
		b = b[l:]
		var v uint64
		var sub []byte
		switch typ {
		case protowire.VarintType:
			v, l = protowire.ConsumeVarint(b)
		case protowire.BytesType:
			sub, l = protowire.ConsumeBytes(b)
			sub = append([]byte{}, sub...) // a copy, present even when empty: nil marks a varint
		default:
			l = protowire.ConsumeFieldValue(n, typ, b)
		}
		if l < 0 {
			return fmt.Errorf("%w: field %d: %v", ErrMalformed, n, protowire.ParseError(l))
		}
		b = b[l:]
		if typ != protowire.VarintType && typ != protowire.BytesType {
			continue
		}
		if err := f(n, v, sub); err != nil {
			return err
		}
	}
	return nil
}
