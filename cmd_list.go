package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"hostfall/p2p"
)

func init() {
	register(command{
		name:    "list",
		summary: "list the sessions on the LAN (mDNS); --watch follows them",
		run:     runList,
	})
}

// sessionJSON is one session of `list --json`.
type sessionJSON struct {
	Name        string   `json:"name"`
	Host        string   `json:"host"`
	State       string   `json:"state"`
	Players     int      `json:"players"`
	MaxPlayers  int      `json:"max_players"`
	Password    bool     `json:"password"`
	Auto        bool     `json:"auto"`
	Protocol    int      `json:"protocol"`
	GameVersion string   `json:"game_version"`
	Joinable    bool     `json:"joinable"`
	Addrs       []string `json:"addrs"`
	Iface       string   `json:"iface"`
	Instance    string   `json:"instance"`
}

func toSessionJSON(s *p2p.Seen) sessionJSON {
	j := sessionJSON{Name: s.Name, Host: s.Host.String(), State: s.State.String(), Players: s.Players,
		MaxPlayers: s.MaxPlayers, Password: s.Password, Auto: s.Auto, Protocol: s.Protocol,
		GameVersion: s.GameVersion, Joinable: s.Joinable(gameVersion), Iface: s.Iface,
		Instance: s.Instance, Addrs: []string{}}
	for _, a := range s.DialInfo().Addrs {
		j.Addrs = append(j.Addrs, a.String())
	}
	return j
}

func runList(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("list", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print JSON (one array; with --watch one event a line)")
	timeout := fs.Duration("timeout", 1500*time.Millisecond, "how long to listen before printing")
	watch := fs.Bool("watch", false, "keep listening and print each session that appears, changes or goes")
	all := fs.Bool("all", false, "also list peers looking for an --auto game")
	var ifaces listFlag
	fs.Var(&ifaces, "iface", "browse only this interface (repeatable; default: every multicast interface)")
	addVerbose(fs)
	if err := parseArgs(fs, args); err != nil {
		return err
	}
	if *timeout <= 0 {
		return fmt.Errorf("%w: --timeout must be positive", errUsage)
	}
	log := slog.Default()
	b := p2p.Browse(ctx, p2p.BrowseOptions{Interfaces: ifaces, Logger: log})
	defer b.Close()
	keep := func(s *p2p.Seen) bool { return *all || s.State != p2p.AnnLooking }
	if *watch {
		return watchSessions(ctx, b, keep, *asJSON, os.Stdout)
	}
	select {
	case <-ctx.Done():
	case <-time.After(*timeout):
	}
	var out []sessionJSON
	for _, s := range b.Sessions() {
		if keep(&s) {
			out = append(out, toSessionJSON(&s))
		}
	}
	if *asJSON {
		if out == nil {
			out = []sessionJSON{}
		}
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	printSessions(os.Stdout, out)
	return nil
}

// watchSessions prints a line for each session that appears ("up"),
// changes ("changed") or goes ("down") until ctx is done.
func watchSessions(ctx context.Context, b *p2p.Browser, keep func(*p2p.Seen) bool, asJSON bool, w io.Writer) error {
	known := map[string]sessionJSON{}
	emit := func(ev string, s sessionJSON) {
		if asJSON {
			line, _ := json.Marshal(struct {
				Ev     string `json:"ev"`
				UnixMs int64  `json:"unix_ms"`
				sessionJSON
			}{ev, time.Now().UnixMilli(), s})
			fmt.Fprintf(w, "%s\n", line)
			return
		}
		fmt.Fprintf(w, "%-7s %q %s %d/%d host %s\n", ev, s.Name, s.State, s.Players, s.MaxPlayers, s.Host)
	}
	for {
		now := map[string]sessionJSON{}
		for _, s := range b.Sessions() {
			if keep(&s) {
				now[s.Host.String()] = toSessionJSON(&s)
			}
		}
		for id, s := range now {
			old, ok := known[id]
			switch {
			case !ok:
				emit("up", s)
			case !sameSessionJSON(old, s):
				emit("changed", s)
			}
		}
		for id, s := range known {
			if _, ok := now[id]; !ok {
				emit("down", s)
			}
		}
		known = now
		select {
		case <-ctx.Done():
			return nil
		case <-b.Changed():
		}
	}
}

func sameSessionJSON(a, b sessionJSON) bool {
	return a.Name == b.Name && a.State == b.State && a.Players == b.Players && a.MaxPlayers == b.MaxPlayers &&
		a.Password == b.Password && strings.Join(a.Addrs, " ") == strings.Join(b.Addrs, " ")
}

func printSessions(w io.Writer, ss []sessionJSON) {
	if len(ss) == 0 {
		fmt.Fprintln(w, "no sessions on the LAN")
		return
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tSTATE\tPLAYERS\tPASSWORD\tHOST")
	for _, s := range ss {
		pw := ""
		if s.Password {
			pw = "yes"
		}
		state := s.State
		if !s.Joinable && s.State == "lobby" {
			state += " (cannot join)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%d/%d\t%s\t%s\n", s.Name, state, s.Players, s.MaxPlayers, pw, s.Host)
	}
	tw.Flush()
}
