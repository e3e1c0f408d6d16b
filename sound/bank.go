package sound

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync/atomic"

	"github.com/gopxl/beep/v2"
	"github.com/gopxl/beep/v2/wav"
)

// DefaultRate is the mixing rate of NewBank(0): what speakers expect.
const DefaultRate beep.SampleRate = 44100

// maxSampleTime caps one decoded sample, so a bad file cannot eat the memory.
const maxSampleSeconds = 60

// resampleQuality of beep.Resample at load time: 3 or 4 give about 77 dB SNR from
// 22,050 to 44,100 Hz, and it is paid once per sample, never while mixing.
const resampleQuality = 3

// ErrFrozen is returned when a bank is changed after a server started using it:
// the mixer reads the bank without locks.
var ErrFrozen = errors.New("the sound bank is in use by a server and can no longer change")

// ID identifies a registered sound. The zero ID is no sound; playing it does nothing.
type ID int32

// Sample is one decoded clip: mono PCM at its bank's rate, ready to mix.
type Sample struct {
	Name string
	pcm  []float32
}

// NewSample wraps mono PCM in [-1, 1] that is already at the rate of the bank it
// will be added to. Tools and tests use it for generated sounds.
func NewSample(name string, pcm []float32) *Sample {
	return &Sample{Name: name, pcm: pcm}
}

// Len is the sample's length in frames.
func (s *Sample) Len() int { return len(s.pcm) }

type soundKind uint8

const (
	kindSimple    soundKind = iota // one sample
	kindGroup                      // a random sample of several each play
	kindTwoGroups                  // selection voices: see Server
)

// entry is the server side of a sound (seed 001's Sound structure).
type entry struct {
	name          string
	kind          soundKind
	samples       []*Sample
	first, second ID // two-groups only
	reach         float64
	category      Category
}

// Bank holds the registered sounds and their names. Register everything first,
// then hand the bank to New; from then on it is read-only (ErrFrozen).
type Bank struct {
	rate    beep.SampleRate
	entries []entry // ID n is entries[n-1]
	names   map[string]ID
	frozen  atomic.Bool
}

// NewBank makes an empty bank whose samples are stored, and mixed, at rate
// (DefaultRate when rate <= 0).
func NewBank(rate beep.SampleRate) *Bank {
	if rate <= 0 {
		rate = DefaultRate
	}
	return &Bank{rate: rate, names: map[string]ID{}}
}

// Rate is the bank's sample rate, which is also the mixing rate of its servers.
func (b *Bank) Rate() beep.SampleRate { return b.rate }

// maxWAVBytes bounds one WAV file read by DecodeWAV.
const maxWAVBytes = 32 << 20

// DecodeWAV reads a WAV file into a sample at the bank's rate.
func (b *Bank) DecodeWAV(name string, r io.Reader) (smp *Sample, err error) {
	// beep's decoder trusts header fields; a corrupt file must be an error, not a crash.
	defer func() {
		if p := recover(); p != nil {
			smp, err = nil, fmt.Errorf("sound %q: corrupt WAV file: %v", name, p)
		}
	}()
	data, err := io.ReadAll(io.LimitReader(r, maxWAVBytes+1))
	if err != nil {
		return nil, fmt.Errorf("sound %q: %w", name, err)
	}
	if len(data) > maxWAVBytes {
		return nil, fmt.Errorf("sound %q: WAV file larger than %d bytes", name, maxWAVBytes)
	}
	if err := checkChunks(data); err != nil {
		return nil, fmt.Errorf("sound %q: %w", name, err)
	}
	s, f, err := wav.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("sound %q: %w", name, err)
	}
	defer s.Close()
	return b.Decode(name, s, f)
}

// checkChunks walks the RIFF chunks up to "data": beep's decoder allocates
// whatever size a chunk header claims (up to 2 GiB), so every size is checked
// against the bytes that are really there first.
func checkChunks(data []byte) error {
	if len(data) < 12 || string(data[:4]) != "RIFF" || string(data[8:12]) != "WAVE" {
		return errors.New("not a RIFF WAVE file")
	}
	for rest := data[12:]; ; {
		if len(rest) < 8 {
			return errors.New("WAV file without a data chunk")
		}
		id, size := string(rest[:4]), int64(int32(binary.LittleEndian.Uint32(rest[4:8])))
		if id == "data" {
			return nil
		}
		size += size & 1 // chunks are padded to even sizes
		if size < 0 || size > int64(len(rest)-8) {
			return fmt.Errorf("WAV chunk %q claims %d bytes, %d are left", id, size, len(rest)-8)
		}
		rest = rest[8+size:]
	}
}

// Decode reads a whole beep stream into a sample: stereo is mixed down to mono and
// any other rate is resampled to the bank's, once, here rather than while mixing.
func (b *Bank) Decode(name string, s beep.Streamer, f beep.Format) (*Sample, error) {
	if f.SampleRate <= 0 {
		return nil, fmt.Errorf("sound %q: invalid sample rate %d", name, f.SampleRate)
	}
	if f.SampleRate != b.rate {
		s = beep.Resample(resampleQuality, f.SampleRate, b.rate, s)
	}
	limit := maxSampleSeconds * int(b.rate)
	var pcm []float32
	buf := make([][2]float64, 4096)
	for {
		n, ok := s.Stream(buf)
		for _, fr := range buf[:n] {
			pcm = append(pcm, float32((fr[0]+fr[1])/2))
		}
		if len(pcm) > limit {
			return nil, fmt.Errorf("sound %q is longer than %d s", name, maxSampleSeconds)
		}
		if !ok {
			break
		}
	}
	if err := s.Err(); err != nil {
		return nil, fmt.Errorf("sound %q: %w", name, err)
	}
	return &Sample{Name: name, pcm: pcm}, nil
}

// Add registers a sound under name (seed 001's MakeSound): one sample makes a
// simple sound, several a group that plays one of them at random each time.
func (b *Bank) Add(name string, samples ...*Sample) (ID, error) {
	if len(samples) == 0 {
		return 0, fmt.Errorf("sound %q has no samples", name)
	}
	if slices.Contains(samples, nil) {
		return 0, fmt.Errorf("sound %q has a nil sample", name)
	}
	e := entry{name: name, kind: kindSimple, samples: slices.Clone(samples)}
	if len(samples) > 1 {
		e.kind = kindGroup
	}
	return b.add(e)
}

// AddTwoGroups registers a selection sound made of two registered sounds (seed
// 001's MakeSoundGroup): first holds the selection lines, second the annoyed ones.
func (b *Bank) AddTwoGroups(name string, first, second ID) (ID, error) {
	for _, id := range []ID{first, second} {
		e := b.entry(id)
		if e == nil {
			return 0, fmt.Errorf("two-groups sound %q: unknown sound id %d", name, id)
		}
		if e.kind == kindTwoGroups {
			return 0, fmt.Errorf("two-groups sound %q: %q is itself a two-groups sound", name, e.name)
		}
	}
	return b.add(entry{name: name, kind: kindTwoGroups, first: first, second: second})
}

func (b *Bank) add(e entry) (ID, error) {
	if b.frozen.Load() {
		return 0, ErrFrozen
	}
	if e.name == "" {
		return 0, errors.New("a sound needs a name")
	}
	if _, dup := b.names[e.name]; dup {
		return 0, fmt.Errorf("sound %q is already registered", e.name)
	}
	b.entries = append(b.entries, e)
	id := ID(len(b.entries))
	b.names[e.name] = id
	return id, nil
}

// Alias maps another name to a registered sound (seed 001's MapSound).
func (b *Bank) Alias(name string, id ID) error {
	if b.frozen.Load() {
		return ErrFrozen
	}
	if b.entry(id) == nil {
		return fmt.Errorf("alias %q: unknown sound id %d", name, id)
	}
	if _, dup := b.names[name]; dup {
		return fmt.Errorf("sound %q is already registered", name)
	}
	b.names[name] = id
	return nil
}

// SetRange sets how far from the view point a sound can be heard, in map units;
// 0 means the server's maximum range, which also caps every sound's range.
func (b *Bank) SetRange(id ID, reach float64) error {
	if b.frozen.Load() {
		return ErrFrozen
	}
	e := b.entry(id)
	if e == nil {
		return fmt.Errorf("unknown sound id %d", id)
	}
	e.reach = max(reach, 0)
	return nil
}

// SetCategory puts a sound in a volume category (Effects by default).
func (b *Bank) SetCategory(id ID, c Category) error {
	if b.frozen.Load() {
		return ErrFrozen
	}
	e := b.entry(id)
	if e == nil {
		return fmt.Errorf("unknown sound id %d", id)
	}
	if c >= NumCategories {
		return fmt.Errorf("sound %q: no volume category %d", e.name, c)
	}
	e.category = c
	return nil
}

// ForName is the id of a sound name, or 0 (no sound) if the name is unknown
// (seed 001's SoundIdForName).
func (b *Bank) ForName(name string) ID { return b.names[name] }

// Name is the name a sound was registered under.
func (b *Bank) Name(id ID) string {
	if e := b.entry(id); e != nil {
		return e.name
	}
	return ""
}

// Names is a copy of the name table, safe to share with other goroutines.
func (b *Bank) Names() Names {
	n := make(Names, len(b.names))
	for k, v := range b.names {
		n[k] = v
	}
	return n
}

func (b *Bank) entry(id ID) *entry {
	if id <= 0 || int(id) > len(b.entries) {
		return nil
	}
	return &b.entries[id-1]
}

// Names maps sound names to ids (seed 001's client side). It is a snapshot:
// read it from any goroutine.
type Names map[string]ID

// ForName is the id of name, or 0 (no sound) if it is unknown.
func (n Names) ForName(name string) ID { return n[name] }

// Sorted lists the names in order.
func (n Names) Sorted() []string {
	out := make([]string, 0, len(n))
	for k := range n {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
