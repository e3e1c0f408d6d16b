package status

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"hostfall/game"
	"hostfall/game/ai"
)

// Sim plays m, bots only and offline, until a team wins or turns run out,
// and prints what `sim` prints. With asJSON: a turn line every 20 turns and
// the end line on out. Otherwise: a progress line every 1,000 turns on
// progress (nil: none), then the result on out.
func Sim(ctx context.Context, m *ai.Match, turns int, asJSON bool, out, progress io.Writer) error {
	var line *Line
	if asJSON {
		progress = nil
		line = &Line{JSON: true, Out: out}
	}
	if err := playMatch(ctx, m, turns, line, progress); err != nil {
		return err
	}
	if asJSON {
		win, reason := WorldEnd(m.World)
		line.End(uint64(m.World.Turn()), m.World.Time(), m.World.Hash(), win, reason)
		return nil
	}
	printResult(out, m)
	return nil
}

// Watch plays m as Sim does and prints what `play --headless` prints on
// out: what is played (seed is the one m was made with), the players' army
// sizes now and then, and at the end the result, a table of each player's
// game and the map in text.
func Watch(ctx context.Context, m *ai.Match, turns int, seed uint64, out io.Writer) error {
	wd, ht := m.World.Size()
	fmt.Fprintf(out, "Hostfall: %d bots play an offline match on a %d×%d map (seed %d).\n\n",
		m.World.NumPlayers(), wd, ht, seed)
	if err := playMatch(ctx, m, turns, nil, &minuteReport{m: m, out: out}); err != nil {
		return err
	}
	printSummary(out, m)
	return nil
}

// playMatch runs the match until a team wins or turns run out. With line
// it prints a turn line every 20 turns; with progress a line every 1,000.
func playMatch(ctx context.Context, m *ai.Match, turns int, line *Line, progress io.Writer) error {
	w := m.World
	for w.Turn() < turns && !w.Over() {
		if err := ctx.Err(); err != nil {
			return err
		}
		if _, err := m.Turn(); err != nil {
			return err
		}
		t := w.Turn()
		if line != nil && t%20 == 0 {
			line.Turn(uint64(t), 0, "local", w.Hash())
		}
		if progress != nil && t%1000 == 0 {
			fmt.Fprintf(progress, "turn %d/%d (%s of game time)\n", t, turns, GameTime(w.Time()))
		}
	}
	return nil
}

// minuteReport turns playMatch's progress lines into a line of army sizes
// on the whole minutes of game time among them: playMatch writes every
// 1,000 turns and a minute is 1,200, so a line comes every fifth minute.
type minuteReport struct {
	m   *ai.Match
	out io.Writer
}

func (r *minuteReport) Write(p []byte) (int, error) {
	w := r.m.World
	if w.Turn()%1200 != 0 {
		return len(p), nil
	}
	var parts []string
	for pl := range w.NumPlayers() {
		pi := w.Player(game.PlayerID(pl))
		if pi.Out {
			parts = append(parts, fmt.Sprintf("p%d out", pl))
			continue
		}
		parts = append(parts, fmt.Sprintf("p%d %3d units %4d gold", pl, pi.Units, pi.Gold))
	}
	fmt.Fprintf(r.out, "%6s  %s\n", GameTime(w.Time()), strings.Join(parts, " | "))
	return len(p), nil
}

// printResult prints the winner with the bots' levels, the last turn and
// the state hash.
func printResult(out io.Writer, m *ai.Match) {
	w := m.World
	if win, reason := WorldEnd(w); win != nil {
		names := make([]string, len(win.Players))
		for j, p := range win.Players {
			names[j] = fmt.Sprintf("player %d (%s)", p, m.Bots[p].Level())
		}
		score := ""
		if reason == "score" {
			score = " (on score at the time limit)"
		}
		fmt.Fprintf(out, "winner: team %d: %s%s\n", win.Team, strings.Join(names, ", "), score)
	} else {
		fmt.Fprintf(out, "winner: none (%s)\n", reason)
	}
	fmt.Fprintf(out, "last turn: %d (%s of game time)\n", w.Turn(), GameTime(w.Time()))
	fmt.Fprintf(out, "hash: %016x\n", w.Hash())
}

func printSummary(out io.Writer, m *ai.Match) {
	w := m.World
	fmt.Fprintln(out)
	printResult(out, m)
	fmt.Fprintln(out)
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "player\tbot\tteam\tresult\tgold mined\ttrained\tkilled\tlost")
	for p := range w.NumPlayers() {
		pi := w.Player(game.PlayerID(p))
		result := fmt.Sprintf("%d units, %d buildings", pi.Units, pi.Buildings)
		if pi.Out {
			result = "out at " + GameTime(pi.OutTime)
		}
		fmt.Fprintf(tw, "%d\t%s\t%d\t%s\t%d\t%d\t%d\t%d\n", p, m.Bots[p].Level(), pi.Team, result,
			pi.Mined, pi.Trained, pi.Killed, pi.Lost)
	}
	tw.Flush()
	fmt.Fprintf(out, "\nThe map at the end (%s):\n%s", "digits: units of that player, letters A-H: their buildings, $ gold, # rock, ~ water", minimap(w))
}

// minimap draws the map in text, two tiles a character across and four
// down; units and buildings win over terrain.
func minimap(w *game.World) string {
	wd, ht := w.Size()
	const sx, sy = 2, 4
	cw, ch := (wd+sx-1)/sx, (ht+sy-1)/sy
	cells := make([]byte, cw*ch)
	for i := range cells {
		cells[i] = ' '
	}
	rank := func(c byte) int { return strings.IndexByte(" .~#$01234567ABCDEFGH", c) }
	set := func(x, y int, c byte) {
		i := (y/sy)*cw + x/sx
		if rank(c) > rank(cells[i]) {
			cells[i] = c
		}
	}
	for i, t := range w.Terrain() {
		set(i%wd, i/wd, ".#~$"[t])
	}
	us := w.Units()
	for i := range us.Len() {
		if !us.Alive(i) {
			continue
		}
		x, y := us.Pos(i).Tile()
		c := byte('0' + us.Owner(i))
		if us.IsBuilding(i) {
			c = byte('A' + us.Owner(i))
		}
		set(x, y, c)
	}
	var sb strings.Builder
	for y := range ch {
		sb.Write(cells[y*cw : (y+1)*cw])
		sb.WriteByte('\n')
	}
	return sb.String()
}
