package render

import (
	"image"
	"image/color"

	"github.com/gopxl/pixel/v2"
	"github.com/gopxl/pixel/v2/backends/opengl"

	"hostfall/render/ui"
)

// layer is one draw call: a growing list of quads that all sample one
// picture (or none: intensity 0 quads are plain colour). Screens fill
// layers in screen coordinates (top-left origin, y down); the layer flips
// them into pixel's bottom-up coordinates. Drawing thousands of units as
// one layer is what makes the frame rate (see PLATFORM.md: batches pay).
type layer struct {
	td     pixel.TrianglesData
	n      int
	tri    pixel.TargetTriangles
	pic    pixel.TargetPicture
	picH   float64 // height of the picture, for flipping atlas frames
	h      float64 // height of the target
	smooth bool    // sample the picture with linear filtering
	opaque bool    // replace what is below instead of blending (cheaper)
}

// target is what layers draw on: the window, or a canvas in tests.
type target interface {
	pixel.BasicTarget
	SetSmooth(bool)
	SetComposeMethod(pixel.ComposeMethod)
	Clear(color.Color)
}

// fastFragmentShader replaces pixel's default fragment shader on the window:
// the same colour for the intensities this package uses (0: plain colour,
// 1: texture times colour), without the clip-rectangle test. On a software
// rasterizer every varying and branch costs on every pixel; dropping the
// clip rectangle lets the linker drop four interpolated varyings.
const fastFragmentShader = `
#version 330 core

in vec4  vColor;
in vec2  vTexCoords;
in float vIntensity;

out vec4 fragColor;

uniform vec4 uColorMask;
uniform vec4 uTexBounds;
uniform sampler2D uTexture;

void main() {
	vec4 c = vColor;
	if (vIntensity != 0) {
		c *= texture(uTexture, (vTexCoords - uTexBounds.xy) / uTexBounds.zw);
	}
	fragColor = c * uColorMask;
}
`

// useFastShader installs fastFragmentShader on t when t is the window (or a
// canvas). Call it before making layers for t.
func useFastShader(t target) {
	switch c := t.(type) {
	case interface{ Canvas() *opengl.Canvas }:
		c.Canvas().SetFragmentShader(fastFragmentShader)
	case *opengl.Canvas:
		c.SetFragmentShader(fastFragmentShader)
	}
}

func newLayer(t target, pic pixel.Picture) *layer {
	l := &layer{}
	l.tri = t.MakeTriangles(&pixel.TrianglesData{})
	if pic == nil {
		pic = whitePicture
	}
	l.pic = t.MakePicture(pic)
	l.picH = pic.Bounds().H()
	return l
}

var whitePicture = pixel.PictureDataFromImage(image.NewRGBA(image.Rect(0, 0, 1, 1)))

// begin empties the layer for a frame on a target h pixels high.
func (l *layer) begin(h float64) { l.n, l.h = 0, h }

func (l *layer) grow(k int) []struct {
	Position  pixel.Vec
	Color     pixel.RGBA
	Picture   pixel.Vec
	Intensity float64
	ClipRect  pixel.Rect
	IsClipped bool
} {
	need := l.n + k
	if need > len(l.td) {
		l.td.SetLen(max(need, 2*len(l.td)))
	}
	v := l.td[l.n:need]
	l.n = need
	return v
}

// quadPix adds a quad given in pixel coordinates, textured from frame (in
// picture coordinates) with intensity in (0 for plain colour).
func (l *layer) quadPix(r, frame pixel.Rect, c pixel.RGBA, intensity float64) {
	v := l.grow(6)
	bl, br := pixel.V(r.Min.X, r.Min.Y), pixel.V(r.Max.X, r.Min.Y)
	tr, tl := pixel.V(r.Max.X, r.Max.Y), pixel.V(r.Min.X, r.Max.Y)
	fbl, fbr := pixel.V(frame.Min.X, frame.Min.Y), pixel.V(frame.Max.X, frame.Min.Y)
	ftr, ftl := pixel.V(frame.Max.X, frame.Max.Y), pixel.V(frame.Min.X, frame.Max.Y)
	pos := [6]pixel.Vec{bl, br, tr, bl, tr, tl}
	tex := [6]pixel.Vec{fbl, fbr, ftr, fbl, ftr, ftl}
	for i := range v {
		v[i].Position, v[i].Picture, v[i].Color, v[i].Intensity = pos[i], tex[i], c, intensity
		v[i].ClipRect, v[i].IsClipped = pixel.Rect{}, false
	}
}

// flip turns a screen rectangle into pixel coordinates.
func (l *layer) flip(r ui.Rect) pixel.Rect {
	return pixel.R(r.Min.X, l.h-r.Max.Y, r.Max.X, l.h-r.Min.Y)
}

// frame turns a rectangle of the picture given top-down (as in the image
// it was made from) into picture coordinates.
func (l *layer) frame(r image.Rectangle) pixel.Rect {
	return pixel.R(float64(r.Min.X), l.picH-float64(r.Max.Y), float64(r.Max.X), l.picH-float64(r.Min.Y))
}

// rect adds a plain rectangle.
func (l *layer) rect(r ui.Rect, c pixel.RGBA) {
	l.quadPix(l.flip(r), pixel.Rect{}, c, 0)
}

// outline adds the border of r, t pixels thick.
func (l *layer) outline(r ui.Rect, t float64, c pixel.RGBA) {
	l.rect(ui.R(r.Min.X, r.Min.Y, r.Max.X, r.Min.Y+t), c)
	l.rect(ui.R(r.Min.X, r.Max.Y-t, r.Max.X, r.Max.Y), c)
	l.rect(ui.R(r.Min.X, r.Min.Y+t, r.Min.X+t, r.Max.Y-t), c)
	l.rect(ui.R(r.Max.X-t, r.Min.Y+t, r.Max.X, r.Max.Y-t), c)
}

// sprite adds the picture's region src (top-down image coordinates) drawn
// into screen rectangle dst, multiplied by c.
func (l *layer) sprite(dst ui.Rect, src image.Rectangle, c pixel.RGBA) {
	l.quadPix(l.flip(dst), l.frame(src), c, 1)
}

// bar adds a bar filled to fraction f with colour fill over a dark back, as
// one quad: the texture coordinates slide over a two-texel strip (white,
// dark) so the edge between them falls at f.
func (l *layer) bar(r ui.Rect, f float64, fill pixel.RGBA) {
	f = min(max(f, 0), 1)
	x := float64(sprBar.Min.X) + 1 - f
	y := l.picH - float64(sprBar.Min.Y) - 0.5
	l.quadPix(l.flip(r), pixel.R(x, y-0.25, x+1, y+0.25), fill, 1)
}

// draw sends the layer to its target.
func (l *layer) draw(t target) {
	if l.n == 0 {
		return
	}
	if l.tri.Len() != l.n {
		l.tri.SetLen(l.n)
	}
	d := l.td[:l.n]
	l.tri.Update(&d)
	t.SetSmooth(l.smooth)
	if l.opaque {
		t.SetComposeMethod(pixel.ComposeCopy)
	}
	l.pic.Draw(l.tri)
	if l.opaque {
		t.SetComposeMethod(pixel.ComposeOver)
	}
}

// Colours. pixel.RGBA is alpha-premultiplied.
func rgb(r, g, b uint8) pixel.RGBA {
	return pixel.RGBA{R: float64(r) / 255, G: float64(g) / 255, B: float64(b) / 255, A: 1}
}

func rgba(r, g, b uint8, a float64) pixel.RGBA { return rgb(r, g, b).Mul(pixel.Alpha(a)) }

var (
	white       = pixel.RGBA{R: 1, G: 1, B: 1, A: 1}
	colBg       = rgb(18, 22, 30)
	colPanel    = rgb(30, 36, 48)
	colPanelHi  = rgb(52, 62, 80)
	colBorder   = rgb(78, 92, 116)
	colText     = rgb(228, 232, 240)
	colDim      = rgb(150, 160, 178)
	colAccent   = rgb(250, 204, 21)
	colGood     = rgb(74, 222, 128)
	colBad      = rgb(248, 113, 113)
	colSelect   = rgb(80, 250, 120)
	colHover    = rgb(64, 78, 104)
	colShade    = rgba(0, 0, 0, 0.6)
	colHPBack   = rgba(0, 0, 0, 0.75)
	colButton   = rgb(44, 54, 72)
	colButtonHi = rgb(70, 86, 114)
)

// PlayerColors are the colours of lobby colour numbers 0 to 7; higher
// numbers wrap.
var PlayerColors = [8][3]uint8{
	{59, 130, 246}, // blue
	{239, 68, 68},  // red
	{34, 197, 94},  // green
	{234, 179, 8},  // yellow
	{168, 85, 247}, // purple
	{249, 115, 22}, // orange
	{20, 184, 166}, // teal
	{236, 72, 153}, // pink
}

// ColorNames name PlayerColors for the lobby.
var ColorNames = [8]string{"blue", "red", "green", "yellow", "purple", "orange", "teal", "pink"}

func playerRGBA(color uint8) pixel.RGBA {
	c := PlayerColors[color%8]
	return rgb(c[0], c[1], c[2])
}
