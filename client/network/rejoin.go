package network

// Rejoining the last game. While the player is in a game with other
// players, the session's pump keeps the record of it (LastGame) in
// Options.LastGameDir up to date: written when the game loads, again when
// the host or the players or their addresses change, removed when the game
// ends, when the player's slot leaves it or is out of it, or when the player
// leaves (Leave, Close: the player's own action). A process that is killed
// leaves it behind; Rejoin reads it and asks the game's players for the
// game, the host first: the host seats a known player in its own slot and
// sends it a snapshot plus the turns since, and a member that is not the
// host names its host.

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"

	"hostfall/client"
	"hostfall/game"
	"hostfall/session"
)

// How long Rejoin waits for one player: to reach it, then for its answer.
// A player that does not answer is asked again in the next round.
const (
	askDial   = 3 * time.Second
	askAnswer = 3 * time.Second
	askRounds = 500 * time.Millisecond // between two rounds of asking everyone
)

// catchUpSlack: a rejoining player within this many turns of the host's
// newest has caught up (the input delay holds a few turns back anyway).
const catchUpSlack = 10

// defaultRejoinTimeout bounds a Rejoin when Options.RejoinTimeout is 0.
const defaultRejoinTimeout = 30 * time.Second

// rejoining is the progress of a session that rejoins the last game.
type rejoining struct {
	rec *LastGame

	mu     sync.Mutex
	asking string // the player being asked now
	done   bool   // caught up: the rejoin is over
}

func (r *rejoining) ask(name string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.asking = name
}

// status is the rejoin's progress as p's status shows it.
func (r *rejoining) status(st Status) client.RejoinStatus {
	r.mu.Lock()
	defer r.mu.Unlock()
	game := r.rec.Session
	out := client.RejoinStatus{Game: game, Active: !r.done && !st.Left, Joined: st.Joined}
	if st.Joined {
		out.Turn, out.Of = st.Turn, st.HostTurn
	}
	switch {
	case !out.Active:
	case !st.Joined:
		out.Text = fmt.Sprintf("Rejoining %s… asking %s for the game", game, r.asking)
	case st.Turn == 0:
		out.Text = fmt.Sprintf("Rejoining %s… loading the game", game)
	case st.HostTurn > st.Turn+catchUpSlack:
		out.Text = fmt.Sprintf("Rejoining %s… catching up turn %d/%d", game, st.Turn, st.HostTurn)
	default:
		r.done = true
		out.Active = false
	}
	return out
}

// Rejoin takes the player back into the game of the last record: it asks
// the game's players for it, on a goroutine, and returns at once. The
// game's host takes the player back into its own slot; the lobby and the
// game follow as after Join, and Rejoining tells the progress. Without a
// record, or with a damaged one, it returns why (ErrNoLastGame,
// ErrBadLastGame); when nobody answers within Options.RejoinTimeout, an
// EvRefused says so and the record stays for another try.
func (c *Client) Rejoin(o client.JoinOptions) error {
	rec, err := c.readLast()
	if err != nil {
		return err
	}
	if o.PlayerName == "" {
		o.PlayerName = rec.Name
	}
	if o.Password == "" {
		o.Password = rec.Password
	}
	rj := &rejoining{rec: rec}
	s, err := c.begin(sessionOpts{name: o.PlayerName, password: o.Password, rejoin: rj})
	if err != nil {
		return err
	}
	c.log.Info("rejoining the last game", "session", rec.Session, "host", rec.Host, "slot", rec.Slot, "written", rec.Updated)
	timeout := c.opt.RejoinTimeout
	if timeout <= 0 {
		timeout = defaultRejoinTimeout
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		defer cancel()
		if why := c.seek(ctx, s, rec, timeout); why != "" {
			s.peer.Abandon() // a host that answers late must not hear this player left
			c.drop(s, why)
		}
	}()
	return nil
}

// seek asks the game's players, in rounds, until one of them takes the
// player back or refuses it; a member that names its host sends the search
// there next. It returns the refusal to show, or "".
func (c *Client) seek(ctx context.Context, s *netSession, rec *LastGame, timeout time.Duration) string {
	began := time.Now()
	lan := c.opt.Browser
	if lan == nil && c.opt.LANBrowser != nil {
		lan = c.opt.LANBrowser(ctx)
	}
	c.awaitRelay(ctx)
	for ctx.Err() == nil {
		cands := append(rec.targets(), lanHosts(lan, rec)...)
		asked := map[peer.ID]bool{} // this round: each player once, so two that name each other cannot loop
		for i := 0; i < len(cands) && ctx.Err() == nil; i++ {
			ai := cands[i]
			if asked[ai.ID] {
				continue
			}
			asked[ai.ID] = true
			s.rejoin.ask(rec.member(ai.ID).Name)
			answered, host := c.ask(ctx, s, ai)
			if answered {
				c.log.Info("the game answered", "asked", ai.ID, "host", s.peer.Status().Host, "after", time.Since(began))
				if c.opt.OnFound != nil {
					c.opt.OnFound(ai, time.Since(began))
				}
				return ""
			}
			if host != "" && rec.member(host) != nil && !asked[host] {
				c.log.Info("a player named its host", "asked", ai.ID, "host", host)
				next := rec.member(host).addrInfo()
				next.Addrs = append(next.Addrs, c.opt.Host.LibP2P().Peerstore().Addrs(host)...)
				// The player who answered relays for its game: a host this
				// peer cannot reach directly is reached through it.
				next.Addrs = append(next.Addrs, c.opt.Host.CircuitsVia(ai.ID)...)
				cands = slices.Insert(slices.DeleteFunc(cands[i+1:], func(x peer.AddrInfo) bool { return x.ID == host }), 0, next)
				i = -1
			}
		}
		select {
		case <-ctx.Done():
		case <-time.After(askRounds):
		}
	}
	where := ""
	if lan != nil {
		where = ", and the games on the LAN were looked through"
	}
	asked := fmt.Sprintf("its %d other players were asked", len(rec.Members)-1)
	if len(rec.Members) == 2 {
		asked = "its other player was asked"
	}
	return fmt.Sprintf("Nobody in \"%s\" answered within %d s (%s%s): the game may be over, "+
		"or its players are out of reach. Try again, or join another game.", rec.Session, int(timeout.Seconds()),
		asked, where)
}

// ask asks one player for the game. It reports whether the game answered
// (took the player back or refused it: the events say which), or else the
// host the player named instead, if it did.
func (c *Client) ask(ctx context.Context, s *netSession, ai peer.AddrInfo) (answered bool, host peer.ID) {
	dctx, cancel := context.WithTimeout(ctx, askDial)
	err := s.peer.Join(dctx, ai)
	cancel()
	switch {
	case errors.Is(err, ErrAnswered) || errors.Is(err, ErrClosed):
		return true, ""
	case err != nil:
		c.log.Debug("cannot ask for the game", "peer", ai.ID, "err", err)
		return false, ""
	}
	deadline := time.After(askAnswer)
	for {
		st := s.peer.Status()
		switch {
		case st.Joined || st.Left:
			return true, ""
		case st.Redirect != "" && st.Redirect != ai.ID:
			return false, st.Redirect
		}
		select {
		case <-s.peer.Done():
			return true, ""
		case <-ctx.Done():
			return false, ""
		case <-deadline:
			return false, ""
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// lanHosts are the hosts of the sessions lan lists under the game's name
// whose host is one of the game's players (a game of the same name is not
// this one).
func lanHosts(lan Browser, rec *LastGame) []peer.AddrInfo {
	if lan == nil {
		return nil
	}
	var out []peer.AddrInfo
	for _, l := range lan.Sessions() {
		if l.Name != rec.Session || l.State < session.StateCountdown {
			continue
		}
		ai, err := lan.Resolve(l.ID)
		if err == nil && ai.ID != rec.Self && rec.member(ai.ID) != nil {
			out = append(out, ai)
		}
	}
	return out
}

// Rejoining is the progress of the rejoin under way (client.Rejoiner).
func (c *Client) Rejoining() client.RejoinStatus {
	s := c.current()
	if s == nil || s.rejoin == nil {
		return client.RejoinStatus{}
	}
	return s.rejoin.status(s.peer.Status())
}

// LastGame describes the game the record names (client.Rejoiner).
func (c *Client) LastGame() (client.LastGame, error) {
	rec, err := c.readLast()
	if err != nil {
		return client.LastGame{}, err
	}
	g := client.LastGame{Name: rec.Session, Updated: rec.Updated}
	for _, m := range rec.Members {
		if m.Peer != rec.Self {
			g.Players = append(g.Players, m.Name)
		}
	}
	return g, nil
}

// ForgetLastGame removes the record, damaged or not (client.Rejoiner).
func (c *Client) ForgetLastGame() {
	if c.opt.LastGameDir == "" {
		return
	}
	c.lastMu.Lock()
	defer c.lastMu.Unlock()
	if err := RemoveLastGame(c.opt.LastGameDir, c.opt.Host.ID()); err != nil {
		c.log.Warn("the record of the last game was not removed", "err", err)
	}
	c.last, c.lastErr, c.lastRead = nil, fmt.Errorf("%w: the record was dropped", ErrNoLastGame), true
}

// readLast returns the record, read from its file once and kept since.
func (c *Client) readLast() (*LastGame, error) {
	if c.opt.LastGameDir == "" {
		return nil, fmt.Errorf("%w: this Hostfall keeps no record of its games", ErrNoLastGame)
	}
	c.lastMu.Lock()
	defer c.lastMu.Unlock()
	if !c.lastRead {
		c.last, c.lastErr = ReadLastGame(c.opt.LastGameDir, c.opt.Host.ID())
		c.lastRead = true
	}
	return c.last, c.lastErr
}

// record keeps the record of the last game as the session's events say
// (on the session's pump).
func (c *Client) record(s *netSession, ev Event) {
	if c.opt.LastGameDir == "" {
		return
	}
	switch ev.Kind {
	case EvEnd:
		c.unrecord(s, "the game ended")
	case EvPlayerLeft:
		if ev.Slot == s.peer.Status().Slot {
			c.unrecord(s, "the player's slot left the game")
		}
	case EvRefused:
		if s.rejoin != nil {
			c.unrecord(s, "the game refused the player")
		}
	case EvJoined:
		if s.rejoin != nil && ev.Slot < 0 {
			c.unrecord(s, "the player's slot is no longer in the game")
			c.notice("Your slot is no longer in " + s.rejoin.rec.Session + ": you are watching the game.")
		}
		c.keep(s)
	case EvLobby, EvGameStarted, EvHostChanged, EvTurn:
		c.keep(s)
	}
}

// keep writes the record of s's game when it says something new.
func (c *Client) keep(s *netSession) {
	rec, out := c.recordOf(s)
	c.lastMu.Lock()
	defer c.lastMu.Unlock()
	if s.unrecorded {
		return
	}
	if out {
		c.unrecordLocked(s, "the player is out of the game")
		return
	}
	if rec == nil || rec.sameGame(c.last) {
		return
	}
	if err := WriteLastGame(c.opt.LastGameDir, rec); err != nil {
		c.log.Warn("the record of the last game was not written", "err", err)
		return
	}
	c.last, c.lastErr, c.lastRead, s.recorded = rec, nil, true, true
}

// recordOf is the record of s's game, or nil while there is none to keep:
// before the game loads, for a spectator, while the host is changing, or in
// a game without other players (nobody could take the player back). out
// reports that the player is out of the game (defeated or surrendered).
func (c *Client) recordOf(s *netSession) (rec *LastGame, out bool) {
	st := s.peer.Status()
	if !st.Joined || st.Left || st.Over || st.Slot < 0 || st.State < session.StateLoading || st.Host == "" {
		return nil, false
	}
	if me, ok := c.meIn(s); ok {
		s.peer.View(func(w *game.World) { out = int(me) < w.NumPlayers() && w.Player(me).Out })
	}
	l := s.peer.Lobby()
	if st.Slot >= len(l.Slots) {
		return nil, out
	}
	self := c.opt.Host.ID()
	rec = &LastGame{Version: lastGameVersion, Session: l.Name, Self: self, Name: l.Slots[st.Slot].Name, Slot: st.Slot,
		Host: st.Host, Password: s.password, Updated: time.Now().UTC().Truncate(time.Second)}
	for i, sl := range l.Slots {
		id, err := peer.Decode(string(sl.Peer))
		if sl.Kind != session.SlotHuman || err != nil {
			continue
		}
		m := LastMember{Peer: id, Name: sl.Name, Slot: i}
		if id != self {
			m.Addrs = c.addrsOf(id)
		}
		rec.Members = append(rec.Members, m)
	}
	if rec.check() != nil { // alone in the game, or a host not in the lobby yet
		return nil, out
	}
	return rec, out
}

// addrsOf is where id was reached, as this machine's host knows it.
func (c *Client) addrsOf(id peer.ID) []ma.Multiaddr {
	addrs := c.opt.Host.LibP2P().Peerstore().Addrs(id)
	slices.SortFunc(addrs, func(a, b ma.Multiaddr) int { return strings.Compare(a.String(), b.String()) })
	return addrs[:min(len(addrs), maxMemberAddrs)]
}

// unrecord removes the record s wrote or rejoins: the player will not go
// back to that game.
func (c *Client) unrecord(s *netSession, why string) {
	if c.opt.LastGameDir == "" {
		return
	}
	c.lastMu.Lock()
	defer c.lastMu.Unlock()
	c.unrecordLocked(s, why)
}

func (c *Client) unrecordLocked(s *netSession, why string) {
	if s.unrecorded {
		return
	}
	s.unrecorded = true
	if !s.recorded && s.rejoin == nil {
		return // the record on disk, if any, is another game's
	}
	if err := RemoveLastGame(c.opt.LastGameDir, c.opt.Host.ID()); err != nil {
		c.log.Warn("the record of the last game was not removed", "err", err)
		return
	}
	c.log.Debug("the record of the last game is removed", "why", why)
	c.last, c.lastErr, c.lastRead = nil, fmt.Errorf("%w: %s", ErrNoLastGame, why), true
}

func plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}
