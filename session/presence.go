package session

import "slices"

// Presence: the host watches every player for silence, lag and a slow
// load, shows the wait, and marks a player away (its slot stays) or back
// at a sequenced turn.

// checkPeers finds players that are silent, disconnected or too far behind
// and shows the wait to everyone; when it runs out, a player in a game is
// away (its slot stays; nobody waits for it any more) and one in the lobby
// loses its seat. It reports whether the host must hold back.
func (h *hostState) checkPeers(n *Node) bool {
	stalled := false
	for _, pi := range slices.Clone(h.peers) {
		if pi.stallSince == -2 {
			continue // already leaving
		}
		silent := n.now-pi.heard > n.peerSilence(pi) || pi.connLost
		if pi.slot < 0 || n.hist.isDeparted(pi.slot) {
			if silent && n.now-pi.heard > n.cfg.DropTicks {
				h.dropPeer(n, pi.id, DepartLost) // a silent spectator
			}
			continue
		}
		if !pi.connLost && n.renewing(pi.id) {
			// A planned silence: hold the turns back if it lags, but
			// show nobody a wait.
			stalled = stalled || n.lobby.State == StatePlaying && n.hist.last() > pi.acked+uint64(n.cfg.MaxLagTurns)
			continue
		}
		if pi.away {
			h.maybeBack(n, pi, silent)
			continue
		}
		if pi.connLost && n.closed[pi.id] && n.lobby.State >= StateLoading {
			// Its end closed the connection: its process is gone (or it
			// hung up, a split the merge rule heals). Nobody waits for it;
			// its slot stays for its return.
			h.setAway(n, pi, true)
			continue
		}
		if h.waitFor(n, pi, silent) {
			stalled = stalled || n.lobby.State == StatePlaying
		}
	}
	return stalled
}

// waitFor counts down the wait for one player that is silent, lagging or
// slow to load, and ends it: back in step, away, or (in the lobby) gone. It
// reports whether the player is being waited for.
func (h *hostState) waitFor(n *Node, pi *peerInfo, silent bool) bool {
	lag := n.lobby.State == StatePlaying && n.hist.last() > pi.acked+uint64(n.cfg.MaxLagTurns)
	// A player still loading its game screen is waited for in the open
	// once the loading takes longer than a silence would, and for
	// LoadTicks as long as it answers: slow, not gone.
	loading := n.lobby.State == StateLoading && !h.loaded[pi.id] && n.now-h.loadFrom > n.cfg.FailTicks
	if pi.stallSince >= 0 && !silent && n.hist.last() <= pi.acked+uint64(n.cfg.MaxLagTurns/2) {
		lag = false // caught up well enough: end the wait (hysteresis, so it does not flap)
	} else if pi.stallSince >= 0 && !silent && n.lobby.State == StatePlaying {
		lag = true
	}
	if !silent && !lag && !loading {
		if pi.stallSince >= 0 {
			pi.stallSince = -1
			h.broadcastWait(n, pi.slot, 0)
		}
		// Keeping up refills the budget, slowly (budget.go); a long
		// load's wait does not weigh on the game's.
		pi.waited = min(pi.waited, n.cfg.DropTicks)
		if pi.waited > 0 && n.now%waitEarn == 0 {
			pi.waited--
		}
		return false
	}
	if n.lobby.State != StatePlaying && !silent && !loading {
		return false
	}
	pi.waited++
	left := n.cfg.DropTicks - pi.waited
	switch {
	case loading && !silent:
		left = n.cfg.LoadTicks - pi.waited
	case n.lobby.State == StatePlaying:
		pi.waitedMin.add(n.now)
		left = min(left, waitShare(n.cfg)-pi.waitedMin.total(n.now))
	}
	if pi.stallSince < 0 {
		pi.stallSince = n.now
		pi.lastWaitEv = n.now
	}
	switch {
	case left > 0:
		if pi.stallSince == n.now || n.now-pi.lastWaitEv >= n.cfg.CountdownTicks {
			pi.lastWaitEv = n.now
			h.broadcastWait(n, pi.slot, left)
		}
		return true
	case n.lobby.State >= StateLoading:
		h.setAway(n, pi, true)
	default:
		h.dropPeer(n, pi.id, DepartLost)
	}
	return false
}

// awaySlot reports whether slot is away at the next turn this host closes.
func (h *hostState) awaySlot(n *Node, slot int) bool {
	for i := len(h.openPres) - 1; i >= 0; i-- {
		if h.openPres[i].Slot == slot {
			return h.openPres[i].Away
		}
	}
	return n.hist.isAway(slot)
}

// setAway sequences slot going away (or coming back) in the next turn.
func (h *hostState) setAway(n *Node, pi *peerInfo, away bool) {
	pi.away = away // the wait budget stays spent (budget.go)
	if pi.stallSince >= 0 {
		pi.stallSince = -1
		h.broadcastWait(n, pi.slot, 0)
	}
	h.openPres = slices.DeleteFunc(h.openPres, func(p Presence) bool { return p.Slot == pi.slot })
	if n.hist.isAway(pi.slot) != away {
		h.openPres = append(h.openPres, Presence{Slot: pi.slot, Away: away})
	}
}

// maybeBack ends an away player's absence once it follows this host again
// and has caught up to within half the lag the host tolerates.
func (h *hostState) maybeBack(n *Node, pi *peerInfo, silent bool) {
	if _, moved := h.newer[pi.id]; silent || !pi.current || moved || n.hist.last() > pi.acked+uint64(n.cfg.MaxLagTurns/2) {
		return
	}
	if n.lobby.State >= StateLoading && !h.loaded[pi.id] {
		return // back once its game screen is up
	}
	h.setAway(n, pi, false)
}

func (h *hostState) broadcastWait(n *Node, slot, left int) {
	name := n.lobby.Slots[slot].Name
	switch {
	case slot == n.slot: // the others wait for this host: nothing to show here
	case left > 0:
		n.emit(Event{Kind: EvWaiting, Slot: slot, Name: name, TicksLeft: left})
	default:
		n.emit(Event{Kind: EvWaitOver, Slot: slot, Name: name})
	}
	for _, pi := range h.peers {
		if pi.slot != slot {
			n.hostSend(pi, Message{Kind: MsgWaiting, Slot: slot, Count: uint32(left)})
		}
	}
}

// waitOwnLoading shows the others that the game waits for this host's own
// loading, as it shows them a slow loader among them (see checkPeers).
func (h *hostState) waitOwnLoading(n *Node) {
	if n.slot < 0 || n.slot >= len(n.lobby.Slots) {
		return
	}
	if h.loaded[n.self] || n.lobby.State != StateLoading {
		if h.selfWait != 0 {
			h.selfWait = 0
			h.broadcastWait(n, n.slot, 0)
		}
		return
	}
	since := n.now - h.loadFrom - n.cfg.FailTicks
	if since <= 0 || h.selfWait != 0 && n.now-h.selfWait < n.cfg.CountdownTicks {
		return
	}
	h.selfWait = n.now
	h.broadcastWait(n, n.slot, max(n.cfg.LoadTicks-since, 1))
}

func (h *hostState) allLoaded(n *Node) bool {
	for i, s := range n.lobby.Slots {
		leaving := slices.ContainsFunc(h.openDeps, func(d Departure) bool { return d.Slot == i })
		if s.Kind == SlotHuman && !n.hist.isDeparted(i) && !h.loaded[s.Peer] && !leaving && !h.awaySlot(n, i) {
			return false
		}
	}
	return true
}
