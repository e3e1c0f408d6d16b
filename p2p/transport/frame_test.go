package transport

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"testing"

	"hostfall/session"
)

func TestFrameRoundTrip(t *testing.T) {
	frames := []struct {
		kind frameKind
		body []byte
	}{
		{frameHello, encodeHello(nil)},
		{frameSession, []byte{8, 1}},
		{framePing, encodePing(42)},
		{framePong, encodePing(1 << 60)},
		{framePeers, nil},
		{frameSession, bytes.Repeat([]byte{7}, 3*growStep+5)},
	}
	var wire []byte
	for _, f := range frames {
		wire = appendFrame(wire, f.kind, f.body)
	}
	fr := newFrameReader(bytes.NewReader(wire), MaxFrameSize)
	for i, want := range frames {
		kind, body, err := fr.next()
		if err != nil {
			t.Fatalf("frame %d: %v", i, err)
		}
		if kind != want.kind || !bytes.Equal(body, want.body) {
			t.Fatalf("frame %d: got %v of %d bytes, want %v of %d", i, kind, len(body), want.kind, len(want.body))
		}
	}
	if _, _, err := fr.next(); err != io.EOF {
		t.Fatalf("after the last frame: %v, want io.EOF", err)
	}
}

func TestFrameReaderRefuses(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   []byte
		want error
	}{
		{"nothing", nil, io.EOF},
		{"length cut off", []byte{0x85}, io.ErrUnexpectedEOF},
		{"length zero", []byte{0}, ErrFrameEmpty},
		{"length beyond the limit", binary.AppendUvarint(nil, 1001), ErrFrameTooLarge},
		{"length of eleven bytes", bytes.Repeat([]byte{0x80}, 11), ErrFrameLength},
		{"body cut off", []byte{5, byte(frameSession), 1}, io.ErrUnexpectedEOF},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fr := newFrameReader(bytes.NewReader(tc.in), 1000)
			if _, _, err := fr.next(); !errors.Is(err, tc.want) {
				t.Fatalf("got %v, want %v", err, tc.want)
			}
		})
	}
}

// A peer that announces a huge frame and sends a few bytes makes the
// reader hold about one growth step, not the announced size.
func TestFrameBufferFollowsTheData(t *testing.T) {
	in := append(binary.AppendUvarint(nil, MaxFrameSize), byte(frameSession), 1, 2, 3)
	fr := newFrameReader(bytes.NewReader(in), MaxFrameSize)
	if _, _, err := fr.next(); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("got %v", err)
	}
	if c := cap(fr.buf); c > 2*growStep {
		t.Fatalf("the reader holds %d bytes for a frame that sent 4", c)
	}
}

// FuzzFrameReader feeds arbitrary bytes to the frame reader and the body
// decoders: no panic, sizes within the limit, and every frame read encodes
// back to frames that read the same.
func FuzzFrameReader(f *testing.F) {
	f.Add(appendFrame(appendFrame(nil, frameHello, encodeHello(nil)), frameSession, []byte{8, 11}))
	f.Add([]byte{0})
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0x0f})
	f.Add(bytes.Repeat([]byte{0x80}, 12))
	f.Add(appendFrame(nil, framePeers, encodePeers(nil)))
	f.Add(appendFrame(nil, framePing, encodePing(9)))
	f.Add([]byte{3, byte(framePeers), 0x0a, 0x00})
	f.Fuzz(func(t *testing.T, in []byte) {
		const max = 1 << 12
		fr := newFrameReader(bytes.NewReader(in), max)
		var again []byte
		var kinds []frameKind
		var bodies [][]byte
		for range 64 {
			kind, body, err := fr.next()
			if err != nil {
				break
			}
			if len(body)+1 > max {
				t.Fatalf("a frame of %d bytes passed a limit of %d", len(body)+1, max)
			}
			kinds = append(kinds, kind)
			bodies = append(bodies, bytes.Clone(body))
			again = appendFrame(again, kind, body)
			switch kind {
			case frameHello:
				_, _ = decodeHello(body)
			case framePeers:
				_, _ = decodePeers(body)
			case framePing, framePong:
				_, _ = decodePing(body)
			case frameSession:
				_, _ = session.UnmarshalMessage(body)
			}
		}
		fr = newFrameReader(bytes.NewReader(again), max)
		for i := range kinds {
			kind, body, err := fr.next()
			if err != nil || kind != kinds[i] || !bytes.Equal(body, bodies[i]) {
				t.Fatalf("frame %d does not read back: %v", i, err)
			}
		}
	})
}
