package ui

import "math"

// Vec is a point or a size. Screen vectors are pixels from the window's
// top-left corner, y growing down; world vectors are tiles from the map's
// top-left corner (game.TileSize subunits make one).
type Vec struct{ X, Y float64 }

// V makes a Vec.
func V(x, y float64) Vec { return Vec{x, y} }

func (a Vec) Add(b Vec) Vec             { return Vec{a.X + b.X, a.Y + b.Y} }
func (a Vec) Sub(b Vec) Vec             { return Vec{a.X - b.X, a.Y - b.Y} }
func (a Vec) Scale(f float64) Vec       { return Vec{a.X * f, a.Y * f} }
func (a Vec) Len() float64              { return math.Hypot(a.X, a.Y) }
func (a Vec) Lerp(b Vec, t float64) Vec { return Vec{a.X + (b.X-a.X)*t, a.Y + (b.Y-a.Y)*t} }

// Rect is an axis-aligned rectangle; Min is its top-left corner.
type Rect struct{ Min, Max Vec }

// R makes a Rect from its corners.
func R(x0, y0, x1, y1 float64) Rect { return Rect{Vec{x0, y0}, Vec{x1, y1}} }

// XYWH makes a Rect from its top-left corner and size.
func XYWH(x, y, w, h float64) Rect { return Rect{Vec{x, y}, Vec{x + w, y + h}} }

// Span returns the rectangle with corners a and b in any order.
func Span(a, b Vec) Rect {
	return Rect{Vec{min(a.X, b.X), min(a.Y, b.Y)}, Vec{max(a.X, b.X), max(a.Y, b.Y)}}
}

func (r Rect) W() float64  { return r.Max.X - r.Min.X }
func (r Rect) H() float64  { return r.Max.Y - r.Min.Y }
func (r Rect) Size() Vec   { return Vec{r.W(), r.H()} }
func (r Rect) Center() Vec { return r.Min.Lerp(r.Max, 0.5) }
func (r Rect) Empty() bool { return r.W() <= 0 || r.H() <= 0 }

// Contains reports whether p lies in r (closed on the top and left edges,
// open on the bottom and right, like pixel rows).
func (r Rect) Contains(p Vec) bool {
	return p.X >= r.Min.X && p.X < r.Max.X && p.Y >= r.Min.Y && p.Y < r.Max.Y
}

// Intersects reports whether r and s overlap.
func (r Rect) Intersects(s Rect) bool {
	return r.Min.X < s.Max.X && s.Min.X < r.Max.X && r.Min.Y < s.Max.Y && s.Min.Y < r.Max.Y
}

// Intersect returns the overlap of r and s (empty when they do not overlap).
func (r Rect) Intersect(s Rect) Rect {
	out := Rect{Vec{max(r.Min.X, s.Min.X), max(r.Min.Y, s.Min.Y)}, Vec{min(r.Max.X, s.Max.X), min(r.Max.Y, s.Max.Y)}}
	if out.Empty() {
		return Rect{}
	}
	return out
}

// Inset shrinks r by d on every side.
func (r Rect) Inset(d float64) Rect {
	return Rect{Vec{r.Min.X + d, r.Min.Y + d}, Vec{r.Max.X - d, r.Max.Y - d}}
}

// Clamp returns p moved into r.
func (r Rect) Clamp(p Vec) Vec {
	return Vec{min(max(p.X, r.Min.X), r.Max.X), min(max(p.Y, r.Min.Y), r.Max.Y)}
}
