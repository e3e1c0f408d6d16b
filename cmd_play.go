package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"hostfall/client"
	"hostfall/client/network"
	"hostfall/client/offline"
	"hostfall/game"
	"hostfall/game/ai"
	"hostfall/render"
	"hostfall/status"
)

// play is what `make play` starts: the window on a new network session
// hosted on this machine, three bots in the other slots, the game under way
// (--lobby: the lobby stays open for players on the LAN to join). --offline
// plays the same without the network; --headless watches four bots in text.
func init() {
	register(command{
		name:    "play",
		summary: "play against three bots in the game window, on the network (--offline: without it; --headless: four bots in text)",
		run:     runPlay,
	})
}

func runPlay(ctx context.Context, args []string) error {
	if hasFlag(args, "headless") {
		return runPlayText(ctx, dropFlag(args, "headless"))
	}
	var w windowFlags
	var nf netWindowFlags
	fs := flag.NewFlagSet("play", flag.ContinueOnError)
	w.add(fs)
	nf.add(fs, "play on this machine only, without the network")
	seed := fs.Uint64("seed", 0, "map seed (0: a new map each time)")
	size := fs.Int("size", game.DefaultMapSize, "map width and height in tiles")
	levels := fs.String("levels", "easy,easy,easy", "levels of the bots, comma separated (easy, hard); their number is the number of bots")
	lobby := fs.Bool("lobby", false, "stay in the lobby, with every free slot open, so players on the LAN can join")
	fs.Bool("headless", false, "no window: watch four bots play in text (takes the flags of sim)")
	load := fs.String("load", "", "resume a saved game (bots take over the other players)")
	if err := parseArgs(fs, args); err != nil {
		return err
	}
	var bots []uint8
	for _, s := range strings.Split(*levels, ",") {
		l, err := ai.ParseLevel(strings.TrimSpace(s))
		if err != nil {
			return fmt.Errorf("%w: %v", errUsage, err)
		}
		bots = append(bots, uint8(l))
	}
	if len(bots) < 1 || len(bots) > game.MaxPlayers-1 {
		return fmt.Errorf("%w: --levels names %d bots; a game takes 1 to %d", errUsage, len(bots), game.MaxPlayers-1)
	}
	if *lobby && (nf.offline || *load != "") {
		return fmt.Errorf("%w: --lobby waits for players on the LAN; it does not go with --offline or --load", errUsage)
	}
	if err := render.CheckDisplay(); err != nil {
		return err
	}
	opt := client.CreateOptions{Name: w.name + "'s skirmish", PlayerName: w.name, MapSeed: *seed, MapSize: *size}
	if nf.offline || *load != "" {
		// A save resumes on this machine: bots take over the other players.
		c := offline.New(offline.Options{Name: w.name, Countdown: 1, SaveDir: saveDir()})
		defer c.Close()
		opt.Name = "Skirmish"
		var err error
		if *load != "" {
			err = c.Load(*load)
		} else {
			err = c.Skirmish(opt, bots)
		}
		if err != nil {
			return err
		}
		return openWindow(ctx, c, w)
	}
	c, err := startNetClient(ctx, nf, func(o *network.Options) {
		if !*lobby {
			o.Session.CountdownTicks = 1 // the game is under way when the window opens
		}
	})
	if err != nil {
		return err
	}
	defer c.Close()
	if *lobby {
		opt.MaxPlayers = game.MaxPlayers
	}
	if err := c.Skirmish(opt, bots, *lobby); err != nil {
		return err
	}
	return openWindow(ctx, c, w)
}

// dropFlag removes every --name and --name=… from args.
func dropFlag(args []string, name string) []string {
	var out []string
	for _, a := range args {
		t := strings.TrimLeft(a, "-")
		if t == name || strings.HasPrefix(t, name+"=") {
			continue
		}
		out = append(out, a)
	}
	return out
}

// runPlayText is `play --headless`: four bots play an offline match and the
// result is printed.
func runPlayText(ctx context.Context, args []string) error {
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
	fmt.Printf("Hostfall: %d bots play an offline match on a %d×%d map (seed %d).\n\n",
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
	fmt.Fprintf(r.out, "%6s  %s\n", status.GameTime(w.Turn()), strings.Join(parts, " | "))
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
			result = "out at " + status.GameTime(pi.OutTurn)
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
