package session

import (
	"fmt"

	"google.golang.org/protobuf/encoding/protowire"
)

// PeekKind reads only the kind of an encoded message: it walks the top
// level fields without decoding any (no allocation), so a transport can
// turn away a message a stranger may not send for the cost of a scan.
// A kind that appears twice counts as protobuf reads it: the last one.
func PeekKind(b []byte) (MsgKind, error) {
	if len(b) > MaxMessageSize {
		return MsgNone, fmt.Errorf("%w: %d bytes exceed the %d-byte limit", ErrMalformed, len(b), MaxMessageSize)
	}
	kind := MsgNone
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return MsgNone, fmt.Errorf("%w: %v", ErrMalformed, protowire.ParseError(n))
		}
		b = b[n:]
		if num == 1 && typ == protowire.VarintType {
			v, m := protowire.ConsumeVarint(b)
			if m < 0 {
				return MsgNone, fmt.Errorf("%w: %v", ErrMalformed, protowire.ParseError(m))
			}
			if k := uint32(v); k >= uint32(msgLocal) {
				kind = msgLocal // unknown: refused below unless a later kind field replaces it
			} else {
				kind = MsgKind(k)
			}
			b = b[m:]
			continue
		}
		m := protowire.ConsumeFieldValue(num, typ, b)
		if m < 0 {
			return MsgNone, fmt.Errorf("%w: %v", ErrMalformed, protowire.ParseError(m))
		}
		b = b[m:]
	}
	if kind == msgLocal || kind == MsgNone {
		return MsgNone, fmt.Errorf("%w: unknown message kind", ErrMalformed)
	}
	return kind, nil
}
