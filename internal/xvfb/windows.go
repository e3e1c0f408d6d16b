package xvfb

import (
	"encoding/binary"
	"fmt"
)

// Windows does to a display's top-level windows what a window manager
// does when a person clicks: bring one to the front with the keyboard's
// focus, or press its close button (the WM_DELETE_WINDOW message of the
// ICCCM, which a GLFW window reads as a close request). Xvfb runs no
// window manager, so a test plays its part.
type Windows struct {
	*xconn
}

// X protocol values of the requests used here.
const (
	xOpConfigureWindow = 12
	xOpQueryTree       = 15
	xOpInternAtom      = 16
	xOpGetProperty     = 20
	xOpSendEvent       = 25
	xOpSetInputFocus   = 42
	xClientMessage     = 33
	xStackModeMask     = 0x40
	xStackAbove        = 0
	xRevertToParent    = 2
)

// OpenWindows connects to display (":N", as OpenPointer).
func OpenWindows(display string) (*Windows, error) {
	x, err := dialX(display)
	if err != nil {
		return nil, err
	}
	return &Windows{xconn: x}, nil
}

// OfProcess returns the top-level window of process pid (its _NET_WM_PID,
// which GLFW sets), or an error naming the windows it found.
func (w *Windows) OfProcess(pid int) (uint32, error) {
	pidAtom, err := w.atom("_NET_WM_PID")
	if err != nil {
		return 0, err
	}
	r, err := w.call(windowRequest(xOpQueryTree, w.root))
	if err != nil {
		return 0, fmt.Errorf("xvfb: the root's windows: %w", err)
	}
	n := int(binary.LittleEndian.Uint16(r[16:]))
	var seen []uint32
	for i := range n {
		if 32+4*i+4 > len(r) {
			break
		}
		win := binary.LittleEndian.Uint32(r[32+4*i:])
		p, ok, err := w.cardinal(win, pidAtom)
		if err != nil {
			return 0, err
		}
		if ok {
			seen = append(seen, p)
			if int(p) == pid {
				return win, nil
			}
		}
	}
	return 0, fmt.Errorf("xvfb: no window of process %d on the display (windows of processes %v)", pid, seen)
}

// Raise brings win to the front and gives it the keyboard's focus.
func (w *Windows) Raise(win uint32) error {
	req := make([]byte, 16)
	req[0] = xOpConfigureWindow
	binary.LittleEndian.PutUint16(req[2:], 4)
	binary.LittleEndian.PutUint32(req[4:], win)
	binary.LittleEndian.PutUint16(req[8:], xStackModeMask)
	binary.LittleEndian.PutUint32(req[12:], xStackAbove)
	focus := make([]byte, 12)
	focus[0], focus[1] = xOpSetInputFocus, xRevertToParent
	binary.LittleEndian.PutUint16(focus[2:], 3)
	binary.LittleEndian.PutUint32(focus[4:], win) // time 0: now
	if err := w.sync(append(req, focus...)); err != nil {
		return fmt.Errorf("xvfb: raising window %#x: %w", win, err)
	}
	return nil
}

// AskClose sends win the message a window manager sends when its close
// button is clicked.
func (w *Windows) AskClose(win uint32) error {
	protocols, err := w.atom("WM_PROTOCOLS")
	if err != nil {
		return err
	}
	del, err := w.atom("WM_DELETE_WINDOW")
	if err != nil {
		return err
	}
	req := make([]byte, 44)
	req[0] = xOpSendEvent // propagate 0; event mask 0: to the window's own client
	binary.LittleEndian.PutUint16(req[2:], 11)
	binary.LittleEndian.PutUint32(req[4:], win)
	ev := req[12:]
	ev[0], ev[1] = xClientMessage, 32
	binary.LittleEndian.PutUint32(ev[4:], win)
	binary.LittleEndian.PutUint32(ev[8:], protocols)
	binary.LittleEndian.PutUint32(ev[12:], del) // then the time: 0, now
	if err := w.sync(req); err != nil {
		return fmt.Errorf("xvfb: closing window %#x: %w", win, err)
	}
	return nil
}

// atom returns the atom named name, made if the server has none yet.
func (w *Windows) atom(name string) (uint32, error) {
	r, err := w.call(nameRequest(xOpInternAtom, name))
	if err != nil {
		return 0, fmt.Errorf("xvfb: atom %s: %w", name, err)
	}
	return binary.LittleEndian.Uint32(r[8:]), nil
}

// cardinal reads the first 32-bit value of property prop of win; ok is
// false where win has no such property.
func (w *Windows) cardinal(win, prop uint32) (v uint32, ok bool, err error) {
	req := make([]byte, 24)
	req[0] = xOpGetProperty // delete 0
	binary.LittleEndian.PutUint16(req[2:], 6)
	binary.LittleEndian.PutUint32(req[4:], win)
	binary.LittleEndian.PutUint32(req[8:], prop)
	// type 0 (any), offset 0, one 32-bit value
	binary.LittleEndian.PutUint32(req[20:], 1)
	r, err := w.call(req)
	if err != nil {
		return 0, false, fmt.Errorf("xvfb: property of window %#x: %w", win, err)
	}
	if r[1] != 32 || binary.LittleEndian.Uint32(r[16:]) < 1 || len(r) < 36 {
		return 0, false, nil
	}
	return binary.LittleEndian.Uint32(r[32:]), true, nil
}
