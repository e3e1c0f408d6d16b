package sound

import (
	"math"
	"testing"
)

// musicBank has two short looping tracks of constant levels 1 and 2 and an
// effect of level 3.
func musicBank(t *testing.T) (*Bank, ID, ID, ID) {
	t.Helper()
	b := NewBank(testRate)
	a := must(b.Add("music.a", dc("a", 1, 100)))
	c := must(b.Add("ambience.b", dc("b", 2, 70)))
	hit := must(b.Add("hit", dc("hit", 3, 100000)))
	for _, id := range []ID{a, c} {
		if err := b.SetCategory(id, Music); err != nil {
			t.Fatal(err)
		}
	}
	return b, a, c, hit
}

const fadeFrames = int(MusicFade * testRate)

// A track loops for as long as it is asked for (far past its 100 frames),
// fades in, and crossfades into the next one: the sum never jumps.
func TestMusicLoopsAndCrossfades(t *testing.T) {
	b, a, c, _ := musicBank(t)
	s := must(New(b, Options{Sink: Pull()}))
	defer s.Close()
	s.SetMusic(a)
	in := pull(s, 3*fadeFrames)
	checkSmooth(t, "fade in", in, 0, level(1))
	s.SetMusic(c)
	cross := pull(s, 3*fadeFrames)
	checkSmooth(t, "crossfade", cross, level(1), level(2))
	if got := s.Music(); len(got) != 1 || got[0] != c {
		t.Fatalf("Music() = %v, want [%d]", got, c)
	}
	s.mixMu.Lock()
	n := len(s.mix.loops)
	s.mixMu.Unlock()
	if n != 1 {
		t.Fatalf("%d loops after the fade, want the faded-out one gone", n)
	}
	s.SetMusic()
	checkSmooth(t, "fade out", pull(s, 3*fadeFrames), level(2), 0)
}

// checkSmooth: x goes from about `from` to exactly `to` within the fade, in
// steps far smaller than a click, and stays at `to` after.
func checkSmooth(t *testing.T, what string, x []float64, from, to float32) {
	t.Helper()
	maxStep := math.Abs(float64(to-from)) / float64(fadeFrames) * 2
	for i := 1; i < len(x); i++ {
		if d := math.Abs(x[i] - x[i-1]); d > maxStep+1e-6 {
			t.Fatalf("%s: frame %d jumps %.5f (from %.5f to %.5f), want ≤ %.5f", what, i, d, x[i-1], x[i], maxStep)
		}
	}
	if math.Abs(x[0]-float64(from)) > 0.01 {
		t.Errorf("%s: starts at %.4f, want %.4f", what, x[0], from)
	}
	for i := fadeFrames + chunkFrames; i < len(x); i++ {
		if math.Abs(x[i]-float64(to)) > 1e-6 {
			t.Fatalf("%s: frame %d is %.5f after the fade, want %.5f", what, i, x[i], to)
		}
	}
}

// The music slider scales the music and nothing else; at 0 the music is
// silent. The global volume scales it too.
func TestMusicVolume(t *testing.T) {
	for _, tt := range []struct {
		name                  string
		global, music, effect float64
		want                  float64 // of level(1)
	}{
		{"full", 1, 1, 1, 1},
		{"music at half", 1, 0.5, 1, 0.5},
		{"music off", 1, 0, 1, 0},
		{"effects off", 1, 1, 0, 1},
		{"master at half", 0.5, 1, 1, 0.5},
		{"master off", 0, 1, 1, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b, a, _, _ := musicBank(t)
			s := must(New(b, Options{Sink: Pull()}))
			defer s.Close()
			s.SetVolume(tt.global)
			s.SetCategoryVolume(Music, tt.music)
			s.SetCategoryVolume(Effects, tt.effect)
			s.SetMusic(a)
			x := pull(s, 2*fadeFrames)
			got := x[len(x)-1]
			if want := tt.want * float64(level(1)); math.Abs(got-want) > 1e-4 {
				t.Fatalf("music plays at %.5f, want %.5f", got, want)
			}
		})
	}
}

// The game's own tracks, rendered through a WAV sink: each is heard at the
// music volume, silent when the music slider is at 0 while an effect still
// plays, and loops past its end without a click.
func TestEmbeddedMusic(t *testing.T) {
	b, names := embedded(t)
	for _, n := range []string{"music.menu", "music.game", "ambience.wind"} {
		if names.ForName(n) == 0 || b.entry(names.ForName(n)).category != Music {
			t.Fatalf("%s is not a music sound", n)
		}
	}
	s := must(New(b, Options{Sink: Pull()}))
	defer s.Close()
	s.SetMusic(names.ForName("music.game"), names.ForName("ambience.wind"))
	loud := rms(pull(s, 3*int(DefaultRate)))
	s.SetCategoryVolume(Music, 0.25)
	pull(s, chunkFrames)
	quiet := rms(pull(s, int(DefaultRate)))
	s.SetCategoryVolume(Music, 0)
	pull(s, chunkFrames)
	s.Play(Request{Sound: names.ForName("ui.click"), Power: 1, IsVolume: true})
	muted := pull(s, int(DefaultRate))
	t.Logf("music rms %.4f at volume 1, %.4f at 0.25", loud, quiet)
	if loud < 0.02 || quiet > loud/2 || quiet == 0 {
		t.Fatalf("music rms %.4f at volume 1, %.4f at 0.25", loud, quiet)
	}
	click := b.entry(names.ForName("ui.click")).samples[0].Len()
	if rms(muted[:click]) == 0 {
		t.Fatal("the click is silent: the music slider took the effects with it")
	}
	if r := rms(muted[click+chunkFrames:]); r != 0 {
		t.Fatalf("music at volume 0 still plays (rms %.6f)", r)
	}
}

// After its fade-in a track repeats its samples exactly, frame after frame
// across its end (pcm is a 16-bit-exact ramp, so any slip shows).
func TestMusicRepeatsExactly(t *testing.T) {
	b := NewBank(testRate)
	pcm := make([]float32, 333)
	for i := range pcm {
		pcm[i] = float32(i-166) / 512
	}
	id := must(b.Add("music.ramp", NewSample("ramp", pcm)))
	s := must(New(b, Options{Sink: Pull()}))
	defer s.Close()
	s.SetMusic(id)
	x := pull(s, 3*fadeFrames)
	for k := 2 * fadeFrames; k < len(x); k++ {
		if want := float64(pcm[k%len(pcm)]); math.Abs(x[k]-want) > 1e-6 {
			t.Fatalf("frame %d is %.5f, want sample %d (%.5f)", k, x[k], k%len(pcm), want)
		}
	}
}
