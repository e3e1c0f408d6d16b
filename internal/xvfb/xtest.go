package xvfb

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"time"
)

// Pointer moves the pointer of an X display, presses its buttons and
// types keys the way a person would, through the XTEST extension, so a
// test can click in a window it did not open. It speaks the few requests
// it needs of the X protocol itself over the display's socket (no
// xdotool, no cgo).
type Pointer struct {
	*xconn
	opcode byte // XTEST's major opcode on this server
}

// Buttons of a pointer.
const (
	ButtonLeft  = 1
	ButtonRight = 3
)

// Keys, as X key codes of Xvfb's default (evdev) keymap.
const (
	KeyEscape = 9
	KeyF10    = 76
)

// X protocol values used here (X11 protocol, XTEST extension 2.2).
const (
	xOpQueryExtension = 98
	xOpGetInputFocus  = 43
	xOpQueryPointer   = 38
	xtestFakeInput    = 2 // XTEST minor opcode
	xKeyPress         = 2
	xKeyRelease       = 3
	xButtonPress      = 4
	xButtonRelease    = 5
	xMotionNotify     = 6
)

// step is how long a pointer action waits after each event, so that a
// window drawing at a few frames a second sees every one of them.
const step = 120 * time.Millisecond

// OpenPointer connects to display (":N", the socket Xvfb listens on; no
// authentication, as Start's server has none).
func OpenPointer(display string) (*Pointer, error) {
	x, err := dialX(display)
	if err != nil {
		return nil, err
	}
	p := &Pointer{xconn: x}
	if err := p.findXTEST(); err != nil {
		x.Close()
		return nil, fmt.Errorf("xtest: display %s: %w", display, err)
	}
	return p, nil
}

// xconn is a connection to an X display that speaks a few requests.
type xconn struct {
	c    net.Conn
	root uint32 // the first screen's root window
}

// dialX connects to display and does the connection handshake.
func dialX(display string) (*xconn, error) {
	n := strings.TrimPrefix(display, ":")
	if i := strings.IndexByte(n, '.'); i >= 0 {
		n = n[:i]
	}
	c, err := net.DialTimeout("unix", "/tmp/.X11-unix/X"+n, 5*time.Second)
	if err != nil {
		return nil, fmt.Errorf("xvfb: cannot reach display %s: %w", display, err)
	}
	x := &xconn{c: c}
	if err := x.handshake(); err != nil {
		c.Close()
		return nil, fmt.Errorf("xvfb: display %s: %w", display, err)
	}
	return x, nil
}

func (x *xconn) handshake() error {
	_ = x.c.SetDeadline(time.Now().Add(5 * time.Second))
	defer x.c.SetDeadline(time.Time{})
	// Byte order 'l' (little-endian), protocol 11.0, no authorization.
	if _, err := x.c.Write([]byte{'l', 0, 11, 0, 0, 0, 0, 0, 0, 0, 0, 0}); err != nil {
		return err
	}
	var head [8]byte
	if _, err := io.ReadFull(x.c, head[:]); err != nil {
		return err
	}
	rest := make([]byte, int(binary.LittleEndian.Uint16(head[6:]))*4)
	if _, err := io.ReadFull(x.c, rest); err != nil {
		return err
	}
	if head[0] != 1 {
		reason := rest[:min(int(head[1]), len(rest))]
		return fmt.Errorf("the X server refused the connection: %s", reason)
	}
	// The first screen follows 32 bytes of fixed fields, the vendor's name
	// and the pixmap formats (8 bytes each); its root window comes first.
	if len(rest) >= 32 {
		at := 32 + pad4(int(binary.LittleEndian.Uint16(rest[16:]))) + 8*int(rest[21])
		if at+4 <= len(rest) {
			x.root = binary.LittleEndian.Uint32(rest[at:])
		}
	}
	return nil
}

// findXTEST finds the XTEST extension's opcode.
func (p *Pointer) findXTEST() error {
	reply, err := p.call(nameRequest(xOpQueryExtension, "XTEST"))
	if err != nil {
		return err
	}
	if reply[8] == 0 {
		return errors.New("the X server has no XTEST extension")
	}
	p.opcode = reply[9]
	return nil
}

func pad4(n int) int { return (n + 3) &^ 3 }

// windowRequest is a request whose one argument is a window (QueryPointer,
// QueryTree).
func windowRequest(op byte, win uint32) []byte {
	req := make([]byte, 8)
	req[0] = op
	binary.LittleEndian.PutUint16(req[2:], 2)
	binary.LittleEndian.PutUint32(req[4:], win)
	return req
}

// nameRequest is a request whose one argument is a name (QueryExtension,
// InternAtom; its second byte 0).
func nameRequest(op byte, name string) []byte {
	req := make([]byte, 8+pad4(len(name)))
	req[0] = op
	binary.LittleEndian.PutUint16(req[2:], uint16(len(req)/4))
	binary.LittleEndian.PutUint16(req[4:], uint16(len(name)))
	copy(req[8:], name)
	return req
}

// call sends a request that has a reply and reads the reply.
func (x *xconn) call(req []byte) ([]byte, error) {
	_ = x.c.SetDeadline(time.Now().Add(5 * time.Second))
	defer x.c.SetDeadline(time.Time{})
	if _, err := x.c.Write(req); err != nil {
		return nil, err
	}
	return x.reply()
}

// sync sends a request without a reply, then a GetInputFocus, and waits
// for its reply: the server has handled the request (or says its error).
func (x *xconn) sync(req []byte) error {
	_, err := x.call(append(req, xOpGetInputFocus, 0, 1, 0))
	return err
}

// reply reads the next reply, failing on an X error.
func (x *xconn) reply() ([]byte, error) {
	for {
		var b [32]byte
		if _, err := io.ReadFull(x.c, b[:]); err != nil {
			return nil, err
		}
		switch b[0] {
		case 0:
			return nil, fmt.Errorf("X error %d (request %d.%d)", b[1], b[10], binary.LittleEndian.Uint16(b[8:]))
		case 1:
			if extra := binary.LittleEndian.Uint32(b[4:]); extra > 0 {
				more := make([]byte, int(extra)*4)
				if _, err := io.ReadFull(x.c, more); err != nil {
					return nil, err
				}
				return append(b[:], more...), nil
			}
			return b[:], nil
		}
		// An event: none is asked for; skip it.
	}
}

// Close closes the connection.
func (x *xconn) Close() error { return x.c.Close() }

// fake sends one XTEST event and waits until the server has handled it,
// then for step.
func (p *Pointer) fake(kind, detail byte, x, y int) error {
	req := make([]byte, 36)
	req[0], req[1] = p.opcode, xtestFakeInput
	binary.LittleEndian.PutUint16(req[2:], 9)
	req[4], req[5] = kind, detail
	// time 0: now; root 0: the screen the pointer is on.
	binary.LittleEndian.PutUint16(req[24:], uint16(int16(x)))
	binary.LittleEndian.PutUint16(req[26:], uint16(int16(y)))
	if err := p.sync(req); err != nil {
		return err
	}
	time.Sleep(step)
	return nil
}

// Key presses and releases the key of X key code code (KeyEscape…) in
// the window that has the keyboard's focus.
func (p *Pointer) Key(code byte) error {
	return p.each(func() error { return p.fake(xKeyPress, code, 0, 0) }, func() error { return p.fake(xKeyRelease, code, 0, 0) })
}

// Position is where the pointer is on the screen.
func (p *Pointer) Position() (x, y int, err error) {
	r, err := p.call(windowRequest(xOpQueryPointer, p.root))
	if err != nil {
		return 0, 0, err
	}
	return int(int16(binary.LittleEndian.Uint16(r[16:]))), int(int16(binary.LittleEndian.Uint16(r[18:]))), nil
}

// Move puts the pointer at (x, y) on the screen.
func (p *Pointer) Move(x, y int) error { return p.fake(xMotionNotify, 0, x, y) }

// Press presses button.
func (p *Pointer) Press(button int) error { return p.fake(xButtonPress, byte(button), 0, 0) }

// Release releases button.
func (p *Pointer) Release(button int) error { return p.fake(xButtonRelease, byte(button), 0, 0) }

// Click moves the pointer to (x, y) and clicks button there.
func (p *Pointer) Click(x, y, button int) error {
	return p.each(func() error { return p.Move(x, y) }, func() error { return p.Press(button) },
		func() error { return p.Release(button) })
}

// dragPace is the pause between a drag's events. A window reads the
// pointer once a frame: a press and a release that land in one frame are a
// click, not a box (measured: at 20 fps under load a box needs about
// 200 ms between press, moves and release).
const dragPace = 200 * time.Millisecond

// Drag presses the left button at (x0, y0), moves to (x1, y1) in a few
// steps and lets go there, dragPace between events: a box selection.
func (p *Pointer) Drag(x0, y0, x1, y1 int) error {
	acts := []func() error{func() error { return p.Move(x0, y0) }, func() error { return p.Press(ButtonLeft) }}
	const steps = 4
	for i := 1; i <= steps; i++ {
		x, y := x0+(x1-x0)*i/steps, y0+(y1-y0)*i/steps
		acts = append(acts, func() error { return p.Move(x, y) })
	}
	acts = append(acts, func() error { return p.Release(ButtonLeft) })
	for i, a := range acts {
		if i > 1 {
			time.Sleep(dragPace)
		}
		if err := a(); err != nil {
			return err
		}
	}
	return nil
}

func (p *Pointer) each(acts ...func() error) error {
	for _, a := range acts {
		if err := a(); err != nil {
			return err
		}
	}
	return nil
}
