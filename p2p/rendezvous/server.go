package rendezvous

import (
	"encoding/binary"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/record"
	"github.com/libp2p/go-msgio"
	manet "github.com/multiformats/go-multiaddr/net"
)

// Defaults of a Server. The spec recommends TTLs of 2 h to 72 h for a
// long-lived registry; a game lasts minutes and hosts renew, so the
// shortest TTL accepted is much shorter.
const (
	DefaultTTL        = 2 * time.Hour
	DefaultMinTTL     = 10 * time.Second
	DefaultMaxPerPeer = 16   // namespaces one peer may be registered in
	DefaultMaxPerAddr = 16   // peers registered from one IP address: a LAN party behind one NAT fits, a machine minting peer IDs does not fill the point
	DefaultMaxTotal   = 4096 // registrations in all
	DefaultLimit      = 256  // registrations in one DISCOVER answer at most
	streamLimit       = 30 * time.Second
	messagesPerStream = 64
)

// ServerOptions set up a Server; zero values take the defaults above.
type ServerOptions struct {
	MaxTTL, MinTTL time.Duration // a longer TTL is cut to MaxTTL (default DefaultTTL); a shorter one refused
	// Allow, when set, says who may register (anyone may discover).
	Allow                          func(peer.ID) bool
	MaxPerPeer, MaxPerAddr, MaxAll int
	Limit                          int // see DefaultLimit
	Logger                         *slog.Logger
}

// Server is a rendezvous point serving ProtocolID on a libp2p host.
type Server struct {
	h   host.Host
	opt ServerOptions
	log *slog.Logger
	now func() time.Time

	mu   sync.Mutex
	regs map[string]map[peer.ID]*registration // by namespace, then peer
	seq  uint64                               // of the last registration made
}

type registration struct {
	ns      string
	peer    peer.ID
	addr    string // the registering connection's IP address
	record  []byte // the signed peer record, as sent
	expires time.Time
	seq     uint64 // DISCOVER answers in this order; cookies name the last one given
}

// NewServer starts serving the rendezvous protocol on h.
func NewServer(h host.Host, opt ServerOptions) *Server {
	s := newServer(opt)
	s.h = h
	h.SetStreamHandler(ProtocolID, s.handle)
	return s
}

func newServer(opt ServerOptions) *Server {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&opt.MaxPerPeer, DefaultMaxPerPeer)
	def(&opt.MaxPerAddr, DefaultMaxPerAddr)
	def(&opt.MaxAll, DefaultMaxTotal)
	def(&opt.Limit, DefaultLimit)
	if opt.MaxTTL <= 0 {
		opt.MaxTTL = DefaultTTL
	}
	if opt.MinTTL <= 0 {
		opt.MinTTL = min(DefaultMinTTL, opt.MaxTTL)
	}
	log := opt.Logger
	if log == nil {
		log = slog.Default()
	}
	return &Server{opt: opt, log: log, now: time.Now, regs: map[string]map[peer.ID]*registration{}}
}

// Close stops serving.
func (s *Server) Close() { s.h.RemoveStreamHandler(ProtocolID) }

// Peers lists the peers registered under ns now, oldest registration first.
func (s *Server) Peers(ns string) []peer.ID {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.expire()
	var out []*registration
	for _, r := range s.regs[ns] {
		out = append(out, r)
	}
	slices.SortFunc(out, func(a, b *registration) int { return cmpSeq(a.seq, b.seq) })
	ids := make([]peer.ID, len(out))
	for i, r := range out {
		ids[i] = r.peer
	}
	return ids
}

func cmpSeq(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// handle serves one stream: any number of requests (up to
// messagesPerStream), each REGISTER and DISCOVER answered in turn.
func (s *Server) handle(st network.Stream) {
	defer st.Close()
	_ = st.SetDeadline(time.Now().Add(streamLimit))
	from := st.Conn().RemotePeer()
	addr := ""
	if ip, err := manet.ToIP(st.Conn().RemoteMultiaddr()); err == nil {
		addr = ip.String()
	}
	r := msgio.NewVarintReaderSize(st, maxRequest)
	w := msgio.NewVarintWriter(st)
	for range messagesPerStream {
		b, err := r.ReadMsg()
		if err != nil {
			return // the client is done, or sent junk
		}
		req, err := Unmarshal(b)
		r.ReleaseMsg(b)
		if err != nil {
			s.log.Debug("rendezvous: bad request", "peer", from, "err", err)
			_ = st.Reset()
			return
		}
		resp := s.Serve(from, addr, req)
		if resp == nil {
			continue // UNREGISTER has no answer
		}
		if err := w.WriteMsg(resp.Marshal()); err != nil {
			_ = st.Reset()
			return
		}
	}
}

// Serve answers one request from peer from, connected from IP address addr;
// nil when the request has no answer.
func (s *Server) Serve(from peer.ID, addr string, req *Message) *Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.expire()
	switch {
	case req.Type == TypeRegister && req.Register != nil:
		return &Message{Type: TypeRegisterResponse, RegisterResponse: s.register(from, addr, req.Register)}
	case req.Type == TypeUnregister && req.Unregister != nil:
		if r := s.regs[req.Unregister.Ns][from]; r != nil {
			s.drop(r)
		}
		return nil
	case req.Type == TypeDiscover && req.Discover != nil:
		return &Message{Type: TypeDiscoverResponse, DiscoverResponse: s.discover(req.Discover)}
	case req.Type == TypeDiscover:
		return &Message{Type: TypeDiscoverResponse, DiscoverResponse: &DiscoverResponse{Status: StatusInternalError, StatusText: "DISCOVER without its message"}}
	}
	return &Message{Type: TypeRegisterResponse, RegisterResponse: refuse(StatusInternalError, fmt.Sprintf("a request of type %d without its message is not served", req.Type))}
}

func refuse(st Status, text string) *RegisterResponse {
	return &RegisterResponse{Status: st, StatusText: text}
}

func (s *Server) register(from peer.ID, addr string, req *RegisterMsg) *RegisterResponse {
	if s.opt.Allow != nil && !s.opt.Allow(from) {
		return refuse(StatusNotAuthorized, "this rendezvous point only registers the peers it allows")
	}
	if req.Ns == "" || len(req.Ns) > maxNamespace {
		return refuse(StatusInvalidNamespace, fmt.Sprintf("a namespace is 1 to %d bytes", maxNamespace))
	}
	if err := checkRecord(req.SignedPeerRecord, from); err != nil {
		return refuse(StatusInvalidPeerRecord, err.Error())
	}
	ttl := seconds(req.TTL)
	switch {
	case req.TTL == 0:
		ttl = min(DefaultTTL, s.opt.MaxTTL)
	case req.TTL < 0 || ttl < s.opt.MinTTL:
		return refuse(StatusInvalidTTL, fmt.Sprintf("the TTL must be at least %d s", int64(s.opt.MinTTL/time.Second)))
	case ttl > s.opt.MaxTTL:
		ttl = s.opt.MaxTTL // cut, as the answer's TTL tells the client
	}
	old := s.regs[req.Ns][from]
	if old == nil {
		if st, why := s.roomFor(from, addr); st != StatusOK {
			return refuse(st, why)
		}
	} else {
		s.drop(old)
	}
	s.seq++
	r := &registration{ns: req.Ns, peer: from, addr: addr, record: slices.Clone(req.SignedPeerRecord),
		expires: s.now().Add(ttl), seq: s.seq}
	if s.regs[req.Ns] == nil {
		s.regs[req.Ns] = map[peer.ID]*registration{}
	}
	s.regs[req.Ns][from] = r
	if old == nil {
		s.log.Debug("rendezvous: registered", "ns", req.Ns, "peer", from, "ttl", ttl)
	}
	return &RegisterResponse{TTL: int64(ttl / time.Second)}
}

// roomFor says whether a new registration of from, at addr, fits the bounds.
func (s *Server) roomFor(from peer.ID, addr string) (Status, string) {
	total, ofPeer := 0, 0
	peersAtAddr := map[peer.ID]bool{}
	for _, byPeer := range s.regs {
		total += len(byPeer)
		for id, r := range byPeer {
			if id == from {
				ofPeer++
			}
			if r.addr == addr && addr != "" {
				peersAtAddr[id] = true
			}
		}
	}
	switch {
	case total >= s.opt.MaxAll:
		return StatusUnavailable, "the rendezvous point is full; try again later"
	case ofPeer >= s.opt.MaxPerPeer:
		return StatusNotAuthorized, fmt.Sprintf("a peer may be registered in %d namespaces at most; unregister one first", s.opt.MaxPerPeer)
	case !peersAtAddr[from] && len(peersAtAddr) >= s.opt.MaxPerAddr:
		return StatusNotAuthorized, fmt.Sprintf("%d peers from your address are registered already; unregister one first", s.opt.MaxPerAddr)
	}
	return StatusOK, ""
}

// checkRecord verifies that b is a signed peer record of peer from.
func checkRecord(b []byte, from peer.ID) error {
	pr, err := OpenRecord(b)
	if err != nil {
		return err
	}
	if pr.PeerID != from {
		return fmt.Errorf("a peer can only register itself, not %s", pr.PeerID)
	}
	return nil
}

// OpenRecord verifies a signed peer record: the envelope's signature, and
// that the record names the peer whose key signed it.
func OpenRecord(b []byte) (*peer.PeerRecord, error) {
	if len(b) == 0 || len(b) > maxRecord {
		return nil, fmt.Errorf("a signed peer record of 1 to %d bytes is needed", maxRecord)
	}
	env, rec, err := record.ConsumeEnvelope(b, peer.PeerRecordEnvelopeDomain)
	if err != nil {
		return nil, fmt.Errorf("the signed peer record does not verify: %v", err)
	}
	pr, ok := rec.(*peer.PeerRecord)
	if !ok {
		return nil, fmt.Errorf("the envelope holds no peer record")
	}
	signer, err := peer.IDFromPublicKey(env.PublicKey)
	if err != nil || signer != pr.PeerID {
		return nil, fmt.Errorf("the peer record of %s is signed by another key", pr.PeerID)
	}
	return pr, nil
}

func (s *Server) discover(req *DiscoverMsg) *DiscoverResponse {
	if len(req.Ns) > maxNamespace {
		return &DiscoverResponse{Status: StatusInvalidNamespace, StatusText: fmt.Sprintf("a namespace is at most %d bytes", maxNamespace)}
	}
	var after uint64
	switch len(req.Cookie) {
	case 0:
	case 8:
		after = binary.BigEndian.Uint64(req.Cookie)
	default:
		return &DiscoverResponse{Status: StatusInvalidCookie, StatusText: "this cookie is not one of this point's; discover without it"}
	}
	limit := s.opt.Limit
	if req.Limit > 0 && req.Limit < int64(limit) {
		limit = int(req.Limit)
	}
	var found []*registration
	for ns, byPeer := range s.regs {
		if req.Ns != "" && ns != req.Ns {
			continue
		}
		for _, r := range byPeer {
			if r.seq > after {
				found = append(found, r)
			}
		}
	}
	slices.SortFunc(found, func(a, b *registration) int { return cmpSeq(a.seq, b.seq) })
	found = found[:min(len(found), limit)]
	resp := &DiscoverResponse{Cookie: binary.BigEndian.AppendUint64(nil, after)}
	now := s.now()
	for _, r := range found {
		left := max(int64(r.expires.Sub(now)/time.Second), 1)
		resp.Registrations = append(resp.Registrations, RegisterMsg{Ns: r.ns, SignedPeerRecord: r.record, TTL: left})
		resp.Cookie = binary.BigEndian.AppendUint64(resp.Cookie[:0], r.seq)
	}
	return resp
}

func (s *Server) drop(r *registration) {
	delete(s.regs[r.ns], r.peer)
	if len(s.regs[r.ns]) == 0 {
		delete(s.regs, r.ns)
	}
}

// expire drops registrations past their TTL (mu held).
func (s *Server) expire() {
	now := s.now()
	for _, byPeer := range s.regs {
		for _, r := range byPeer {
			if now.After(r.expires) {
				s.drop(r)
			}
		}
	}
}
