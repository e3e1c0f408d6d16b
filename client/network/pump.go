package network

import (
	"context"
	"errors"
	"fmt"
	"time"

	"hostfall/client"
	"hostfall/savegame"
	"hostfall/session"
)

// pump turns the session's peer events into the screens' until the peer
// stops, then saves the replay and forgets the session.
func (c *Client) pump(s *netSession) {
	defer close(s.done)
	for running := true; running; {
		select {
		case ev := <-s.peer.Events():
			c.handle(s, ev)
		case <-s.peer.Done():
			running = false
		}
	}
	for more := true; more; { // what the peer said before it stopped
		select {
		case ev := <-s.peer.Events():
			c.handle(s, ev)
		default:
			more = false
		}
	}
	c.saveReplay(s)
	c.mu.Lock()
	if c.sess == s {
		c.sess = nil
	}
	c.mu.Unlock()
	s.cancel()
}

// handle takes in one event of the session's peer.
func (c *Client) handle(s *netSession, ev Event) {
	if c.opt.OnEvent != nil {
		c.opt.OnEvent(s.peer, ev)
	}
	c.auto(s, ev)
	c.record(s, ev)
	switch ev.Kind {
	case EvDesyncReport:
		c.report(ev)
		return
	case EvSaved:
		c.saved(ev)
		return
	case EvEnd:
		c.saveReplay(s)
		close(s.ended)
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if (ev.Kind == EvLobby || ev.Kind == EvJoined) && ev.Lobby != nil && ev.Lobby.State >= session.StateLoading && s.started == nil {
		// The lobby the game loads from (joining a game under way: the
		// one the host welcomed this peer into).
		l := ev.Lobby.Clone()
		s.started = &l
		s.players = client.SessionPlayers(&l)
	}
	switch ev.Kind {
	case EvLobby:
		return
	case EvRefused:
		s.refusal = ev.Text
	case EvLeft:
		if s.refusal != "" && ev.Text == s.refusal {
			return // the refusal said it already
		}
	case EvDesync:
		c.log.Warn("desync", "turn", ev.Turn)
	}
	names := s.started
	if names == nil {
		l := s.peer.Lobby()
		names = &l
	}
	if e, ok := convert(ev, names, c.tick, c.opt.Host.ID()); ok {
		c.push(e)
	}
}

// auto does what Options ask of a peer without a player: say ready once
// in, start once enough players are.
func (c *Client) auto(s *netSession, ev Event) {
	switch {
	case ev.Kind == EvJoined && c.opt.ReadyOnJoin && !s.peer.Status().IsHost:
		c.sayReady(s, ev)
	case ev.Kind == EvLobby && c.opt.StartWith > 0 && !s.autoStarted && ev.Lobby != nil &&
		ev.Lobby.State == session.StateLobby && readyHumans(ev.Lobby) >= c.opt.StartWith && s.peer.Status().IsHost:
		err := s.peer.withNode(start)
		s.autoStarted = err == nil
		if err != nil && !errors.Is(err, session.ErrNotReady) && !errors.Is(err, session.ErrOneSide) {
			c.log.Warn("cannot start", "err", err)
		}
	}
}

// sayReady says that the player who joined (ev) is ready, in the colour
// and team its slot has (an edit sets them all: a zero colour would take
// the host's).
func (c *Client) sayReady(s *netSession, ev Event) {
	e := session.SlotEdit{Name: s.name, Ready: true}
	if l := ev.Lobby; l != nil && ev.Slot >= 0 && ev.Slot < len(l.Slots) {
		e.Color, e.Team = l.Slots[ev.Slot].Color, l.Slots[ev.Slot].Team
	}
	if err := s.peer.withNode(func(n *session.Node) error { return n.EditSlot(e) }); err != nil && !errors.Is(err, session.ErrNotInLobby) {
		c.log.Warn("cannot say ready", "err", err)
	}
}

// readyHumans counts the ready human players of a lobby (the host is always ready).
func readyHumans(l *session.Lobby) int {
	n := 0
	for i, s := range l.Slots {
		if s.Kind == session.SlotHuman && (s.Ready || i == 0) {
			n++
		}
	}
	return n
}

// report writes a desync report and tells the player where it is.
func (c *Client) report(ev Event) {
	if c.opt.ReportDir == "" {
		return
	}
	path, err := WriteReport(c.opt.ReportDir, ev.Report)
	text := "A desync report was written to " + path + "."
	if err != nil {
		c.log.Error("desync report not written", "err", err)
		text = "The desync report could not be written: " + err.Error() + "."
	}
	c.notice(text)
	c.file(File{Kind: FileReport, Path: path, Turn: ev.Turn, Err: err})
}

// saved writes the save the peer made (Options.SaveAt) into SaveDir.
func (c *Client) saved(ev Event) {
	f := File{Kind: FileSave, Turn: ev.Turn, Hash: ev.Hash}
	switch {
	case ev.Saved == nil:
		f.Err = errors.New(ev.Text)
	case c.opt.SaveDir == "":
		f.Err = errors.New("The game was not saved: this Hostfall has no place to keep saves.")
	default:
		var err error
		if f.Path, err = savegame.WriteFile(c.opt.SaveDir, &savegame.Save{Saved: *ev.Saved, At: time.Now()}); err != nil {
			f.Err = fmt.Errorf("The game was not saved: %w.", err)
		}
	}
	if f.Err != nil {
		c.log.Error("game not saved", "turn", ev.Turn, "err", f.Err)
		c.notice(f.Err.Error())
	} else {
		c.notice(fmt.Sprintf("Game saved to %s.", f.Path))
	}
	c.file(f)
}

func (c *Client) file(f File) {
	if c.opt.OnFile != nil {
		c.opt.OnFile(f)
	}
}

// saveReplay closes the replay file, once, and says where it is.
func (c *Client) saveReplay(s *netSession) {
	if s.replay == nil {
		return
	}
	path, err := s.replay.Close()
	switch {
	case err != nil:
		c.log.Error("replay not saved", "err", err)
		c.notice("The replay could not be saved: " + err.Error() + ".")
	case path != "":
		c.notice("Replay saved to " + path + ".")
		c.file(File{Kind: FileReplay, Path: path})
	}
}

// nextReplay ends the session's replay file, which the game goes on from
// in a new one, and says where it is. It runs on the peer's loop.
func (c *Client) nextReplay(s *netSession) {
	path, err := s.replay.Next()
	switch {
	case err != nil:
		c.log.Error("replay not saved", "err", err)
		c.notice("The replay could not be saved: " + err.Error() + ".")
	case path != "":
		c.notice("Replay saved to " + path + "; the game's replay goes on in another file.")
		c.file(File{Kind: FileReplay, Path: path})
	}
}

func (c *Client) notice(text string) { c.push(client.Event{Kind: client.EvNotice, Text: text}) }

// Ended is closed when the game of the current session has ended (never,
// outside a session).
func (c *Client) Ended() <-chan struct{} {
	if s := c.current(); s != nil {
		return s.ended
	}
	return nil
}

// PlayOut waits, for a peer with no window, until the current session's
// game has ended and linger has passed (so the others receive its last
// turns), or until this peer cannot go on: refused, or out of the session
// (the error says why). It reads the client's events; a window reads them
// itself, so do not call it with one.
func (c *Client) PlayOut(ctx context.Context, linger time.Duration) error {
	s := c.current()
	if s == nil { // refused at once?
		for _, e := range c.Events(nil) {
			if e.Kind == client.EvRefused || e.Kind == client.EvLeft {
				return errors.New(e.Text)
			}
		}
		return ErrNotInGame
	}
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	var evs []client.Event
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-s.ended:
			select {
			case <-time.After(linger):
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		case <-tick.C:
		}
		select {
		case <-s.ended:
			continue // what the session says after the end is not the game's
		default:
		}
		evs = c.Events(evs[:0])
		for _, e := range evs {
			if e.Kind == client.EvRefused || e.Kind == client.EvLeft {
				return errors.New(e.Text)
			}
		}
	}
}
