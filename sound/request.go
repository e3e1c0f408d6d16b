package sound

import "fmt"

// Origin identifies what makes a sound (a unit, a building), for noise reduction
// and selection voices. 0 is nobody: such requests are never noise-reduced.
type Origin uint64

// Request asks the server to play a sound (seed 001's SoundRequest).
//
// The zero Power with IsVolume false means distance 0: full volume.
type Request struct {
	Sound  ID
	Origin Origin
	// Power is the volume in [0, 1] when IsVolume is set; otherwise it is the
	// distance from the sound to the view point, in map units (see PlayAt).
	Power    float64
	IsVolume bool
	// Selection marks the voice of a unit the player just selected; it drives
	// the two-groups sequence and may take over a channel when all are busy.
	Selection bool
}

// EventKind says what an Event reports.
type EventKind uint8

const (
	Started  EventKind = iota + 1 // a sample began in a channel
	Finished                      // a channel ended (Cut: taken over early)
	Dropped                       // a request was not played (Reason)
)

var eventKindNames = [...]string{Started: "started", Finished: "finished", Dropped: "dropped"}

func (k EventKind) String() string {
	if int(k) < len(eventKindNames) && eventKindNames[k] != "" {
		return eventKindNames[k]
	}
	return fmt.Sprintf("EventKind(%d)", uint8(k))
}

// DropReason says why the server did not play a request.
type DropReason uint8

const (
	DropBusy      DropReason = iota + 1 // noise reduction: its origin is still playing
	DropNoChannel                       // every channel is busy and it is not a selection
	DropInaudible                       // volume 0: beyond the sound's range, or asked so
	DropUnknown                         // no such sound id
)

var dropReasonNames = [...]string{
	DropBusy: "busy", DropNoChannel: "no channel", DropInaudible: "inaudible", DropUnknown: "unknown sound",
}

func (r DropReason) String() string {
	if int(r) < len(dropReasonNames) && dropReasonNames[r] != "" {
		return dropReasonNames[r]
	}
	return fmt.Sprintf("DropReason(%d)", uint8(r))
}

// Event reports what the mixer did with a request or a channel. Frame counts
// mixed frames since the server started.
type Event struct {
	Kind   EventKind
	Sound  ID
	Origin Origin
	Sample *Sample    // Started and Finished
	Volume float64    // Started: the request's volume before the global volume
	Frame  uint64     // Started: frame of its first sample; Finished: frame after its last
	Reason DropReason // Dropped
	Cut    bool       // Finished: a selection took the channel before the end
}
