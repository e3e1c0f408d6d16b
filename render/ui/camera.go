package ui

import "math"

// Zoom limits in screen pixels per tile.
const (
	MaxZoom     = 64.0
	MinZoom     = 4.0
	DefaultZoom = 32.0
)

// Camera maps the world (tiles) to the part of the screen the map is drawn
// in. Its limits keep the map filling the view: the view never shows beyond
// an edge of the map unless the whole map fits, and then the map is centred.
type Camera struct {
	Center     Vec     // world point at the middle of View
	Zoom       float64 // pixels per tile
	View       Rect    // screen rectangle of the map
	MapW, MapH float64 // map size in tiles
}

// NewCamera returns a camera on a map of w×h tiles showing view, centred on c.
func NewCamera(view Rect, w, h int, c Vec) Camera {
	cam := Camera{Center: c, Zoom: DefaultZoom, View: view, MapW: float64(w), MapH: float64(h)}
	cam.Clamp()
	return cam
}

// ToScreen returns the screen point of world point p.
func (c *Camera) ToScreen(p Vec) Vec {
	return c.View.Center().Add(p.Sub(c.Center).Scale(c.Zoom))
}

// ToWorld returns the world point under screen point s.
func (c *Camera) ToWorld(s Vec) Vec {
	return c.Center.Add(s.Sub(c.View.Center()).Scale(1 / c.Zoom))
}

// Visible returns the world rectangle the view shows.
func (c *Camera) Visible() Rect {
	return Rect{c.ToWorld(c.View.Min), c.ToWorld(c.View.Max)}
}

// Tile returns the tile under screen point s (possibly off the map).
func (c *Camera) Tile(s Vec) (x, y int) {
	w := c.ToWorld(s)
	return int(math.Floor(w.X)), int(math.Floor(w.Y))
}

// FitZoom is the zoom at which the whole map just fits the view.
func (c *Camera) FitZoom() float64 {
	if c.MapW <= 0 || c.MapH <= 0 {
		return MinZoom
	}
	return min(c.View.W()/c.MapW, c.View.H()/c.MapH)
}

// MinZoomLimit is the smallest zoom allowed: the whole map in view, but
// never below MinZoom.
func (c *Camera) MinZoomLimit() float64 { return max(MinZoom, min(c.FitZoom(), MaxZoom)) }

// Clamp applies the limits of zoom and position.
func (c *Camera) Clamp() {
	c.Zoom = min(max(c.Zoom, c.MinZoomLimit()), MaxZoom)
	c.Center.X = clampAxis(c.Center.X, c.View.W()/c.Zoom, c.MapW)
	c.Center.Y = clampAxis(c.Center.Y, c.View.H()/c.Zoom, c.MapH)
}

// clampAxis keeps a view of span world units inside [0, size], or centres
// it when it is larger than the map.
func clampAxis(center, span, size float64) float64 {
	if span >= size {
		return size / 2
	}
	return min(max(center, span/2), size-span/2)
}

// Pan moves the view by d screen pixels.
func (c *Camera) Pan(d Vec) {
	c.Center = c.Center.Add(d.Scale(1 / c.Zoom))
	c.Clamp()
}

// ZoomAt multiplies the zoom by f keeping the world point under screen point
// s where it is (zooming towards the pointer).
func (c *Camera) ZoomAt(s Vec, f float64) {
	before := c.ToWorld(s)
	c.Zoom *= f
	c.Clamp()
	after := c.ToWorld(s)
	c.Center = c.Center.Add(before.Sub(after))
	c.Clamp()
}

// LookAt centres the view on world point p (as far as the limits allow).
func (c *Camera) LookAt(p Vec) {
	c.Center = p
	c.Clamp()
}

// SetView changes the screen rectangle (the window was resized).
func (c *Camera) SetView(v Rect) {
	c.View = v
	c.Clamp()
}

// ScrollSpeed is how fast keys and screen edges scroll, in pixels a second.
const ScrollSpeed = 900.0

// EdgeMargin is how close to a window edge the pointer scrolls the map.
const EdgeMargin = 3.0

// ScrollDir returns the scroll direction (-1, 0 or 1 on each axis) asked for
// by arrow keys or by the pointer resting on an edge of the window.
func ScrollDir(in *Input, window Rect) Vec {
	var d Vec
	if in.Keys[KeyLeft] {
		d.X--
	}
	if in.Keys[KeyRight] {
		d.X++
	}
	if in.Keys[KeyUp] {
		d.Y--
	}
	if in.Keys[KeyDown] {
		d.Y++
	}
	if in.MouseIn && d == (Vec{}) {
		m := in.Mouse
		switch {
		case m.X < window.Min.X+EdgeMargin:
			d.X = -1
		case m.X >= window.Max.X-EdgeMargin:
			d.X = 1
		}
		switch {
		case m.Y < window.Min.Y+EdgeMargin:
			d.Y = -1
		case m.Y >= window.Max.Y-EdgeMargin:
			d.Y = 1
		}
	}
	return d
}
