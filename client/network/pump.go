package network

import (
	"hostfall/client"
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
	switch ev.Kind {
	case EvDesyncReport:
		c.report(ev)
		return
	case EvEnd:
		c.saveReplay(s)
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	switch ev.Kind {
	case EvLobby:
		if ev.Lobby != nil && ev.Lobby.State >= session.StateLoading && s.started == nil {
			l := ev.Lobby.Clone()
			s.started = &l
			s.players = client.SessionPlayers(&l)
		}
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
	if e, ok := convert(ev, names, c.tick); ok {
		c.push(e)
	}
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
		if c.opt.OnReplay != nil {
			c.opt.OnReplay(path)
		}
	}
}

func (c *Client) notice(text string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.push(client.Event{Kind: client.EvNotice, Text: text})
}
