package compose

import (
	"math"
	"math/rand/v2"
)

// partial is one sine of an instrument: a multiple of the note's frequency
// and its level.
type partial struct{ mult, level float64 }

// instrument is an additive timbre under an attack / exponential decay /
// release envelope. Every note ends at exactly zero, so no note clicks.
type instrument struct {
	partials []partial
	attack   float64 // seconds to full level
	decay    float64 // seconds per e-fold after the attack; 0 holds the level
	release  float64 // seconds of the fade to zero at the note's end
}

var (
	// pad: a soft organ-like chord tone, two slightly detuned voices.
	pad = instrument{partials: []partial{{1, 1}, {1.003, 0.8}, {2, 0.25}, {3, 0.08}}, attack: 0.35, release: 0.6}
	// pluck: a harp-like arpeggio note.
	pluck = instrument{partials: []partial{{1, 1}, {2, 0.35}, {3, 0.12}, {4, 0.05}}, attack: 0.006, decay: 0.22, release: 0.05}
	// bass: round and low.
	bass = instrument{partials: []partial{{1, 1}, {2, 0.3}, {3, 0.1}}, attack: 0.02, decay: 0.8, release: 0.08}
)

// noteKey identifies a rendered note: tracks repeat their notes, so each
// is synthesized once.
type noteKey struct {
	inst   *instrument
	midi   int
	frames int
}

// renderer synthesizes notes at one rate, once each.
type renderer struct {
	rate  int
	cache map[noteKey][]float64
}

func newRenderer(rate int) *renderer {
	return &renderer{rate: rate, cache: map[noteKey][]float64{}}
}

// note is instrument in playing MIDI note midi for frames frames.
func (r *renderer) note(in *instrument, midi, frames int) []float64 {
	k := noteKey{in, midi, frames}
	if s, ok := r.cache[k]; ok {
		return s
	}
	s := make([]float64, frames)
	f := midiHz(midi)
	for _, p := range in.partials {
		addSine(s, f*p.mult/float64(r.rate), p.level)
	}
	in.envelope(s, float64(r.rate))
	r.cache[k] = s
	return s
}

// addSine adds a sine of cycles-per-frame step by rotating a phasor, which
// is much cheaper than math.Sin per frame and exact enough for seconds.
func addSine(s []float64, step, level float64) {
	c, sn := math.Cos(2*math.Pi*step), math.Sin(2*math.Pi*step)
	x, y := 1.0, 0.0
	for i := range s {
		s[i] += y * level
		x, y = x*c-y*sn, x*sn+y*c
	}
}

func (in *instrument) envelope(s []float64, rate float64) {
	att, rel := int(in.attack*rate), int(in.release*rate)
	n := len(s)
	for i := range s {
		g := 1.0
		if i < att {
			g = float64(i) / float64(att)
		} else if in.decay > 0 {
			g = math.Exp(-float64(i-att) / (in.decay * rate))
		}
		if left := n - 1 - i; left < rel {
			g *= float64(left) / float64(rel)
		}
		s[i] *= g
	}
}

// kick is a drum: a sine falling from 110 to 45 Hz, dying in a quarter second.
func kick(rate int) []float64 {
	n := rate / 4
	s := make([]float64, n)
	ph := 0.0
	for i := range s {
		t := float64(i) / float64(rate)
		f := 45 + 65*math.Exp(-t*30)
		ph += f / float64(rate)
		s[i] = math.Sin(2*math.Pi*ph) * math.Exp(-t*14) * float64(n-1-i) / float64(n)
	}
	return s
}

// tick is a soft shaker: high-passed noise dying in 40 ms.
func tick(rate int, rnd *rand.Rand) []float64 {
	n := rate / 20
	s := make([]float64, n)
	prev := 0.0
	for i := range s {
		w := rnd.Float64()*2 - 1
		t := float64(i) / float64(rate)
		s[i] = (w - prev) * math.Exp(-t*70) * float64(n-1-i) / float64(n)
		prev = w
	}
	return s
}
