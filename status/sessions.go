package status

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"hostfall/p2p/discovery"
	"hostfall/session"
)

// sessionJSON is one session of `list --json`. Scripts and tests read these
// field names: they are part of the operating contract.
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

// toSessionJSON is s as `list` shows it to a peer of gameVersion.
func toSessionJSON(s *discovery.Seen, gameVersion string) sessionJSON {
	j := sessionJSON{Name: s.Name, Host: s.Host.String(), State: s.State.String(), Players: s.Players,
		MaxPlayers: s.MaxPlayers, Password: s.Password, Auto: s.Auto, Protocol: s.Protocol,
		GameVersion: s.GameVersion, Joinable: s.Joinable(session.ProtocolVersion, gameVersion), Iface: s.Iface,
		Instance: s.Instance, Addrs: []string{}}
	for _, a := range s.DialInfo().Addrs {
		j.Addrs = append(j.Addrs, a.String())
	}
	return j
}

// Sessions prints the sessions seen, as `list` does: one indented JSON
// array (empty when there are none) or a table for a person. gameVersion
// is this program's: a lobby of another version is not joinable.
func Sessions(w io.Writer, seen []discovery.Seen, gameVersion string, asJSON bool) error {
	ss := []sessionJSON{}
	for i := range seen {
		ss = append(ss, toSessionJSON(&seen[i], gameVersion))
	}
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(ss)
	}
	printSessions(w, ss)
	return nil
}

// SessionChanges prints what changed in the sessions seen, as `list
// --watch` does: a line for each session as it appears ("up"), changes
// ("changed") or goes ("down"); with JSON one object a line, the session's
// fields after "ev" and "unix_ms". The zero value has seen nothing yet.
type SessionChanges struct {
	Out         io.Writer
	JSON        bool
	GameVersion string // this program's: a lobby of another version is not joinable
	known       map[string]sessionJSON
}

// Print prints the changes from the sessions of the last call to seen.
func (c *SessionChanges) Print(seen []discovery.Seen) {
	now := map[string]sessionJSON{}
	for i := range seen {
		now[seen[i].Host.String()] = toSessionJSON(&seen[i], c.GameVersion)
	}
	for id, s := range now {
		old, ok := c.known[id]
		switch {
		case !ok:
			c.emit("up", s)
		case !sameSessionJSON(old, s):
			c.emit("changed", s)
		}
	}
	for id, s := range c.known {
		if _, ok := now[id]; !ok {
			c.emit("down", s)
		}
	}
	c.known = now
}

func (c *SessionChanges) emit(ev string, s sessionJSON) {
	if c.JSON {
		line, _ := json.Marshal(struct {
			Ev     string `json:"ev"`
			UnixMs int64  `json:"unix_ms"`
			sessionJSON
		}{ev, time.Now().UnixMilli(), s})
		fmt.Fprintf(c.Out, "%s\n", line)
		return
	}
	fmt.Fprintf(c.Out, "%-7s %q %s %d/%d host %s\n", ev, s.Name, s.State, s.Players, s.MaxPlayers, s.Host)
}

// sameSessionJSON: what a watcher would call no change.
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
