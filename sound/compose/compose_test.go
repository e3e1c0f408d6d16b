package compose

import (
	"bytes"
	"encoding/binary"
	"math"
	"slices"
	"testing"
)

const testRate = 22050

func pcmBytes(s []float32) []byte {
	var b bytes.Buffer
	binary.Write(&b, binary.LittleEndian, s)
	return b.Bytes()
}

// The game composes its music at start-up, so a seed must give the same
// bytes every time, and another seed another piece.
func TestDeterministic(t *testing.T) {
	for _, tr := range Tracks {
		t.Run(tr.Name(), func(t *testing.T) {
			a, b := pcmBytes(Write(tr, testRate, 7)), pcmBytes(Write(tr, testRate, 7))
			if !bytes.Equal(a, b) {
				t.Fatal("the same seed gave different samples")
			}
			if c := pcmBytes(Write(tr, testRate, 8)); bytes.Equal(a, c) {
				t.Fatal("seeds 7 and 8 gave the same samples")
			}
		})
	}
}

// A looping track must not click at its seam: the jump from the last frame
// to the first is no larger than the track's own steps from frame to frame.
func TestLoopSeam(t *testing.T) {
	for _, tr := range Tracks {
		t.Run(tr.Name(), func(t *testing.T) {
			for seed := uint64(1); seed <= 4; seed++ {
				s := Write(tr, testRate, seed)
				seam := math.Abs(float64(s[0] - s[len(s)-1]))
				var steps []float64
				for i := 1; i < len(s); i++ {
					steps = append(steps, math.Abs(float64(s[i]-s[i-1])))
				}
				p99 := percentile(steps, 0.99)
				t.Logf("seed %d: %d frames, seam jump %.5f, 99th percentile step %.5f", seed, len(s), seam, p99)
				if seam > p99 {
					t.Errorf("seed %d: the seam jumps %.5f, more than 99%% of the track's steps (%.5f)", seed, seam, p99)
				}
			}
		})
	}
}

func TestLengthsAndLevels(t *testing.T) {
	want := map[Track][2]float64{Menu: {35, 45}, Battle: {55, 65}, Ambience: {15, 25}}
	for _, tr := range Tracks {
		s := Write(tr, testRate, DefaultSeed)
		secs := float64(len(s)) / testRate
		if secs < want[tr][0] || secs > want[tr][1] {
			t.Errorf("%s lasts %.1f s, want %v", tr.Name(), secs, want[tr])
		}
		var peak, sq float64
		for _, x := range s {
			peak = max(peak, math.Abs(float64(x)))
			sq += float64(x) * float64(x)
		}
		rms := math.Sqrt(sq / float64(len(s)))
		t.Logf("%s: %.1f s, peak %.3f, rms %.4f", tr.Name(), secs, peak, rms)
		if peak > 0.5 || rms < 0.01 {
			t.Errorf("%s: peak %.3f rms %.4f: too loud or silent", tr.Name(), peak, rms)
		}
	}
}

func percentile(xs []float64, p float64) float64 {
	s := append([]float64(nil), xs...)
	// a partial selection would do; the tracks are short enough to sort
	sortFloats(s)
	return s[int(p*float64(len(s)-1))]
}

func sortFloats(s []float64) { slices.Sort(s) }

// BenchmarkWrite is the start-up cost of a track at the speaker's rate.
func BenchmarkWrite(b *testing.B) {
	for _, tr := range Tracks {
		b.Run(tr.Name(), func(b *testing.B) {
			for b.Loop() {
				Write(tr, 44100, DefaultSeed)
			}
		})
	}
}
