package compose

import "math/rand/v2"

// chord is a triad on a root a number of semitones above the key.
type chord struct {
	root  int
	minor bool
}

func (c chord) tones() [3]int {
	if c.minor {
		return [3]int{c.root, c.root + 3, c.root + 7}
	}
	return [3]int{c.root, c.root + 4, c.root + 7}
}

// Progressions of four bars the seed chooses from.
var (
	majorProgressions = [][4]chord{
		{{0, false}, {9, true}, {5, false}, {7, false}}, // I vi IV V
		{{0, false}, {5, false}, {9, true}, {7, false}}, // I IV vi V
		{{9, true}, {5, false}, {0, false}, {7, false}}, // vi IV I V
		{{0, false}, {4, true}, {5, false}, {5, false}}, // I iii IV IV
	}
	minorProgressions = [][4]chord{
		{{0, true}, {8, false}, {3, false}, {10, false}},  // i VI III VII
		{{0, true}, {5, true}, {8, false}, {7, false}},    // i iv VI V
		{{0, true}, {10, false}, {8, false}, {10, false}}, // i VII VI VII
	}
	// arpeggio patterns: indexes into the chord's tones, 3 and up an octave higher.
	patterns = [][]int{
		{0, 1, 2, 3, 2, 1, 0, 1},
		{0, 2, 1, 3, 1, 2, 0, 2},
		{2, 1, 0, 1, 2, 3, 4, 3},
		{0, 1, 2, 1, 3, 2, 4, 2},
	}
)

// arpTone is tone k of pattern index p over chord c (k ≥ 3 climbs octaves).
func arpTone(c chord, p int) int {
	t := c.tones()
	return t[p%3] + 12*(p/3)
}

// score places notes on a beat grid into a loop of bars bars.
type score struct {
	r         *renderer
	buf       []float64
	beat      int // frames a beat
	beatsABar int
}

func newScore(rate, bpm, bars int) *score {
	beat := rate * 60 / bpm
	return &score{r: newRenderer(rate), buf: make([]float64, bars*4*beat), beat: beat, beatsABar: 4}
}

// play adds instrument in's note midi at beat (fractions allowed through
// sixteenths) lasting beats beats.
func (s *score) play(in *instrument, midi int, sixteenth, sixteenths int, gain float64) {
	frames := sixteenths * s.beat / 4
	s.add(sixteenth, s.r.note(in, midi, frames), gain)
}

func (s *score) add(sixteenth int, sound []float64, gain float64) {
	addWrapped(s.buf, sixteenth*s.beat/4, sound, gain)
}

// menu is a calm piece: 12 bars at 72 beats a minute (40 s), pad chords, a
// slow arpeggio of eighths and a bass on the first and third beats.
func menu(rate int, rnd *rand.Rand) []float64 {
	const bars = 12
	s := newScore(rate, 72, bars)
	key := []int{60, 62, 65, 57}[rnd.IntN(4)]
	prog := majorProgressions[rnd.IntN(len(majorProgressions))]
	for bar := range bars {
		c := prog[bar%4]
		at := bar * 16
		for _, t := range c.tones() {
			s.play(&pad, key-12+t, at, 18, 0.22) // rings into the next bar's attack
		}
		s.play(&bass, key-24+c.root, at, 8, 0.5)
		s.play(&bass, key-24+c.root, at+8, 8, 0.35)
		pat := patterns[(bar/4+rnd.IntN(2))%len(patterns)]
		for i, p := range pat {
			if bar%4 == 3 && i >= 6 {
				break // a breath at the end of each phrase
			}
			s.play(&pluck, key+arpTone(c, p), at+2*i, 6, 0.3)
		}
	}
	return s.buf
}

// battle is the in-game piece: 24 bars at 96 beats a minute (60 s) in a
// minor key. Bars 0-7 are chords, bass and a sparse arpeggio; from bar 8 a
// soft drum and running sixteenths join; bars 16-23 vary the arpeggio.
func battle(rate int, rnd *rand.Rand) []float64 {
	const bars = 24
	s := newScore(rate, 96, bars)
	key := []int{57, 52, 55, 50}[rnd.IntN(4)]
	prog := minorProgressions[rnd.IntN(len(minorProgressions))]
	k, t := kick(rate), tick(rate, rnd)
	for bar := range bars {
		c := prog[bar%4]
		at := bar * 16
		for _, n := range c.tones() {
			s.play(&pad, key-12+n, at, 17, 0.16)
		}
		for b := 0; b < 16; b += 4 {
			s.play(&bass, key-24+c.root, at+b, 3, 0.45)
		}
		battleArp(s, c, key, at, bar, rnd)
		if bar >= 8 {
			s.add(at, k, 0.6)
			s.add(at+8, k, 0.5)
			for b := 2; b < 16; b += 4 {
				s.add(at+b, t, 0.15)
			}
		}
	}
	return s.buf
}

func battleArp(s *score, c chord, key, at, bar int, rnd *rand.Rand) {
	pat := patterns[(bar/8+rnd.IntN(2))%len(patterns)]
	step := 2 // eighths
	if bar >= 8 {
		step = 1 // sixteenths
	}
	for i := 0; i*step < 16; i++ {
		p := pat[i%len(pat)]
		if bar >= 16 && i%4 == 3 {
			p += 1 // the last section climbs
		}
		s.play(&pluck, key+arpTone(c, p), at+i*step, 4, 0.22)
	}
}
