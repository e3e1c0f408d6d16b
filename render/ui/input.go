package ui

import "time"

// Key is a keyboard key the game reacts to. The pixel layer maps its own
// buttons to these, so the UI logic never sees a window.
type Key uint8

const (
	KeyNone Key = iota
	KeyA
	KeyB
	KeyC
	KeyD
	KeyE
	KeyF
	KeyG
	KeyH
	KeyI
	KeyJ
	KeyK
	KeyL
	KeyM
	KeyN
	KeyO
	KeyP
	KeyQ
	KeyR
	KeyS
	KeyT
	KeyU
	KeyV
	KeyW
	KeyX
	KeyY
	KeyZ
	Key0
	Key1
	Key2
	Key3
	Key4
	Key5
	Key6
	Key7
	Key8
	Key9
	KeyEscape
	KeyEnter
	KeyBackspace
	KeyTab
	KeySpace
	KeyUp
	KeyDown
	KeyLeft
	KeyRight
	KeyHome
	KeyF1
	KeyF3
	KeyF10
	KeyShift
	KeyCtrl
	KeyAlt
	NumKeys
)

// Letter returns the key of an upper-case letter A to Z.
func Letter(c byte) Key { return KeyA + Key(c-'A') }

// Digit returns the key of a digit 0 to 9.
func Digit(d int) Key { return Key0 + Key(d) }

// Mouse is a mouse button.
type Mouse uint8

const (
	MouseLeft Mouse = iota
	MouseRight
	MouseMiddle
	NumButtons
)

// Input is everything the player did, sampled once per frame by the pixel
// layer. Positions are screen pixels from the top-left corner.
type Input struct {
	Now      time.Time
	DT       float64 // seconds since the previous frame
	Mouse    Vec
	MouseIn  bool    // the pointer is inside the window
	Scroll   float64 // wheel notches up (positive) or down this frame
	Down     [NumButtons]bool
	Pressed  [NumButtons]bool // went down this frame
	Released [NumButtons]bool // went up this frame
	Keys     [NumKeys]bool    // held
	Hit      [NumKeys]bool    // went down (or auto-repeated, for editing keys) this frame
	Typed    string           // text typed this frame
}

// Shift, Ctrl report the modifiers.
func (in *Input) Shift() bool { return in.Keys[KeyShift] }
func (in *Input) Ctrl() bool  { return in.Keys[KeyCtrl] }

// Press marks a key as hit and held (for tests and scripted input).
func (in *Input) Press(k Key) { in.Hit[k], in.Keys[k] = true, true }

// Click marks a mouse button as pressed and released at p this frame.
func (in *Input) Click(b Mouse, p Vec) {
	in.Mouse, in.MouseIn = p, true
	in.Pressed[b], in.Released[b] = true, true
}

// Next returns the input of the following frame: the same held keys,
// buttons and pointer, no new presses, dt later.
func (in Input) Next(dt time.Duration) Input {
	out := Input{Now: in.Now.Add(dt), DT: dt.Seconds(), Mouse: in.Mouse, MouseIn: in.MouseIn, Down: in.Down, Keys: in.Keys}
	return out
}
