package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"hostfall/game"
	"hostfall/game/ai"
)

// play is what `make play` starts. Until the game window exists it plays an
// offline match of four bots and shows how it went.
func init() {
	register(command{
		name:    "play",
		summary: "watch four bots play an offline match (until the game window lands)",
		run:     runPlay,
	})
}

func runPlay(ctx context.Context, args []string) error {
	if !hasFlag(args, "levels") {
		args = append([]string{"--levels", "hard,easy,hard,easy"}, args...)
	}
	o, err := parseSim("play", args)
	if err != nil {
		return err
	}
	m, err := ai.NewMatch(o.config(), o.levels, o.seed)
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	wd, ht := m.World.Size()
	fmt.Printf("Hostfall: %d bots play an offline match on a %d×%d map (seed %d). The window is not built yet.\n\n",
		o.players, wd, ht, o.seed)
	if err := playMatch(ctx, m, o.turns, nil, &minuteReport{m: m, out: os.Stdout}); err != nil {
		return err
	}
	printSummary(os.Stdout, m)
	return nil
}

func hasFlag(args []string, name string) bool {
	for _, a := range args {
		a = strings.TrimLeft(a, "-")
		if a == name || strings.HasPrefix(a, name+"=") {
			return true
		}
	}
	return false
}

// minuteReport turns playMatch's progress lines into a line of army sizes
// every minute of game time.
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
	fmt.Fprintf(r.out, "%6s  %s\n", gameTime(w.Turn()), strings.Join(parts, " | "))
	return len(p), nil
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
			result = "out at " + gameTime(pi.OutTurn)
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
