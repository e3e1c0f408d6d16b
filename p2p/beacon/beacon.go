package beacon

import (
	"context"
	"errors"
	"log/slog"
	"math/rand/v2"
	"net"
	"slices"
	"sync"
	"time"
)

// Rates. A host announces every Interval (browsers forget it after about
// three missed), at once when its announcement changes but never twice
// within minGap; it answers one query per asking socket (address and port)
// per minGap and answerRate queries a second in all. A browser queries when
// it opens and again at queryAgain.
const (
	readPause  = 10 * time.Millisecond
	Interval   = time.Second
	minGap     = 100 * time.Millisecond
	answerRate = 20
)

// queryAgain are the times after opening at which a browser queries again
// (the first query and its answers are single UDP packets).
var queryAgain = []time.Duration{150 * time.Millisecond, time.Second}

// Config tunes announcers and listeners. The zero value uses Port and
// every IPv4 interface that can broadcast.
type Config struct {
	Port int // 0: Port
	// Interfaces limits where packets are sent (names); none means all.
	Interfaces []string
	Logger     *slog.Logger
}

func (c *Config) port() int {
	if c.Port == 0 {
		return Port
	}
	return c.Port
}

func (c *Config) log() *slog.Logger {
	if c.Logger == nil {
		return slog.Default()
	}
	return c.Logger
}

// Targets are the addresses a broadcast goes to: the directed broadcast
// address of each up IPv4 interface that can broadcast, and
// 255.255.255.255 (which leaves only through the default route's interface).
func (c *Config) Targets() []*net.UDPAddr {
	out := []*net.UDPAddr{{IP: net.IPv4bcast, Port: c.port()}}
	ifaces, err := net.Interfaces()
	if err != nil {
		return out
	}
	for _, ifi := range ifaces {
		if ifi.Flags&net.FlagUp == 0 || ifi.Flags&net.FlagBroadcast == 0 || ifi.Flags&net.FlagLoopback != 0 {
			continue
		}
		if len(c.Interfaces) > 0 && !slices.Contains(c.Interfaces, ifi.Name) {
			continue
		}
		addrs, _ := ifi.Addrs()
		for _, a := range addrs {
			if ip := directedBroadcast(a); ip != nil {
				out = append(out, &net.UDPAddr{IP: ip, Port: c.port()})
			}
		}
	}
	return out
}

// directedBroadcast is the broadcast address of an IPv4 network of at
// most /30, or nil.
func directedBroadcast(a net.Addr) net.IP {
	n, ok := a.(*net.IPNet)
	if !ok || n.IP.To4() == nil || n.IP.IsLoopback() {
		return nil
	}
	if ones, bits := n.Mask.Size(); bits != 32 || ones > 30 {
		return nil
	}
	ip, mask := n.IP.To4(), n.Mask
	out := make(net.IP, 4)
	for i := range out {
		out[i] = ip[i] | ^mask[len(mask)-4+i]
	}
	return out
}

// send writes b to every target; it reports whether any write went out.
func send(c conn, b []byte, targets []*net.UDPAddr, log *slog.Logger) bool {
	sent := false
	for _, t := range targets {
		if err := c.WriteTo(b, t); err != nil {
			log.Debug("beacon: not sent", "to", t, "err", err)
			continue
		}
		sent = true
	}
	return sent
}

// Announcer broadcasts one announcement until Close.
type Announcer struct {
	cfg      Config
	log      *slog.Logger
	conn     conn
	instance uint64

	mu   sync.Mutex
	txt  []string
	lim  limiter
	kick chan struct{}
	stop chan struct{}
	done sync.WaitGroup
	once sync.Once
}

// Announce starts announcing txt (DNS-SD TXT strings) and answering queries.
func Announce(txt []string, cfg Config) (*Announcer, error) {
	if _, err := (&Packet{Kind: KindAnnounce, TXT: txt}).Encode(); err != nil {
		return nil, err
	}
	conn, err := open(cfg.port(), true)
	if err != nil {
		return nil, err
	}
	a := &Announcer{cfg: cfg, log: cfg.log(), conn: conn, instance: rand.Uint64() | 1, txt: txt,
		lim: newLimiter(answerRate, minGap), kick: make(chan struct{}, 1), stop: make(chan struct{})}
	a.done.Add(2)
	go a.announceLoop()
	go a.answerLoop()
	return a, nil
}

// Update replaces the announcement and broadcasts it soon.
func (a *Announcer) Update(txt []string) error {
	if _, err := (&Packet{Kind: KindAnnounce, TXT: txt}).Encode(); err != nil {
		return err
	}
	a.mu.Lock()
	changed := !slices.Equal(a.txt, txt)
	a.txt = txt
	a.mu.Unlock()
	if changed {
		select {
		case a.kick <- struct{}{}:
		default:
		}
	}
	return nil
}

// Close broadcasts a goodbye and stops.
func (a *Announcer) Close() error {
	a.once.Do(func() {
		close(a.stop)
		if b, err := a.packet(KindGoodbye); err == nil {
			send(a.conn, b, a.cfg.Targets(), a.log)
		}
		a.conn.Close()
		a.done.Wait()
	})
	return nil
}

func (a *Announcer) packet(k Kind) ([]byte, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return (&Packet{Kind: k, Instance: a.instance, TXT: a.txt}).Encode()
}

func (a *Announcer) announceLoop() {
	defer a.done.Done()
	t := time.NewTicker(Interval)
	defer t.Stop()
	var last time.Time
	for {
		select { // never twice within minGap
		case <-a.stop:
			return
		case <-time.After(time.Until(last.Add(minGap))):
		}
		if b, err := a.packet(KindAnnounce); err == nil && !send(a.conn, b, a.cfg.Targets(), a.log) {
			a.log.Debug("beacon: no broadcast address took the announcement")
		}
		last = time.Now()
		select {
		case <-a.stop:
			return
		case <-t.C:
		case <-a.kick:
		}
	}
}

// answerLoop answers queries by unicast to the asker, within the limits.
func (a *Announcer) answerLoop() {
	defer a.done.Done()
	buf := make([]byte, MaxPacket+1)
	for {
		n, from, err := a.conn.ReadFrom(buf)
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			time.Sleep(readPause) // an error that repeats must not spin
			continue
		}
		p, err := Decode(buf[:n])
		if err != nil || p.Kind != KindQuery {
			continue // our own and others' announcements come here too
		}
		// Per asking socket, not per machine: two browsers opened on one
		// machine within minGap are both answered at once; the copies of
		// one query (it goes to several broadcast addresses) are not.
		if !a.lim.allow(from.String(), time.Now()) {
			continue
		}
		if b, err := a.packet(KindAnnounce); err == nil {
			if err := a.conn.WriteTo(b, from); err != nil {
				a.log.Debug("beacon: answer not sent", "to", from, "err", err)
			}
		}
	}
}

// Heard is a packet a Listener received.
type Heard struct {
	Packet
	From *net.UDPAddr
}

// Listener hears announcements until Close.
type Listener struct {
	cfg    Config
	log    *slog.Logger
	shared conn // Port: periodic broadcasts (nil if the port is taken)
	own    conn // an ephemeral port: queries out, answers in
	heard  func(Heard)
	cancel context.CancelFunc
	done   sync.WaitGroup
	newer  sync.Once
}

// Listen starts hearing announcements, calling heard for each announce and
// goodbye (from the listener's goroutines, one call at a time per socket),
// and queries at once. If Port is taken by a program that does not share
// it, the listener still works: it then queries every Interval instead.
func Listen(ctx context.Context, cfg Config, heard func(Heard)) (*Listener, error) {
	own, err := open(0, false)
	if err != nil {
		return nil, err
	}
	l := &Listener{cfg: cfg, log: cfg.log(), own: own, heard: heard}
	if l.shared, err = open(cfg.port(), true); err != nil {
		l.shared = nil
		l.log.Debug("beacon: hearing only answers to queries", "err", err)
	}
	ctx, l.cancel = context.WithCancel(ctx)
	l.done.Add(2)
	go l.read(own)
	go l.queries(ctx)
	if l.shared != nil {
		l.done.Add(1)
		go l.read(l.shared)
	}
	return l, nil
}

// Close stops listening and waits for the goroutines.
func (l *Listener) Close() {
	l.cancel()
	l.own.Close()
	if l.shared != nil {
		l.shared.Close()
	}
	l.done.Wait()
}

// Query asks every host to announce now.
func (l *Listener) Query() {
	b, _ := (&Packet{Kind: KindQuery}).Encode()
	if !send(l.own, b, l.cfg.Targets(), l.log) {
		l.log.Debug("beacon: no broadcast address took the query")
	}
}

func (l *Listener) queries(ctx context.Context) {
	defer l.done.Done()
	l.Query()
	start := time.Now()
	for _, at := range queryAgain {
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Until(start.Add(at))):
			l.Query()
		}
	}
	if l.shared != nil {
		return // the hosts' own announcements keep the list from here
	}
	t := time.NewTicker(Interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			l.Query()
		}
	}
}

func (l *Listener) read(c conn) {
	defer l.done.Done()
	buf := make([]byte, MaxPacket+1)
	for {
		n, from, err := c.ReadFrom(buf)
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			time.Sleep(readPause)
			continue
		}
		p, err := Decode(buf[:n])
		switch {
		case errors.Is(err, ErrNewer):
			l.newer.Do(func() {
				l.log.Warn("a newer Hostfall announces a game on the LAN; update to see it", "from", from.IP, "err", err)
			})
		case err != nil:
			l.log.Debug("beacon: packet skipped", "from", from, "err", err)
		case p.Kind != KindQuery:
			l.heard(Heard{Packet: p, From: from})
		}
	}
}

// limiter allows a bounded rate of answers in all and per source.
type limiter struct {
	mu     sync.Mutex
	rate   float64 // tokens a second, and the bucket's depth
	tokens float64
	last   time.Time
	gap    time.Duration
	recent map[string]time.Time // sources answered within gap
}

// maxSources bounds the sources a limiter remembers; past it, answers wait
// for old entries to age out.
const maxSources = 256

func newLimiter(rate int, gap time.Duration) limiter {
	return limiter{rate: float64(rate), tokens: float64(rate), gap: gap, recent: map[string]time.Time{}}
}

func (l *limiter) allow(src string, now time.Time) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.last.IsZero() {
		l.tokens = min(l.rate, l.tokens+now.Sub(l.last).Seconds()*l.rate)
	}
	l.last = now
	if t, ok := l.recent[src]; ok && now.Sub(t) < l.gap {
		return false
	}
	if len(l.recent) >= maxSources {
		for s, t := range l.recent {
			if now.Sub(t) >= l.gap {
				delete(l.recent, s)
			}
		}
		if len(l.recent) >= maxSources {
			return false
		}
	}
	if l.tokens < 1 {
		return false
	}
	l.tokens--
	l.recent[src] = now
	return true
}
