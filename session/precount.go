package session

import (
	"fmt"

	"google.golang.org/protobuf/encoding/protowire"
)

// Decoding allocates a struct for every element of a repeated field, and an
// empty element costs two bytes on the wire: a 1 MiB message of empty turns
// became 77 MB in memory. So the elements are counted on the wire first, and
// a message holding more than a decoded one may is refused before anything
// is allocated. The caps are those msgFromWire checks after decoding, plus
// one on the commands inside turns, which nothing capped.

// maxTurnCmdsInMsg caps the commands in all the turns of one message: 64 a
// turn for the most turns a message carries.
const maxTurnCmdsInMsg = 64 * maxTurnsInMsg

// Field numbers of the wire form (session/internal/wirepb/session.proto).
const (
	fieldMsgKind    = 1
	fieldMsgTurns   = 4
	fieldMsgCmds    = 5
	fieldMsgLobby   = 6
	fieldMsgHashes  = 15
	fieldMsgTargets = 22
	fieldMsgDesync  = 23

	fieldTurnCmds       = 3
	fieldTurnDepartures = 4
	fieldTurnPresence   = 5

	fieldLobbySlots      = 9
	fieldLobbySpectators = 10

	fieldDesyncHashes = 2
)

// Only the messages that carry turns or a snapshot may be large; the others
// carry a lobby, a few hashes or a handful of peer IDs. A message larger
// than its kind needs is refused before it is decoded.
const (
	smallMessageSize   = 64 << 10
	commandMessageSize = 8 << 20 // a follower's pending commands, 64 KiB at most each
)

// maxSizeOf is the largest encoded message of kind k.
func maxSizeOf(k MsgKind) int {
	switch k {
	case MsgTurns, MsgFollow, MsgSnapshot:
		return MaxMessageSize
	case MsgCommands:
		return commandMessageSize
	case MsgAck:
		return 2 * smallMessageSize // hash reports of up to maxTurnsInMsg turns
	}
	return smallMessageSize
}

// precount walks the top level of an encoded Message and the messages in it
// that hold repeated fields, counting their elements against the caps, and
// checks the message's size against its kind's.
func precount(b []byte) error {
	var turns, cmds, hashes, targets, turnCmds int
	kind := MsgNone
	err := eachField(b, func(num protowire.Number, v []byte) error {
		switch num {
		case fieldMsgKind:
			if k, n := protowire.ConsumeVarint(v); n > 0 && k < 256 {
				kind = MsgKind(k)
			}
		case fieldMsgTurns:
			turns++
			var deps, pres int
			err := eachField(v, func(n protowire.Number, _ []byte) error {
				switch n {
				case fieldTurnCmds:
					turnCmds++
				case fieldTurnDepartures:
					deps++
				case fieldTurnPresence:
					pres++
				}
				return nil
			})
			if err != nil {
				return err
			}
			if deps > MaxSlots || pres > MaxSlots {
				return fmt.Errorf("a turn with %d departures and %d presence changes (at most %d each)", deps, pres, MaxSlots)
			}
		case fieldMsgCmds:
			cmds++
		case fieldMsgHashes:
			hashes++
		case fieldMsgTargets:
			targets++
		case fieldMsgLobby:
			return countIn(v, map[protowire.Number]int{fieldLobbySlots: MaxSlots, fieldLobbySpectators: 64}, "lobby")
		case fieldMsgDesync:
			return countIn(v, map[protowire.Number]int{fieldDesyncHashes: 64 + MaxSlots}, "desync")
		}
		if turns > maxTurnsInMsg || cmds > maxCmdsInMsg || hashes > maxTurnsInMsg || targets > 64 || turnCmds > maxTurnCmdsInMsg {
			return fmt.Errorf("too many elements (turns %d, commands %d, commands in turns %d, hashes %d, targets %d)",
				turns, cmds, turnCmds, hashes, targets)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if len(b) > maxSizeOf(kind) {
		return fmt.Errorf("a %v message of %d bytes (at most %d)", kind, len(b), maxSizeOf(kind))
	}
	return nil
}

// countIn counts the elements of the repeated fields of caps in one
// embedded message.
func countIn(b []byte, caps map[protowire.Number]int, what string) error {
	var counts [32]int
	return eachField(b, func(n protowire.Number, _ []byte) error {
		limit, ok := caps[n]
		if !ok || int(n) >= len(counts) {
			return nil
		}
		if counts[n]++; counts[n] > limit {
			return fmt.Errorf("%s: more than %d elements of field %d", what, limit, n)
		}
		return nil
	})
}

// eachField calls fn for every field of an encoded message, with the bytes
// of a length-delimited one.
func eachField(b []byte, fn func(num protowire.Number, v []byte) error) error {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return protowire.ParseError(n)
		}
		b = b[n:]
		m := protowire.ConsumeFieldValue(num, typ, b)
		if m < 0 {
			return protowire.ParseError(m)
		}
		v := b[:m] // a varint's own bytes; for a length-delimited field, its contents
		if typ == protowire.BytesType {
			v, _ = protowire.ConsumeBytes(b[:m])
		}
		if err := fn(num, v); err != nil {
			return err
		}
		b = b[m:]
	}
	return nil
}
