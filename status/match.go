package status

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"hostfall/game"
	"hostfall/game/ai"
)

// SimProgress is sim's progress line for a person: turn of turns, with the
// game time ticks.
func SimProgress(out io.Writer, turn, turns, ticks int) {
	fmt.Fprintf(out, "turn %d/%d (%s of game time)\n", turn, turns, GameTime(ticks))
}

// BotsPlaying is the first line of `play --headless`: what is played (seed
// is the one m was made with).
func BotsPlaying(out io.Writer, m *ai.Match, seed uint64) {
	wd, ht := m.World.Size()
	fmt.Fprintf(out, "Hostfall: %d bots play an offline match on a %d×%d map (seed %d).\n\n",
		m.World.NumPlayers(), wd, ht, seed)
}

// Armies is a line of `play --headless` while the bots play: the game time
// and each player's units and gold.
func Armies(out io.Writer, w *game.World) {
	var parts []string
	for pl := range w.NumPlayers() {
		pi := w.Player(game.PlayerID(pl))
		if pi.Out {
			parts = append(parts, fmt.Sprintf("p%d out", pl))
			continue
		}
		parts = append(parts, fmt.Sprintf("p%d %3d units %4d gold", pl, pi.Units, pi.Gold))
	}
	fmt.Fprintf(out, "%6s  %s\n", GameTime(w.Time()), strings.Join(parts, " | "))
}

// SimEnd is how sim ends: the end line with asJSON, else the result for a
// person.
func SimEnd(out io.Writer, m *ai.Match, asJSON bool) {
	if asJSON {
		win, reason := WorldEnd(m.World)
		(&Line{JSON: true, Out: out}).End(uint64(m.World.Turn()), m.World.Time(), m.World.Hash(), win, reason)
		return
	}
	printResult(out, m)
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

// BotSummary is the end of `play --headless`: the result, a table of each
// player's game and the map in text.
func BotSummary(out io.Writer, m *ai.Match) {
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
