package sound

import (
	"bytes"
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"github.com/gopxl/beep/v2/wav"
)

func TestRenderWAV(t *testing.T) {
	b := unitBank(t, 100)
	s := must(New(b, Options{Sink: Pull(), Seed: 2}))
	defer s.Close()
	sel := Request{Sound: b.ForName("u.select"), Origin: 1, Selection: true}
	var buf seekBuffer
	gap := 50 * time.Millisecond // 400 frames
	if err := RenderWAV(&buf, s, []Request{sel, sel, sel, sel}, gap); err != nil {
		t.Fatal(err)
	}
	st, _ := must2(wav.Decode(bytes.NewReader(buf.b)))
	frames := make([][2]float64, st.Len())
	n, _ := st.Stream(frames)
	left := make([]float64, n)
	for i, f := range frames[:n] {
		left[i] = f[0]
	}
	var heard []string
	prev := -500
	for i, r := range runs(left) {
		// wav.Encode pulls 512 frames at a time, so the pause is at least gap.
		if r.size != 100 || r.start-prev < 500 {
			t.Fatalf("run %d: %d frames at %d, want 100 at least 500 after %d", i, r.size, r.start, prev)
		}
		prev = r.start
		heard = append(heard, nameOfLevel(levelOf(r.value)))
	}
	if want := wantSelections(2, 4); !slices.Equal(heard, want) {
		t.Fatalf("rendered %v, want %v", heard, want)
	}
	if err := RenderWAV(&buf, must(New(b, Options{})), nil, 0); err == nil {
		t.Fatal("RenderWAV worked on a server that is not in pull mode")
	}
}

func must2[A, B any](a A, b B, err error) (A, B) {
	if err != nil {
		panic(err)
	}
	return a, b
}

func TestPlayInTurn(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := unitBank(t, 800) // 0.1 s
		rec := &recorder{}
		s := must(New(b, Options{Sink: Silent(), Observe: rec.observe}))
		defer s.Close()
		hit := Request{Sound: b.ForName("hit"), Origin: 4}
		if err := PlayInTurn(t.Context(), s, []Request{hit, hit, hit}, 200*time.Millisecond); err != nil {
			t.Fatal(err)
		}
		ev := rec.all(Started)
		if len(ev) != 3 {
			t.Fatalf("%d sounds started, want 3 (none dropped as busy)", len(ev))
		}
		for i := 1; i < len(ev); i++ {
			// 0.1 s of sound and 0.2 s of gap, less up to one 10 ms chunk: a
			// pacer's chunk is mixed when its time is over.
			if d := ev[i].Frame - ev[i-1].Frame; d < 800+1600-80 {
				t.Fatalf("sound %d started %d frames after the previous, want at least 2320", i, d)
			}
		}
	})
}
