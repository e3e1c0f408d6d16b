package sound

import (
	"flag"
	"math"
	"os"
	"sync"
	"testing"

	"github.com/gopxl/beep/v2/wav"
)

var seedFlag = flag.Uint64("sound.seed", 0, "replay the random-source tests with this seed (0: the tests' own seeds)")

// testRate keeps the synthetic tests light; the mixer does not care.
const testRate = 8000

// level is the constant value of synthetic sample k: the output of a lone
// sample at volume 1 tells which sample played, exactly, even through 16 bits.
func level(k int) float32 { return float32(k) / 64 }

func dc(name string, k, frames int) *Sample {
	pcm := make([]float32, frames)
	for i := range pcm {
		pcm[i] = level(k)
	}
	return NewSample(name, pcm)
}

func sine(name string, amp, hz float64, frames int) *Sample {
	pcm := make([]float32, frames)
	for i := range pcm {
		pcm[i] = float32(amp * math.Sin(2*math.Pi*hz*float64(i)/testRate))
	}
	return NewSample(name, pcm)
}

// embeddedOnce decodes the embedded sounds and composes the music once
// for every test that reads them (a frozen bank is only read): under -race
// each decoding costs ~9 CPU-s, and the package runs only raced.
var embeddedOnce = sync.OnceValue(func() embeddedSet {
	b, n, err := Embedded()
	return embeddedSet{b, n, err}
})

type embeddedSet struct {
	bank  *Bank
	names Names
	err   error
}

// embedded is Embedded, decoded once per test binary.
func embedded(t *testing.T) (*Bank, Names) {
	t.Helper()
	e := embeddedOnce()
	if e.err != nil {
		t.Fatal(e.err)
	}
	return e.bank, e.names
}

// must is for set-up that cannot fail unless the test itself is wrong.
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// unitBank has one unit, "u", with four selection lines (levels 1-4) and three
// annoyed lines (levels 5-7), each frames long, plus a second unit "v" and a
// plain sound "hit".
func unitBank(t testing.TB, frames int) *Bank {
	t.Helper()
	b := NewBank(testRate)
	var sel, ann []*Sample
	for k := 1; k <= 4; k++ {
		sel = append(sel, dc(sampleName("sel", k), k, frames))
	}
	for k := 5; k <= 7; k++ {
		ann = append(ann, dc(sampleName("ann", k-4), k, frames))
	}
	first := must(b.Add("u.selected", sel...))
	second := must(b.Add("u.annoyed", ann...))
	must(b.AddTwoGroups("u.select", first, second))
	must(b.Add("v.select", dc("v", 8, frames)))
	must(b.Add("hit", dc("hit", 9, frames)))
	return b
}

func sampleName(group string, i int) string { return group + string(rune('0'+i)) }

// recorder collects the events of Options.Observe.
type recorder struct {
	mu     sync.Mutex
	events []Event
}

func (r *recorder) observe(e Event) {
	r.mu.Lock()
	r.events = append(r.events, e)
	r.mu.Unlock()
}

func (r *recorder) all(kind EventKind) []Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []Event
	for _, e := range r.events {
		if e.Kind == kind {
			out = append(out, e)
		}
	}
	return out
}

func (r *recorder) started() []string {
	var names []string
	for _, e := range r.all(Started) {
		names = append(names, e.Sample.Name)
	}
	return names
}

// pull mixes frames in pull mode and returns the left channel.
func pull(s *Server, frames int) []float64 {
	buf := make([][2]float64, frames)
	s.Stream(buf)
	out := make([]float64, frames)
	for i, f := range buf {
		out[i] = f[0]
	}
	return out
}

// readWAV decodes a WAV file written by the server into its left channel,
// checking that both channels are equal and the rate is the bank's.
func readWAV(t *testing.T, path string, rate int) []float64 {
	t.Helper()
	f := must(os.Open(path))
	defer f.Close()
	s, format, err := wav.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if int(format.SampleRate) != rate || format.NumChannels != 2 || format.Precision != 2 {
		t.Fatalf("WAV format %+v, want %d Hz, 2 channels, 16 bits", format, rate)
	}
	var out []float64
	buf := make([][2]float64, 1024)
	for {
		n, ok := s.Stream(buf)
		for _, fr := range buf[:n] {
			if fr[0] != fr[1] {
				t.Fatalf("frame %d: channels differ: %v", len(out), fr)
			}
			out = append(out, fr[0])
		}
		if !ok {
			break
		}
	}
	return out
}

// run is a stretch of frames with one constant value.
type run struct {
	value       float64
	start, size int
}

// runs splits a signal into its stretches of equal non-zero value.
func runs(x []float64) []run {
	var out []run
	for i := 0; i < len(x); {
		if x[i] == 0 {
			i++
			continue
		}
		j := i
		for j < len(x) && x[j] == x[i] {
			j++
		}
		out = append(out, run{value: x[i], start: i, size: j - i})
		i = j
	}
	return out
}

// levelOf maps a 16-bit output value back to its synthetic sample number.
func levelOf(v float64) int { return int(math.Round(v * 64)) }

func rms(x []float64) float64 {
	if len(x) == 0 {
		return 0
	}
	var s float64
	for _, v := range x {
		s += v * v
	}
	return math.Sqrt(s / float64(len(x)))
}

func seedOr(t *testing.T, seed uint64) uint64 {
	t.Helper()
	if *seedFlag != 0 {
		seed = *seedFlag
	}
	t.Logf("seed %d (replay: go test ./sound -run %s -sound.seed %d)", seed, t.Name(), seed)
	return seed
}
