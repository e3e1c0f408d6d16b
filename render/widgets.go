package render

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/gopxl/pixel/v2"

	"hostfall/render/ui"
)

// Widgets come in two halves: the update step asks pressed whether the
// frame's input pressed one, the draw step draws it into the same
// rectangle (the screens' layouts hold the rectangles).

// pressed reports whether the input pressed the left button over r: a
// click on a button or a field.
func pressed(in *ui.Input, r ui.Rect) bool {
	return in.Pressed[ui.MouseLeft] && r.Contains(in.Mouse)
}

// panel draws a framed panel.
func (a *App) panel(l *layer, r ui.Rect) {
	l.rect(r, colPanel)
	l.outline(r, 1, colBorder)
}

// drawButton draws a button, lit while the pointer is over it.
func (a *App) drawButton(l *layer, t *textLayer, r ui.Rect, label string, enabled bool) {
	hover := enabled && r.Contains(a.in.Mouse)
	bg, fg := colButton, colText
	switch {
	case !enabled:
		bg, fg = colPanel, colDim
	case hover:
		bg = colButtonHi
	}
	l.rect(r, bg)
	l.rect(ui.R(r.Min.X, r.Min.Y, r.Max.X, r.Min.Y+1), colPanelHi)
	l.outline(r, 1, colBorder)
	t.inRect(t.fit(label, r.W()-8), r, fg)
}

// drawField draws a one-line text field; secret shows dots for the text.
func (a *App) drawField(l *layer, t *textLayer, r ui.Rect, f *ui.TextField, focused bool, placeholder string, secret bool) {
	bg := rgb(14, 18, 26)
	l.rect(r, bg)
	border := colBorder
	if focused {
		border = colAccent
	}
	l.outline(r, 1, border)
	s, c := f.Text, colText
	if secret {
		s = strings.Repeat("•", len([]rune(s)))
	}
	if s == "" && !focused {
		s, c = placeholder, colDim
	}
	y := r.Center().Y - t.height()/2
	w := t.text(t.fit(s, r.W()-16), r.Min.X+6, y, alignLeft, c)
	if focused && blink(a.now) {
		l.rect(ui.XYWH(r.Min.X+7+w, y+2, 2, t.height()-4), colAccent)
	}
}

func blink(now time.Time) bool { return now.UnixMilli()/500%2 == 0 }

// bar draws a horizontal bar filled to fraction f.
func bar(l *layer, r ui.Rect, f float64, fill, back pixel.RGBA) {
	l.rect(r, back)
	f = math.Max(0, math.Min(1, f))
	if f > 0 {
		l.rect(ui.R(r.Min.X, r.Min.Y, r.Min.X+r.W()*f, r.Max.Y), fill)
	}
}

// hpColor is green, yellow or red by health fraction.
func hpColor(f float64) pixel.RGBA {
	switch {
	case f > 0.6:
		return rgb(74, 222, 128)
	case f > 0.3:
		return rgb(250, 204, 21)
	}
	return rgb(239, 68, 68)
}

// swatch draws a player colour swatch.
func swatch(l *layer, r ui.Rect, color uint8) {
	l.rect(r, playerRGBA(color))
	l.outline(r, 1, rgb(10, 10, 14))
}

func plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}

// snap rounds a rectangle to whole pixels, so thin lines stay crisp.
func snap(r ui.Rect) ui.Rect {
	return ui.R(math.Round(r.Min.X), math.Round(r.Min.Y), math.Round(r.Max.X), math.Round(r.Max.Y))
}
