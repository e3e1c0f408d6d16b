// Package compose writes the game's music and ambience from a seed: chords,
// arpeggios, a bass line and soft drums on simple synthesized instruments,
// and wind and bird calls shaped from noise. Nothing is recorded or copied;
// the same seed and rate give the same samples, so the tracks need not be
// stored: the sound server composes them at start-up (package sound's
// Embedded), which keeps a few megabytes of audio out of the binary.
//
// Every track loops without a seam: a note that rings past the end goes on
// at the start, and the noise of the ambience is crossfaded into itself.
package compose

import (
	"math"
	"math/rand/v2"
)

// Track names the pieces this package writes.
type Track uint8

const (
	Menu     Track = iota // calm: the browser and the lobby
	Battle                // livelier, with drums: during play
	Ambience              // wind and birds, under the battle track
)

// Name is the sound name the track is registered under (package sound
// files music.* and ambience.* under the music volume).
func (t Track) Name() string {
	switch t {
	case Menu:
		return "music.menu"
	case Battle:
		return "music.game"
	default:
		return "ambience.wind"
	}
}

// Tracks lists every track.
var Tracks = []Track{Menu, Battle, Ambience}

// DefaultSeed is the seed the game composes with.
const DefaultSeed = 16

// Peaks of the finished tracks: music sits well under the effects (which
// peak at -1 dBFS), the ambience under the music.
const (
	musicPeak    = 0.35
	ambiencePeak = 0.2
)

// Write composes track t at rate frames a second from seed, mono.
func Write(t Track, rate int, seed uint64) []float32 {
	rnd := rand.New(rand.NewPCG(seed, uint64(t)+0x5eed))
	var buf []float64
	peak := musicPeak
	switch t {
	case Menu:
		buf = menu(rate, rnd)
	case Battle:
		buf = battle(rate, rnd)
	default:
		buf, peak = ambience(rate, rnd), ambiencePeak
	}
	return normalize(buf, peak)
}

// normalize scales buf to peak and converts it.
func normalize(buf []float64, peak float64) []float32 {
	m := 0.0
	for _, x := range buf {
		m = max(m, math.Abs(x))
	}
	g := 0.0
	if m > 0 {
		g = peak / m
	}
	out := make([]float32, len(buf))
	for i, x := range buf {
		out[i] = float32(x * g)
	}
	return out
}

// addWrapped adds src into dst from frame at, going on at dst's start for
// what is past its end: the loop's seam is inside the notes, not a cut.
func addWrapped(dst []float64, at int, src []float64, gain float64) {
	at %= len(dst)
	for len(src) > 0 {
		d := dst[at:]
		n := min(len(d), len(src))
		for i, x := range src[:n] {
			d[i] += x * gain
		}
		src, at = src[n:], 0
	}
}

// midiHz is the equal-tempered frequency of MIDI note k.
func midiHz(k int) float64 { return 440 * math.Pow(2, float64(k-69)/12) }
