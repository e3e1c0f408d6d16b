package codes

import (
	"cmp"
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/ipfs/boxo/ipns"
	dht "github.com/libp2p/go-libp2p-kad-dht"
	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/record"
	"github.com/libp2p/go-libp2p/core/routing"
	ma "github.com/multiformats/go-multiaddr"
	manet "github.com/multiformats/go-multiaddr/net"

	"hostfall/p2p/transport"
)

// A hosted game's code is published as an IPNS record, the one kind of
// signed, expiring record every server of the public DHT stores (a record
// of a namespace of our own would be refused by servers that do not know
// it, and provider records cannot be made to expire sooner than 48 hours).
//
// The record's key is derived from the code: its signing key is an Ed25519
// key whose seed is a hash of the code, so a joiner who knows only the code
// knows where to look. Anyone who knows the code could sign there too, so
// the record carries, in its metadata, what only the host can make: the
// host's addresses in a libp2p signed peer record (sealed with the host's
// own key), and the salt from which the code was hashed with the host's
// peer ID (CodeFor). A joiner accepts a record only if the peer record's
// signature holds and the host's ID and the salt hash to the code it typed.
//
// The record expires recordLife after it was signed (the IPNS end of
// life, checked by every server and every joiner), and the host signs a
// fresh one every republishEvery while its game runs: once the host goes,
// its code stops resolving within recordLife. When its game ends it
// publishes, as the last word, a record whose signed peer record has no
// addresses at all, which answers "no game" at once.
const (
	recordLife     = 90 * time.Second
	republishEvery = 30 * time.Second
	republishSoon  = 2 * time.Second // at the soonest, when the addresses changed
	saltLen        = 16
	mdPeerRecord   = "_hostfall_peer"
	mdSalt         = "_hostfall_salt"
	mdViaPlayers   = "_hostfall_players" // circuits through the game's players, sealed by the host too
	putTimeout     = 20 * time.Second
	// unpublishTimeout bounds the last word of a host whose game ended.
	unpublishTimeout = 5 * time.Second
)

// codeKey is the signing key of the records of code.
func codeKey(code Code) crypto.PrivKey {
	seed := sha256.Sum256([]byte("hostfall/invite/v1/key\x00" + string(code)))
	k, err := crypto.UnmarshalEd25519PrivateKey(ed25519.NewKeyFromSeed(seed[:]))
	if err != nil {
		panic(err) // a 64-byte Ed25519 key always unmarshals
	}
	return k
}

// codeRoutingKey is where the records of code live in the DHT.
func codeRoutingKey(code Code) string {
	id, err := peer.IDFromPrivateKey(codeKey(code))
	if err != nil {
		panic(err)
	}
	return string(ipns.NameFromPeer(id).RoutingKey())
}

// hostAddrs are the addresses a code's record names: the host's own (its
// direct ones and circuits through relays it found) and circuits through
// the relays of its game's players (transport.Host.MemberRelays), kept
// apart so that a joiner tries the players' first: they carry games, a
// volunteer's relay does not.
type hostAddrs struct {
	own, viaPlayers []ma.Multiaddr
}

// codeRecord is the signed record of code for the host h at seq.
func codeRecord(h *transport.Host, code Code, salt []byte, seq uint64, now time.Time, a hostAddrs) ([]byte, error) {
	hostKey := h.LibP2P().Peerstore().PrivKey(h.ID())
	if hostKey == nil {
		return nil, errors.New("codes: the host's private key is not in its peerstore")
	}
	sealed, err := sealAddrs(hostKey, h.ID(), seq, a.own)
	if err != nil {
		return nil, err
	}
	md := map[string]any{mdPeerRecord: sealed, mdSalt: salt}
	if len(a.viaPlayers) > 0 {
		if md[mdViaPlayers], err = sealAddrs(hostKey, h.ID(), seq, a.viaPlayers); err != nil {
			return nil, err
		}
	}
	rec, err := ipns.NewRecord(codeKey(code), ipns.NameFromPeer(h.ID()).AsPath(), seq, now.Add(recordLife), republishEvery,
		ipns.WithMetadata(md))
	if err != nil {
		return nil, err
	}
	return ipns.MarshalRecord(rec)
}

// sealAddrs is a libp2p signed peer record of addrs, sealed by the host.
func sealAddrs(hostKey crypto.PrivKey, id peer.ID, seq uint64, addrs []ma.Multiaddr) ([]byte, error) {
	pr := peer.PeerRecordFromAddrInfo(peer.AddrInfo{ID: id, Addrs: addrs})
	pr.Seq = seq
	env, err := record.Seal(pr, hostKey)
	if err != nil {
		return nil, err
	}
	return env.Marshal()
}

// openSealed reads a signed peer record and checks that its addresses are
// signed by the peer they belong to.
func openSealed(sealed []byte) (*peer.PeerRecord, error) {
	pr := &peer.PeerRecord{}
	env, err := record.ConsumeTypedEnvelope(sealed, pr)
	if err != nil {
		return nil, fmt.Errorf("the host's signature does not hold: %w", err)
	}
	if signer, err := peer.IDFromPublicKey(env.PublicKey); err != nil || signer != pr.PeerID {
		return nil, fmt.Errorf("the addresses of %s are signed by another key", pr.PeerID)
	}
	return pr, nil
}

// found is the host a code's record names: its ID and every address, the
// circuits through its game's players first, which are also viaPlayers.
type found struct {
	peer.AddrInfo
	viaPlayers []ma.Multiaddr
}

// openCodeRecord checks a record found under code's key and returns the
// host it names.
func openCodeRecord(code Code, b []byte, now time.Time) (found, error) {
	var f found
	rec, err := ipns.UnmarshalRecord(b)
	if err != nil {
		return f, err
	}
	if err := ipns.Validate(rec, codeKey(code).GetPublic()); err != nil {
		return f, err
	}
	if eol, err := rec.Validity(); err != nil || now.After(eol) {
		return f, ErrNoGame // it expired: the game ended or its host left
	}
	sealed, err1 := metaBytes(rec, mdPeerRecord)
	salt, err2 := metaBytes(rec, mdSalt)
	if err := errors.Join(err1, err2); err != nil {
		return f, fmt.Errorf("not a Hostfall game record: %w", err)
	}
	pr, err := openSealed(sealed)
	if err != nil {
		return f, err
	}
	if CodeFor(pr.PeerID, salt) != code {
		return f, fmt.Errorf("the record names host %s, whose code is not %s", pr.PeerID, code)
	}
	if len(pr.Addrs) == 0 {
		return f, ErrNoGame // the host's last word: its game ended
	}
	via, err := openViaPlayers(rec, pr.PeerID)
	if err != nil {
		return f, err
	}
	f.ID, f.viaPlayers = pr.PeerID, via
	f.Addrs = append(slices.Clone(via), pr.Addrs...)
	return f, nil
}

// openViaPlayers reads the circuits through the host's players of a
// record, if it has any: sealed by the host too, and circuits all.
func openViaPlayers(rec *ipns.Record, host peer.ID) ([]ma.Multiaddr, error) {
	if !rec.MetadataExists(mdViaPlayers) {
		return nil, nil // none: a host alone, or one that reserved on no player yet
	}
	sealed, err := metaBytes(rec, mdViaPlayers)
	if err != nil {
		return nil, fmt.Errorf("not a Hostfall game record: %w", err)
	}
	pr, err := openSealed(sealed)
	switch {
	case err != nil:
		return nil, err
	case pr.PeerID != host:
		return nil, fmt.Errorf("the record names host %s and circuits to %s", host, pr.PeerID)
	case len(pr.Addrs) == 0 || slices.ContainsFunc(pr.Addrs, func(a ma.Multiaddr) bool { return !transport.IsCircuit(a) }):
		return nil, fmt.Errorf("the record's ways through players of the game are not relay circuits: %v", pr.Addrs)
	}
	return pr.Addrs, nil
}

func metaBytes(rec *ipns.Record, key string) ([]byte, error) {
	v, err := rec.Metadata(key)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", key, err)
	}
	return v.AsBytes()
}

// noRecord is a lookup that found no record of the code: no game with
// that code, as far as this lookup could tell.
type noRecord struct{ code Code }

func (e noRecord) Error() string {
	return fmt.Sprintf("%v (%s): check the code with the host, and that the game is still open", ErrNoGame, e.code)
}

func (e noRecord) Unwrap() error { return ErrNoGame }

// lookupCode finds code's record in the DHT and opens it.
func lookupCode(ctx context.Context, kad *dht.IpfsDHT, code Code) (found, error) {
	b, err := searchRecord(ctx, kad, codeRoutingKey(code))
	switch {
	case errors.Is(err, routing.ErrNotFound) || (err != nil && ctx.Err() != nil):
		return found{}, noRecord{code}
	case err != nil:
		return found{}, fmt.Errorf("looking up %s: %w", code, err)
	}
	ai, err := openCodeRecord(code, b, time.Now())
	if errors.Is(err, ErrNoGame) {
		return ai, fmt.Errorf("%w (%s): its game has ended or its host left", ErrNoGame, code)
	}
	if err != nil {
		return ai, fmt.Errorf("the record of %s is not the host's (%v); ask the host for a new code", code, err)
	}
	return ai, nil
}

// lookupSettle is how long a lookup that found a record waits for a
// better one (a newer sequence number) before it answers.
const lookupSettle = time.Second

// searchRecord is the best record under key that the servers near it
// return within lookupSettle of the first, or by the time ctx ends. It
// does not wait for every server near the key, as kad-dht's GetValue does:
// one that does not answer (a starved one) holds GetValue up to its 10 s
// read timeout, and GetValue then answers ctx's end with an error even when
// it found the record, which the joiner read as "no game with that code"
// (seen once at load 41 in the NAT matrix, where the simulated network's
// servers share one process). A host that republished a moment ago may
// still be outbid by its older record at some servers; the settle gives the
// newer one time to arrive, and a joiner may use an older one anyway: it
// names the same host, with the addresses of a few seconds before.
func searchRecord(ctx context.Context, kad *dht.IpfsDHT, key string) ([]byte, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	better, err := kad.SearchValue(ctx, key)
	if err != nil {
		return nil, err
	}
	var best []byte
	var settle <-chan time.Time
	for {
		select {
		case b, ok := <-better:
			switch {
			case ok:
				best = b // SearchValue sends a record only when it beats the last
				if settle == nil {
					settle = time.After(lookupSettle)
				}
			case best != nil:
				return best, nil
			case ctx.Err() != nil:
				return nil, ctx.Err()
			default:
				return nil, routing.ErrNotFound
			}
		case <-settle:
			return best, nil
		case <-ctx.Done():
			if best != nil {
				return best, nil
			}
			return nil, ctx.Err()
		}
	}
}

// publishLoop signs and stores code's record every republishEvery until
// ctx ends, once the host holds a relay reservation (or relayWait passed).
func (in *Internet) publishLoop(ctx context.Context, code Code, salt []byte, published chan<- struct{}) {
	defer in.publishing.Done()
	began, wait := time.Now(), cmp.Or(in.cfg.RelayWait, relayWait)
	for in.Relays() == 0 && time.Since(began) < wait {
		in.progress(Progress{Step: "publishing", Code: code})
		select {
		case <-ctx.Done():
			return
		case <-time.After(250 * time.Millisecond):
		}
	}
	if in.Relays() == 0 {
		in.log.Warn("no relay reservation yet; publishing the code with direct addresses only (players behind NAT may not reach this host)", "waited", wait)
	}
	if in.Relays() > 0 { // a public relay: hole punching will start
		in.AwaitHolePunch(ctx)
	}
	seq := uint64(time.Now().UnixMilli())
	defer func() { in.unpublish(code, salt, seq, published == nil) }()
	for ; ctx.Err() == nil; seq++ {
		ids := in.relayIDs()
		in.progress(Progress{Step: "publishing", Code: code, Relays: len(ids)})
		addrs := in.recordAddrs()
		if err := in.put(ctx, code, salt, seq, addrs); err != nil {
			in.log.Warn("could not publish the invite code; retrying", "code", code, "err", err)
		} else {
			in.log.Debug("code published", "code", code, "addrs", addrs.own, "via players", addrs.viaPlayers)
			in.progress(Progress{Step: "published", Code: code, Relays: len(ids), Via: strings.Join(ids, ","),
				Direct: len(strings.Fields(publicAddrs(addrs.own))), Players: len(addrs.viaPlayers)})
			if published != nil {
				close(published)
				published = nil
			}
		}
		in.awaitRepublish(ctx, addrs.ways())
	}
}

// awaitRepublish waits republishEvery, or less when the ways in that
// matter changed from was (a port mapping came, a player's relay took a
// reservation, say): a joiner who looks the code up then dials them.
// Addresses that keep changing (observed ones behind a symmetric NAT) are
// published every republishSoon at most.
func (in *Internet) awaitRepublish(ctx context.Context, was string) {
	began := time.Now()
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	until := time.After(republishEvery)
	for {
		select {
		case <-ctx.Done():
			return
		case <-until:
			return
		case <-tick.C:
			if time.Since(began) >= republishSoon && in.recordAddrs().ways() != was {
				in.log.Debug("the ways in changed: publishing the code again")
				return
			}
		}
	}
}

// ways are the addresses of a record whose change publishes it again: the
// public direct ones and the circuits through players, as one string.
func (a hostAddrs) ways() string {
	var via []string
	for _, c := range a.viaPlayers {
		via = append(via, c.String())
	}
	slices.Sort(via)
	return publicAddrs(a.own) + " | " + strings.Join(via, " ")
}

// publicAddrs are addrs' public direct ones, sorted, as one string.
func publicAddrs(addrs []ma.Multiaddr) string {
	var out []string
	for _, a := range addrs {
		if !transport.IsCircuit(a) && manet.IsPublicAddr(a) {
			out = append(out, a.String())
		}
	}
	slices.Sort(out)
	return strings.Join(out, " ")
}

// unpublish replaces the code's record by the host's last word (no
// addresses), if it was ever out; unpublishTimeout at most.
func (in *Internet) unpublish(code Code, salt []byte, seq uint64, wasOut bool) {
	if !wasOut {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), unpublishTimeout)
	defer cancel()
	if err := in.put(ctx, code, salt, seq, hostAddrs{own: []ma.Multiaddr{}}); err != nil {
		in.log.Debug("the code's last record did not go out; it expires by itself", "code", code, "in", recordLife, "err", err)
	}
}

func (in *Internet) put(ctx context.Context, code Code, salt []byte, seq uint64, addrs hostAddrs) error {
	b, err := codeRecord(in.h, code, salt, seq, time.Now(), addrs)
	if err != nil {
		return err
	}
	pctx, cancel := context.WithTimeout(ctx, putTimeout)
	defer cancel()
	return in.kad.Load().PutValue(pctx, codeRoutingKey(code), b)
}
