package network

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"hostfall/client"
	"hostfall/p2p/transport"
)

// Browser is where the lobby browser's sessions come from: the LAN (mDNS),
// a relay's directory, or a fixed list. Resolve turns a listing's ID into
// the host's address to dial.
type Browser interface {
	Sessions() []client.Listing
	Resolve(id string) (transport.AddrInfo, error)
}

// CodeResolver turns an invite code into the host's address (the relay
// side of package p2p/relay provides one).
type CodeResolver func(ctx context.Context, code string) (transport.AddrInfo, error)

// Static is a Browser over a fixed list that tests and tools fill: each
// listing with the address of its host. The zero value lists nothing.
type Static struct {
	mu    sync.Mutex
	list  []client.Listing
	addrs map[string]transport.AddrInfo
}

// Add lists a session whose host is at addr (replacing one of the same ID).
func (s *Static) Add(l client.Listing, addr transport.AddrInfo) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.addrs == nil {
		s.addrs = map[string]transport.AddrInfo{}
	}
	s.list = slices.DeleteFunc(s.list, func(x client.Listing) bool { return x.ID == l.ID })
	s.list = append(s.list, l)
	s.addrs[l.ID] = addr
}

// Remove takes a session off the list.
func (s *Static) Remove(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.list = slices.DeleteFunc(s.list, func(x client.Listing) bool { return x.ID == id })
	delete(s.addrs, id)
}

// Sessions returns the listed sessions in the order they were added.
func (s *Static) Sessions() []client.Listing {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.list)
}

// Resolve returns the address of a listed session's host.
func (s *Static) Resolve(id string) (transport.AddrInfo, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	a, ok := s.addrs[id]
	if !ok {
		return transport.AddrInfo{}, fmt.Errorf("the game %q is no longer listed", id)
	}
	return a, nil
}

// Listing describes the session this client is in, as a browser lists it,
// with the address of this machine's host: what a Static browser needs to
// offer the game to another client (tests; tools on one machine).
func (c *Client) Listing(id string) (client.Listing, transport.AddrInfo, bool) {
	s := c.current()
	if s == nil {
		return client.Listing{}, transport.AddrInfo{}, false
	}
	l := s.peer.Lobby()
	st := s.peer.Status()
	if !st.Joined {
		return client.Listing{}, transport.AddrInfo{}, false
	}
	li := client.Listing{ID: id, Name: l.Name, State: l.State, Locked: l.Password, Source: client.SourceLAN,
		Players: len(client.SessionPlayers(&l)), Max: int(l.MaxPlayers), Host: hostName(&l, st.Host.String())}
	return li, c.Addr(), true
}
