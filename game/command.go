package game

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// CommandKind says what a command asks for.
type CommandKind uint8

const (
	CmdNone       CommandKind = iota
	CmdMove                   // Units walk to tile (X, Y), ignoring enemies
	CmdAttack                 // Units attack Target
	CmdAttackMove             // Units walk to tile (X, Y), fighting on the way
	CmdStop                   // Units drop their orders
	CmdGather                 // workers among Units mine the gold at (X, Y)
	CmdBuild                  // the worker among Units nearest the site builds Kind with its top-left at (X, Y)
	CmdTrain                  // the building among Units with the shortest queue trains one Kind
	CmdRally                  // buildings among Units send new units to (X, Y)
	CmdSurrender              // the player leaves the game (also used when a peer departs)
	CmdResearch               // the first idle workshop among Units researches the next level of Upgrade
	CmdPause                  // the player pauses the game (see pause.go)
	CmdResume                 // the player ends the pause after a countdown
	numCommandKinds
)

func (k CommandKind) String() string {
	switch k {
	case CmdMove:
		return "move"
	case CmdAttack:
		return "attack"
	case CmdAttackMove:
		return "attack-move"
	case CmdStop:
		return "stop"
	case CmdGather:
		return "gather"
	case CmdBuild:
		return "build"
	case CmdTrain:
		return "train"
	case CmdRally:
		return "rally"
	case CmdSurrender:
		return "surrender"
	case CmdResearch:
		return "research"
	case CmdPause:
		return "pause"
	case CmdResume:
		return "resume"
	}
	return fmt.Sprintf("command-kind-%d", uint8(k))
}

// Command is one order of one player. Player and Host are not part of the
// encoding: the network attributes a command to the slot that sent it, and
// knows whether that slot hosted the turn that carries it.
type Command struct {
	Player  PlayerID
	Host    bool // the player hosted the command's turn (it may resume a pause)
	Kind    CommandKind
	Units   []UnitID // the units or buildings it is about
	Target  UnitID   // CmdAttack
	X, Y    int32    // a tile: move, attack-move, gather, build, rally
	Build   Kind     // CmdBuild, CmdTrain
	Upgrade Upgrade  // CmdResearch
}

// CommandVersion is the version of the command encoding.
const CommandVersion = 1

// ErrBadCommand marks every error of DecodeCommand.
var ErrBadCommand = errors.New("bad command")

// The encoding: version byte, kind byte, uvarint count and uvarint unit IDs,
// then by kind: attack — uvarint target; build — kind byte, varint X, Y;
// train — kind byte; research — upgrade byte; move, attack-move, gather,
// rally — varint X, Y; stop, surrender, pause, resume — nothing more.

// AppendBinary appends the encoding of c to b (encoding.BinaryAppender).
func (c Command) AppendBinary(b []byte) ([]byte, error) {
	if c.Kind == CmdNone || c.Kind >= numCommandKinds {
		return b, fmt.Errorf("%w: unknown command kind %d", ErrBadCommand, c.Kind)
	}
	if len(c.Units) > MaxCommandUnits {
		return b, fmt.Errorf("%w: %d units in one command; at most %d are allowed", ErrBadCommand, len(c.Units), MaxCommandUnits)
	}
	b = append(b, CommandVersion, byte(c.Kind))
	b = binary.AppendUvarint(b, uint64(len(c.Units)))
	for _, id := range c.Units {
		b = binary.AppendUvarint(b, uint64(id))
	}
	switch c.Kind {
	case CmdAttack:
		b = binary.AppendUvarint(b, uint64(c.Target))
	case CmdBuild:
		b = append(b, byte(c.Build))
		b = binary.AppendVarint(b, int64(c.X))
		b = binary.AppendVarint(b, int64(c.Y))
	case CmdTrain:
		b = append(b, byte(c.Build))
	case CmdResearch:
		b = append(b, byte(c.Upgrade))
	case CmdMove, CmdAttackMove, CmdGather, CmdRally:
		b = binary.AppendVarint(b, int64(c.X))
		b = binary.AppendVarint(b, int64(c.Y))
	}
	return b, nil
}

// MarshalBinary returns the encoding of c.
func (c Command) MarshalBinary() ([]byte, error) { return c.AppendBinary(nil) }

// DecodeCommand decodes a command sent by player. Any malformed input gives
// an error wrapping ErrBadCommand, never a panic. A decoded command may still
// be refused by Step (not your unit, off the map, too expensive …).
func DecodeCommand(player PlayerID, b []byte) (Command, error) {
	d := decoder{b: b}
	c := Command{Player: player}
	if len(b) < 2 {
		return c, fmt.Errorf("%w: %d bytes is too short for a command", ErrBadCommand, len(b))
	}
	switch v := d.byte(); {
	case v > CommandVersion:
		return c, fmt.Errorf("%w: command encoding version %d is newer than this build (%d); update Hostfall", ErrBadCommand, v, CommandVersion)
	case v == 0:
		return c, fmt.Errorf("%w: command encoding version 0 does not exist", ErrBadCommand)
	}
	c.Kind = CommandKind(d.byte())
	if c.Kind == CmdNone || c.Kind >= numCommandKinds {
		return c, fmt.Errorf("%w: unknown command kind %d", ErrBadCommand, c.Kind)
	}
	n := d.uvarint()
	if n > MaxCommandUnits {
		return c, fmt.Errorf("%w: %d units in one command; at most %d are allowed", ErrBadCommand, n, MaxCommandUnits)
	}
	if n > uint64(len(b)) { // each ID takes at least a byte
		return c, fmt.Errorf("%w: command is truncated", ErrBadCommand)
	}
	if n > 0 {
		c.Units = make([]UnitID, n)
		for j := range c.Units {
			c.Units[j] = UnitID(d.uint32())
		}
	}
	switch c.Kind {
	case CmdAttack:
		c.Target = UnitID(d.uint32())
	case CmdBuild:
		c.Build = Kind(d.byte())
		c.X, c.Y = d.int32(), d.int32()
	case CmdTrain:
		c.Build = Kind(d.byte())
	case CmdResearch:
		c.Upgrade = Upgrade(d.byte())
	case CmdMove, CmdAttackMove, CmdGather, CmdRally:
		c.X, c.Y = d.int32(), d.int32()
	}
	if d.err != nil {
		return Command{Player: player}, fmt.Errorf("%w: %s command: %w", ErrBadCommand, c.Kind, d.err)
	}
	if rest := len(d.b); rest > 0 {
		return Command{Player: player}, fmt.Errorf("%w: %d stray bytes after a %s command", ErrBadCommand, rest, c.Kind)
	}
	return c, nil
}

// decoder reads a byte slice and remembers the first error, so decoding
// code reads straight through and checks once at the end.
type decoder struct {
	b   []byte
	err error
}

var (
	errTruncated = errors.New("truncated")
	errVarint    = errors.New("malformed varint")
	errRange     = errors.New("value out of range")
)

func (d *decoder) fail(err error) {
	if d.err == nil {
		d.err = err
	}
	d.b = nil
}

func (d *decoder) byte() byte {
	if len(d.b) == 0 {
		d.fail(errTruncated)
		return 0
	}
	v := d.b[0]
	d.b = d.b[1:]
	return v
}

func (d *decoder) bytes(n int) []byte {
	if n < 0 || len(d.b) < n {
		d.fail(errTruncated)
		return nil
	}
	v := d.b[:n]
	d.b = d.b[n:]
	return v
}

// skip consumes the n bytes a varint took (binary.Uvarint's n: 0 for too
// few bytes, negative for an overlong varint).
func (d *decoder) skip(n int) bool {
	switch {
	case n > 0:
		d.b = d.b[n:]
		return true
	case n == 0:
		d.fail(errTruncated)
	default:
		d.fail(errVarint)
	}
	return false
}

func (d *decoder) uvarint() uint64 {
	v, n := binary.Uvarint(d.b)
	if !d.skip(n) {
		return 0
	}
	return v
}

// signed reads a zig-zag varint in [lo, hi].
func (d *decoder) signed(lo, hi int64) int64 {
	v, n := binary.Varint(d.b)
	if !d.skip(n) {
		return 0
	}
	if v < lo || v > hi {
		d.fail(errRange)
		return 0
	}
	return v
}

func (d *decoder) uint32() uint32 { return uint32(d.uint(0xFFFFFFFF)) }

func (d *decoder) int32() int32 { return int32(d.signed(-1<<31, 1<<31-1)) }

func (d *decoder) int16() int16 { return int16(d.signed(-1<<15, 1<<15-1)) }

// uint reads a uvarint that must be at most lim.
func (d *decoder) uint(lim uint64) uint64 {
	v := d.uvarint()
	if v > lim {
		d.fail(errRange)
		return 0
	}
	return v
}
