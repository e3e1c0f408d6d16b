// Package savegame reads and writes Hostfall save files: a running game
// saved at a turn boundary, so a new session can resume it with the same
// players (session.Settings.Resume).
//
// Format (version 1), integers little-endian unless uvarint:
//
//	magic "HFSAVE" | version uint16 | saved-at int64 (unix seconds)
//	| lobby (uvarint length | session.MarshalLobby)
//	| turn uvarint | chain uint64 | gone uint32
//	| next-seq count uvarint (≤ session.MaxSlots) | next-seq uvarint…
//	| state (uvarint length | the match snapshot after turn)
//	| CRC-32C of everything before it, uint32
//
// The lobby holds the players by slot (name, peer ID, color, team, bot level,
// kind) and the settings (map seed and size, turn length, turn limit); the
// rest is session.Saved.State. Decode refuses a file with another magic, an
// unknown version, a failed checksum, a field out of range or bytes after the
// end, each with an error a person can read.
package savegame

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"time"

	"hostfall/session"
)

// Version is the format version this package writes.
const Version = 1

// Ext is the file name extension of save files.
const Ext = ".hfsave"

const magic = "HFSAVE"

// MaxSize bounds a save file: the state must fit in one session message.
const MaxSize = session.MaxMessageSize + 64<<10

// Errors Decode wraps; use errors.Is.
var (
	ErrNotSave = errors.New("not a Hostfall save file")
	ErrVersion = errors.New("unsupported save version")
	ErrCorrupt = errors.New("save file is damaged")
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Save is a saved game.
type Save struct {
	session.Saved
	At time.Time // when it was saved (wall clock; informational)
}

// Turn is the turn the game was saved after.
func (s *Save) Turn() uint64 { return s.State.Turn }

// Encode returns the file's bytes.
func Encode(s *Save) ([]byte, error) {
	lobby, err := session.MarshalLobby(s.Lobby)
	if err != nil {
		return nil, fmt.Errorf("savegame: encode lobby: %w", err)
	}
	if len(s.State.NextSeq) > session.MaxSlots {
		return nil, fmt.Errorf("savegame: %d sequence numbers; a session has at most %d slots", len(s.State.NextSeq), session.MaxSlots)
	}
	b := make([]byte, 0, 64+len(lobby)+len(s.State.Data))
	b = append(b, magic...)
	b = binary.LittleEndian.AppendUint16(b, Version)
	b = binary.LittleEndian.AppendUint64(b, uint64(s.At.Unix()))
	b = binary.AppendUvarint(b, uint64(len(lobby)))
	b = append(b, lobby...)
	b = binary.AppendUvarint(b, s.State.Turn)
	b = binary.LittleEndian.AppendUint64(b, s.State.Chain)
	b = binary.LittleEndian.AppendUint32(b, s.State.Departed)
	b = binary.AppendUvarint(b, uint64(len(s.State.NextSeq)))
	for _, q := range s.State.NextSeq {
		b = binary.AppendUvarint(b, q)
	}
	b = binary.AppendUvarint(b, uint64(len(s.State.Data)))
	b = append(b, s.State.Data...)
	b = binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli))
	if len(b) > MaxSize {
		return nil, fmt.Errorf("savegame: a save of %d bytes exceeds the %d-byte limit", len(b), MaxSize)
	}
	return b, nil
}

// Write encodes s to w.
func Write(w io.Writer, s *Save) error {
	b, err := Encode(s)
	if err != nil {
		return err
	}
	if _, err := w.Write(b); err != nil {
		return fmt.Errorf("savegame: write: %w", err)
	}
	return nil
}

// Read reads and decodes a whole save file (at most MaxSize bytes).
func Read(r io.Reader) (*Save, error) {
	b, err := io.ReadAll(io.LimitReader(r, MaxSize+1))
	if err != nil {
		return nil, fmt.Errorf("savegame: read: %w", err)
	}
	return Decode(b)
}

// Decode checks and decodes a save file's bytes.
func Decode(b []byte) (*Save, error) {
	if len(b) < len(magic)+2 || string(b[:len(magic)]) != magic {
		return nil, fmt.Errorf("%w: it does not start with %q", ErrNotSave, magic)
	}
	if v := binary.LittleEndian.Uint16(b[len(magic):]); v != Version {
		return nil, fmt.Errorf("%w: the file has version %d and this Hostfall reads version %d", ErrVersion, v, Version)
	}
	if len(b) > MaxSize {
		return nil, fmt.Errorf("%w: it is larger than %d bytes", ErrCorrupt, MaxSize)
	}
	if len(b) < len(magic)+2+4 {
		return nil, fmt.Errorf("%w: it ends after the header", ErrCorrupt)
	}
	body, sum := b[:len(b)-4], binary.LittleEndian.Uint32(b[len(b)-4:])
	if crc32.Checksum(body, castagnoli) != sum {
		return nil, fmt.Errorf("%w: it fails its checksum (cut off or changed)", ErrCorrupt)
	}
	d := decoder{b: body[len(magic)+2:]}
	s := &Save{At: time.Unix(int64(d.u64("save time")), 0)}
	lobby := d.bytes("lobby")
	s.State.Turn = d.uvarint("turn")
	s.State.Chain = d.u64("chain hash")
	s.State.Departed = d.u32("departed slots")
	if n := d.uvarint("sequence count"); n > session.MaxSlots {
		d.fail("%d sequence numbers; a session has at most %d slots", n, session.MaxSlots)
	} else {
		for range n {
			s.State.NextSeq = append(s.State.NextSeq, d.uvarint("sequence number"))
		}
	}
	s.State.Data = d.bytes("game state")
	if d.err == nil && len(d.b) > 0 {
		d.fail("%d bytes after the game state", len(d.b))
	}
	if d.err != nil {
		return nil, d.err
	}
	var err error
	if s.Lobby, err = session.UnmarshalLobby(lobby); err != nil {
		return nil, fmt.Errorf("%w: the lobby: %v", ErrCorrupt, err)
	}
	if err := check(s); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	return s, nil
}

// check refuses a save that decodes but cannot be resumed.
func check(s *Save) error {
	switch {
	case s.State.Turn == 0:
		return errors.New("it was saved before the first turn")
	case len(s.State.Data) == 0:
		return errors.New("it holds no game state")
	case len(s.Lobby.Slots) == 0:
		return errors.New("its lobby has no slots")
	}
	players := 0
	for _, sl := range s.Lobby.Slots {
		if sl.Kind == session.SlotHuman {
			players++
		}
	}
	if players == 0 {
		return errors.New("its lobby has no human player")
	}
	return nil
}

// decoder reads fields and remembers the first failure.
type decoder struct {
	b   []byte
	err error
}

func (d *decoder) fail(format string, args ...any) {
	if d.err == nil {
		d.err = fmt.Errorf("%w: %s", ErrCorrupt, fmt.Sprintf(format, args...))
	}
	d.b = nil
}

func (d *decoder) take(n int, what string) []byte {
	if d.err != nil {
		return nil
	}
	if n > len(d.b) {
		d.fail("the %s is cut off", what)
		return nil
	}
	v := d.b[:n]
	d.b = d.b[n:]
	return v
}

func (d *decoder) u64(what string) uint64 {
	if v := d.take(8, what); v != nil {
		return binary.LittleEndian.Uint64(v)
	}
	return 0
}

func (d *decoder) u32(what string) uint32 {
	if v := d.take(4, what); v != nil {
		return binary.LittleEndian.Uint32(v)
	}
	return 0
}

func (d *decoder) uvarint(what string) uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.fail("the %s is malformed", what)
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) bytes(what string) []byte {
	n := d.uvarint(what + " length")
	if d.err == nil && n > uint64(len(d.b)) {
		d.fail("the %s is cut off (%d bytes announced, %d left)", what, n, len(d.b))
		return nil
	}
	return bytes.Clone(d.take(int(n), what))
}
