package sound

import (
	"context"
	"log/slog"
	"math"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"hostfall/internal/testwait"
)

// The silent and WAV sinks run on the clock. These tests run them in a
// synctest bubble: the clock is fake, so a second of sound takes no time, and
// every request lands on a known frame. The bubble also fails a test whose
// server leaves a goroutine behind.

// offset keeps requests off the pacer's ticks, so which goes first is not a race.
const offset = 5 * time.Millisecond

func TestWAVSinkSelectionSequence(t *testing.T) {
	seed := seedOr(t, 11)
	synctest.Test(t, func(t *testing.T) {
		const frames = 800 // 0.1 s
		b := unitBank(t, frames)
		path := filepath.Join(t.TempDir(), "selections.wav")
		rec := &recorder{}
		s := must(New(b, Options{Sink: WAVFile(path), Seed: seed, Observe: rec.observe}))
		sel := Request{Sound: b.ForName("u.select"), Origin: 3, Selection: true}
		time.Sleep(offset)
		for range 12 {
			s.Play(sel)
			time.Sleep(150 * time.Millisecond)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		out := readWAV(t, path, testRate)
		if uint64(len(out)) != s.Stats().Frames {
			t.Fatalf("WAV has %d frames, the server mixed %d", len(out), s.Stats().Frames)
		}
		want := wantSelections(seed, 12)
		var heard []string
		for i, r := range runs(out) {
			// Asked at 150·i + 5 ms, picked up at the next 10 ms tick, whose
			// chunk starts at 150·i ms: frame 1,200·i.
			if r.size != frames || r.start != 1200*i {
				t.Fatalf("run %d: %d frames at %d, want %d at %d", i, r.size, r.start, frames, 1200*i)
			}
			heard = append(heard, nameOfLevel(levelOf(r.value)))
		}
		if !slices.Equal(heard, want) {
			t.Fatalf("the WAV file holds %v, want %v", heard, want)
		}
		if got := rec.started(); !slices.Equal(got, want) {
			t.Fatalf("events say %v, want %v", got, want)
		}
	})
}

func TestWAVSinkDistanceVolume(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const frames = 1600 // 0.2 s, 88 whole periods of 440 Hz
		b := NewBank(testRate)
		tone := must(b.Add("tone", sine("tone", 0.5, 440, frames)))
		path := filepath.Join(t.TempDir(), "distance.wav")
		s := must(New(b, Options{Sink: WAVFile(path), MaxRange: 100}))
		s.SetViewPoint(1000, 1000)
		distances := []float64{0, 10, 25, 50, 75, 90, 100, 150}
		time.Sleep(offset)
		for _, d := range distances {
			s.PlayAt(Request{Sound: tone}, 1000+d*0.6, 1000-d*0.8)
			time.Sleep(300 * time.Millisecond)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		out := readWAV(t, path, testRate)
		full := 0.5 / math.Sqrt2
		for i, d := range distances {
			start := 2400 * i
			got := rms(out[start : start+frames])
			want := full * max(1-d/100, 0)
			t.Logf("distance %5.1f: RMS %.5f, want %.5f", d, got, want)
			if math.Abs(got-want) > 0.01*want+1e-4 {
				t.Errorf("distance %v: RMS %.5f, want %.5f", d, got, want)
			}
			if gap := rms(out[start+frames : start+2400]); gap != 0 {
				t.Errorf("distance %v: RMS %v after the tone, want silence", d, gap)
			}
		}
		if st := s.Stats(); st.Started != 6 || st.Inaudible != 2 {
			t.Errorf("stats %+v, want 6 started and 2 inaudible", st)
		}
	})
}

func TestWAVSinkGlobalVolumeWhilePlaying(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := NewBank(testRate)
		id := must(b.Add("dc", dc("dc", 32, testRate))) // 0.5 for one second
		path := filepath.Join(t.TempDir(), "volume.wav")
		s := must(New(b, Options{Sink: WAVFile(path)}))
		time.Sleep(offset)
		s.Play(Request{Sound: id}) // plays from frame 0
		time.Sleep(400 * time.Millisecond)
		s.SetVolume(0.25) // at 405 ms; the chunk of [400, 410) ms ramps
		time.Sleep(700 * time.Millisecond)
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		out := readWAV(t, path, testRate)
		const lsb = 1.0 / 32767
		near := func(x, want float64) bool { return math.Abs(x-want) <= lsb }
		before, ramp, after := out[:3200], out[3200:3280], out[3280:testRate]
		t.Logf("RMS before %.5f, after %.5f", rms(before), rms(after))
		for i, x := range before {
			if !near(x, 0.5) {
				t.Fatalf("frame %d: %v before the change, want 0.5", i, x)
			}
		}
		for i, x := range after {
			if !near(x, 0.125) {
				t.Fatalf("frame %d: %v after the change, want 0.125", 3280+i, x)
			}
		}
		for i := 1; i < len(ramp); i++ {
			if ramp[i] > ramp[i-1] {
				t.Fatalf("frame %d: the change goes up (%v after %v)", 3200+i, ramp[i], ramp[i-1])
			}
		}
		if rest := rms(out[testRate:]); rest != 0 {
			t.Fatalf("RMS %v after the sound ended, want 0", rest)
		}
	})
}

func TestSilentSinkKeepsRealTimePace(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := must(New(unitBank(t, 10), Options{Sink: Silent()}))
		defer s.Close()
		for _, at := range []time.Duration{time.Second, 3500 * time.Millisecond} {
			time.Sleep(at - time.Duration(s.Stats().Frames)*time.Second/testRate)
			synctest.Wait()
			if got, want := s.Stats().Frames, uint64(at.Seconds()*testRate); got != want {
				t.Fatalf("after %v the silent sink consumed %d frames, want %d", at, got, want)
			}
		}
	})
}

// Noise reduction and the channel limit follow the clock on the silent sink,
// as they would on a speaker.
func TestSilentSinkNoiseReductionAndChannels(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := unitBank(t, 800) // 0.1 s
		hit := b.ForName("hit")
		rec := &recorder{}
		s := must(New(b, Options{Sink: Silent(), MaxChannels: 2, Observe: rec.observe}))
		time.Sleep(offset)
		s.Play(Request{Sound: hit, Origin: 1}) // t = 5 ms: plays [0, 100) ms of the mix
		time.Sleep(50 * time.Millisecond)
		s.Play(Request{Sound: hit, Origin: 1}) // busy
		s.Play(Request{Sound: hit, Origin: 2}) // second channel: [50, 150) ms
		s.Play(Request{Sound: hit, Origin: 3}) // no channel left
		time.Sleep(100 * time.Millisecond)     // t = 155 ms: origin 1 ended, so has 2
		s.Play(Request{Sound: hit, Origin: 1})
		time.Sleep(20 * time.Millisecond)
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, e := range rec.events {
			desc := e.Kind.String()
			if e.Kind == Dropped {
				desc += " " + e.Reason.String()
			}
			got = append(got, desc+" "+string(rune('0'+e.Origin)))
		}
		want := []string{"started 1", "dropped busy 1", "started 2", "dropped no channel 3", "finished 1", "finished 2", "started 1"}
		if !slices.Equal(got, want) {
			t.Fatalf("events %q, want %q", got, want)
		}
	})
}

type logCapture struct {
	mu      sync.Mutex
	records []slog.Record
}

func (l *logCapture) Enabled(context.Context, slog.Level) bool { return true }
func (l *logCapture) Handle(_ context.Context, r slog.Record) error {
	l.mu.Lock()
	l.records = append(l.records, r)
	l.mu.Unlock()
	return nil
}
func (l *logCapture) WithAttrs([]slog.Attr) slog.Handler { return l }
func (l *logCapture) WithGroup(string) slog.Handler      { return l }

func TestSpeakerFallsBackToSilent(t *testing.T) {
	logs := &logCapture{}
	b := unitBank(t, 10)
	before := runtime.NumGoroutine()
	s := must(New(b, Options{Sink: Speaker(), Logger: slog.New(logs)}))
	if s.SinkName() == "speaker" {
		s.Close()
		t.Skip("not applicable: this machine has a sound card, so there is nothing to fall back from")
	}
	if s.SinkName() != "silent" {
		t.Fatalf("sink %q, want silent", s.SinkName())
	}
	var warnings []string
	for _, r := range logs.records {
		if r.Level >= slog.LevelWarn {
			warnings = append(warnings, r.Message)
		}
	}
	if len(warnings) != 1 {
		t.Fatalf("warnings %q, want exactly one", warnings)
	}
	t.Logf("warning: %s (oto left %d goroutines running)", warnings[0], runtime.NumGoroutine()-before-1)
	// The game goes on: requests are taken and the mix advances.
	s.Play(Request{Sound: b.ForName("hit")})
	waitFor(t, "the silent fallback to start the sound", func() bool { return s.Stats().Started == 1 })
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	testwait.For(t, what, 5*time.Second, cond)
}

// Outside a bubble too: after Close no goroutine of the server is left.
func TestCloseLeavesNoGoroutine(t *testing.T) {
	b := unitBank(t, 100)
	dir := t.TempDir()
	sinks := map[string]Sink{"silent": Silent(), "wav": WAVFile(filepath.Join(dir, "x.wav")), "pull": Pull()}
	for _, name := range []string{"silent", "wav", "pull"} {
		before := runtime.NumGoroutine()
		s := must(New(b, Options{Sink: sinks[name], Period: time.Millisecond}))
		s.Play(Request{Sound: b.ForName("hit")})
		time.Sleep(20 * time.Millisecond)
		if err := s.Close(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := s.Close(); err != nil {
			t.Fatalf("%s: second Close: %v", name, err)
		}
		s.Play(Request{Sound: b.ForName("hit")}) // ignored, never blocks
		for deadline := time.Now().Add(2 * time.Second); runtime.NumGoroutine() > before; {
			if time.Now().After(deadline) {
				buf := make([]byte, 1<<16)
				t.Fatalf("%s: %d goroutines after Close, %d before:\n%s", name,
					runtime.NumGoroutine(), before, buf[:runtime.Stack(buf, true)])
			}
			time.Sleep(time.Millisecond)
		}
	}
}

// Many goroutines use one server while it mixes; run with -race.
func TestConcurrentUse(t *testing.T) {
	b := unitBank(t, 50)
	s := must(New(b, Options{Sink: Silent(), Period: time.Millisecond}))
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 300 {
				switch i % 5 {
				case 0:
					s.PlayAt(Request{Sound: b.ForName("u.select"), Origin: Origin(g), Selection: true}, float64(i), 0)
				case 1:
					s.SetViewPoint(float64(i), float64(g))
				case 2:
					s.SetVolume(float64(i%10) / 10)
				case 3:
					s.Stats()
				default:
					s.Play(Request{Sound: b.ForName("hit")})
				}
				if i%50 == 0 {
					time.Sleep(time.Millisecond)
				}
			}
		})
	}
	wg.Wait()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if st := s.Stats(); st.Queued != 4*120 {
		t.Fatalf("queued %d, want %d", st.Queued, 4*120)
	}
}

func TestWAVSinkBadPath(t *testing.T) {
	_, err := New(unitBank(t, 10), Options{Sink: WAVFile(filepath.Join(t.TempDir(), "no", "such", "dir.wav"))})
	if err == nil || !strings.Contains(err.Error(), "WAV sink") {
		t.Fatalf("error %v, want a WAV sink error", err)
	}
}
