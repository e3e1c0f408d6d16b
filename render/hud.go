package render

import (
	"fmt"
	"math"
	"time"

	"github.com/gopxl/pixel/v2"

	"hostfall/game"
	"hostfall/render/ui"
)

// drawHUD draws the top bar, the bottom panel (minimap, selection, command
// card), chat, notices, and the menu or the end of the game over them.
func (g *gameScreen) drawHUD() {
	g.drawTopBar()
	g.drawPanel()
	g.drawMinimap()
	g.drawInfo()
	if g.rp != nil {
		g.drawReplay()
	} else {
		g.drawCard()
	}
	g.drawChat()
	over := g.overlay()
	if over != overEnd && over != overReplayEnd { // the end screen says what ended; a notice under its shade peeked out below its button
		g.drawNotices()
	}
	switch over {
	case overMenu:
		if !g.a.options.open { // the options opened from the menu cover it, text and all
			g.drawMenu()
		}
	case overReplayEnd:
		g.drawReplayEnd()
	case overEnd:
		g.drawEnd()
	case overPause:
		if !g.a.howTo.shown { // the how-to (F1) over the pause: one panel, not two through each other
			g.drawPause()
		}
	}
}

// overlay is what shows over the game: the menu or an end screen.
type overlay uint8

const (
	overNone      overlay = iota
	overMenu              // the pause menu
	overReplayEnd         // the end of a replay
	overEnd               // the end of the game: victory, defeat, draw
	overPause             // the game is paused (the menu closed)
)

// overlay says what shows over the game now.
func (g *gameScreen) overlay() overlay {
	switch {
	case g.ui.MenuOpen:
		return overMenu
	case g.rp != nil:
		if (g.rp.st.Over || g.rp.st.Stopped) && !g.watching {
			return overReplayEnd
		}
		if g.pause.Paused { // the recorded game was paused: say why nothing moves
			return overPause
		}
	case g.end != endNone && !g.watching:
		return overEnd
	case g.pause.Paused:
		return overPause
	}
	return overNone
}

// endChoice is what a button of an end screen does.
type endChoice uint8

const (
	endKeepWatching endChoice = iota + 1 // a game: look on while the others play
	endLeave                             // a game: back to the browser
	endKeepLooking                       // a replay: look at where it ended
	endWatchAgain                        // a replay: from the start
	endCloseReplay                       // a replay: quit
)

// endButton is a button of an end screen.
type endButton struct {
	choice endChoice
	label  string
	r      ui.Rect
}

// endButtons lays out the buttons of the end screen that shows (none when
// none does) in a row centred under the table of the game, into dst.
func (g *gameScreen) endButtons(dst []endButton) []endButton {
	dst = dst[:0]
	bw := 200.0
	switch g.overlay() {
	case overReplayEnd:
		bw = 190
		dst = append(dst, endButton{choice: endKeepLooking, label: "Keep looking"},
			endButton{choice: endWatchAgain, label: "Watch again"}, endButton{choice: endCloseReplay, label: "Close the replay"})
	case overEnd:
		if !g.over {
			dst = append(dst, endButton{choice: endKeepWatching, label: "Keep watching"})
		}
		dst = append(dst, endButton{choice: endLeave, label: "Leave game"})
	default:
		return dst
	}
	const gap = 20.0
	_, y := g.endTableY()
	x := g.a.w/2 - (float64(len(dst))*(bw+gap)-gap)/2
	for i := range dst {
		dst[i].r = ui.XYWH(x+float64(i)*(bw+gap), y, bw, 40)
	}
	return dst
}

// endInput runs the end screen's buttons (update step).
func (g *gameScreen) endInput(in *ui.Input) {
	g.ends = g.endButtons(g.ends)
	for _, b := range g.ends {
		if pressed(in, b.r) {
			g.a.click()
			g.chooseEnd(b.choice)
			g.ends = g.endButtons(g.ends) // what the draw step shows now
			return
		}
	}
}

// chooseEnd does what a button of an end screen says.
func (g *gameScreen) chooseEnd(c endChoice) {
	a := g.a
	switch c {
	case endKeepWatching, endKeepLooking:
		g.watching = true
	case endLeave:
		a.cl.Leave()
	case endWatchAgain:
		g.rp.cl.Seek(0)
		g.rp.st = g.rp.cl.Replay()
	case endCloseReplay:
		a.closeReplay()
	}
}

// endResult is a player's result in the end screen's table: when it went
// out by the game clock, or how its game ended.
func endResult(info game.PlayerInfo, over bool) string {
	switch {
	case info.Out:
		return "out at " + gameClock(info.OutTime)
	case over:
		return "won"
	}
	return "playing"
}

// drawEndButtons draws the end screen's buttons.
func (g *gameScreen) drawEndButtons() {
	for _, b := range g.ends {
		g.a.drawButton(g.a.over, g.a.overTxt[fontBold], b.r, b.label, true)
	}
}

// gameClock is ticks of game time (game.World.Time, which stands still
// while the game is paused) as minutes and seconds, 20 ticks a second.
func gameClock(ticks int) string {
	s := ticks / game.ClockRate
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

func (g *gameScreen) drawTopBar() {
	a := g.a
	lay := g.ui.Layout
	a.hud.rect(lay.TopBar, colPanel)
	a.hud.rect(ui.R(0, lay.TopBar.Max.Y-1, a.w, lay.TopBar.Max.Y), colBorder)
	t, bold := a.text[fontBody], a.text[fontBold]
	y := lay.TopBar.Min.Y + (lay.TopBar.H()-t.height())/2
	x := 12.0
	if g.hasMe && int(g.me) < len(g.infos) {
		p := g.infos[g.me]
		a.hud.sprite(ui.XYWH(x, y, 16, 16), sprCoin, white)
		x += 22 + bold.text(fmt.Sprintf("%d", p.Gold), x+22, y, alignLeft, colAccent) + 18
		a.hud.sprite(ui.XYWH(x, y, 16, 16), sprSupply, white)
		sc := colText
		if p.Supply >= p.SupplyCap {
			sc = colBad
		}
		x += 22 + bold.text(fmt.Sprintf("%d / %d", p.Supply, p.SupplyCap), x+22, y, alignLeft, sc) + 18
		t.text(fmt.Sprintf("%s · %s", plural(p.Units, "unit", "units"), plural(p.Buildings, "building", "buildings")), x, y, alignLeft, colDim)
	} else {
		bold.text("Watching", x, y, alignLeft, colAccent)
	}
	clock := gameClock(g.turn)
	t.text(clock, a.w/2, y, alignCenter, colText)
	helps := gameHelp
	if g.rp != nil {
		helps = replayHelp
	}
	// The longest reminder that keeps clear of the clock.
	small, room := a.text[fontSmall], a.w/2-t.width(clock)/2-12-topBarGap
	help := helps[len(helps)-1]
	for _, h := range helps {
		if small.width(h) <= room {
			help = h
			break
		}
	}
	small.text(help, a.w-12, y+1, alignRight, colDim)
}

// gameHelp is the top bar's key reminder in a game, longest first: the
// first that fits is drawn.
var gameHelp = []string{"Esc menu · F1 help · F3 network · Enter chat", "Esc menu · F1 help · F3 network"}

// topBarGap is the least room between the top bar's strings.
const topBarGap = 24.0

func (g *gameScreen) drawPanel() {
	a := g.a
	lay := g.ui.Layout
	a.hud.rect(lay.Panel, colPanel)
	a.hud.rect(ui.R(0, lay.Panel.Min.Y, a.w, lay.Panel.Min.Y+2), colBorder)
	a.hud.rect(lay.Minimap.Inset(-3), rgb(8, 10, 14))
	a.hud.outline(lay.Minimap.Inset(-3), 1, colBorder)
}

func (g *gameScreen) drawMinimap() {
	a := g.a
	m := g.ui.Mini
	area := m.Area()
	g.tv.minimap(g.sc, &g.colors)
	g.miniL.quadPix(g.miniL.flip(area), g.tv.mini.Bounds(), white, 1)
	a.top.outline(snap(m.Frame(&g.ui.Cam)), 1, white)
}

// kindTitle names a kind for the panel.
func kindTitle(k game.Kind) string { return capitalize(k.String()) }

var orderNames = map[game.Order]string{
	game.OrderIdle: "idle", game.OrderMove: "moving", game.OrderAttack: "attacking",
	game.OrderAttackMove: "attack-moving", game.OrderGather: "mining gold", game.OrderBuild: "going to build",
}

func (g *gameScreen) drawInfo() {
	a := g.a
	lay := g.ui.Layout
	sel := g.ui.Selected()
	bold, small := a.text[fontBold], a.text[fontSmall]
	r := lay.Info
	switch {
	case len(sel) == 0:
		bold.text("Nothing selected", r.Min.X, r.Min.Y+4, alignLeft, colText)
		help := []string{
			"Click a unit, or drag a box around several. Shift adds, a double-click takes all of a kind.",
			"Right-click: move, attack, mine gold, set a rally point.",
			"Ctrl+1…9 keeps a group, 1…9 calls it back. Arrows, screen edges or the minimap scroll; the wheel zooms.",
		}
		if g.rp != nil {
			help = []string{
				"You are watching a replay: click a unit to see it; nobody takes orders from you.",
				"Follow a player to see with their eyes (fog of war) and keep the camera on their army; 0 shows everyone.",
				"Arrows, screen edges or the minimap move the camera (C brings it back to the army); the wheel zooms.",
			}
		}
		for i, line := range help {
			for j, s := range small.wrap(line, r.W()) {
				small.text(s, r.Min.X, r.Min.Y+30+float64(i)*40+float64(j)*15, alignLeft, colDim)
			}
		}
	case len(sel) == 1 && g.detail != nil:
		g.drawDetail(sel[0], g.detail)
	default:
		for i, u := range sel {
			pr, ok := lay.Portrait(i)
			if !ok {
				small.text(fmt.Sprintf("+%d more", len(sel)-i), r.Max.X, r.Max.Y-14, alignRight, colDim)
				break
			}
			a.hud.rect(pr, colPanelHi)
			g.portrait(pr.Inset(2), u)
			f := float64(u.HP) / float64(max(u.MaxHP, 1))
			bar(a.hud, ui.R(pr.Min.X+2, pr.Max.Y-5, pr.Max.X-2, pr.Max.Y-2), f, hpColor(f), colHPBack)
		}
	}
}

// portrait draws a unit's sprite fitted into r.
func (g *gameScreen) portrait(r ui.Rect, u *ui.Unit) {
	color := g.colors[u.Owner%game.MaxPlayers]
	if u.Kind.IsBuilding() {
		g.a.hud.sprite(r, buildingSprite(u.Kind, color), white)
		return
	}
	g.a.hud.sprite(r, unitSprite(u.Kind, color), white)
}

func (g *gameScreen) drawDetail(u *ui.Unit, d *game.UnitInfo) {
	a := g.a
	r := g.ui.Layout.Info
	t, bold, small := a.text[fontBody], a.text[fontBold], a.text[fontSmall]
	pr := ui.XYWH(r.Min.X, r.Min.Y+4, 72, 72)
	a.hud.rect(pr, colPanelHi)
	g.portrait(pr.Inset(4), u)
	x := pr.Max.X + 14
	owner := ""
	if int(u.Owner) < len(g.players) {
		owner = g.players[u.Owner].Name
	}
	bold.text(kindTitle(d.Kind), x, r.Min.Y+4, alignLeft, colText)
	if owner != "" {
		small.text(owner, x+bold.width(kindTitle(d.Kind))+10, r.Min.Y+7, alignLeft, playerRGBA(g.colors[u.Owner%game.MaxPlayers]))
	}
	f := float64(d.HP) / float64(max(d.MaxHP, 1))
	bar(a.hud, ui.XYWH(x, r.Min.Y+28, 160, 8), f, hpColor(f), colHPBack)
	small.text(fmt.Sprintf("%d / %d", d.HP, d.MaxHP), x+168, r.Min.Y+25, alignLeft, colDim)
	st := d.Kind.Stats()
	y := r.Min.Y + 46
	switch {
	case st.Building && !d.Built:
		t.text(fmt.Sprintf("Under construction: %d%%", d.Progress*100/max(st.Time, 1)), x, y, alignLeft, colText)
		bar(a.hud, ui.XYWH(x, y+22, 200, 8), float64(d.Progress)/float64(max(st.Time, 1)), colAccent, colHPBack)
	case st.Building && d.Kind.Armed(): // a tower
		t.text("Guarding", x, y, alignLeft, colText)
		small.text(g.combatStats(d), x, y+22, alignLeft, colDim)
	case st.Building && d.Research.Valid():
		level := g.level(d.Owner, d.Research) + 1
		t.text(fmt.Sprintf("Researching %s level %d", d.Research, level), x, y, alignLeft, colText)
		bar(a.hud, ui.XYWH(x, y+22, 200, 8), float64(d.QueueProgress)/float64(max(d.Research.Time(level), 1)), colAccent, colHPBack)
	case st.Building:
		if len(d.Queue) == 0 {
			t.text("Idle", x, y, alignLeft, colDim)
			if u.Own {
				small.text("Right-click the map to set the rally point.", x, y+22, alignLeft, colDim)
			}
			break
		}
		t.text("Training", x, y, alignLeft, colText)
		for i, k := range d.Queue {
			qr := ui.XYWH(x+float64(i)*40, y+22, 36, 36)
			a.hud.rect(qr, colPanelHi)
			a.hud.sprite(qr.Inset(2), unitSprite(k, g.colors[u.Owner%game.MaxPlayers]), white)
			if i == 0 {
				bar(a.hud, ui.R(qr.Min.X, qr.Max.Y+2, qr.Max.X, qr.Max.Y+6), float64(d.QueueProgress)/float64(max(k.Stats().Time, 1)), colAccent, colHPBack)
			}
		}
	default:
		what := orderNames[d.Order]
		if d.Order == game.OrderBuild && d.Building.Valid() {
			what = "going to build a " + d.Building.String()
		}
		t.text(capitalize(what), x, y, alignLeft, colText)
		small.text(g.combatStats(d), x, y+22, alignLeft, colDim)
		if d.Cargo > 0 {
			small.text(fmt.Sprintf("carrying %d gold", d.Cargo), x, y+38, alignLeft, colAccent)
		}
	}
}

func (g *gameScreen) drawCard() {
	a := g.a
	lay := g.ui.Layout
	card := ui.Card(g.ui.Selected(), &g.ui.Keys)
	gold := int32(0)
	if g.hasMe && int(g.me) < len(g.infos) {
		gold = g.infos[g.me].Gold
	}
	bold, small := a.text[fontBold], a.text[fontSmall]
	for i, b := range card {
		r := lay.Button(i)
		if b.Action == ui.ActNone {
			a.hud.rect(r, rgb(26, 31, 42))
			continue
		}
		active := (b.Action == ui.ActAttackMove && g.ui.Mode == ui.ModeAttack) ||
			(b.Action == ui.ActBuild && g.ui.Mode == ui.ModePlace && g.ui.Place == b.Kind)
		cost := b.Cost()
		if b.Action == ui.ActResearch {
			cost = nextLevelCost(b.Upgrade, g.level(g.me, b.Upgrade))
		}
		afford := cost >= 0 && cost <= gold
		bg := colButton
		switch {
		case active:
			bg = rgb(96, 80, 24)
		case r.Contains(a.in.Mouse):
			bg = colButtonHi
		}
		a.hud.rect(r, bg)
		a.hud.outline(r, 1, colBorder)
		fg := colText
		if !afford {
			fg = colDim
		}
		// Hotkey top left, cost top right, picture in the middle, name below.
		icon := ui.XYWH(r.Center().X-10, r.Min.Y+13, 20, 20)
		switch b.Action {
		case ui.ActTrain:
			a.hud.sprite(icon, unitSprite(b.Kind, g.colors[g.me%game.MaxPlayers]), white)
		case ui.ActBuild:
			a.hud.sprite(icon.Inset(-1), buildingSprite(b.Kind, g.colors[g.me%game.MaxPlayers]), white)
		case ui.ActAttackMove:
			a.hud.sprite(icon, unitSprite(game.Soldier, g.colors[g.me%game.MaxPlayers]), white)
		case ui.ActStop:
			a.hud.rect(icon.Inset(4), colBad)
		case ui.ActResearch:
			g.drawLevels(icon, g.level(g.me, b.Upgrade))
		}
		small.text(small.fit(b.Label, r.W()-6), r.Center().X, r.Max.Y-16, alignCenter, fg)
		bold.text(ui.KeyName(b.Key), r.Min.X+4, r.Min.Y+1, alignLeft, colAccent)
		if c := cost; c > 0 {
			cc := colAccent
			if !afford {
				cc = colBad
			}
			small.text(fmt.Sprintf("%d", c), r.Max.X-4, r.Min.Y+2, alignRight, cc)
		}
	}
}

// combatStats is a unit's or tower's damage, armor and range, with its
// owner's upgrades (weapons for the armed, armor for units).
func (g *gameScreen) combatStats(d *game.UnitInfo) string {
	st := d.Kind.Stats()
	dmg, armor := st.Damage, st.Armor
	if d.Kind.Armed() {
		dmg += game.WeaponsBonus * int32(g.level(d.Owner, game.UpWeapons))
	}
	if !st.Building {
		armor += game.ArmorBonus * int32(g.level(d.Owner, game.UpArmor))
	}
	return fmt.Sprintf("damage %d · armor %d · range %.1f", dmg, armor, float64(st.Range)/game.TileSize)
}

// level returns player p's level of upgrade u (0 when unknown).
func (g *gameScreen) level(p game.PlayerID, u game.Upgrade) int {
	if int(p) >= len(g.infos) {
		return 0
	}
	switch u {
	case game.UpWeapons:
		return g.infos[p].Weapons
	case game.UpArmor:
		return g.infos[p].Armor
	}
	return 0
}

// nextLevelCost is what the level after level of u costs; -1 when u is
// fully researched.
func nextLevelCost(u game.Upgrade, level int) int32 {
	if level >= game.MaxUpgradeLevel {
		return -1
	}
	return u.Cost(level + 1)
}

// drawLevels draws an upgrade's levels as pips in a research button's
// icon box: lit for those researched.
func (g *gameScreen) drawLevels(icon ui.Rect, level int) {
	const pip, gap = 6.0, 3.0
	x := icon.Center().X - (pip*game.MaxUpgradeLevel+gap*(game.MaxUpgradeLevel-1))/2
	for i := range game.MaxUpgradeLevel {
		r := ui.XYWH(x+float64(i)*(pip+gap), icon.Center().Y-pip/2, pip, pip)
		if i < level {
			g.a.hud.rect(r, colAccent)
		} else {
			g.a.hud.outline(r, 1, colDim)
		}
	}
}

// chatShown is how long chat lines stay over the map.
const chatShown = 12 * time.Second

func (g *gameScreen) drawChat() {
	a := g.a
	lay := g.ui.Layout
	small := a.text[fontSmall]
	y := lay.Chat.Max.Y
	if g.ui.ChatOpen {
		to := "All"
		if g.ui.ChatTeam {
			to = "Team"
		}
		r := ui.R(lay.Chat.Min.X, y-26, lay.Chat.Max.X, y)
		a.top.rect(r, rgba(8, 10, 16, 0.85))
		a.top.outline(r, 1, colAccent)
		w := a.text[fontBold].text(to+":", r.Min.X+8, r.Min.Y+4, alignLeft, colAccent)
		tw := a.text[fontBody].text(a.text[fontBody].fit(g.ui.Chat.Text, r.W()-w-30), r.Min.X+14+w, r.Min.Y+4, alignLeft, colText)
		if blink(a.now) {
			a.top.rect(ui.XYWH(r.Min.X+15+w+tw, r.Min.Y+5, 2, 16), colAccent)
		}
		y -= 32
	}
	shown := 0
	for i := len(a.chat) - 1; i >= 0 && shown < 6; i-- {
		c := a.chat[i]
		if a.now.Sub(c.at) > chatShown && !g.ui.ChatOpen {
			break
		}
		col := colText
		if c.sys {
			col = colDim
		} else if c.team {
			col = rgb(125, 211, 252)
		}
		lines := small.wrap(chatText(c), lay.Chat.W())
		for j := len(lines) - 1; j >= 0 && shown < 6; j-- {
			y -= 18
			shown++
			a.top.rect(ui.XYWH(lay.Chat.Min.X-4, y-1, small.width(lines[j])+8, 17), rgba(0, 0, 0, 0.45))
			small.text(lines[j], lay.Chat.Min.X, y, alignLeft, col)
		}
	}
}

func (g *gameScreen) drawNotices() {
	a := g.a
	t := a.text[fontBold]
	// Above the chat's corner: its input and its lines (a long "Replay
	// saved to …" among them) reach the middle of the window.
	y := g.ui.Layout.Chat.Min.Y - 26
	for i := len(g.notices) - 1; i >= 0; i-- {
		n := g.notices[i]
		age := a.now.Sub(n.at)
		if age > n.shownFor() {
			continue
		}
		c := colText
		if n.err {
			c = colAccent
		}
		text := n.text
		if n.times > 1 {
			text = fmt.Sprintf("%s (×%d)", text, n.times)
		}
		w := t.width(text)
		a.top.rect(ui.XYWH(a.w/2-w/2-10, y-3, w+20, 22), rgba(0, 0, 0, 0.5))
		t.text(text, a.w/2, y, alignCenter, c)
		y -= 24
	}
}

func (g *gameScreen) drawMenu() {
	a := g.a
	lay := g.ui.Layout
	a.over.rect(lay.Window, colShade)
	if g.ui.Confirm != ui.MenuNone { // the question in place of the menu: one layer of text, nothing shows through
		g.drawConfirm()
		return
	}
	items := g.ui.Menu()
	box := ui.R(lay.MenuButton(0).Min.X-30, lay.MenuButton(0).Min.Y-70, lay.MenuButton(0).Max.X+30, lay.MenuButton(len(items)-1).Max.Y+24)
	title, sub := "Menu", ""
	if g.pause.Paused && g.rp == nil {
		title, sub = g.pauseTitle(), g.resumers
		if g.pause.Countdown > 0 {
			sub = g.playerName(g.pause.ResumedBy) + " resumed the game."
		}
	}
	cx := box.Center().X
	if half := a.overTxt[fontSmall].width(sub)/2 + 16; half > box.W()/2 {
		box.Min.X, box.Max.X = cx-half, cx+half
	}
	a.panel(a.over, box)
	a.overTxt[fontTitle].text(title, box.Center().X, box.Min.Y+12, alignCenter, colText)
	a.overTxt[fontSmall].text(sub, box.Center().X, box.Min.Y+46, alignCenter, colDim)
	for i, it := range items {
		a.drawButton(a.over, a.overTxt[fontBold], lay.MenuButton(i), it.Label, !it.Off)
	}
}

// drawConfirm draws the question before the player leaves a game they
// still play, over the menu.
func (g *gameScreen) drawConfirm() {
	a := g.a
	lay := g.ui.Layout
	box := lay.ConfirmBox()
	title, yes, line := "Leave the game?", "Leave game", "The game ends here; you cannot come back to it."
	if g.ui.Confirm == ui.MenuQuit {
		title, yes = "Quit Hostfall?", "Quit"
	}
	if g.others {
		line = "The others play on without you; you cannot come back."
	}
	a.panel(a.over, box)
	a.overTxt[fontTitle].text(title, box.Center().X, box.Min.Y+16, alignCenter, colText)
	a.overTxt[fontSmall].text(line, box.Center().X, box.Min.Y+58, alignCenter, colDim)
	a.drawButton(a.over, a.overTxt[fontBold], lay.ConfirmButton(0), yes, true)
	a.drawButton(a.over, a.overTxt[fontBold], lay.ConfirmButton(1), "Stay", true)
}

func (g *gameScreen) drawEnd() {
	title, tc, sub := g.endTitle()
	g.drawEndTable(title, tc, sub)
	g.drawEndButtons()
}

// endTitle is the end screen's title, its colour and the line under it.
func (g *gameScreen) endTitle() (string, pixel.RGBA, string) {
	switch {
	case g.end == endTimeUp && g.leader != "":
		return "Time's up", colText, fmt.Sprintf("The game reached its limit of %s; %s leads on score.", plural(int(g.limit), "turn", "turns"), g.leader)
	case g.end == endTimeUp:
		return "Time's up", colText, fmt.Sprintf("The game reached its limit of %s.", plural(int(g.limit), "turn", "turns"))
	case g.end == endDefeat && g.byScore && !g.observer:
		return "Defeat", colBad, "Time ran out and the other side scored higher."
	case g.end == endDefeat:
		return "Defeat", colBad, "Your last building has fallen."
	case g.end == endDraw:
		return "Draw", colText, "The last armies fell together."
	case !g.hasMe:
		return "Game over", colAccent, "The game has a winner."
	case g.byScore:
		return "Victory!", colAccent, "Time ran out and your side scored highest."
	case g.othersLeft():
		return "Victory!", colAccent, "Everybody else left the game."
	}
	return "Victory!", colAccent, "Your side holds the field."
}

// endTableY returns where the end screen's table of the game starts and
// where the buttons under it go.
func (g *gameScreen) endTableY() (table, buttons float64) {
	table = g.a.h*0.18 + 130
	return table, table + 30 + float64(len(g.infos))*30 + 30
}

// drawEndTable shades the screen and draws the title, the line under it and
// the table of the game's players.
func (g *gameScreen) drawEndTable(title string, tc pixel.RGBA, sub string) {
	a := g.a
	a.over.rect(ui.R(0, 0, a.w, a.h), rgba(0, 0, 0, 0.72))
	huge, t, bold, small := a.overTxt[fontHuge], a.overTxt[fontBody], a.overTxt[fontBold], a.overTxt[fontSmall]
	cy := a.h * 0.18
	huge.text(title, a.w/2, cy, alignCenter, tc)
	t.text(sub+" Game time "+gameClock(g.turn)+".", a.w/2, cy+84, alignCenter, colText)

	cols := []struct {
		t string
		x float64
	}{{"Player", 0}, {"Result", 230}, {"Units", 360}, {"Buildings", 430}, {"Gold mined", 520}, {"Trained", 620}, {"Killed", 700}, {"Lost", 770}}
	// 820 px wide where it fits; narrower windows (800×600) squeeze the
	// columns, which leave room for it down to about 700 px.
	tw := math.Min(820, a.w-48)
	for i := range cols {
		cols[i].x = math.Round(cols[i].x * tw / 820)
	}
	x0 := math.Round(a.w/2 - tw/2)
	y, _ := g.endTableY()
	a.panel(a.over, ui.XYWH(x0-16, y-10, tw+32, 40+float64(len(g.infos))*30))
	for _, c := range cols {
		bold.text(c.t, x0+c.x, y, alignLeft, colDim)
	}
	y += 30
	for p, info := range g.infos {
		name := g.playerName(game.PlayerID(p))
		swatch(a.over, ui.XYWH(x0, y+1, 14, 14), g.colors[p%game.MaxPlayers])
		c := colText
		if g.hasMe && game.PlayerID(p) == g.me {
			c = colAccent
		}
		t.text(t.fit(name, cols[1].x-30), x0+22, y, alignLeft, c)
		result := endResult(info, g.over)
		if p < len(g.results) {
			result = g.results[p]
		}
		vals := []string{result, fmt.Sprint(info.Units), fmt.Sprint(info.Buildings), fmt.Sprint(info.Mined),
			fmt.Sprint(info.Trained), fmt.Sprint(info.Killed), fmt.Sprint(info.Lost)}
		for i, v := range vals {
			small.text(v, x0+cols[i+1].x, y+2, alignLeft, colText)
		}
		y += 30
	}
}
