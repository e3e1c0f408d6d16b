package sound

import "log/slog"

// Player is what a Cuer plays on: *Server.
type Player interface {
	Play(Request)
	PlayAt(r Request, x, y float64)
	SetViewPoint(x, y float64)
	SetMusic(ids ...ID)
}

// Cuer turns cues named in plain values — what the window asks for — into
// requests to a Player: the name becomes an id through Names, a positional
// cue plays with PlayAt (its volume falls with the distance to the view
// point), any other at full volume. It keeps this package free of the
// window's types and the window free of this package's.
type Cuer struct {
	p     Player
	names Names
}

// NewCuer returns a Cuer that plays on p the sounds names knows.
func NewCuer(p Player, names Names) *Cuer { return &Cuer{p: p, names: names} }

// Cue plays sound name for origin (0: nobody). selection marks a unit's
// selection voice; at places the sound at map point (x, y), otherwise x
// and y are ignored. An unknown name plays nothing.
func (c *Cuer) Cue(name string, origin uint64, selection, at bool, x, y float64) {
	id := c.names.ForName(name)
	if id == 0 {
		return
	}
	r := Request{Sound: id, Origin: Origin(origin), Selection: selection}
	if at {
		c.p.PlayAt(r, x, y)
		return
	}
	r.Power, r.IsVolume = 1, true
	c.p.Play(r)
}

// Music plays the named looping tracks (music.menu, music.game,
// ambience.wind) instead of what played, crossfading; unknown names are
// left out.
func (c *Cuer) Music(names ...string) {
	ids := make([]ID, 0, len(names))
	for _, n := range names {
		if id := c.names.ForName(n); id != 0 {
			ids = append(ids, id)
		}
	}
	c.p.SetMusic(ids...)
}

// SetViewPoint moves the listener (the camera's centre, in map units).
func (c *Cuer) SetViewPoint(x, y float64) { c.p.SetViewPoint(x, y) }

// OpenSpeaker starts a server of the embedded sounds on the speaker (the
// silent sink when there is no sound card) and a Cuer for the window.
func OpenSpeaker(log *slog.Logger) (*Server, *Cuer, error) {
	bank, names, err := Embedded()
	if err != nil {
		return nil, nil, err
	}
	srv, err := New(bank, Options{Sink: Speaker(), Logger: log})
	if err != nil {
		return nil, nil, err
	}
	return srv, NewCuer(srv, names), nil
}
