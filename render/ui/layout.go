package ui

// Layout is where the game screen puts things, for a window of a given size.
// Everything is in screen pixels from the top-left corner.
type Layout struct {
	Window   Rect
	TopBar   Rect // gold, supply, time
	Map      Rect // the battlefield view
	Panel    Rect // the bottom panel
	Minimap  Rect
	Info     Rect // the selection: portraits or one unit's details
	Card     Rect // the command card (CardCols × CardRows buttons)
	Chat     Rect // recent chat lines, above the panel
	Banner   Rect // network and game notices, top of the map
	NetPanel Rect // F3
}

// Sizes of the game screen's parts.
const (
	TopBarH     = 28.0
	PanelH      = 176.0
	MinimapSize = 160.0
	CardCols    = 3
	CardRows    = 3
	ButtonW     = 64.0
	ButtonH     = 50.0
	ButtonGap   = 6.0
	pad         = 8.0
)

// NewLayout computes the layout of a window of w×h pixels.
func NewLayout(w, h float64) Layout {
	l := Layout{Window: R(0, 0, w, h)}
	l.TopBar = R(0, 0, w, TopBarH)
	l.Panel = R(0, h-PanelH, w, h)
	l.Map = R(0, TopBarH, w, h-PanelH)
	l.Minimap = XYWH(pad, h-PanelH+pad, MinimapSize, MinimapSize)
	cardW := CardCols*ButtonW + (CardCols-1)*ButtonGap
	cardH := CardRows*ButtonH + (CardRows-1)*ButtonGap
	l.Card = XYWH(w-pad-cardW, h-PanelH+(PanelH-cardH)/2, cardW, cardH)
	l.Info = R(l.Minimap.Max.X+2*pad, h-PanelH+pad, l.Card.Min.X-2*pad, h-pad)
	l.Chat = R(pad, l.Map.Max.Y-150, min(w*0.6, 620), l.Map.Max.Y-pad)
	l.Banner = XYWH(w/2-300, TopBarH+16, 600, 90)
	l.NetPanel = XYWH(w-pad-340, TopBarH+pad, 340, 230)
	return l
}

// Button returns the rectangle of command card button i (row by row).
func (l Layout) Button(i int) Rect {
	col, row := i%CardCols, i/CardCols
	return XYWH(l.Card.Min.X+float64(col)*(ButtonW+ButtonGap), l.Card.Min.Y+float64(row)*(ButtonH+ButtonGap), ButtonW, ButtonH)
}

// ButtonAt returns the command card button under p, or -1.
func (l Layout) ButtonAt(p Vec) int {
	for i := range CardCols * CardRows {
		if l.Button(i).Contains(p) {
			return i
		}
	}
	return -1
}

// PortraitSize is the size of one portrait in the selection panel.
const PortraitSize = 36.0

// Portrait returns the rectangle of portrait i of a multiple selection, and
// whether it fits in the panel.
func (l Layout) Portrait(i int) (Rect, bool) {
	cols := int((l.Info.W() + 4) / (PortraitSize + 4))
	if cols < 1 {
		return Rect{}, false
	}
	col, row := i%cols, i/cols
	r := XYWH(l.Info.Min.X+float64(col)*(PortraitSize+4), l.Info.Min.Y+float64(row)*(PortraitSize+4), PortraitSize, PortraitSize)
	return r, r.Max.Y <= l.Info.Max.Y
}
