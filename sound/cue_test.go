package sound

import (
	"slices"
	"testing"
)

// playCall is one call a Cuer made of its Player.
type playCall struct {
	req  Request
	at   bool
	x, y float64
}

// playLog is a Player that keeps its calls.
type playLog struct {
	calls []playCall
	view  [2]float64
	music [][]ID
}

func (p *playLog) Play(r Request)                 { p.calls = append(p.calls, playCall{req: r}) }
func (p *playLog) PlayAt(r Request, x, y float64) { p.calls = append(p.calls, playCall{r, true, x, y}) }
func (p *playLog) SetViewPoint(x, y float64)      { p.view = [2]float64{x, y} }
func (p *playLog) SetMusic(ids ...ID)             { p.music = append(p.music, ids) }

// A cue becomes the request the window used to build itself: the name's id,
// its origin and selection; placed cues with PlayAt at their point, the
// others at full volume; unknown names nothing.
func TestCuer(t *testing.T) {
	names := Names{"worker.select": 3, "ui.click": 7}
	for _, tt := range []struct {
		name      string
		sound     string
		origin    uint64
		selection bool
		at        bool
		x, y      float64
		want      []playCall
	}{
		{"selection voice on the map", "worker.select", 42, true, true, 12.5, 8,
			[]playCall{{req: Request{Sound: 3, Origin: 42, Selection: true}, at: true, x: 12.5, y: 8}}},
		{"ui sound at full volume", "ui.click", 0, false, false, 99, 99,
			[]playCall{{req: Request{Sound: 7, Power: 1, IsVolume: true}}}},
		{"unknown name", "no.such", 1, false, true, 1, 1, nil},
		{"empty name", "", 0, false, false, 0, 0, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := &playLog{}
			NewCuer(p, names).Cue(tt.sound, tt.origin, tt.selection, tt.at, tt.x, tt.y)
			if len(p.calls) != len(tt.want) {
				t.Fatalf("calls %+v, want %+v", p.calls, tt.want)
			}
			for i := range tt.want {
				if p.calls[i] != tt.want[i] {
					t.Fatalf("calls %+v, want %+v", p.calls, tt.want)
				}
			}
		})
	}
	p := &playLog{}
	NewCuer(p, names).SetViewPoint(3, 4)
	if p.view != [2]float64{3, 4} {
		t.Fatalf("view point %v, want (3, 4)", p.view)
	}
}

// The server is a Player.
var _ Player = (*Server)(nil)

// Music names become ids; unknown ones are left out, and no names at all
// still reach the player (everything fades out).
func TestCuerMusic(t *testing.T) {
	p := &playLog{}
	c := NewCuer(p, Names{"music.game": 4, "ambience.wind": 5})
	c.Music("music.game", "no.such", "ambience.wind")
	c.Music()
	if len(p.music) != 2 || !slices.Equal(p.music[0], []ID{4, 5}) || len(p.music[1]) != 0 {
		t.Fatalf("SetMusic calls %v, want [[4 5] []]", p.music)
	}
}
