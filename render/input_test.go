package render

import (
	"slices"
	"testing"
	"time"

	"hostfall/client"
	"hostfall/render/ui"
	"hostfall/session"
)

// The lobby's and the browser's input steps run here with no window, no
// App and no client: a view, its layout and one frame's input go in; the
// intents and the screen's own state come out. (The screens' s.a is nil:
// an input step that drew or called the client would panic.)

// lobbyFor returns a lobby screen showing fourSlots() to the player in slot
// me in state st, laid out in a 1024×768 window.
func lobbyFor(me int, host bool, st session.LobbyState) *lobbyScreen {
	return lobbyWith(me, host, st, nil)
}

// lobbyWith is lobbyFor with fourSlots() changed by edit (nil: as it is).
func lobbyWith(me int, host bool, st session.LobbyState, edit func(l *session.Lobby)) *lobbyScreen {
	s := &lobbyScreen{chat: ui.TextField{Max: 200}}
	l := fourSlots()
	l.State = st
	if edit != nil {
		edit(&l)
	}
	s.v.set(l, me, host, "", nil)
	s.lay.set(1024, 768, 0, len(l.Slots))
	return s
}

func click(p ui.Vec) ui.Input {
	in := ui.Input{Now: t0}
	in.Click(ui.MouseLeft, p)
	return in
}

func TestLobbyInput(t *testing.T) {
	row := func(i int, part func(r *slotRowLayout) ui.Rect) func(l *lobbyLayout) ui.Vec {
		return func(l *lobbyLayout) ui.Vec { return part(&l.rows[i]).Center() }
	}
	kind := func(r *slotRowLayout) ui.Rect { return r.kind }
	team := func(r *slotRowLayout) ui.Rect { return r.team }
	swatch := func(r *slotRowLayout) ui.Rect { return r.swatch }
	kick := func(r *slotRowLayout) ui.Rect { return r.kick }
	at := func(part func(l *lobbyLayout) ui.Rect) func(l *lobbyLayout) ui.Vec {
		return func(l *lobbyLayout) ui.Vec { return part(l).Center() }
	}
	start := at(func(l *lobbyLayout) ui.Rect { return l.start })
	size := at(func(l *lobbyLayout) ui.Rect { return l.size })
	edit := func(name string, color, team uint8, ready bool) lobbyIntent {
		return lobbyIntent{act: lobbyEdit, edit: session.SlotEdit{Name: name, Color: color, Team: team, Ready: ready}}
	}
	bot := func(slot int, color, team uint8) lobbyIntent {
		return lobbyIntent{act: lobbyEditBot, slot: slot, edit: session.SlotEdit{Color: color, Team: team}}
	}
	// fourSlots' settings: seed 1234, 128 tiles, normal speed, units hold.
	setup := func(size, ticks, away uint32) lobbyIntent {
		return lobbyIntent{act: lobbyConfigure, setup: client.Setup{MapSeed: 1234, MapSize: size, TurnTicks: ticks, AwayBot: away}}
	}
	boReady := func(l *session.Lobby) { l.Slots[1].Ready = true }
	for _, tt := range []struct {
		name  string
		me    int
		host  bool
		state session.LobbyState
		lobby func(l *session.Lobby) // changes fourSlots (nil: none)
		at    func(l *lobbyLayout) ui.Vec
		want  []lobbyIntent
	}{
		{"the host makes an open slot an easy bot", 0, true, session.StateLobby, nil, row(3, kind),
			[]lobbyIntent{clickIntent, {act: lobbySetSlot, slot: 3, kind: session.SlotBot, level: 0}}},
		{"the host closes a hard bot's slot", 0, true, session.StateLobby, nil, row(2, kind),
			[]lobbyIntent{clickIntent, {act: lobbySetSlot, slot: 2, kind: session.SlotClosed, level: 0}}},
		{"a human's slot has no kind button", 0, true, session.StateLobby, nil, row(1, kind), nil},
		{"a guest changes no slot's kind", 1, false, session.StateLobby, nil, row(3, kind), nil},
		{"no kind changes in the countdown", 0, true, session.StateCountdown, nil, row(3, kind), nil},
		{"the player's own team", 0, true, session.StateLobby, nil, row(0, team),
			[]lobbyIntent{clickIntent, edit("Ann", 0, 2, true)}},
		{"another player's team", 0, true, session.StateLobby, nil, row(1, team), nil},
		{"the player's colour: the next one free", 0, true, session.StateLobby, nil, row(0, swatch),
			[]lobbyIntent{clickIntent, edit("Ann", 3, 1, true)}},
		{"the host sets a bot's team", 0, true, session.StateLobby, nil, row(2, team),
			[]lobbyIntent{clickIntent, bot(2, 2, 3)}},
		{"the host's bot leaves the teams after team 4", 0, true, session.StateLobby,
			func(l *session.Lobby) { l.Slots[2].Team = 4 }, row(2, team), []lobbyIntent{clickIntent, bot(2, 2, 0)}},
		{"the host sets a bot's colour: the next one free", 0, true, session.StateLobby, nil, row(2, swatch),
			[]lobbyIntent{clickIntent, bot(2, 3, 2)}},
		{"a guest sets no bot's team", 1, false, session.StateLobby, nil, row(2, team), nil},
		{"a guest sets no bot's colour", 1, false, session.StateLobby, nil, row(2, swatch), nil},
		{"no bot edits in the countdown", 0, true, session.StateCountdown, nil, row(2, team), nil},
		{"a click on Kick asks to be sure", 0, true, session.StateLobby, nil, row(1, kick), []lobbyIntent{clickIntent}},
		{"the host does not kick itself", 0, true, session.StateLobby, nil, row(0, kick), nil},
		{"a guest kicks nobody", 1, false, session.StateLobby, nil, row(0, kick), nil},
		{"the host takes the next map size", 0, true, session.StateLobby, nil, size,
			[]lobbyIntent{clickIntent, setup(192, 5, 0)}},
		{"after the largest map the smallest", 0, true, session.StateLobby,
			func(l *session.Lobby) { l.MapSize = 256 }, size, []lobbyIntent{clickIntent, setup(64, 5, 0)}},
		{"the host takes the next speed", 0, true, session.StateLobby, nil, at(func(l *lobbyLayout) ui.Rect { return l.speed }),
			[]lobbyIntent{clickIntent, setup(128, 3, 0)}},
		{"the host lets a bot play for who drops", 0, true, session.StateLobby, nil, at(func(l *lobbyLayout) ui.Rect { return l.away }),
			[]lobbyIntent{clickIntent, setup(128, 5, 1)}},
		{"and back to holding after the hard bot", 0, true, session.StateLobby, func(l *session.Lobby) { l.AwayBot = 3 },
			at(func(l *lobbyLayout) ui.Rect { return l.away }), []lobbyIntent{clickIntent, setup(128, 5, 0)}},
		{"the host asks for a random map", 0, true, session.StateLobby, nil, at(func(l *lobbyLayout) ui.Rect { return l.random }),
			[]lobbyIntent{clickIntent, {act: lobbyRandomMap}}},
		{"a guest changes no setting", 1, false, session.StateLobby, nil, size, nil},
		{"no setting changes in the countdown", 0, true, session.StateCountdown, nil, size, nil},
		{"a guest is ready", 1, false, session.StateLobby, nil, start,
			[]lobbyIntent{clickIntent, edit("Bo", 1, 2, true)}},
		{"the host cannot start while Bo is not ready", 0, true, session.StateLobby, nil, start, nil},
		{"the host starts once Bo is ready", 0, true, session.StateLobby, boReady, start,
			[]lobbyIntent{clickIntent, {act: lobbyStart}}},
		{"no start in the countdown", 0, true, session.StateCountdown, boReady, start, nil},
		{"leave", 1, false, session.StateCountdown, nil, at(func(l *lobbyLayout) ui.Rect { return l.leave }),
			[]lobbyIntent{clickIntent, {act: lobbyLeave}}},
		{"a click on nothing", 0, true, session.StateLobby, nil, func(l *lobbyLayout) ui.Vec { return l.chat.Min.Add(ui.V(20, 20)) }, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := lobbyWith(tt.me, tt.host, tt.state, tt.lobby)
			in := click(tt.at(&s.lay))
			if got := s.input(&in); !slices.Equal(got, tt.want) {
				t.Fatalf("intents %+v, want %+v", got, tt.want)
			}
		})
	}
}

// Kick takes a second click within kickConfirm: a kicked player may not
// come back, so one stray click does not kick.
func TestLobbyInputKick(t *testing.T) {
	s := lobbyFor(0, true, session.StateLobby)
	kick := func(slot int, d time.Duration) []lobbyIntent {
		in := click(s.lay.rows[slot].kick.Center())
		in.Now = t0.Add(d)
		return slices.Clone(s.input(&in))
	}
	kicked := []lobbyIntent{clickIntent, {act: lobbyKick, slot: 1}}
	for _, st := range []struct {
		what string
		slot int
		at   time.Duration
		want []lobbyIntent
	}{
		{"first click", 1, 0, []lobbyIntent{clickIntent}},
		{"second click", 1, time.Second, kicked},
		{"once more: it asks again", 1, 2 * time.Second, []lobbyIntent{clickIntent}},
		{"too late", 1, 6 * time.Second, []lobbyIntent{clickIntent}},
		{"in time after that", 1, 7 * time.Second, kicked},
	} {
		if got := kick(st.slot, st.at); !slices.Equal(got, st.want) {
			t.Fatalf("%s: intents %+v, want %+v", st.what, got, st.want)
		}
	}
}

// The host types a map seed: a click on the seed edits it (the chat line
// waits), Enter sets it; a seed that is no number is refused in words.
func TestLobbyInputSeed(t *testing.T) {
	s := lobbyFor(0, true, session.StateLobby)
	enter := func(typed string) ui.Input {
		in := ui.Input{Typed: typed}
		in.Press(ui.KeyEnter)
		return in
	}
	backspace := ui.Input{}
	backspace.Press(ui.KeyBackspace)
	in := click(s.lay.seed.Center())
	if got := s.input(&in); !slices.Equal(got, []lobbyIntent{clickIntent}) || !s.seeding || s.seed.Text != "1234" {
		t.Fatalf("a click on the seed: intents %+v, editing %v %q", got, s.seeding, s.seed.Text)
	}
	for range 4 {
		s.input(&backspace)
	}
	in = enter("4821")
	want := []lobbyIntent{{act: lobbyConfigure, setup: client.Setup{MapSeed: 4821, MapSize: 128, TurnTicks: 5}}}
	if got := s.input(&in); !slices.Equal(got, want) || s.seeding || s.chat.Text != "" {
		t.Fatalf("Enter: intents %+v, editing %v, chat line %q; want %+v", got, s.seeding, s.chat.Text, want)
	}
	in = click(s.lay.seed.Center())
	s.input(&in)
	in = enter("x")
	if got := s.input(&in); len(got) != 0 || s.err != "A map seed is a whole number, such as 4821." {
		t.Fatalf("a seed that is no number: intents %+v, refusal %q", got, s.err)
	}
}

// A click on one's own name edits it (and holds the chat line back);
// Enter sends the new name, and the chat line takes keys again.
func TestLobbyInputNameAndChat(t *testing.T) {
	s := lobbyFor(0, true, session.StateLobby)
	steps := []struct {
		in     func() ui.Input
		naming bool
		want   []lobbyIntent
	}{
		{func() ui.Input { return click(s.lay.rows[0].name.Center()) }, true, []lobbyIntent{clickIntent}},
		{func() ui.Input { return ui.Input{Typed: "ie"} }, true, nil},
		{func() ui.Input { in := ui.Input{}; in.Press(ui.KeyEnter); return in }, false,
			[]lobbyIntent{{act: lobbyEdit, edit: session.SlotEdit{Name: "Annie", Color: 0, Team: 1, Ready: true}}}},
		{func() ui.Input { in := ui.Input{Typed: "gg"}; in.Press(ui.KeyTab); return in }, false, nil},
		{func() ui.Input { in := ui.Input{}; in.Press(ui.KeyEnter); return in }, false,
			[]lobbyIntent{{act: lobbySay, team: 1, text: "gg"}}},
	}
	for i, st := range steps {
		in := st.in()
		got := s.input(&in)
		if !slices.Equal(got, st.want) || s.naming != st.naming {
			t.Fatalf("step %d: intents %+v, naming %v; want %+v, naming %v", i, got, s.naming, st.want, st.naming)
		}
	}
	if s.chatTeam != true || s.chat.Text != "" {
		t.Fatalf("chat to team %v, line %q; want team chat and an empty line", s.chatTeam, s.chat.Text)
	}
}

// browserFor returns a browser screen listing twoSessions() to Ann, laid
// out in a 1024×768 window.
func browserFor() *browserScreen {
	b := &browserScreen{maxPlayers: 4, name: ui.TextField{Text: "Ann", Max: 24}}
	b.list = twoSessions()
	b.lay.set(1024, 768, len(b.list), b.last.bar())
	return b
}

func TestBrowserInput(t *testing.T) {
	b := browserFor()
	step := func(what string, in ui.Input, want ...browserIntent) {
		t.Helper()
		if got := b.input(&in); !slices.Equal(got, want) {
			t.Fatalf("%s: intents %+v, want %+v", what, got, want)
		}
	}
	at := func(d time.Duration, p ui.Vec) ui.Input { in := click(p); in.Now = t0.Add(d); return in }
	lay := &b.lay

	// A click selects the open game; Join game joins it.
	step("select the LAN game", at(0, lay.rows[0].Center()))
	if b.selected != "lan-1" {
		t.Fatalf("selected %q", b.selected)
	}
	step("Join game", at(time.Second, lay.join.Center()), browserClickIntent,
		browserIntent{act: browserJoin, id: "lan-1", join: client.JoinOptions{PlayerName: "Ann"}, wait: "Asking Ann to let you in…"})

	// A double-click on the locked game under way asks for its password;
	// Enter joins as a spectator with it.
	step("click the locked game", at(2*time.Second, lay.rows[1].Center()))
	step("double-click it", at(2*time.Second+100*time.Millisecond, lay.rows[1].Center()))
	if b.askPass == nil || b.askPass.ID != "relay-7" || b.focus != &b.joinPass {
		t.Fatalf("password prompt %+v, focus on it %v", b.askPass, b.focus == &b.joinPass)
	}
	step("type the password", ui.Input{Typed: "secret"})
	enter := ui.Input{}
	enter.Press(ui.KeyEnter)
	step("Enter", enter, browserIntent{act: browserJoin, id: "relay-7",
		join: client.JoinOptions{PlayerName: "Ann", Password: "secret", Spectate: true}, wait: "Asking Bo to let you in…"})
	if b.askPass != nil || b.focus != nil || b.joinPass.Text != "" {
		t.Fatalf("after Enter: prompt %+v, focus %v, password %q", b.askPass, b.focus, b.joinPass.Text)
	}

	// The create panel: fewer players, then Create game.
	step("fewer players", at(3*time.Second, lay.fewer.Center()), browserClickIntent)
	step("Create game", at(4*time.Second, lay.createBtn.Center()), browserClickIntent,
		browserIntent{act: browserCreate, create: client.CreateOptions{Name: "Ann's game", PlayerName: "Ann", MaxPlayers: 3}})

	// Quick game: three easy bots, started at once; no lists without a library.
	step("Quick game", at(4500*time.Millisecond, lay.quick.Center()), browserClickIntent,
		browserIntent{act: browserQuick, create: client.CreateOptions{Name: "Ann's quick game", PlayerName: "Ann"},
			wait: "Starting a quick game against three easy bots…"})
	step("Load game without a library", at(4600*time.Millisecond, lay.load.Center()))
	b.files = true
	step("Load game", at(4700*time.Millisecond, lay.load.Center()), browserClickIntent, browserIntent{act: browserFiles, files: filesSaves})
	step("Replays", at(4800*time.Millisecond, lay.replays.Center()), browserClickIntent, browserIntent{act: browserFiles, files: filesReplays})

	// An invite code: a click on the field, the code, Enter.
	step("focus the code field", at(5*time.Second, lay.code.Center()))
	step("paste a code", ui.Input{Typed: "hf1-abc"})
	step("Enter", enter, browserIntent{act: browserJoinCode, code: "hf1-abc", join: client.JoinOptions{PlayerName: "Ann"},
		wait: "Joining by invite code…"})
}

// The rejoin bar: Rejoin asks the client to rejoin the last game, not
// again while that rejoin is under way; Forget drops the record. The
// window test clicks the Rejoin button where this layout puts it.
func TestBrowserRejoinInput(t *testing.T) {
	b := browserFor()
	b.last = rejoinView{game: &client.LastGame{Name: "Friday LAN party", Players: []string{"Bo"}}}
	b.lay.set(1024, 768, len(b.list), b.last.bar())
	lay := &b.lay
	if c := lay.rejoin.Center(); c != ui.V(552, 130) {
		t.Fatalf("the Rejoin button is centred at %v; e2e_rejoin_window_test.go clicks (552, 130)", c)
	}
	if lay.table.Min.Y <= lay.rejoinBar.Max.Y || lay.rejoinBar.Intersects(lay.create) {
		t.Fatalf("the rejoin bar %v overlaps the table %v or the create panel %v", lay.rejoinBar, lay.table, lay.create)
	}
	in := click(lay.rejoin.Center())
	want := []browserIntent{browserClickIntent, {act: browserRejoin, wait: "Rejoining Friday LAN party… asking its players for the game"}}
	if got := b.input(&in); !slices.Equal(got, want) {
		t.Fatalf("Rejoin: intents %+v, want %+v", got, want)
	}
	b.last.st = client.RejoinStatus{Game: "Friday LAN party", Active: true}
	for _, r := range []ui.Rect{lay.rejoin, lay.forget} {
		if in := click(r.Center()); len(b.input(&in)) != 0 {
			t.Fatalf("a click on %v while rejoining asked for something", r)
		}
	}
	b.last.st = client.RejoinStatus{}
	in = click(lay.forget.Center())
	if got := b.input(&in); !slices.Equal(got, []browserIntent{browserClickIntent, {act: browserForget}}) {
		t.Fatalf("Forget: intents %+v", got)
	}
	// A record that cannot be used: Forget alone, where Rejoin was.
	b.last = rejoinView{problem: "The record of the last game is damaged."}
	b.lay.set(1024, 768, len(b.list), b.last.bar())
	if !lay.rejoin.Empty() || lay.forget.Max.X != 652 {
		t.Fatalf("a damaged record: rejoin button %v, forget %v", lay.rejoin, lay.forget)
	}
	in = click(lay.forget.Center())
	if got := b.input(&in); !slices.Equal(got, []browserIntent{browserClickIntent, {act: browserForget}}) {
		t.Fatalf("Forget a damaged record: intents %+v", got)
	}
	// Without a game to rejoin there is no bar, and the table takes its place.
	b.last = rejoinView{}
	b.lay.set(1024, 768, len(b.list), b.last.bar())
	if !lay.rejoin.Empty() || lay.table.Min.Y != 104 {
		t.Fatalf("no game to rejoin: rejoin button %v, table %v", lay.rejoin, lay.table)
	}
}
