package ui

// Minimap maps between a map of MapW×MapH tiles and a square on the screen.
// The map keeps its aspect ratio and is centred in the square.
type Minimap struct {
	Box        Rect // the whole minimap area on screen
	MapW, MapH float64
}

// Area returns the screen rectangle the map itself covers.
func (m Minimap) Area() Rect {
	s := m.scale()
	w, h := m.MapW*s, m.MapH*s
	c := m.Box.Center()
	return XYWH(c.X-w/2, c.Y-h/2, w, h)
}

func (m Minimap) scale() float64 {
	if m.MapW <= 0 || m.MapH <= 0 {
		return 1
	}
	return min(m.Box.W()/m.MapW, m.Box.H()/m.MapH)
}

// ToScreen returns the screen point of world point p.
func (m Minimap) ToScreen(p Vec) Vec {
	return m.Area().Min.Add(p.Scale(m.scale()))
}

// ToWorld returns the world point under screen point s, clamped to the map.
func (m Minimap) ToWorld(s Vec) Vec {
	p := s.Sub(m.Area().Min).Scale(1 / m.scale())
	return R(0, 0, m.MapW, m.MapH).Clamp(p)
}

// Contains reports whether s is on the map part of the minimap.
func (m Minimap) Contains(s Vec) bool { return m.Area().Contains(s) }

// Frame returns the camera's view as a rectangle on the minimap, clipped to
// the map.
func (m Minimap) Frame(c *Camera) Rect {
	v := c.Visible()
	r := Rect{m.ToScreen(v.Min), m.ToScreen(v.Max)}
	return r.Intersect(m.Area())
}
