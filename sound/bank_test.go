package sound

import (
	"bytes"
	"errors"
	"io/fs"
	"math"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gopxl/beep/v2"
	"github.com/gopxl/beep/v2/wav"

	"hostfall/assets"
)

func TestBankRegistration(t *testing.T) {
	b := NewBank(testRate)
	a := dc("a", 1, 10)
	simple := must(b.Add("simple", a))
	group := must(b.Add("group", a, dc("b", 2, 10)))
	two := must(b.AddTwoGroups("two", simple, group))
	if err := b.Alias("also.simple", simple); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		err  error
	}{
		{"no samples", second(b.Add("empty"))},
		{"nil sample", second(b.Add("nil", a, nil))},
		{"no name", second(b.Add("", a))},
		{"duplicate", second(b.Add("simple", a))},
		{"duplicate alias", b.Alias("group", simple)},
		{"alias of nothing", b.Alias("x", 99)},
		{"two-groups of a two-groups", second(b.AddTwoGroups("three", two, group))},
		{"two-groups of nothing", second(b.AddTwoGroups("none", 0, group))},
		{"range of nothing", b.SetRange(0, 5)},
	}
	for _, tc := range tests {
		if tc.err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
	if b.ForName("also.simple") != simple || b.ForName("nope") != 0 || b.Name(two) != "two" {
		t.Fatal("names do not map to their ids")
	}
	names := b.Names()
	names["simple"] = 77 // a copy: the bank keeps its own
	if b.ForName("simple") != simple {
		t.Fatal("Names is not a copy")
	}
	if got := names.Sorted(); !slices.Equal(got, []string{"also.simple", "group", "simple", "two"}) {
		t.Fatalf("sorted names %v", got)
	}
	// A server freezes the bank: the mixer reads it without locks.
	s := must(New(b, Options{Sink: Pull()}))
	defer s.Close()
	for _, err := range []error{second(b.Add("late", a)), b.Alias("late", simple), b.SetRange(simple, 3)} {
		if !errors.Is(err, ErrFrozen) {
			t.Fatalf("change after New: %v, want ErrFrozen", err)
		}
	}
}

func second[T any](_ T, err error) error { return err }

func TestDecodeResamplesAndMixesDown(t *testing.T) {
	// One second of stereo at 22,050 Hz with opposite channels plus a DC offset:
	// mixed down it is the offset alone; resampled it is one second at 44,100 Hz.
	const in = 22050
	n := 0
	src := beep.StreamerFunc(func(s [][2]float64) (int, bool) {
		if n >= in {
			return 0, false
		}
		k := min(len(s), in-n)
		for i := range k {
			v := 0.3 * math.Sin(float64(n+i)/10)
			s[i] = [2]float64{0.25 + v, 0.25 - v}
		}
		n += k
		return k, true
	})
	b := NewBank(44100)
	smp := must(b.Decode("stereo", src, beep.Format{SampleRate: in, NumChannels: 2, Precision: 2}))
	if d := smp.Len() - 44100; d < -4 || d > 4 {
		t.Fatalf("%d frames, want about 44100", smp.Len())
	}
	for i, x := range smp.pcm[100 : smp.Len()-100] {
		if math.Abs(float64(x)-0.25) > 1e-3 {
			t.Fatalf("frame %d: %v, want 0.25", i+100, x)
		}
	}
}

func TestDecodeWAVRoundTrip(t *testing.T) {
	var buf seekBuffer
	pcm := []float64{0, 0.5, -0.5, 0.25}
	i := 0
	src := beep.StreamerFunc(func(s [][2]float64) (int, bool) {
		if i >= len(pcm) {
			return 0, false
		}
		s[0] = [2]float64{pcm[i], pcm[i]}
		i++
		return 1, true
	})
	if err := wav.Encode(&buf, src, beep.Format{SampleRate: testRate, NumChannels: 1, Precision: 2}); err != nil {
		t.Fatal(err)
	}
	smp := must(NewBank(testRate).DecodeWAV("rt", bytes.NewReader(buf.b)))
	if smp.Len() != len(pcm) {
		t.Fatalf("%d frames, want %d", smp.Len(), len(pcm))
	}
	for i, x := range smp.pcm {
		if math.Abs(float64(x)-pcm[i]) > 1.0/32767 {
			t.Fatalf("frame %d: %v, want %v", i, x, pcm[i])
		}
	}
	if _, err := NewBank(testRate).DecodeWAV("junk", strings.NewReader("RIFF junk")); err == nil {
		t.Fatal("junk decoded")
	}
}

// seekBuffer is an in-memory io.WriteSeeker for wav.Encode.
type seekBuffer struct {
	b   []byte
	pos int
}

func (s *seekBuffer) Write(p []byte) (int, error) {
	if need := s.pos + len(p); need > len(s.b) {
		s.b = append(s.b, make([]byte, need-len(s.b))...)
	}
	copy(s.b[s.pos:], p)
	s.pos += len(p)
	return len(p), nil
}

func (s *seekBuffer) Seek(off int64, whence int) (int64, error) {
	switch whence {
	case 0:
		s.pos = int(off)
	case 1:
		s.pos += int(off)
	case 2:
		s.pos = len(s.b) + int(off)
	}
	return int64(s.pos), nil
}

// FuzzDecodeWAV: whatever the bytes, decoding returns a sample or an error.
func FuzzDecodeWAV(f *testing.F) {
	click, err := fs.ReadFile(assets.Sounds, "sounds/ui.click.wav")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(click)
	f.Add(click[:44])
	f.Add(click[:30])
	f.Add([]byte("RIFF\x00\x00\x00\x00WAVEfmt "))
	f.Fuzz(func(t *testing.T, data []byte) {
		smp, err := NewBank(testRate).DecodeWAV("fuzz", bytes.NewReader(data))
		if err == nil && smp == nil {
			t.Fatal("no sample and no error")
		}
	})
}

// The embedded set: every name in doc.go exists and nothing else does; every
// unit has its groups; the files are in the stored format and small.
func TestEmbeddedSounds(t *testing.T) {
	bank, names := embedded(t)
	doc := documentedNames(t)
	if got := names.Sorted(); !slices.Equal(got, doc) {
		t.Fatalf("embedded names and doc.go differ:\nembedded %v\ndoc.go   %v", got, doc)
	}
	for _, unit := range []string{"worker", "soldier", "archer"} {
		e := bank.entry(names.ForName(unit + ".select"))
		if e == nil || e.kind != kindTwoGroups {
			t.Fatalf("%s.select is not a two-groups sound", unit)
		}
		for _, g := range []ID{e.first, e.second} {
			if n := len(bank.entry(g).samples); n < 3 {
				t.Errorf("%s: group %s has %d lines, want at least 3", unit, bank.Name(g), n)
			}
		}
		if n := len(bank.entry(names.ForName(unit + ".ack")).samples); n < 2 {
			t.Errorf("%s.ack has %d lines", unit, n)
		}
	}
	// Annoyed lines are said in file order.
	ann := bank.entry(names.ForName("worker.annoyed")).samples
	for i, s := range ann {
		if want := "worker.annoyed." + string(rune('1'+i)) + ".wav"; s.Name != want {
			t.Fatalf("annoyed line %d is %s, want %s", i, s.Name, want)
		}
	}
	total := 0
	files, _ := fs.Glob(assets.Sounds, "sounds/*.wav")
	for _, f := range files {
		total += checkAssetFile(t, f)
	}
	t.Logf("%d files, %d bytes", len(files), total)
	if total > 1_600_000 {
		t.Errorf("the sounds take %d bytes; keep them under 1.6 MB", total)
	}
}

func checkAssetFile(t *testing.T, file string) int {
	t.Helper()
	data, err := fs.ReadFile(assets.Sounds, file)
	if err != nil {
		t.Fatal(err)
	}
	s, format, err := wav.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	if format.SampleRate != 22050 || format.NumChannels != 1 || format.Precision != 2 {
		t.Errorf("%s: %+v, want mono 22,050 Hz 16-bit", file, format)
	}
	buf := make([][2]float64, s.Len())
	n, _ := s.Stream(buf)
	peak, lead := 0.0, -1
	for i, fr := range buf[:n] {
		a := math.Abs(fr[0])
		peak = max(peak, a)
		if lead < 0 && a > 0.01 {
			lead = i
		}
	}
	if n == 0 || peak < 0.8 || lead > 22050/100 {
		t.Errorf("%s: %d frames, peak %.2f, %d frames of leading silence; want normalized and trimmed", file, n, peak, lead)
	}
	return len(data)
}

// documentedNames reads the name table of doc.go, expanding UNIT.
func documentedNames(t *testing.T) []string {
	t.Helper()
	src, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(src), "# Sound names")
	if !ok {
		t.Fatal("doc.go has no sound names section")
	}
	var out []string
	for _, m := range regexp.MustCompile(`(?m)^//\t([a-zA-Z_.]+)\s`).FindAllStringSubmatch(table, -1) {
		name := m[1]
		if rest, ok := strings.CutPrefix(name, "UNIT."); ok {
			for _, u := range []string{"worker", "soldier", "archer"} {
				out = append(out, u+"."+rest)
			}
			continue
		}
		out = append(out, name)
	}
	slices.Sort(out)
	return out
}
