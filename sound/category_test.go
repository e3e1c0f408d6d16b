package sound

import "testing"

func TestCategoryOf(t *testing.T) {
	for _, tt := range []struct {
		name string
		want Category
	}{
		{"worker.select", Voices}, {"soldier.selected", Voices}, {"archer.annoyed", Voices},
		{"worker.ack", Voices}, {"soldier.ready", Voices}, {"building.done", Voices},
		{"building.under_attack", Voices}, {"ui.victory", Voices}, {"ui.not_enough_resources", Voices},
		{"base.select", Effects}, {"barracks.select", Effects}, {"soldier.attack", Effects},
		{"building.construct", Effects}, {"ui.click", Effects}, {"ui.chat", Effects},
		{"music.theme", Music}, {"ambience.wind", Music}, {"unknown", Effects},
	} {
		if got := CategoryOf(tt.name); got != tt.want {
			t.Errorf("CategoryOf(%q) = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// The embedded sounds carry their categories.
func TestEmbeddedCategories(t *testing.T) {
	bank, names := embedded(t)
	for name, id := range names {
		if got, want := bank.entry(id).category, CategoryOf(name); got != want {
			t.Errorf("%s is in %v, want %v", name, got, want)
		}
	}
}

// A category's volume scales only its own sounds, under the global
// volume, and a change ramps over a chunk rather than jumping.
func TestCategoryVolume(t *testing.T) {
	b := NewBank(testRate)
	fx := must(b.Add("fx", dc("fx", 16, 4000)))
	voice := must(b.Add("voice", dc("voice", 32, 4000)))
	if err := b.SetCategory(voice, Voices); err != nil {
		t.Fatal(err)
	}
	if err := b.SetCategory(voice, NumCategories); err == nil {
		t.Error("an unknown category was taken")
	}
	s, _ := pullServer(t, b, Options{})
	s.Play(Request{Sound: fx})
	s.Play(Request{Sound: voice})
	if got := pull(s, 100)[99]; got != 0.75 {
		t.Fatalf("both at full volume: %v, want 0.75", got)
	}
	s.SetCategoryVolume(Voices, 0.5)
	ramp := pull(s, 100)
	if got := pull(s, 100)[0]; got != 0.5 {
		t.Fatalf("voices at half: %v, want 0.25 + 0.25", got)
	}
	for i := 1; i < len(ramp); i++ {
		if ramp[i] > ramp[i-1] || ramp[i] < 0.5 {
			t.Fatalf("frame %d of the change: %v after %v, want a ramp from 0.75 to 0.5", i, ramp[i], ramp[i-1])
		}
	}
	s.SetCategoryVolume(Effects, 0)
	s.SetVolume(0.5)
	pull(s, 100)
	if got := pull(s, 100)[0]; got != 0.125 {
		t.Fatalf("effects off, global at half: %v, want 0.125", got)
	}
	if s.CategoryVolume(Voices) != 0.5 || s.CategoryVolume(Effects) != 0 || s.CategoryVolume(Music) != 1 {
		t.Errorf("category volumes %v %v %v", s.CategoryVolume(Effects), s.CategoryVolume(Voices), s.CategoryVolume(Music))
	}
	s.SetCategoryVolume(Music, 7)
	s.SetCategoryVolume(NumCategories, 0.3) // ignored
	if s.CategoryVolume(Music) != 1 || s.CategoryVolume(NumCategories) != 0 {
		t.Errorf("clamping: music %v", s.CategoryVolume(Music))
	}
}
