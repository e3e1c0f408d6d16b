// Package replay reads and writes Hostfall replay files: the initial lobby,
// every committed turn and the state hashes peers agreed on, so playing a file
// back reproduces the game and checks itself.
//
// Format (version 1), all integers little-endian:
//
//	magic "HFREPLAY" | version uint16 | record* | end record
//	record = kind uint8 | length uvarint | payload | CRC-32C(kind, length, payload) uint32
//
// Kinds: 1 lobby (session.MarshalLobby; first record, once), 2 turn
// (session.MarshalTurn; numbers consecutive from the first), 3 hash (turn
// uvarint, hash uint64), 4 end (turn count uvarint; last record), 6 rules
// (uvarint: the version of the game rules the turns were played under; at
// most once, before the first turn). A file without a rules record was
// written before rules were recorded; its Rules is 0.
//
// Version 2 is the replay of a game resumed from a save (Lobby.Resume > 0):
// record 2 is kind 5, start (turn uvarint, the caller's state after that
// turn), and the turns begin at start+1. Games from the map seed are still
// written as version 1, so older readers keep reading them. The reader
// refuses a file with another magic, an unknown version, a bad checksum, a
// record out of order or a missing end, each with an error a person can read.
package replay

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"

	"hostfall/session"
)

// Version is the format version of a game played from the map seed;
// VersionResumed that of a game resumed from a save (it has a start record).
const (
	Version        = 1
	VersionResumed = 2
)

const magic = "HFREPLAY"

// maxRecord bounds one record, so a damaged length cannot make us allocate much.
const maxRecord = session.MaxMessageSize

const (
	kindLobby = 1
	kindTurn  = 2
	kindHash  = 3
	kindEnd   = 4
	kindStart = 5
	kindRules = 6
)

// Errors the reader wraps; use errors.Is.
var (
	ErrNotReplay = errors.New("not a Hostfall replay file")
	ErrVersion   = errors.New("unsupported replay version")
	ErrCorrupt   = errors.New("replay file is damaged")
	ErrTruncated = errors.New("replay file is truncated")
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Replay is a whole replay in memory.
type Replay struct {
	Lobby session.Lobby
	// Start is the state the game resumed from (Turn and Data only); nil
	// for a game played from the map seed.
	Start  *session.Snapshot
	Turns  []session.Turn
	Hashes []session.HashReport
	// Rules is the version of the game rules the game was played under
	// (Writer.WriteRules), 0 when the file does not say. The session does
	// not know the game: the caller compares it with its own.
	Rules uint64
}

// HashAt returns the recorded hash after turn, if any. When a turn was
// reported twice (a peer that restored a snapshot after a desync applies the
// turns since again), the later report is the one that counts.
func (r *Replay) HashAt(turn uint64) (uint64, bool) {
	for i := len(r.Hashes) - 1; i >= 0; i-- {
		if h := r.Hashes[i]; h.Turn == turn {
			return h.Hash, true
		}
	}
	return 0, false
}

// Writer appends to a replay file. Close writes the end record.
type Writer struct {
	w     *bufio.Writer
	turns uint64
	next  uint64
	err   error
}

// NewWriter starts a replay of a game that begins from lobby.
func NewWriter(w io.Writer, lobby session.Lobby) (*Writer, error) {
	return newWriter(w, lobby, nil)
}

// NewResumedWriter starts a replay of a game that resumes from start (the
// state after start.Turn); its turns begin at start.Turn+1.
func NewResumedWriter(w io.Writer, lobby session.Lobby, start session.Snapshot) (*Writer, error) {
	if start.Turn == 0 {
		return nil, errors.New("replay: a resumed game starts after a turn, not at turn 0")
	}
	return newWriter(w, lobby, &start)
}

func newWriter(w io.Writer, lobby session.Lobby, start *session.Snapshot) (*Writer, error) {
	rw := &Writer{w: bufio.NewWriter(w)}
	var hdr [10]byte
	copy(hdr[:], magic)
	v := uint16(Version)
	if start != nil {
		v = VersionResumed
	}
	binary.LittleEndian.PutUint16(hdr[8:], v)
	if _, err := rw.w.Write(hdr[:]); err != nil {
		return nil, fmt.Errorf("replay: write header: %w", err)
	}
	b, err := session.MarshalLobby(lobby)
	if err != nil {
		return nil, fmt.Errorf("replay: encode lobby: %w", err)
	}
	rw.record(kindLobby, b)
	if start != nil {
		rw.record(kindStart, append(binary.AppendUvarint(nil, start.Turn), start.Data...))
		rw.next = start.Turn + 1
	}
	return rw, rw.err
}

func (rw *Writer) record(kind byte, payload []byte) {
	if rw.err != nil {
		return
	}
	buf := make([]byte, 0, len(payload)+16)
	buf = append(buf, kind)
	buf = binary.AppendUvarint(buf, uint64(len(payload)))
	buf = append(buf, payload...)
	buf = binary.LittleEndian.AppendUint32(buf, crc32.Checksum(buf, castagnoli))
	if _, err := rw.w.Write(buf); err != nil {
		rw.err = fmt.Errorf("replay: write: %w", err)
	}
}

// WriteRules records the version of the game rules the turns are played
// under, so a reader of other rules can refuse the file instead of playing
// it into a different game. Call it before the first turn.
func (rw *Writer) WriteRules(v uint64) error {
	if rw.turns > 0 {
		return errors.New("replay: the rules are written before the first turn")
	}
	rw.record(kindRules, binary.AppendUvarint(nil, v))
	return rw.err
}

// WriteTurn appends a committed turn; turns must come in order.
func (rw *Writer) WriteTurn(t session.Turn) error {
	if rw.next != 0 && t.Number != rw.next {
		return fmt.Errorf("replay: turn %d written after turn %d", t.Number, rw.next-1)
	}
	b, err := session.MarshalTurn(t)
	if err != nil {
		return fmt.Errorf("replay: encode turn %d: %w", t.Number, err)
	}
	rw.record(kindTurn, b)
	rw.next = t.Number + 1
	rw.turns++
	return rw.err
}

// WriteHash records the agreed state hash after turn.
func (rw *Writer) WriteHash(turn, hash uint64) error {
	b := binary.AppendUvarint(nil, turn)
	b = binary.LittleEndian.AppendUint64(b, hash)
	rw.record(kindHash, b)
	return rw.err
}

// Close writes the end record and flushes; it does not close the underlying writer.
func (rw *Writer) Close() error {
	rw.record(kindEnd, binary.AppendUvarint(nil, rw.turns))
	if rw.err != nil {
		return rw.err
	}
	if err := rw.w.Flush(); err != nil {
		return fmt.Errorf("replay: flush: %w", err)
	}
	return nil
}

// Read reads a whole replay and checks it.
func Read(r io.Reader) (*Replay, error) {
	rep, _, err := read(r, true)
	return rep, err
}

// Info is what a list of replays shows of one: its lobby and length,
// without the turns.
type Info struct {
	Lobby   session.Lobby
	Resumed bool   // the game was resumed from a save (Lobby.Resume is its start)
	Turns   uint64 // the number of turns recorded
	Rules   uint64
}

// ReadInfo reads a whole replay and checks it as Read does, keeping only
// its lobby and length (a list of replays reads every file).
func ReadInfo(r io.Reader) (*Info, error) {
	rep, n, err := read(r, false)
	if err != nil {
		return nil, err
	}
	return &Info{Lobby: rep.Lobby, Resumed: rep.Start != nil, Turns: n, Rules: rep.Rules}, nil
}

// read reads and checks a replay; it keeps the turns and hashes only when
// keep is set, and returns the number of turns either way.
func read(r io.Reader, keep bool) (*Replay, uint64, error) {
	br := bufio.NewReader(r)
	var hdr [10]byte
	if _, err := io.ReadFull(br, hdr[:]); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) && string(hdr[:8]) == magic {
			return nil, 0, fmt.Errorf("%w: the header ends early", ErrTruncated)
		}
		return nil, 0, fmt.Errorf("%w: it is too short to have a header", ErrNotReplay)
	}
	if string(hdr[:8]) != magic {
		return nil, 0, fmt.Errorf("%w: it does not start with %q", ErrNotReplay, magic)
	}
	v := binary.LittleEndian.Uint16(hdr[8:])
	if v != Version && v != VersionResumed {
		return nil, 0, fmt.Errorf("%w: the file has version %d and this Hostfall reads versions %d and %d", ErrVersion, v, Version, VersionResumed)
	}
	rep := &Replay{}
	haveLobby, haveRules := false, false
	var turns, last uint64 // the turns read, the number of the last
	for n := 0; ; n++ {
		kind, payload, err := readRecord(br, n)
		if err != nil {
			return nil, 0, err
		}
		switch {
		case n == 0 && kind != kindLobby:
			return nil, 0, fmt.Errorf("%w: record 1 is not the lobby", ErrCorrupt)
		case n == 1 && v == VersionResumed && kind != kindStart:
			return nil, 0, fmt.Errorf("%w: record 2 of a resumed game is not its start state", ErrCorrupt)
		case kind == kindStart:
			if n != 1 || v != VersionResumed {
				return nil, 0, fmt.Errorf("%w: record %d is a start state out of place", ErrCorrupt, n+1)
			}
			turn, k := binary.Uvarint(payload)
			if k <= 0 || turn == 0 || turn != rep.Lobby.Resume {
				return nil, 0, fmt.Errorf("%w: the start state names turn %d, the lobby resumes after turn %d", ErrCorrupt, turn, rep.Lobby.Resume)
			}
			rep.Start = &session.Snapshot{Turn: turn, Data: bytes.Clone(payload[k:])}
		case kind == kindLobby:
			if haveLobby {
				return nil, 0, fmt.Errorf("%w: record %d is a second lobby", ErrCorrupt, n+1)
			}
			if rep.Lobby, err = session.UnmarshalLobby(payload); err != nil {
				return nil, 0, fmt.Errorf("%w: record %d: %v", ErrCorrupt, n+1, err)
			}
			haveLobby = true
		case kind == kindRules:
			v, k := binary.Uvarint(payload)
			if k <= 0 || k != len(payload) || haveRules || turns > 0 || v == 0 {
				return nil, 0, fmt.Errorf("%w: record %d is a rules record out of place or malformed", ErrCorrupt, n+1)
			}
			rep.Rules, haveRules = v, true
		case kind == kindTurn:
			t, err := session.UnmarshalTurn(payload)
			if err != nil {
				return nil, 0, fmt.Errorf("%w: record %d: %v", ErrCorrupt, n+1, err)
			}
			if turns > 0 && t.Number != last+1 {
				return nil, 0, fmt.Errorf("%w: turn %d follows turn %d", ErrCorrupt, t.Number, last)
			}
			if turns == 0 && rep.Start != nil && t.Number != rep.Start.Turn+1 {
				return nil, 0, fmt.Errorf("%w: the game resumes after turn %d but its first turn is %d", ErrCorrupt, rep.Start.Turn, t.Number)
			}
			turns, last = turns+1, t.Number
			if keep {
				rep.Turns = append(rep.Turns, t)
			}
		case kind == kindHash:
			turn, k := binary.Uvarint(payload)
			if k <= 0 || len(payload) != k+8 {
				return nil, 0, fmt.Errorf("%w: record %d is a malformed hash", ErrCorrupt, n+1)
			}
			if keep {
				rep.Hashes = append(rep.Hashes, session.HashReport{Turn: turn, Hash: binary.LittleEndian.Uint64(payload[k:])})
			}
		case kind == kindEnd:
			count, k := binary.Uvarint(payload)
			if k <= 0 || k != len(payload) || count != turns {
				return nil, 0, fmt.Errorf("%w: the end record counts %d turns but the file holds %d", ErrCorrupt, count, turns)
			}
			if _, err := br.ReadByte(); err != io.EOF {
				return nil, 0, fmt.Errorf("%w: data after the end record", ErrCorrupt)
			}
			return rep, turns, nil
		default:
			return nil, 0, fmt.Errorf("%w: record %d has unknown kind %d", ErrCorrupt, n+1, kind)
		}
	}
}

func readRecord(br *bufio.Reader, n int) (byte, []byte, error) {
	trunc := func() error { return fmt.Errorf("%w: record %d is cut off (no end record)", ErrTruncated, n+1) }
	kind, err := br.ReadByte()
	if err != nil {
		return 0, nil, trunc()
	}
	length, err := binary.ReadUvarint(br)
	if err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return 0, nil, trunc()
		}
		return 0, nil, fmt.Errorf("%w: record %d has a bad length", ErrCorrupt, n+1)
	}
	if length > maxRecord {
		return 0, nil, fmt.Errorf("%w: record %d claims %d bytes (limit %d)", ErrCorrupt, n+1, length, maxRecord)
	}
	head := append([]byte{kind}, binary.AppendUvarint(nil, length)...)
	// Grow with the data actually read: a damaged length must not allocate.
	var buf bytes.Buffer
	if k, _ := io.CopyN(&buf, br, int64(length)+4); k != int64(length)+4 {
		return 0, nil, trunc()
	}
	body := buf.Bytes()
	payload := body[:length]
	sum := crc32.Update(crc32.Checksum(head, castagnoli), castagnoli, payload)
	if sum != binary.LittleEndian.Uint32(body[length:]) {
		return 0, nil, fmt.Errorf("%w: record %d fails its checksum", ErrCorrupt, n+1)
	}
	return kind, payload, nil
}
