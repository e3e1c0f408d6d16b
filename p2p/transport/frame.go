package transport

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"hostfall/session"
)

// ProtocolID is the libp2p protocol of session streams.
const ProtocolID = "/hostfall/session/1"

// frameVersion is the version of the frame protocol a Hello names.
const frameVersion = 1

// A frame is uvarint(n) | kind | body, where n = 1 + len(body). The kind byte
// lets the transport carry its own small frames (hello, address directory,
// ping) beside the session's messages on the one stream per peer pair.
type frameKind byte

const (
	frameHello   frameKind = 1 // wirepb.Hello: first frame each side writes
	frameSession frameKind = 2 // a session.Message
	framePeers   frameKind = 3 // wirepb.Peers: addresses of session members
	framePing    frameKind = 4 // 8 opaque bytes, echoed in a pong
	framePong    frameKind = 5
)

var frameKindNames = [...]string{"?", "hello", "session", "peers", "ping", "pong"}

func (k frameKind) String() string {
	if int(k) < len(frameKindNames) && k > 0 {
		return frameKindNames[k]
	}
	return fmt.Sprintf("kind %d", byte(k))
}

// MaxFrameSize bounds one frame: a session message of the largest size the
// session encodes (a snapshot of a 512×512 world with its turns) plus the
// kind byte. Smaller caps would refuse legitimate catch-up snapshots; memory
// is still safe because a frame's buffer grows only as its bytes arrive.
const MaxFrameSize = session.MaxMessageSize + 1

// Reasons a frame is refused. Each closes the stream; see transport.go.
var (
	ErrFrameTooLarge = errors.New("frame larger than the limit")
	ErrFrameEmpty    = errors.New("frame of length 0")
	ErrFrameLength   = errors.New("frame length is not a valid varint")
)

// appendFrame appends one frame to dst.
func appendFrame(dst []byte, kind frameKind, body []byte) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(body))+1)
	dst = append(dst, byte(kind))
	return append(dst, body...)
}

// frameReader reads frames from a stream.
type frameReader struct {
	r   *bufio.Reader
	max int
	buf []byte
}

func newFrameReader(r io.Reader, max int) *frameReader {
	return &frameReader{r: bufio.NewReaderSize(r, 4096), max: max}
}

// growStep is how much a frame buffer grows at a time: a peer that announces
// a huge frame and sends little makes us hold little.
const growStep = 64 << 10

// next returns the next frame. The body is valid until the following call.
// A stream that ends between frames returns io.EOF; one that ends inside a
// frame returns io.ErrUnexpectedEOF.
func (fr *frameReader) next() (frameKind, []byte, error) {
	n, err := fr.length()
	if err != nil {
		return 0, nil, err
	}
	body := fr.buf[:0]
	if cap(body) > 4*growStep && n < growStep {
		body = nil // do not keep a snapshot-sized buffer for small frames
	}
	for left := n; left > 0; {
		step := min(left, growStep)
		at := len(body)
		body = append(body, make([]byte, step)...)
		if _, err := io.ReadFull(fr.r, body[at:]); err != nil {
			if errors.Is(err, io.EOF) {
				err = io.ErrUnexpectedEOF
			}
			return 0, nil, err
		}
		left -= step
	}
	fr.buf = body
	return frameKind(body[0]), body[1:], nil
}

// length reads a frame's uvarint length and checks it before anything is
// allocated for the body.
func (fr *frameReader) length() (int, error) {
	var n uint64
	for i := 0; ; i++ {
		b, err := fr.r.ReadByte()
		if err != nil {
			if i > 0 && errors.Is(err, io.EOF) {
				return 0, io.ErrUnexpectedEOF
			}
			return 0, err
		}
		if i == binary.MaxVarintLen64-1 && b > 1 {
			return 0, ErrFrameLength
		}
		n |= uint64(b&0x7f) << (7 * i)
		if n > uint64(fr.max) {
			return 0, fmt.Errorf("%w: more than %d bytes", ErrFrameTooLarge, fr.max)
		}
		if b < 0x80 {
			if n == 0 {
				return 0, ErrFrameEmpty
			}
			return int(n), nil
		}
		if i == binary.MaxVarintLen64-1 {
			return 0, ErrFrameLength
		}
	}
}
