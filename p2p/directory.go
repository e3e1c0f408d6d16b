package p2p

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-msgio/pbio"
	ma "github.com/multiformats/go-multiaddr"
	manet "github.com/multiformats/go-multiaddr/net"

	"hostfall/p2p/internal/dirpb"
	"hostfall/session"
)

// DirectoryProtocol is the session directory a Hostfall relay runs (seed
// 002's master server): hosts register their session and register again as
// a heartbeat; players list; an entry not refreshed within the TTL goes.
const DirectoryProtocol = "/hostfall/directory/1"

// Directory limits.
const (
	dirMaxRequest   = 4 << 10
	dirMaxResponse  = 1 << 20
	dirMaxEntries   = 1024
	dirMaxPerAddr   = 16 // sessions registered from one IP address: a LAN party behind one NAT fits, fresh peer IDs from one machine do not fill the directory
	dirListMax      = 256
	dirMinRegister  = 500 * time.Millisecond // the fastest a host may heartbeat
	dirStreamLimit  = 10 * time.Second
	DefaultDirTTL   = 30 * time.Second
	dirHeartbeatDiv = 3 // hosts register again every TTL/3
)

// ErrDirectory wraps every refusal of a directory.
var ErrDirectory = errors.New("session directory")

// DirectoryOptions set up a Directory.
type DirectoryOptions struct {
	TTL time.Duration // default DefaultDirTTL
	// Allow, when set, says who may register (anyone may list).
	Allow  func(peer.ID) bool
	Logger *slog.Logger
}

// Directory serves DirectoryProtocol on a libp2p host.
type Directory struct {
	h   host.Host
	opt DirectoryOptions
	log *slog.Logger
	now func() time.Time

	mu      sync.Mutex
	entries map[peer.ID]*dirEntry
}

type dirEntry struct {
	ann         Announcement
	txt         []string
	addr        string // the registering connection's IP address
	first, last time.Time
}

// NewDirectory starts serving the directory on h.
func NewDirectory(h host.Host, opt DirectoryOptions) *Directory {
	if opt.TTL <= 0 {
		opt.TTL = DefaultDirTTL
	}
	d := &Directory{h: h, opt: opt, log: orDefault(opt.Logger), now: time.Now, entries: map[peer.ID]*dirEntry{}}
	h.SetStreamHandler(DirectoryProtocol, d.handle)
	return d
}

// Close stops serving.
func (d *Directory) Close() { d.h.RemoveStreamHandler(DirectoryProtocol) }

// Sessions lists the live entries, sorted by name then host.
func (d *Directory) Sessions() []Announcement {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.expire()
	out := make([]Announcement, 0, len(d.entries))
	for _, e := range d.entries {
		out = append(out, e.ann)
	}
	slices.SortFunc(out, func(a, b Announcement) int {
		if c := strings.Compare(a.Name, b.Name); c != 0 {
			return c
		}
		return strings.Compare(string(a.Host), string(b.Host))
	})
	return out
}

func (d *Directory) handle(s network.Stream) {
	_ = s.SetDeadline(time.Now().Add(dirStreamLimit))
	from := s.Conn().RemotePeer()
	var req dirpb.Request
	if err := pbio.NewDelimitedReader(s, dirMaxRequest).ReadMsg(&req); err != nil {
		d.log.Debug("directory: bad request", "peer", from, "err", err)
		s.Reset()
		return
	}
	resp := d.serve(from, remoteIP(s.Conn().RemoteMultiaddr()), &req)
	if err := pbio.NewDelimitedWriter(s).WriteMsg(resp); err != nil {
		s.Reset()
		return
	}
	_ = s.Close()
}

// remoteIP is the IP address of a connection's far end ("" when it has none).
func remoteIP(a ma.Multiaddr) string {
	ip, err := manet.ToIP(a)
	if err != nil {
		return ""
	}
	return ip.String()
}

// serve answers one request from peer from at address addr.
func (d *Directory) serve(from peer.ID, addr string, req *dirpb.Request) *dirpb.Response {
	d.mu.Lock()
	defer d.mu.Unlock()
	now := d.now()
	d.expire()
	switch k := req.Kind.(type) {
	case *dirpb.Request_Register:
		return d.register(from, addr, k.Register.GetTxt(), now)
	case *dirpb.Request_Unregister:
		delete(d.entries, from)
		return &dirpb.Response{}
	case *dirpb.Request_List:
		return d.list(now)
	}
	return refusal(dirpb.Status_BAD_REQUEST, "The request is of no kind this directory knows.")
}

func (d *Directory) register(from peer.ID, addr string, txt []string, now time.Time) *dirpb.Response {
	if d.opt.Allow != nil && !d.opt.Allow(from) {
		return refusal(dirpb.Status_REFUSED, "This relay's directory only lists sessions of the peers it allows.")
	}
	a, err := DecodeTXT(txt)
	if err != nil {
		return refusal(dirpb.Status_BAD_REQUEST, fmt.Sprintf("The session could not be read: %v.", err))
	}
	if a.Host != from {
		return refusal(dirpb.Status_REFUSED, "A peer can only register its own session.")
	}
	e := d.entries[from]
	switch {
	case e == nil && len(d.entries) >= dirMaxEntries:
		return refusal(dirpb.Status_FULL, "The directory is full; try again later.")
	case e == nil && d.fromAddr(addr) >= dirMaxPerAddr:
		return refusal(dirpb.Status_FULL, fmt.Sprintf("Your address already has %d sessions in this directory; end one first.", dirMaxPerAddr))
	case e != nil && now.Sub(e.last) < dirMinRegister:
		return refusal(dirpb.Status_REFUSED, "Registered too often; wait a moment.")
	case e == nil:
		e = &dirEntry{first: now, addr: addr}
		d.entries[from] = e
		d.log.Debug("directory: session registered", "host", from, "name", a.Name)
	}
	e.ann, e.txt, e.last = a, a.TXT(), now
	return &dirpb.Response{TtlSeconds: uint32(d.opt.TTL / time.Second)}
}

func (d *Directory) list(now time.Time) *dirpb.Response {
	resp := &dirpb.Response{}
	for _, e := range d.entries {
		if len(resp.Entries) == dirListMax {
			break
		}
		resp.Entries = append(resp.Entries, &dirpb.Entry{Txt: e.txt, AgeSeconds: uint32(now.Sub(e.first) / time.Second)})
	}
	return resp
}

// fromAddr counts the entries registered from addr (mu held).
func (d *Directory) fromAddr(addr string) int {
	n := 0
	for _, e := range d.entries {
		if e.addr == addr {
			n++
		}
	}
	return n
}

// expire drops entries not refreshed within the TTL (mu held).
func (d *Directory) expire() {
	now := d.now()
	for id, e := range d.entries {
		if now.Sub(e.last) > d.opt.TTL {
			delete(d.entries, id)
		}
	}
}

func refusal(st dirpb.Status, text string) *dirpb.Response {
	return &dirpb.Response{Status: st, Text: text}
}

// dirCall sends one request to the directory of relay and returns the
// response; a refusal is an error that says why.
func dirCall(ctx context.Context, h host.Host, relay peer.AddrInfo, req *dirpb.Request) (*dirpb.Response, error) {
	ctx, cancel := context.WithTimeout(ctx, dirStreamLimit)
	defer cancel()
	if len(relay.Addrs) > 0 {
		if err := h.Connect(ctx, relay); err != nil {
			return nil, fmt.Errorf("%w: cannot reach the relay %s: %v", ErrDirectory, relay.ID, err)
		}
	}
	s, err := h.NewStream(ctx, relay.ID, DirectoryProtocol)
	if err != nil {
		return nil, fmt.Errorf("%w: the relay %s does not answer: %v", ErrDirectory, relay.ID, err)
	}
	defer s.Close()
	if dl, ok := ctx.Deadline(); ok {
		_ = s.SetDeadline(dl)
	}
	if err := pbio.NewDelimitedWriter(s).WriteMsg(req); err != nil {
		s.Reset()
		return nil, fmt.Errorf("%w: %v", ErrDirectory, err)
	}
	var resp dirpb.Response
	if err := pbio.NewDelimitedReader(s, dirMaxResponse).ReadMsg(&resp); err != nil {
		s.Reset()
		return nil, fmt.Errorf("%w: no answer: %v", ErrDirectory, err)
	}
	if resp.Status != dirpb.Status_OK {
		return nil, fmt.Errorf("%w refused (%v): %s", ErrDirectory, resp.Status, resp.Text)
	}
	return &resp, nil
}

// DirectoryRegister registers (or refreshes) a with the relay's directory
// and returns how soon it must be registered again.
func DirectoryRegister(ctx context.Context, h *Host, relay peer.AddrInfo, a Announcement) (time.Duration, error) {
	resp, err := dirCall(ctx, h.h, relay, &dirpb.Request{Kind: &dirpb.Request_Register{Register: &dirpb.Register{Txt: a.TXT()}}})
	if err != nil {
		return 0, err
	}
	return time.Duration(resp.TtlSeconds) * time.Second, nil
}

// DirectoryUnregister removes this peer's session from the directory.
func DirectoryUnregister(ctx context.Context, h *Host, relay peer.AddrInfo) error {
	_, err := dirCall(ctx, h.h, relay, &dirpb.Request{Kind: &dirpb.Request_Unregister{Unregister: &dirpb.Unregister{}}})
	return err
}

// DirectoryEntry is one session a relay's directory lists.
type DirectoryEntry struct {
	Announcement
	Age time.Duration
}

// DirectoryList lists the sessions registered with the relay's directory.
// Entries that cannot be read are skipped.
func DirectoryList(ctx context.Context, h *Host, relay peer.AddrInfo) ([]DirectoryEntry, error) {
	resp, err := dirCall(ctx, h.h, relay, &dirpb.Request{Kind: &dirpb.Request_List{List: &dirpb.List{}}})
	if err != nil {
		return nil, err
	}
	return directoryEntries(resp), nil
}

// directoryEntries reads a listing's entries, skipping those that cannot be
// read, sorted by name then host.
func directoryEntries(resp *dirpb.Response) []DirectoryEntry {
	var out []DirectoryEntry
	for _, e := range resp.Entries {
		a, err := DecodeTXT(e.Txt)
		if err != nil {
			continue
		}
		out = append(out, DirectoryEntry{Announcement: a, Age: time.Duration(e.AgeSeconds) * time.Second})
	}
	slices.SortFunc(out, func(a, b DirectoryEntry) int {
		if c := strings.Compare(a.Name, b.Name); c != 0 {
			return c
		}
		return strings.Compare(string(a.Host), string(b.Host))
	})
	return out
}

// RegisterLobby keeps p's session in the relay's directory while p hosts it
// (from the start or after a migration), registering again every TTL/3,
// and unregisters when p stops hosting or stop is called.
func RegisterLobby(ctx context.Context, h *Host, p Hosting, relay peer.AddrInfo, log *slog.Logger) (stop func()) {
	log = orDefault(log)
	registered := false
	var next time.Time
	var last []string
	register := func(ctx context.Context, l session.Lobby) {
		a := LobbyAnnouncement(h, &l, false)
		txt := a.TXT()
		if time.Now().Before(next) && slices.Equal(txt, last) {
			return
		}
		ttl, err := DirectoryRegister(ctx, h, relay, a)
		switch {
		case err != nil && ctx.Err() == nil:
			log.Warn("the session is not in the relay's directory", "err", err)
			next = time.Now().Add(5 * time.Second)
		case err == nil:
			if !registered {
				log.Debug("directory: session registered", "relay", relay.ID)
			}
			registered, last = true, txt
			next = time.Now().Add(max(ttl/dirHeartbeatDiv, time.Second))
		}
	}
	unregister := func() {
		if registered {
			uctx, ucancel := context.WithTimeout(context.Background(), 2*time.Second)
			_ = DirectoryUnregister(uctx, h, relay)
			ucancel()
			registered = false
		}
	}
	return whileHosting(ctx, p, announceEvery*5, register, unregister)
}

// DirectoryResolver finds a session by name in a relay's directory (join
// --relay R --session NAME).
type DirectoryResolver struct {
	Relay peer.AddrInfo
	Name  string
}

// Resolve lists the directory (again every second until ctx ends) and
// returns the host of the session with that name.
func (r DirectoryResolver) Resolve(ctx context.Context, h *Host) (peer.AddrInfo, error) {
	for {
		list, err := DirectoryList(ctx, h, r.Relay)
		if err == nil {
			seen := make([]Seen, len(list))
			for i, e := range list {
				seen[i] = Seen{Announcement: e.Announcement, First: time.Now().Add(-e.Age)}
			}
			if s, ok := pickSession(seen, r.Name); ok {
				return s.AddrInfo(), nil
			}
			err = fmt.Errorf("no session named %q in the relay's directory", r.Name)
		}
		select {
		case <-ctx.Done():
			return peer.AddrInfo{}, err
		case <-time.After(time.Second):
		}
	}
}
