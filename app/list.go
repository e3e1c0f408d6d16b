package app

import (
	"context"
	"io"
	"log/slog"
	"slices"
	"time"

	"hostfall/p2p/discovery"
	"hostfall/status"
)

// Listing is what list looks for on the LAN.
type Listing struct {
	Interfaces []string      // browse only these; none means every multicast interface
	All        bool          // also the peers looking for an --auto game
	Watch      bool          // keep listening and print each change
	Timeout    time.Duration // without Watch, how long to listen before printing
	JSON       bool
}

// List prints the sessions that mDNS and beacons find on the LAN to out.
func List(ctx context.Context, l Listing, out io.Writer) error {
	b := discovery.Browse(ctx, discovery.BrowseOptions{Interfaces: l.Interfaces, Logger: slog.Default()})
	defer b.Close()
	keep := func(s *discovery.Seen) bool { return l.All || s.State != discovery.AnnLooking }
	kept := func() []discovery.Seen {
		return slices.DeleteFunc(b.Sessions(), func(s discovery.Seen) bool { return !keep(&s) })
	}
	if l.Watch {
		changes := &status.SessionChanges{Out: out, JSON: l.JSON, GameVersion: GameVersion}
		for {
			changes.Print(kept())
			select {
			case <-ctx.Done():
				return nil
			case <-b.Changed():
			}
		}
	}
	select {
	case <-ctx.Done():
	case <-time.After(l.Timeout):
	}
	return status.Sessions(out, kept(), GameVersion, l.JSON)
}
