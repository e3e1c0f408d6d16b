package render

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"time"

	"github.com/gopxl/pixel/v2"
	"github.com/gopxl/pixel/v2/backends/opengl"

	"hostfall/client"
	"hostfall/render/ui"
	"hostfall/session"
	"hostfall/settings"
)

// Sounds is what the screens need of a sound player: they name their cues
// (ui.Cue) in plain values, so this package never imports package sound;
// sound.NewCuer(server, names) is one.
type Sounds interface {
	// Cue plays the bank's sound name for origin (a unit id; 0 for none).
	// selection marks a unit's selection voice; at places the sound at map
	// point (x, y) in tiles, otherwise it plays at full volume.
	Cue(name string, origin uint64, selection, at bool, x, y float64)
	// SetViewPoint puts the listener at the camera's centre (tiles).
	SetViewPoint(x, y float64)
	// Music loops the named tracks from now on, crossfading from the
	// ones before (music.go names them per screen).
	Music(names ...string)
}

// Options configure the window.
type Options struct {
	Width, Height int    // 0 means 1024×768
	Title         string // "" means Hostfall
	MaxFPS        int    // frame cap (VSync does nothing under Xvfb); 0 means 60
	Fullscreen    bool
	PlayerName    string
	Sound         Sounds // nil plays nothing
	Logger        *slog.Logger

	// Settings are the player's settings for this run, which the options
	// screen starts from; nil means the defaults.
	Settings *settings.Settings
	// SaveSettings, when set, changes the saved settings with edit and
	// writes them (the options' Save, the how-to's "seen").
	SaveSettings func(edit func(*settings.Settings)) error
	// OnSettings, when set, is called with the settings whenever the
	// options change them (the sound server's volumes follow).
	OnSettings func(settings.Settings)
	// HowTo shows the how-to over the first game (a first start).
	HowTo bool
	// Library lists the saved games and replays for the browser's Load
	// game and Replays and opens a replay; nil offers neither.
	Library Library
}

// screenID says which screen shows.
type screenID uint8

const (
	scrBrowser screenID = iota
	scrLobby
	scrGame
)

// App is the window's content: each frame its update step turns input into
// client calls, then its draw step draws the screen the client's state
// calls for.
type App struct {
	opt  Options
	cl   Client
	log  *slog.Logger
	t    target
	w, h float64
	now  time.Time
	in   ui.Input
	quit bool

	atlas    pixel.Picture
	hud      *layer // panels, buttons, icons
	top      *layer // over the HUD: minimap marks
	float    *layer // over a screen's text: the banners and the network panel, which would show it through
	over     *layer // modal: menus, end screen
	text     [numFonts]*textLayer
	floatTxt [numFonts]*textLayer
	overTxt  [numFonts]*textLayer

	screen  screenID
	browser *browserScreen
	lobby   *lobbyScreen
	game    *gameScreen

	events  []client.Event
	left    []string // the players who left the session the window is in (the end screen tells departures from defeats)
	chat    []chatLine
	banners banners
	rejoin  client.RejoinStatus // a rejoin under way (client.Rejoiner), as update read it
	// rejoinBack: the player was told the rejoin is over.
	rejoinBack bool
	showNet    bool
	net        client.NetStatus // what the network panel shows (read while it shows)
	netRect    ui.Rect          // where the network panel went in the last frame (the layout tests look)
	// clip puts text on the system clipboard (the window's; nil in tests
	// that draw without one).
	clip func(string)

	settings settings.Settings // in effect: the options change them
	keys     ui.Bindings       // the command card's keys, from settings
	display  displayMode       // the window's mode the settings ask for (Run applies it)
	options  optionsScreen
	howTo    howTo
	tip      cardTip
	// colorAsked: this lobby was asked for the preferred colour.
	colorAsked  bool
	nameAtStart string   // the browser's name when the window opened
	music       []string // the tracks last asked of Options.Sound
	files       filesView
	// home is the browser's client while a replay opened from the browser
	// plays on a client of its own (cl); nil otherwise.
	home Client
}

// NewApp prepares the screens for drawing on t (the window, w×h pixels).
func NewApp(t target, w, h float64, c Client, o Options) (*App, error) {
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	a := &App{opt: o, cl: c, log: o.Logger, t: t, w: w, h: h}
	a.initSettings()
	atlases, err := loadAtlases()
	if err != nil {
		return nil, err
	}
	a.atlas = pixel.PictureDataFromImage(makeAtlas())
	useFastShader(t)
	a.hud = newLayer(t, a.atlas)
	a.top = newLayer(t, a.atlas)
	a.float = newLayer(t, a.atlas)
	a.over = newLayer(t, a.atlas)
	for i, at := range atlases {
		a.text[i] = &textLayer{layer: newLayer(t, at.Picture()), atlas: at}
		a.floatTxt[i] = &textLayer{layer: newLayer(t, at.Picture()), atlas: at}
		a.overTxt[i] = &textLayer{layer: newLayer(t, at.Picture()), atlas: at}
	}
	a.browser = newBrowserScreen(a)
	a.nameAtStart = a.browser.name.Text
	a.lobby = newLobbyScreen(a)
	return a, nil
}

// Resize tells the app the target's new size.
func (a *App) Resize(w, h float64) { a.w, a.h = w, h }

// Quit reports whether the player chose to quit.
func (a *App) Quit() bool { return a.quit }

// Frame runs one frame: update, then draw. It does not present the frame
// (Window.Update does).
func (a *App) Frame(in ui.Input) {
	a.update(in)
	a.draw()
}

// update is the frame's update step: the client's events, the frame's
// input and the client's state go in; client calls, sounds and the state
// the draw step shows come out. It draws nothing.
func (a *App) update(in ui.Input) {
	a.now, a.in = in.Now, in
	a.events = a.cl.Events(a.events[:0])
	for _, ev := range a.events {
		a.onEvent(ev)
	}
	if in.Hit[ui.KeyF3] {
		a.showNet = !a.showNet
	}
	a.pick()
	a.playMusic()
	a.readRejoin()
	if a.screen != scrBrowser {
		a.files.kind = filesClosed
	}
	a.filesUpdate(&in)
	a.settingsUpdate(&in)
	switch a.screen {
	case scrBrowser:
		a.browser.update(&in)
	case scrLobby:
		a.lobby.update(&in)
	case scrGame:
		a.game.update(&in)
	}
	a.banners.expire(a.now)
	if a.netPanelShown() {
		a.net = a.cl.Status()
	}
}

// draw is the frame's draw step: it draws what update left, calls no
// client and acts on no input (the pointer only lights what it is over).
func (a *App) draw() {
	if a.screen == scrGame {
		a.t.Clear(pixel.RGBA{A: 1}) // unexplored land is black and not drawn
	} else {
		a.t.Clear(colBg)
	}
	for _, l := range a.allLayers() {
		l.begin(a.h)
	}
	for i := range a.text {
		a.text[i].boxes, a.floatTxt[i].boxes, a.overTxt[i].boxes = a.text[i].boxes[:0], a.floatTxt[i].boxes[:0], a.overTxt[i].boxes[:0]
	}
	switch a.screen {
	case scrBrowser:
		a.browser.draw()
	case scrLobby:
		a.lobby.draw()
	case scrGame:
		a.game.draw()
	}
	a.drawBanners()
	if a.netPanelShown() {
		a.drawNetPanel()
	}
	a.settingsDraw()
	a.drawFiles()
	a.flush()
}

func (a *App) allLayers() []*layer {
	ls := []*layer{a.hud, a.top, a.float, a.over}
	for i := range a.text {
		ls = append(ls, a.text[i].layer, a.floatTxt[i].layer, a.overTxt[i].layer)
	}
	if a.game != nil {
		ls = append(ls, a.game.layers()...)
	}
	return ls
}

// flush draws the layers in order: map, HUD, minimap, marks over the HUD,
// text, the banners and the network panel with theirs, then anything modal
// and its text. Over an end screen the banners come last: its shade would
// dim the news of how the game ended ("Bo left the game").
func (a *App) flush() {
	g := a.game
	inGame := g != nil && a.screen == scrGame && g.tv != nil
	if inGame {
		g.drawLayers()
	}
	a.hud.draw(a.t)
	if inGame {
		g.miniL.draw(a.t)
	}
	a.top.draw(a.t)
	for _, t := range a.text {
		t.draw(a.t)
	}
	ended := inGame && (g.overlay() == overEnd || g.overlay() == overReplayEnd)
	if !ended {
		a.drawFloat()
	}
	a.over.draw(a.t)
	for _, t := range a.overTxt {
		t.draw(a.t)
	}
	if ended {
		a.drawFloat()
	}
}

// drawFloat draws the banners and the network panel with their text.
func (a *App) drawFloat() {
	a.float.draw(a.t)
	for _, t := range a.floatTxt {
		t.draw(a.t)
	}
}

// pick chooses the screen from the client's state.
func (a *App) pick() {
	l, ok := a.cl.Lobby()
	next := scrBrowser
	switch {
	case !ok:
	case l.State < session.StateLoading:
		next = scrLobby
	default:
		next = scrGame
	}
	if next == scrGame && a.game == nil {
		a.game = newGameScreen(a)
	}
	if next != scrGame && a.game != nil {
		a.game = nil
	}
	if next == scrBrowser {
		a.left = nil
	}
	if next != a.screen {
		a.log.Debug("screen", "from", a.screen, "to", next)
		if next == scrLobby {
			a.lobby.enter()
		}
		if a.screen == scrBrowser {
			a.freshChat()
		}
	}
	a.screen = next
}

// readRejoin reads the progress of a rejoin: the game screen shows it in a
// banner until the player has caught up, then says the slot is back (once
// a rejoin, however quickly it got there).
func (a *App) readRejoin() {
	rj, ok := a.cl.(client.Rejoiner)
	if !ok {
		return
	}
	st := rj.Rejoining()
	switch {
	case st.Game == "":
		a.rejoinBack = false
	case st.Joined && !st.Active && !a.rejoinBack:
		a.rejoinBack = true
		a.banners.add(client.EvNotice, "Back in "+st.Game+": your units take your orders again", colGood, a.now.Add(bannerTime))
	}
	a.rejoin = st
}

// cue plays a sound cue (from the update step).
func (a *App) cue(c ui.Cue) {
	if a.opt.Sound == nil {
		return
	}
	a.opt.Sound.Cue(c.Sound, uint64(c.Origin), c.Selection, c.At, c.Pos.X, c.Pos.Y)
}

func (a *App) click() { a.cue(ui.Cue{Sound: ui.SoundClick}) }

// Run opens the window and runs the app until the window closes, the player
// quits or ctx ends. Call it inside opengl.Run.
func Run(ctx context.Context, c Client, o Options) error {
	if err := CheckDisplay(); err != nil {
		return err
	}
	if o.Width == 0 || o.Height == 0 {
		o.Width, o.Height = 1024, 768
	}
	if o.Title == "" {
		o.Title = "Hostfall"
	}
	if o.MaxFPS <= 0 {
		o.MaxFPS = 60
	}
	cfg := opengl.WindowConfig{Title: o.Title, Bounds: pixel.R(0, 0, float64(o.Width), float64(o.Height)),
		Resizable: true, VSync: true}
	if o.Fullscreen {
		cfg.Monitor = opengl.PrimaryMonitor()
	}
	win, err := opengl.NewWindow(cfg)
	if err != nil {
		return fmt.Errorf("render: cannot open the window: %w", err)
	}
	defer win.Destroy()
	a, err := NewApp(win, float64(o.Width), float64(o.Height), c, o)
	if err != nil {
		return err
	}
	a.clip = win.SetClipboardText
	period := time.Second / time.Duration(o.MaxFPS)
	var last time.Time
	shown := a.display
	for !a.quit && ctx.Err() == nil {
		if win.Closed() {
			if !a.askClose() {
				break
			}
			win.SetClosed(false) // asked first: the menu's question decides
		}
		if a.display != shown {
			shown = a.display
			setDisplay(win, shown)
		}
		start := time.Now()
		b := win.Bounds()
		a.Resize(b.W(), b.H())
		a.Frame(sampleInput(win, start, last))
		win.SwapBuffers()
		last = start
		if d := period - time.Since(start); d > 0 {
			time.Sleep(d)
		}
		waitInput(win, a.idle(), idleFrame-time.Since(start))
	}
	a.dropReplay() // a replay the browser opened: the caller closes only its own client
	return nil
}

// askClose is the window's close button: in a game the player still
// plays it asks, as the menu's Quit Hostfall does, and reports that the
// window stays open; asked again while the question shows, it closes.
func (a *App) askClose() bool {
	g := a.game
	if a.screen != scrGame || g == nil || g.ui == nil || !g.ui.AskLeave || g.ui.Confirm == ui.MenuQuit {
		return false
	}
	g.ui.MenuOpen, g.ui.Confirm = true, ui.MenuQuit
	return true
}

// chatLine is one line of the chat log.
type chatLine struct {
	at   time.Time
	name string
	team bool
	text string
	sys  bool // a notice of the game, not a player
}

func (a *App) addChat(l chatLine) {
	l.at = a.now
	a.chat = append(a.chat, l)
	if len(a.chat) > 100 {
		a.chat = a.chat[len(a.chat)-100:]
	}
}

// freshChat starts a session's chat: the lines of earlier games go, and
// this frame's (the session's first) stay.
func (a *App) freshChat() {
	a.chat = slices.DeleteFunc(a.chat, func(l chatLine) bool { return l.at.Before(a.now) })
}

// onEvent takes in what the client reports.
func (a *App) onEvent(ev client.Event) {
	switch ev.Kind {
	case client.EvChat:
		a.addChat(chatLine{name: ev.Name, team: ev.Team != 0, text: ev.Text})
		a.cue(ui.Cue{Sound: ui.SoundChat})
	case client.EvRefused:
		a.browser.status(ev.Text, true)
		a.cue(ui.Cue{Sound: ui.SoundError})
	case client.EvLeft:
		a.browser.status(ev.Text, false)
	case client.EvCountdown:
		a.lobby.count, a.lobby.countAt = ev.Count, a.now
	case client.EvNotice:
		a.addChat(chatLine{text: ev.Text, sys: true})
	}
	a.banners.onEvent(ev, a.now, a)
	if ev.Kind == client.EvPlayerLeft && ev.Name != "" {
		a.left = append(a.left, ev.Name)
	}
}
