package render

import (
	"fmt"
	"unicode/utf8"

	"github.com/gopxl/pixel/v2"
	"github.com/gopxl/pixel/v2/ext/text"
	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"

	"hostfall/render/ui"
)

// The fonts are the Go fonts (BSD licence, golang.org/x/image), embedded in
// the binary: no system font is needed.
type fontID uint8

const (
	fontSmall fontID = iota // 12 px regular: panels, tables
	fontBody                // 15 px regular: most text
	fontBold                // 15 px bold: buttons, labels
	fontTitle               // 28 px bold: screen titles, banners
	fontHuge                // 64 px bold: victory, defeat, countdown
	numFonts
)

var fontSpecs = [numFonts]struct {
	ttf  []byte
	size float64
}{
	fontSmall: {goregular.TTF, 12},
	fontBody:  {goregular.TTF, 15},
	fontBold:  {gobold.TTF, 15},
	fontTitle: {gobold.TTF, 28},
	fontHuge:  {gobold.TTF, 64},
}

// runes the atlases hold besides ASCII.
var extraRunes = []rune("—–…×·•éèàüöäßñç←→↑↓")

func loadAtlases() ([numFonts]*text.Atlas, error) {
	var out [numFonts]*text.Atlas
	parsed := map[*byte]*opentype.Font{}
	for i, spec := range fontSpecs {
		f := parsed[&spec.ttf[0]]
		if f == nil {
			var err error
			if f, err = opentype.Parse(spec.ttf); err != nil {
				return out, fmt.Errorf("render: font: %w", err)
			}
			parsed[&spec.ttf[0]] = f
		}
		face, err := opentype.NewFace(f, &opentype.FaceOptions{Size: spec.size, DPI: 72, Hinting: font.HintingFull})
		if err != nil {
			return out, fmt.Errorf("render: font: %w", err)
		}
		out[i] = text.NewAtlas(face, text.ASCII, extraRunes)
	}
	return out, nil
}

// textLayer draws strings of one font as quads of its atlas (one draw call).
type textLayer struct {
	*layer
	atlas *text.Atlas
	boxes []textBox // this frame's strings, where they went: the layout tests look for overlaps
}

// textBox is a string drawn and the box of its line (screen coordinates).
type textBox struct {
	s string
	r ui.Rect
}

// Align says where x is in the string drawn.
type align uint8

const (
	alignLeft align = iota
	alignCenter
	alignRight
)

// width returns the advance width of s.
func (t *textLayer) width(s string) float64 {
	w, prev := 0.0, rune(-1)
	for _, r := range s {
		if !t.atlas.Contains(r) {
			r = '?'
		}
		if prev >= 0 {
			w += t.atlas.Kern(prev, r)
		}
		w += t.atlas.Glyph(r).Advance
		prev = r
	}
	return w
}

// height is the line height.
func (t *textLayer) height() float64 { return t.atlas.LineHeight() }

// text draws s with the top of its line at y; x is its left edge, centre or
// right edge as a says. It returns the width drawn.
func (t *textLayer) text(s string, x, y float64, a align, c pixel.RGBA) float64 {
	w := t.width(s)
	switch a {
	case alignCenter:
		x -= w / 2
	case alignRight:
		x -= w
	}
	if w > 0 {
		t.boxes = append(t.boxes, textBox{s, ui.XYWH(x, y, w, t.atlas.Ascent()+t.atlas.Descent())})
	}
	dot := pixel.V(float64(int(x)), float64(int(t.h-y-t.atlas.Ascent())))
	prev := rune(-1)
	for _, r := range s {
		if !t.atlas.Contains(r) {
			r = '?'
		}
		rect, frame, _, next := t.atlas.DrawRune(prev, r, dot)
		if rect.W() > 0 && rect.H() > 0 {
			t.quadPix(rect, frame, c, 1)
		}
		dot, prev = next, r
	}
	return w
}

// fit shortens s with an ellipsis until it is at most w wide.
func (t *textLayer) fit(s string, w float64) string {
	if t.width(s) <= w {
		return s
	}
	for s != "" {
		_, n := utf8.DecodeLastRuneInString(s)
		s = s[:len(s)-n]
		if t.width(s+"…") <= w {
			return s + "…"
		}
	}
	return ""
}

// inRect draws s centred in r (vertically too).
func (t *textLayer) inRect(s string, r ui.Rect, c pixel.RGBA) {
	t.text(s, r.Center().X, r.Center().Y-t.atlas.Ascent()/2-t.atlas.Descent()/2+1, alignCenter, c)
}

// wrap breaks s into lines at most w wide.
func (t *textLayer) wrap(s string, w float64) []string {
	var lines []string
	line := ""
	for _, word := range t.breakLong(splitWords(s), w) {
		try := word
		if line != "" {
			try = line + " " + word
		}
		if t.width(try) <= w || line == "" {
			line = try
			continue
		}
		lines = append(lines, line)
		line = word
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}

// breakLong breaks the words wider than w (a file's path, a link) into
// pieces that fit, after a '/' where one falls near the end of a piece.
func (t *textLayer) breakLong(words []string, w float64) []string {
	var out []string
	for _, word := range words {
		for t.width(word) > w {
			cut, slash := 0, 0
			for i, r := range word {
				end := i + utf8.RuneLen(r)
				if cut > 0 && t.width(word[:end]) > w {
					break
				}
				cut = end
				if r == '/' {
					slash = cut
				}
			}
			if slash > cut/2 {
				cut = slash
			}
			if cut <= 0 || cut >= len(word) {
				break
			}
			out = append(out, word[:cut])
			word = word[cut:]
		}
		out = append(out, word)
	}
	return out
}

func splitWords(s string) []string {
	var out []string
	start := -1
	for i, r := range s {
		if r == ' ' {
			if start >= 0 {
				out = append(out, s[start:i])
				start = -1
			}
			continue
		}
		if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		out = append(out, s[start:])
	}
	return out
}
