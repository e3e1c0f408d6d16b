package render

import (
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/gopxl/pixel/v2"

	"hostfall/client"
	"hostfall/render/ui"
)

// bannerTime is how long a passing notice stays up.
const bannerTime = 6 * time.Second

// banners are the network notices over every screen: a host hand-over,
// a wait for a lagging player, a desync and its repair, a departure.
type banners struct {
	list    []banner
	waiting []waitFor
	drawn   []ui.Rect // this frame's banners, where they went (the layout tests look)
}

type banner struct {
	text  string
	color pixel.RGBA
	until time.Time
	kind  client.EventKind
}

type waitFor struct {
	name     string
	deadline time.Time
}

func (b *banners) add(kind client.EventKind, text string, c pixel.RGBA, until time.Time) {
	// A newer banner of the same kind replaces the old one.
	b.list = slices.DeleteFunc(b.list, func(x banner) bool { return x.kind == kind })
	b.list = append(b.list, banner{text: text, color: c, until: until, kind: kind})
}

func (b *banners) onEvent(ev client.Event, now time.Time, a *App) {
	switch ev.Kind {
	case client.EvHostChanged:
		// Every wait was the old host's (or the hand-over's): the new
		// host says what it waits for itself.
		b.waiting = nil
		text := fmt.Sprintf("Host left — %s is now hosting (hand-over took %d ms)", ev.Name, ev.Millis)
		if ev.Text != "" {
			text = ev.Text // this player hosted: another took over, or the quiet host came back
		}
		b.add(ev.Kind, text, colAccent, now.Add(bannerTime))
		a.cue(ui.Cue{Sound: ui.SoundHostChanged})
	case client.EvWaiting:
		b.stopWaiting(ev.Name)
		b.waiting = append(b.waiting, waitFor{name: ev.Name, deadline: now.Add(time.Duration(ev.Seconds) * time.Second)})
	case client.EvWaitOver:
		b.stopWaiting(ev.Name)
	case client.EvNotice:
		if ev.Name != "" {
			b.stopWaiting(ev.Name) // away or back: the wait for them is over
		}
	case client.EvLeft:
		b.waiting = nil
	case client.EvPlayerLeft:
		b.stopWaiting(ev.Name)
		text := ev.Name + " left the game"
		if ev.Text != "" && ev.Text != "left" {
			text += " (" + ev.Text + ")"
		}
		b.add(ev.Kind, text, colDim, now.Add(bannerTime))
		a.cue(ui.Cue{Sound: ui.SoundPlayerLeft})
	case client.EvDesync:
		b.add(client.EvDesync, "Desync detected — repairing…", colBad, now.Add(30*time.Second))
	case client.EvDesyncRepaired:
		b.add(client.EvDesync, "Desync detected — repaired", colGood, now.Add(bannerTime))
	}
}

// colWaiting marks a wait for a player.
var colWaiting = rgb(251, 146, 60)

func (b *banners) stopWaiting(name string) {
	b.waiting = slices.DeleteFunc(b.waiting, func(w waitFor) bool { return w.name == name })
}

// waitGrace is how long a wait is shown at 0 s for the word that ends it;
// then it is over whether that word came or not (its host stepped down,
// say), and "away in 0 s" never stays.
const waitGrace = 2 * time.Second

// expire drops the banners whose time is up at now (update step).
func (b *banners) expire(now time.Time) {
	b.list = slices.DeleteFunc(b.list, func(x banner) bool { return !now.Before(x.until) })
	b.waiting = slices.DeleteFunc(b.waiting, func(w waitFor) bool { return now.Sub(w.deadline) > waitGrace })
}

// lines returns the banners to show at now, oldest first.
func (b *banners) lines(now time.Time) []banner {
	out := slices.Clone(b.list)
	for _, w := range b.waiting {
		secs := int(math.Ceil(w.deadline.Sub(now).Seconds()))
		out = append(out, banner{text: client.WaitText(w.name, max(secs, 0)), color: colWaiting})
	}
	return out
}

// drawBanners draws the banners centred at the top of the window (left of
// the network panel when it shows).
func (a *App) drawBanners() {
	t := a.floatTxt[fontBold]
	y := ui.TopBarH + 12
	room := a.bannerRoom()
	lines := a.banners.lines(a.now)
	if a.screen == scrGame && a.rejoin.Active && a.rejoin.Text != "" { // the browser says it in its status line
		lines = append([]banner{{text: a.rejoin.Text, color: colAccent}}, lines...)
	}
	a.banners.drawn = a.banners.drawn[:0]
	for _, b := range lines {
		w, text := t.width(b.text)+48, []string{b.text}
		if w > room.W() { // a narrow window: the banner takes two lines or more
			w, text = room.W(), t.wrap(b.text, room.W()-48)
		}
		r := ui.XYWH(math.Round(room.Center().X-w/2), y, w, 34+float64(len(text)-1)*bannerLineH)
		a.float.rect(r, rgba(12, 14, 20, 0.88))
		a.float.rect(ui.XYWH(r.Min.X, r.Min.Y, 5, r.H()), b.color)
		a.float.outline(r, 1, b.color.Mul(pixel.Alpha(0.6)))
		for i, s := range text {
			t.inRect(s, ui.XYWH(r.Min.X+3, r.Min.Y+float64(i)*bannerLineH, w, 34), colText)
		}
		a.banners.drawn = append(a.banners.drawn, r)
		y = r.Max.Y + 8
	}
}

// bannerLineH is the height of a banner's further lines.
const bannerLineH = 19.0

// netPanelShown: F3 shows the network panel while in a session (the
// browser has no session to show).
func (a *App) netPanelShown() bool { return a.showNet && a.screen != scrBrowser }

// netMode is the network panel's first line: how this game is played.
func netMode(st *client.NetStatus) string {
	others, relayed := 0, 0
	for _, p := range st.Peers {
		if !p.Self {
			others++
		}
		if !p.Self && (p.Path == client.PathRelayed || p.Limited) {
			relayed++
		}
	}
	switch {
	case !st.Online:
		return "offline game (no network)"
	case st.Internet.On:
		return "internet (public libp2p network)"
	case st.Internet.Failed:
		return "LAN (the internet failed)"
	case others == 0:
		return "solo: no other players"
	case relayed == others:
		return "relay"
	case relayed > 0:
		return "LAN and relay"
	default:
		return "LAN"
	}
}

// bannerRoom is the band the banners are centred in: the window's width,
// left of the network panel when it shows, 8 px from either side.
func (a *App) bannerRoom() ui.Rect {
	right := a.w
	if a.netPanelShown() {
		right = ui.NewLayout(a.w, a.h).NetPanel.Min.X
	}
	return ui.R(8, 0, right-8, a.h)
}

// drawNetPanel draws the network panel (F3) from the status update read.
func (a *App) drawNetPanel() {
	st := &a.net
	l := ui.NewLayout(a.w, a.h).NetPanel
	rows := 7 + len(st.Peers)
	inet := st.Internet.On || st.Internet.Failed
	if inet {
		rows += 2
	}
	l.Max.Y = l.Min.Y + 44 + float64(rows)*18
	a.netRect = l
	a.float.rect(l, rgba(10, 12, 18, 0.97))
	a.float.outline(l, 1, colBorder)
	t, small := a.floatTxt[fontBold], a.floatTxt[fontSmall]
	x, y := l.Min.X+12, l.Min.Y+10
	t.text("Network", x, y, alignLeft, colAccent)
	small.text("F3 hides", l.Max.X-12, y+2, alignRight, colDim)
	y += 26
	kv := func(k, v string) {
		small.text(k, x, y, alignLeft, colDim)
		small.text(v, x+96, y, alignLeft, colText)
		y += 18
	}
	kv("mode", netMode(st))
	if inet {
		kv("invite code", orDash(st.Invite))
		c := colText
		if st.Internet.Failed {
			c = colBad
		}
		small.text("internet", x, y, alignLeft, colDim)
		small.text(small.fit(orDash(st.Internet.Text), l.Max.X-x-108), x+96, y, alignLeft, c)
		y += 18
	}
	kv("host", st.Host)
	kv("epoch", fmt.Sprintf("%d", st.Epoch))
	kv("turn", fmt.Sprintf("%d", st.Turn))
	kv("input delay", fmt.Sprintf("%s (%d ms)", plural(st.InputDelay, "turn", "turns"), st.InputDelay*st.TurnMillis))
	kv("traffic", fmt.Sprintf("in %s · out %s", rate(st.BytesIn), rate(st.BytesOut)))
	if len(st.Peers) > 0 {
		small.text("players", x, y, alignLeft, colDim)
		small.text("round trip", l.Max.X-12, y, alignRight, colDim)
		y += 18
	}
	for _, p := range st.Peers {
		ping := "—"
		if p.PingMillis >= 0 && !p.Self {
			ping = fmt.Sprintf("%.1f ms", p.PingMillis)
		}
		name := p.Name
		if p.Host {
			name += " (host)"
		}
		name = small.fit(name, 140)
		c := colText
		if p.Self {
			c, ping = colAccent, "you"
		}
		small.text(name, x, y, alignLeft, c)
		switch {
		case p.Limited:
			small.text(small.fit(limitedPath(p.Renewed), l.Max.X-x-230), x+150, y, alignLeft, colDim)
		case p.Path == client.PathRelayed && p.Via != "":
			small.text(small.fit("via "+p.Via+"'s relay", l.Max.X-x-230), x+150, y, alignLeft, colText)
		case p.Path == client.PathRelayed:
			small.text("via relay", x+150, y, alignLeft, colDim)
		case p.Path == client.PathDirect:
			small.text("direct", x+150, y, alignLeft, colGood)
		}
		small.text(ping, l.Max.X-12, y, alignRight, colText)
		y += 18
	}
}

// limitedPath says that a public relay carries the game, whose circuits
// end every few minutes, and how many fresh ones followed.
func limitedPath(renewed int) string {
	if renewed == 0 {
		return "limited relay"
	}
	return fmt.Sprintf("relay · renewed %d", renewed)
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

func rate(bps float64) string {
	switch {
	case bps >= 1<<20:
		return fmt.Sprintf("%.1f MB/s", bps/(1<<20))
	case bps >= 1<<10:
		return fmt.Sprintf("%.1f kB/s", bps/(1<<10))
	}
	return fmt.Sprintf("%.0f B/s", bps)
}
