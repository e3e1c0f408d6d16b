package network

// The record of the last game: while a peer plays a game with other players,
// it keeps in a file what it needs to find that game again after its
// process was stopped (killed, crashed, the machine restarted): the game's
// name, its host, every player's peer ID and the addresses known for them,
// and its own slot. `hostfall join --rejoin` and the browser's Rejoin button
// read it (Client.Rejoin). The file is named after the peer ID, so peers of
// several identities may share one data directory; it is replaced whole
// (a temporary file renamed over it), so a crash never leaves half of one.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"

	"hostfall/client"
	"hostfall/session"
)

// lastGameVersion is the record's format; a record of another is refused.
const lastGameVersion = 1

// Bounds of a record: it is read before anything else is known of it.
const (
	maxLastGameSize = 64 << 10
	maxMemberAddrs  = 16
	maxNameLen      = 64
)

// Why there is no record to rejoin with.
var (
	// ErrNoLastGame: this identity was not playing a game with others when
	// its process stopped (or the game ended, or the player left it).
	ErrNoLastGame = client.ErrNoLastGame
	// ErrBadLastGame: the record exists but cannot be used.
	ErrBadLastGame = errors.New("the record of the last game is damaged")
)

// LastGame is the record of the game a player is in.
type LastGame struct {
	Version  int          `json:"version"`
	Session  string       `json:"session"` // the session's name
	Self     peer.ID      `json:"self"`    // the player whose record it is
	Name     string       `json:"name"`    // the player's name in the game
	Slot     int          `json:"slot"`    // the player's slot
	Host     peer.ID      `json:"host"`    // the host when the record was written
	Password string       `json:"password,omitempty"`
	Members  []LastMember `json:"members"` // every player, in slot order, Self included
	Updated  time.Time    `json:"updated"`
}

// LastMember is one player of the last game.
type LastMember struct {
	Peer  peer.ID        `json:"peer"`
	Name  string         `json:"name"`
	Slot  int            `json:"slot"`
	Addrs []ma.Multiaddr `json:"addrs,omitempty"` // where it was reached (none for Self)
}

// DecodeLastGame reads a record, checking all of it: a damaged record is an
// error that says what is wrong with it, never a panic or half a record.
func DecodeLastGame(data []byte) (*LastGame, error) {
	if len(data) > maxLastGameSize {
		return nil, fmt.Errorf("%d bytes, more than a record ever takes (%d)", len(data), maxLastGameSize)
	}
	var g LastGame
	d := json.NewDecoder(bytes.NewReader(data))
	if err := d.Decode(&g); err != nil {
		return nil, fmt.Errorf("not a record: %w", err)
	}
	if d.More() {
		return nil, errors.New("not a record: more follows it")
	}
	if err := g.check(); err != nil {
		return nil, err
	}
	return &g, nil
}

// check verifies what DecodeLastGame cannot take on trust.
func (g *LastGame) check() error {
	switch {
	case g.Version != lastGameVersion:
		return fmt.Errorf("format %d, this Hostfall reads format %d", g.Version, lastGameVersion)
	case g.Session == "" || len(g.Session) > maxNameLen:
		return errors.New("no session name")
	case len(g.Name) > maxNameLen:
		return errors.New("the player's name is too long")
	case g.Self.Validate() != nil || g.Host.Validate() != nil:
		return errors.New("a peer ID is missing")
	case g.Slot < 0 || g.Slot >= session.MaxSlots:
		return fmt.Errorf("slot %d is no slot", g.Slot)
	case len(g.Members) < 2 || len(g.Members) > session.MaxSlots:
		return fmt.Errorf("%d players; a game has 2 to %d", len(g.Members), session.MaxSlots)
	}
	var self, host bool
	seen := map[peer.ID]bool{}
	for _, m := range g.Members {
		switch {
		case m.Peer.Validate() != nil:
			return errors.New("a player has no peer ID")
		case seen[m.Peer]:
			return fmt.Errorf("player %s is listed twice", m.Peer)
		case m.Slot < 0 || m.Slot >= session.MaxSlots || len(m.Name) > maxNameLen:
			return fmt.Errorf("player %s: slot %d", m.Peer, m.Slot)
		case len(m.Addrs) > maxMemberAddrs:
			return fmt.Errorf("player %s: %d addresses", m.Peer, len(m.Addrs))
		case slices.ContainsFunc(m.Addrs, func(a ma.Multiaddr) bool { return len(a) == 0 }):
			return fmt.Errorf("player %s: an empty address", m.Peer)
		}
		seen[m.Peer] = true
		self = self || m.Peer == g.Self && m.Slot == g.Slot
		host = host || m.Peer == g.Host
	}
	if !self {
		return errors.New("the player is not among the game's players in its slot")
	}
	if !host {
		return errors.New("the host is not among the game's players")
	}
	return nil
}

// Encode is the record as it is written.
func (g *LastGame) Encode() ([]byte, error) {
	return json.MarshalIndent(g, "", "  ")
}

// lastGamePath is where self's record lives in dir.
func lastGamePath(dir string, self peer.ID) string {
	return filepath.Join(dir, self.String()+".json")
}

// ReadLastGame reads self's record from dir: ErrNoLastGame when there is
// none, ErrBadLastGame (with what is wrong and what to do) when it is damaged.
func ReadLastGame(dir string, self peer.ID) (*LastGame, error) {
	path := lastGamePath(dir, self)
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%w: the player of identity %s was in no game with other players when Hostfall stopped "+
			"(or the game ended, or the player left it); join a game by its name, an invite code or an address", ErrNoLastGame, shortID(self.String()))
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxLastGameSize+1))
	if err != nil {
		return nil, err
	}
	g, err := DecodeLastGame(data)
	if err == nil && g.Self != self {
		err = fmt.Errorf("it is %s's, not %s's", g.Self, self)
	}
	if err != nil {
		return nil, fmt.Errorf("%w (%s: %v); delete it, and join the game by its name, an invite code or an address", ErrBadLastGame, path, err)
	}
	return g, nil
}

// WriteLastGame replaces g.Self's record in dir: written to a temporary
// file, then renamed over the old one, so a reader finds the old record or
// the new one, never a part. Only the player reads it (it may hold the
// session's password).
func WriteLastGame(dir string, g *LastGame) error {
	data, err := g.Encode()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".lastgame-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, lastGamePath(dir, g.Self))
	}
	if err != nil {
		_ = os.Remove(tmp)
	}
	return err
}

// RemoveLastGame removes self's record from dir, if there is one.
func RemoveLastGame(dir string, self peer.ID) error {
	err := os.Remove(lastGamePath(dir, self))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	return err
}

// targets are the players to ask for the game, in order: the host first,
// then the others in slot order; the player itself is left out.
func (g *LastGame) targets() []peer.AddrInfo {
	var out []peer.AddrInfo
	if m := g.member(g.Host); m != nil && g.Host != g.Self {
		out = append(out, m.addrInfo())
	}
	for i := range g.Members {
		if m := &g.Members[i]; m.Peer != g.Self && m.Peer != g.Host {
			out = append(out, m.addrInfo())
		}
	}
	return out
}

// member is the player with that peer ID, or nil.
func (g *LastGame) member(id peer.ID) *LastMember {
	for i := range g.Members {
		if g.Members[i].Peer == id {
			return &g.Members[i]
		}
	}
	return nil
}

func (m *LastMember) addrInfo() peer.AddrInfo {
	return peer.AddrInfo{ID: m.Peer, Addrs: slices.Clone(m.Addrs)}
}

// sameGame reports whether two records say the same but for the time.
func (g *LastGame) sameGame(o *LastGame) bool {
	if g == nil || o == nil {
		return false
	}
	a, b := *g, *o
	a.Updated, b.Updated = time.Time{}, time.Time{}
	ea, err1 := a.Encode()
	eb, err2 := b.Encode()
	return err1 == nil && err2 == nil && bytes.Equal(ea, eb)
}
