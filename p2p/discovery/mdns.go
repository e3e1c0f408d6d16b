package discovery

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hashicorp/mdns"
	"github.com/miekg/dns"
	ma "github.com/multiformats/go-multiaddr"
	manet "github.com/multiformats/go-multiaddr/net"

	"hostfall/internal/clip"
	"hostfall/p2p/beacon"
	"hostfall/p2p/transport"
)

// mDNS facts this file is built around (hashicorp/mdns v1.0.7): the server
// answers queries, always by unicast to the asker, and never announces by
// itself; a query waits its whole timeout. So browsers ask again and again
// with a short timeout and notice departures by absence, and an advertiser
// runs one responder per interface (a responder joins the group on one).

// recordTTL is the TTL of our records. Other browsers (avahi) cache them that
// long when a host vanishes without a goodbye; short keeps their lists live.
const recordTTL = 20

// ifaceRefresh is how often the advertiser and the browser look for new or
// removed network interfaces.
const ifaceRefresh = 2 * time.Second

// AdvertiseOptions tune an Advertiser. The zero value advertises on every
// multicast interface.
type AdvertiseOptions struct {
	// Interfaces to advertise on (names); empty means every interface that
	// is up, not loopback, multicast-capable and has an IPv4 address.
	Interfaces []string
	Logger     *slog.Logger
}

// Advertiser answers mDNS queries for one announcement until Close. Update
// changes what it answers (players joined, the game started).
type Advertiser struct {
	opt  AdvertiseOptions
	log  *slog.Logger
	zone zone

	mu      sync.Mutex
	servers map[string]*mdns.Server // by interface name
	closed  bool
	stop    chan struct{}
	done    chan struct{}
}

// zone serves the current service; Update swaps it atomically.
type zone struct {
	svc atomic.Pointer[mdns.MDNSService]
}

func (z *zone) Records(q dns.Question) []dns.RR {
	svc := z.svc.Load()
	if svc == nil {
		return nil
	}
	rrs := svc.Records(q)
	for _, rr := range rrs {
		rr.Header().Ttl = recordTTL
	}
	return rrs
}

// Advertise starts answering for a on the LAN.
func Advertise(a Announcement, opt AdvertiseOptions) (*Advertiser, error) {
	ad := &Advertiser{opt: opt, log: cmp.Or(opt.Logger, slog.Default()), servers: map[string]*mdns.Server{},
		stop: make(chan struct{}), done: make(chan struct{})}
	if err := ad.Update(a); err != nil {
		return nil, err
	}
	if err := ad.refresh(); err != nil {
		return nil, err
	}
	go ad.watch()
	return ad, nil
}

// Update replaces the announcement.
func (ad *Advertiser) Update(a Announcement) error {
	svc, err := service(a, lanIPs(ad.opt.Interfaces))
	if err != nil {
		return err
	}
	ad.zone.svc.Store(svc)
	return nil
}

// Close stops answering and sends a goodbye (TTL 0) so other browsers that
// listen for them, such as avahi, drop the session at once.
func (ad *Advertiser) Close() error {
	ad.mu.Lock()
	if ad.closed {
		ad.mu.Unlock()
		return nil
	}
	ad.closed = true
	close(ad.stop)
	ad.mu.Unlock()
	<-ad.done
	ad.mu.Lock()
	defer ad.mu.Unlock()
	var names []string
	for name, s := range ad.servers {
		_ = s.Shutdown()
		names = append(names, name)
	}
	ad.servers = nil
	if svc := ad.zone.svc.Load(); svc != nil {
		goodbye(svc, names, ad.log)
	}
	return nil
}

func (ad *Advertiser) watch() {
	defer close(ad.done)
	t := time.NewTicker(ifaceRefresh)
	defer t.Stop()
	for {
		select {
		case <-ad.stop:
			return
		case <-t.C:
			if err := ad.refresh(); err != nil {
				ad.log.Debug("mdns: no interface to advertise on", "err", err)
			}
			// Interface addresses may have changed too.
			if svc := ad.zone.svc.Load(); svc != nil {
				if a, err := DecodeTXT(svc.TXT); err == nil {
					_ = ad.Update(a)
				}
			}
		}
	}
}

// refresh starts a responder on each new interface and stops those of
// interfaces that went away.
func (ad *Advertiser) refresh() error {
	ifaces := multicastInterfaces(ad.opt.Interfaces)
	ad.mu.Lock()
	defer ad.mu.Unlock()
	if ad.closed {
		return nil
	}
	seen := map[string]bool{}
	for _, ifi := range ifaces {
		seen[ifi.Name] = true
		if ad.servers[ifi.Name] != nil {
			continue
		}
		s, err := mdns.NewServer(&mdns.Config{Zone: &ad.zone, Iface: &ifi, Logger: mdnsLogger(ad.log)})
		if err != nil {
			ad.log.Warn("mdns: cannot advertise on an interface", "iface", ifi.Name, "err", err)
			continue
		}
		ad.servers[ifi.Name] = s
		ad.log.Debug("mdns: advertising", "iface", ifi.Name)
	}
	for name, s := range ad.servers {
		if !seen[name] {
			_ = s.Shutdown()
			delete(ad.servers, name)
		}
	}
	if len(ad.servers) == 0 {
		return fmt.Errorf("no up, multicast-capable interface with an IPv4 address")
	}
	return nil
}

// service builds the DNS-SD records of a: instance "<name> (<short id>)",
// host "hf-<id>.local." (unique per peer: several peers may share a machine),
// SRV port the TCP port (or else the QUIC port), the TXT of a.
func service(a Announcement, ips []net.IP) (*mdns.MDNSService, error) {
	if len(ips) == 0 {
		ips = []net.IP{net.IPv4zero} // no interface yet; refreshed later
	}
	id := a.Host.String()
	short := strings.ToLower(id[max(0, len(id)-10):])
	label := a.Name
	if label == "" {
		label = "hostfall"
	}
	instance := clip.String(instanceSafe(label), 63-len(short)-3) + " (" + short + ")"
	return mdns.NewMDNSService(instance, ServiceType, ServiceDomain, "hf-"+short+".local.",
		srvPort(a.Addrs), ips, a.TXT())
}

// instanceSafe keeps characters that survive DNS presentation format
// unescaped in every tool; others become '-'.
func instanceSafe(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '.' || r == '\\' || r == '"' || r == ';' || r == '(' || r == ')' || r == '@' || r == '$':
			return '-'
		case r < ' ' || r == 0x7f:
			return -1
		}
		return r
	}, s)
}

// srvPort is the port of the first TCP address, else of the first UDP one,
// else 9 (discard): the SRV record must name one and joiners use the TXT.
func srvPort(addrs []ma.Multiaddr) int {
	for _, proto := range []int{ma.P_TCP, ma.P_UDP} {
		for _, m := range addrs {
			if v, err := m.ValueForProtocol(proto); err == nil {
				var port int
				if _, err := fmt.Sscan(v, &port); err == nil && port > 0 {
					return port
				}
			}
		}
	}
	return 9
}

// goodbye multicasts the PTR record with TTL 0 on each interface (RFC 6762
// §10.1): listening browsers forget the instance now rather than at expiry.
func goodbye(svc *mdns.MDNSService, ifaces []string, log *slog.Logger) {
	rrs := svc.Records(dns.Question{Name: fmt.Sprintf("%s.%s", ServiceType, ServiceDomain), Qtype: dns.TypePTR, Qclass: dns.ClassINET})
	if len(rrs) == 0 {
		return
	}
	ptr := rrs[0]
	ptr.Header().Ttl = 0
	msg := &dns.Msg{MsgHdr: dns.MsgHdr{Response: true, Authoritative: true}, Answer: []dns.RR{ptr}}
	buf, err := msg.Pack()
	if err != nil {
		return
	}
	group := &net.UDPAddr{IP: net.IPv4(224, 0, 0, 251), Port: 5353}
	for _, name := range ifaces {
		ifi, err := net.InterfaceByName(name)
		if err != nil {
			continue
		}
		ip := firstIPv4(ifi)
		if ip == nil {
			continue
		}
		c, err := net.ListenUDP("udp4", &net.UDPAddr{IP: ip})
		if err != nil {
			continue
		}
		if _, err := c.WriteToUDP(buf, group); err != nil {
			log.Debug("mdns: goodbye not sent", "iface", name, "err", err)
		}
		c.Close()
	}
}

// multicastInterfaces lists the interfaces mDNS can use: up, multicast,
// not loopback, with an IPv4 address; only those named in only, if any.
func multicastInterfaces(only []string) []net.Interface {
	all, err := net.Interfaces()
	if err != nil {
		return nil
	}
	var out []net.Interface
	for _, ifi := range all {
		if ifi.Flags&net.FlagUp == 0 || ifi.Flags&net.FlagMulticast == 0 || ifi.Flags&net.FlagLoopback != 0 {
			continue
		}
		if len(only) > 0 && !contains(only, ifi.Name) {
			continue
		}
		if firstIPv4(&ifi) != nil {
			out = append(out, ifi)
		}
	}
	return out
}

// lanIPs are the addresses of the mDNS interfaces, for A and AAAA records.
func lanIPs(only []string) []net.IP {
	var ips []net.IP
	for _, ifi := range multicastInterfaces(only) {
		addrs, _ := ifi.Addrs()
		for _, a := range addrs {
			if n, ok := a.(*net.IPNet); ok && !n.IP.IsLinkLocalUnicast() {
				ips = append(ips, n.IP)
			}
		}
	}
	return ips
}

func firstIPv4(ifi *net.Interface) net.IP {
	addrs, _ := ifi.Addrs()
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && n.IP.To4() != nil {
			return n.IP.To4()
		}
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// mdnsLogger routes hashicorp/mdns's log lines to slog at debug level: it
// reports every unparsable packet and missing IPv6 as an error.
func mdnsLogger(l *slog.Logger) *log.Logger {
	if l == nil {
		return log.New(io.Discard, "", 0)
	}
	return slog.NewLogLogger(l.Handler(), slog.LevelDebug)
}

// BrowseOptions tune a Browser. The zero value browses with mDNS on every
// multicast interface, asking at once, again 150 ms later and then every
// 400 ms, and hears beacons (package p2p/beacon) on every interface; it
// forgets a session after 3 s of silence on both.
type BrowseOptions struct {
	Interfaces []string
	// Ways: the ways to look (none: $HOSTFALL_DISCOVERY, else both).
	Ways Way
	// Interval is each query's listening window (the first one's is at
	// most 150 ms); a new session is seen within about one interval.
	Interval time.Duration
	// Expire: a session that answered no query for this long is gone.
	Expire time.Duration
	Logger *slog.Logger
}

// Seen is one announcement a Browser sees.
type Seen struct {
	Announcement
	Instance string    // DNS-SD instance name
	Iface    string    // interface it was last seen on
	Source   net.IP    // the A record's address
	Port     int       // the SRV port
	First    time.Time // first seen
	Last     time.Time // last answer, on either path
	Via      Way       // the way that found it first
	instance uint64    // the beacon announcer's run, to match its goodbye
}

// DialInfo is the host's peer ID and addresses; when the TXT carried no
// address, the A record and SRV port stand in (TCP).
func (s *Seen) DialInfo() transport.AddrInfo {
	ai := s.AddrInfo()
	if len(ai.Addrs) == 0 && s.Source != nil && s.Port > 0 {
		if m, err := manet.FromNetAddr(&net.TCPAddr{IP: s.Source, Port: s.Port}); err == nil {
			ai.Addrs = append(ai.Addrs, m)
		}
	}
	return ai
}

// Browser keeps a live list of the Hostfall announcements on the LAN.
type Browser struct {
	opt BrowseOptions
	log *slog.Logger

	mu      sync.Mutex
	seen    map[string]*Seen // by host peer ID
	version uint64
	changed chan struct{}

	cancel context.CancelFunc
	done   chan struct{}
}

// Browse starts browsing until ctx is done or Close.
func Browse(ctx context.Context, opt BrowseOptions) *Browser {
	if opt.Interval <= 0 {
		opt.Interval = 400 * time.Millisecond
	}
	if opt.Expire <= 0 {
		opt.Expire = 3 * time.Second
	}
	if opt.Ways == 0 {
		opt.Ways = waysFromEnv()
	}
	ctx, cancel := context.WithCancel(ctx)
	b := &Browser{opt: opt, log: cmp.Or(opt.Logger, slog.Default()), seen: map[string]*Seen{},
		changed: make(chan struct{}, 1), cancel: cancel, done: make(chan struct{})}
	go b.run(ctx)
	return b
}

// Close stops browsing. It does not wait for an mDNS query under way:
// hashicorp/mdns ends it by itself within Interval.
func (b *Browser) Close() {
	b.cancel()
	<-b.done
}

// Changed receives a value after the list changed (a session came, went,
// or changed its announcement). It is buffered: one value may stand for
// several changes.
func (b *Browser) Changed() <-chan struct{} { return b.changed }

// Sessions returns what is on the LAN now, sorted by name then host.
func (b *Browser) Sessions() []Seen {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make([]Seen, 0, len(b.seen))
	for _, s := range b.seen {
		c := *s
		c.Addrs = append([]ma.Multiaddr(nil), s.Addrs...)
		out = append(out, c)
	}
	sortSeen(out)
	return out
}

func (b *Browser) run(ctx context.Context) {
	defer close(b.done)
	if b.opt.Ways&Beacon != 0 {
		l, err := beacon.Listen(ctx, beacon.Config{Interfaces: b.opt.Interfaces, Logger: b.log}, b.heard)
		if err != nil {
			b.log.Warn("LAN games announced by broadcast cannot be heard", "err", err)
		} else {
			defer l.Close()
		}
	}
	if b.opt.Ways&MDNS == 0 {
		b.expireUntil(ctx)
		return
	}
	var ifaces []net.Interface
	var listed time.Time
	window := min(b.opt.Interval, firstWindow)
	for ctx.Err() == nil {
		if time.Since(listed) >= ifaceRefresh || len(ifaces) == 0 {
			ifaces, listed = multicastInterfaces(b.opt.Interfaces), time.Now()
		}
		start := time.Now()
		if len(ifaces) == 0 {
			b.log.Debug("mdns: no interface to browse on")
		}
		var wg sync.WaitGroup
		for i := range ifaces {
			wg.Add(1)
			go func(ifi *net.Interface) {
				defer wg.Done()
				b.query(ctx, ifi, window)
			}(&ifaces[i])
		}
		wg.Wait()
		b.expire(time.Now())
		// A failing query returns at once: never spin.
		if rest := window - time.Since(start); rest > 0 {
			select {
			case <-ctx.Done():
			case <-time.After(rest):
			}
		}
		window = b.opt.Interval
	}
}

// firstWindow is the first query's listening window: answers come within
// a few ms (RFC 6762 responders wait at most 120 ms), so a lost first query
// or a host that began answering just after it costs 150 ms, not Interval.
const firstWindow = 150 * time.Millisecond

// query asks once on one interface, listening for window, and records the
// answers as they come.
func (b *Browser) query(ctx context.Context, ifi *net.Interface, window time.Duration) {
	entries := make(chan *mdns.ServiceEntry, 64) // the client drops entries it cannot hand over at once
	p := &mdns.QueryParam{
		Service: ServiceType, Domain: ServiceDomain, Timeout: window,
		Interface: ifi, Entries: entries, DisableIPv6: true, Logger: mdnsLogger(nil),
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case e := <-entries:
				b.record(e, ifi.Name)
			case <-stop:
				return
			}
		}
	}()
	// hashicorp/mdns's query ignores ctx until its timeout: do not wait for
	// it once ctx is done, or Close (and so join --session, which closes
	// its browser as soon as it has its answer) waits a whole Interval.
	// Its goroutine ends by itself within Interval.
	errc := make(chan error, 1)
	go func() { errc <- mdns.QueryContext(ctx, p) }()
	select {
	case err := <-errc:
		if err != nil && ctx.Err() == nil {
			b.log.Debug("mdns: query failed", "iface", ifi.Name, "err", err)
		}
	case <-ctx.Done():
	}
	close(stop)
	wg.Wait()
	for { // answers that arrived just before the end
		select {
		case e := <-entries:
			b.record(e, ifi.Name)
		default:
			return
		}
	}
}

// record notes one mDNS answer. Answers for other services (the client
// does not filter) and records that are not Hostfall announcements are
// skipped.
func (b *Browser) record(e *mdns.ServiceEntry, iface string) {
	if e == nil || !strings.HasSuffix(strings.ToLower(e.Name), strings.ToLower("."+ServiceType+"."+ServiceDomain)) {
		return
	}
	a, err := DecodeTXT(e.InfoFields)
	if err != nil {
		b.log.Debug("mdns: announcement skipped", "instance", e.Name, "err", err)
		return
	}
	b.note(&Seen{Announcement: a, Instance: e.Name, Iface: iface, Source: e.AddrV4, Port: e.Port, Via: MDNS})
}

// heard notes one beacon: an announcement, or a goodbye that forgets the
// session it names (if from the run that announced it).
func (b *Browser) heard(h beacon.Heard) {
	a, err := DecodeTXT(h.TXT)
	if err != nil {
		b.log.Debug("beacon: announcement skipped", "from", h.From, "err", err)
		return
	}
	if h.Kind == beacon.KindGoodbye {
		b.mu.Lock()
		defer b.mu.Unlock()
		if old := b.seen[a.Host.String()]; old != nil && old.instance == h.Instance {
			delete(b.seen, a.Host.String())
			b.bump()
		}
		return
	}
	b.note(&Seen{Announcement: a, Source: h.From.IP, Port: srvPort(a.Addrs), Via: Beacon, instance: h.Instance})
}

// maxSeen bounds the sessions a browser keeps: a flood of forged
// announcements must not grow it without end.
const maxSeen = 256

// note records s, heard now on path s.Via: one entry per host peer ID,
// whichever path heard it.
func (b *Browser) note(s *Seen) {
	now := time.Now()
	key := s.Host.String()
	b.mu.Lock()
	defer b.mu.Unlock()
	old := b.seen[key]
	if old == nil && len(b.seen) >= maxSeen {
		return
	}
	s.First, s.Last = now, now
	if old != nil {
		s.First, s.Via = old.First, old.Via
		if s.instance == 0 {
			s.instance = old.instance
		}
		if s.Instance == "" { // a beacon: keep what mDNS told
			s.Instance, s.Iface = old.Instance, old.Iface
		}
		if sameAnnouncement(&old.Announcement, &s.Announcement) {
			old.Last, old.instance = now, s.instance
			if s.Iface != "" {
				old.Iface = s.Iface
			}
			return
		}
	}
	b.seen[key] = s
	b.bump()
}

// expireUntil forgets silent sessions until ctx is done (when no mDNS
// loop does it).
func (b *Browser) expireUntil(ctx context.Context) {
	t := time.NewTicker(b.opt.Expire / 4)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-t.C:
			b.expire(now)
		}
	}
}

func (b *Browser) expire(now time.Time) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for k, s := range b.seen {
		if now.Sub(s.Last) > b.opt.Expire {
			delete(b.seen, k)
			b.bump()
		}
	}
}

func (b *Browser) bump() {
	b.version++
	select {
	case b.changed <- struct{}{}:
	default:
	}
}

func sameAnnouncement(x, y *Announcement) bool {
	if x.Protocol != y.Protocol || x.GameVersion != y.GameVersion || x.Name != y.Name || x.Players != y.Players ||
		x.MaxPlayers != y.MaxPlayers || x.State != y.State || x.Password != y.Password || x.Auto != y.Auto ||
		x.Host != y.Host || x.HostName != y.HostName || len(x.Addrs) != len(y.Addrs) {
		return false
	}
	for i := range x.Addrs {
		if !x.Addrs[i].Equal(y.Addrs[i]) {
			return false
		}
	}
	return true
}

// sortSeen orders by session name, then host peer ID.
func sortSeen(s []Seen) {
	slices.SortFunc(s, func(x, y Seen) int {
		if c := strings.Compare(x.Name, y.Name); c != 0 {
			return c
		}
		return strings.Compare(string(x.Host), string(y.Host))
	})
}
