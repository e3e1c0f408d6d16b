package render

import (
	"fmt"
	"io"
	"strings"
	"time"

	"hostfall/client"
	"hostfall/render/ui"
)

// The browser's Load game and Replays: a list of this machine's saved
// games or replays over the browser, newest first, from Options.Library.
// Choosing a save resumes it (client.GameLoader: a hosted lobby the other
// players rejoin, or at once when it was solo); choosing a replay opens the
// viewer on a client of its own, and closing the viewer comes back here.
// A file that cannot be used is listed greyed, with the reason.

// Library is what the browser lists of this machine's files and how it
// opens a replay (package client/library is one).
type Library interface {
	Saves() []client.SaveInfo
	Replays() []client.ReplayInfo
	// OpenReplay returns a client playing the replay at path (a
	// client.Replayer); the window closes it (io.Closer) when the viewer closes.
	OpenReplay(path string) (Client, error)
}

// filesKind says which list shows.
type filesKind uint8

const (
	filesClosed filesKind = iota
	filesSaves
	filesReplays
)

// filesView is the list of saves or replays over the browser.
type filesView struct {
	kind      filesKind
	rows      []fileRow
	top       int // the first row shown
	sel       int // the selected row; -1 for none
	lastClick time.Time
	msg       string // the last failure to open one, in red
	lay       filesLayout
}

// fileRow is one file as the list shows it.
type fileRow struct {
	path, name, date, players, extra string
	problem                          string // why it cannot be used ("" when it can)
}

// filesLayout is where the list puts things.
type filesLayout struct {
	panel, table, list ui.Rect
	rowH               float64
	shown              int // rows that fit in list
	back, open         ui.Rect
	cols               [4]float64 // name, date, players: x; extra: right edge
}

func (l *filesLayout) set(w, h float64) {
	l.panel = ui.R(32, 80, w-32, h-24)
	p := l.panel
	l.table = ui.R(p.Min.X+16, p.Min.Y+74, p.Max.X-16, p.Max.Y-66)
	l.rowH = 30
	l.list = ui.R(l.table.Min.X, l.table.Min.Y+l.rowH, l.table.Max.X, l.table.Max.Y)
	l.shown = max(int(l.list.H()/l.rowH), 1)
	l.back = ui.XYWH(p.Min.X+16, p.Max.Y-52, 120, 36)
	l.open = ui.XYWH(p.Max.X-16-160, p.Max.Y-52, 160, 36)
	x, tw := l.table.Min.X, l.table.W()
	name := max(180, tw*0.32)
	l.cols = [4]float64{x + 12, x + 12 + name, x + 12 + name + 150, l.table.Max.X - 22}
}

// row returns where visible row i (0 = the first shown) goes.
func (l *filesLayout) row(i int) ui.Rect {
	return ui.XYWH(l.list.Min.X+1, l.list.Min.Y+float64(i)*l.rowH, l.list.W()-2, l.rowH)
}

var (
	filesTitle = [...]string{filesSaves: "Load game", filesReplays: "Replays"}
	filesOpen  = [...]string{filesSaves: "Load", filesReplays: "Watch"}
	filesExtra = [...]string{filesSaves: "Game time", filesReplays: "Length"}
	filesEmpty = [...]string{filesSaves: "No saved games yet: save one from the game's menu (Escape or F10).",
		filesReplays: "No replays yet: every game played here is recorded, and shows here once over."}
)

// colGreyed is the text of a file that cannot be used.
var colGreyed = rgb(104, 112, 128)

// openFiles shows the list of kind, read now.
func (a *App) openFiles(kind filesKind) {
	lib := a.opt.Library
	if lib == nil {
		return
	}
	f := &a.files
	*f = filesView{kind: kind, sel: -1}
	if kind == filesSaves {
		for _, s := range lib.Saves() {
			f.rows = append(f.rows, fileRow{path: s.Path, name: s.Name, date: fileDate(s.At), players: joinNames(s.Players),
				extra: saveTime(s), problem: s.Problem})
		}
	} else {
		for _, r := range lib.Replays() {
			f.rows = append(f.rows, fileRow{path: r.Path, name: r.Name, date: fileDate(r.At), players: joinNames(r.Players),
				extra: gameLength(r.Length), problem: r.Problem})
		}
	}
	f.lay.set(a.w, a.h)
}

// saveTime is when in the game a save was made: the game time the player
// saw (the clock of the top bar), or the turn when that is unknown.
func saveTime(s client.SaveInfo) string {
	if s.Time < 0 {
		return fmt.Sprintf("turn %d", s.Turn)
	}
	return gameClock(s.Time)
}

func fileDate(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Local().Format("2 Jan 2006 15:04")
}

// gameLength says a game's length as h:mm:ss or m:ss.
func gameLength(d time.Duration) string {
	s := int(d / time.Second)
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

// filesUpdate runs the list when it shows (update step): it takes the
// frame's input, which the browser under it then does not see.
func (a *App) filesUpdate(in *ui.Input) {
	f := &a.files
	if f.kind == filesClosed {
		return
	}
	f.lay.set(a.w, a.h)
	open := f.input(in)
	switch {
	case open == -2 || in.Hit[ui.KeyEscape]:
		a.click()
		f.kind = filesClosed
	case open >= 0:
		a.click()
		a.openFile(f.rows[open])
	}
	*in = ui.Input{Now: in.Now, DT: in.DT, Mouse: ui.V(-1, -1)}
}

// input scrolls and selects; it returns the row to open, -2 for Back, or -1.
func (f *filesView) input(in *ui.Input) int {
	l := &f.lay
	maxTop := max(len(f.rows)-l.shown, 0)
	if in.Scroll != 0 && l.panel.Contains(in.Mouse) {
		f.top -= int(in.Scroll) * 3
	}
	if n := len(f.rows); n > 0 && (in.Hit[ui.KeyDown] || in.Hit[ui.KeyUp]) {
		if in.Hit[ui.KeyDown] {
			f.sel = min(f.sel+1, n-1)
		} else {
			f.sel = max(f.sel-1, 0)
		}
		f.top = min(max(f.top, f.sel-l.shown+1), f.sel) // keep the selection in view
	}
	f.top = min(max(f.top, 0), maxTop)
	open := -1
	for i := range min(l.shown, len(f.rows)-f.top) {
		if !pressed(in, l.row(i)) {
			continue
		}
		k := f.top + i
		if f.sel == k && in.Now.Sub(f.lastClick) < ui.DoubleClick && f.rows[k].problem == "" {
			open = k
		}
		f.sel, f.lastClick = k, in.Now
	}
	ok := f.sel >= 0 && f.sel < len(f.rows) && f.rows[f.sel].problem == ""
	if ok && (pressed(in, l.open) || in.Hit[ui.KeyEnter]) {
		open = f.sel
	}
	if pressed(in, l.back) {
		return -2
	}
	return open
}

// openFile loads the save or opens the replay of row r; a failure stays
// on the list in red.
func (a *App) openFile(r fileRow) {
	f := &a.files
	var err error
	if f.kind == filesSaves {
		gl, ok := a.cl.(client.GameLoader)
		if !ok {
			f.msg = "This window cannot load saved games."
			return
		}
		err = gl.LoadGame(r.path, client.CreateOptions{PlayerName: a.browser.playerName()})
	} else {
		err = a.openReplay(r.path)
	}
	if err != nil {
		f.msg = capitalize(err.Error()) + "."
		a.cue(ui.Cue{Sound: ui.SoundError})
		return
	}
	f.kind = filesClosed
	a.browser.status("", false)
}

// openReplay plays the replay at path in the viewer, on a client of its
// own; the browser's client waits (a.home) until the viewer closes.
func (a *App) openReplay(path string) error {
	c, err := a.opt.Library.OpenReplay(path)
	if err != nil {
		return err
	}
	a.home, a.cl = a.cl, c
	return nil
}

// closeReplay closes the replay viewer: back to the browser when the
// browser opened it, otherwise (`hostfall replay FILE`) the program ends.
func (a *App) closeReplay() {
	a.cl.Leave()
	if a.home == nil {
		a.quit = true
		return
	}
	a.dropReplay()
}

// dropReplay closes the replay's client and gives the window back to the
// browser's.
func (a *App) dropReplay() {
	if a.home == nil {
		return
	}
	if c, ok := a.cl.(io.Closer); ok {
		if err := c.Close(); err != nil {
			a.log.Debug("closing the replay", "err", err)
		}
	}
	a.cl, a.home = a.home, nil
}

// drawFiles draws the list over the browser (the modal layer).
func (a *App) drawFiles() {
	f, l := &a.files, &a.files.lay
	if f.kind == filesClosed {
		return
	}
	over, bold, t, small := a.over, a.overTxt[fontBold], a.overTxt[fontBody], a.overTxt[fontSmall]
	over.rect(ui.R(0, 0, a.w, a.h), colShade)
	a.panel(over, l.panel)
	a.overTxt[fontTitle].text(filesTitle[f.kind], l.panel.Min.X+16, l.panel.Min.Y+14, alignLeft, colText)
	sub := "Newest first. Double-click one, or select it and press " + filesOpen[f.kind] + "."
	small.text(small.fit(sub, l.table.W()), l.table.Min.X, l.table.Min.Y-20, alignLeft, colDim)
	over.rect(l.table, colBg)
	over.outline(l.table, 1, colBorder)
	over.rect(ui.R(l.table.Min.X, l.table.Min.Y, l.table.Max.X, l.table.Min.Y+l.rowH), colPanelHi)
	y := l.table.Min.Y + 7
	for i, h := range []string{"Game", "Date", "Players"} {
		bold.text(h, l.cols[i], y, alignLeft, colDim)
	}
	bold.text(filesExtra[f.kind], l.cols[3], y, alignRight, colDim)
	if len(f.rows) == 0 {
		for i, line := range t.wrap(filesEmpty[f.kind], l.list.W()-40) {
			t.inRect(line, ui.XYWH(l.list.Min.X, l.list.Min.Y+24+float64(i)*22, l.list.W(), 22), colDim)
		}
	}
	for i := range min(l.shown, len(f.rows)-f.top) {
		a.drawFileRow(f.top+i, l.row(i))
	}
	a.drawFilesScroll()
	a.drawButton(over, bold, l.back, "Back", true)
	ok := f.sel >= 0 && f.sel < len(f.rows) && f.rows[f.sel].problem == ""
	a.drawButton(over, bold, l.open, filesOpen[f.kind], ok)
	a.drawFilesNote()
}

// drawFilesNote says, between Back and the open button, why the last one
// chosen did not open (red), or why the selected file cannot be used.
func (a *App) drawFilesNote() {
	f, l, small := &a.files, &a.files.lay, a.overTxt[fontSmall]
	note, c := f.msg, colBad
	if note == "" && f.sel >= 0 && f.sel < len(f.rows) && f.rows[f.sel].problem != "" {
		note, c = "This file cannot be used: "+f.rows[f.sel].problem+".", colDim
	}
	x0, x1 := l.back.Max.X+16, l.open.Min.X-16
	lines := small.wrap(note, x1-x0)
	if len(lines) > 2 {
		lines = append(lines[:1], small.fit(strings.Join(lines[1:], " "), x1-x0))
	}
	for i, line := range lines {
		small.text(line, x0, l.back.Min.Y+2+float64(i)*16, alignLeft, c)
	}
}

// drawFileRow draws row k of the list into r.
func (a *App) drawFileRow(k int, r ui.Rect) {
	f, l := &a.files, &a.files.lay
	row := &f.rows[k]
	over, t, small := a.over, a.overTxt[fontBody], a.overTxt[fontSmall]
	switch {
	case k == f.sel:
		over.rect(r, colHover)
		over.rect(ui.XYWH(r.Min.X, r.Min.Y, 3, r.H()), colAccent)
	case r.Contains(a.in.Mouse):
		over.rect(r, rgb(40, 48, 64))
	}
	y := r.Min.Y + 7
	name, date := l.cols[1]-l.cols[0]-12, l.cols[2]-l.cols[1]-10
	if row.problem != "" {
		t.text(t.fit(row.name, name), l.cols[0], y, alignLeft, colGreyed)
		t.text(t.fit(row.date, date), l.cols[1], y, alignLeft, colGreyed)
		small.text(small.fit(capitalize(row.problem), l.cols[3]-l.cols[2]), l.cols[2], y+2, alignLeft, colGreyed)
		return
	}
	t.text(t.fit(row.name, name), l.cols[0], y, alignLeft, colText)
	t.text(t.fit(row.date, date), l.cols[1], y, alignLeft, colDim)
	t.text(t.fit(row.players, l.cols[3]-l.cols[2]-80), l.cols[2], y, alignLeft, colText)
	t.text(row.extra, l.cols[3], y, alignRight, colText)
}

// drawFilesScroll draws the scroll bar when the rows do not all fit.
func (a *App) drawFilesScroll() {
	f, l := &a.files, &a.files.lay
	n := len(f.rows)
	if n <= l.shown {
		return
	}
	track := ui.R(l.list.Max.X-8, l.list.Min.Y+2, l.list.Max.X-3, l.list.Max.Y-2)
	a.over.rect(track, colPanel)
	h := track.H() * float64(l.shown) / float64(n)
	y := track.Min.Y + (track.H()-h)*float64(f.top)/float64(n-l.shown)
	a.over.rect(ui.R(track.Min.X, y, track.Max.X, y+h), colBorder)
}
