package discovery

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"
	manet "github.com/multiformats/go-multiaddr/net"

	"hostfall/internal/clip"
)

// ServiceType is the DNS-SD service Hostfall sessions are advertised as, in
// the domain ServiceDomain.
const (
	ServiceType   = "_hostfall._udp"
	ServiceDomain = "local."
)

// txtVersion is the version of the TXT layout below. A reader skips records of
// a newer layout it cannot read (txtvers is the DNS-SD convention for it).
const txtVersion = 1

// Bounds of a TXT record: DNS-SD strings are at most 255 bytes, and the whole
// answer must fit one unfragmented mDNS packet with its SRV, A and PTR records.
const (
	MaxTXTString  = 255
	maxTXTAddrs   = 8
	MaxTXTBytes   = 1000
	maxAnnName    = 64
	maxGameVerLen = 32
	// maxAnnPlayers bounds what an announcement's player counts read as:
	// more than any lobby holds, so only junk is cut.
	maxAnnPlayers = 64
)

// AnnState is what an announced peer is doing.
type AnnState uint8

const (
	AnnLobby   AnnState = iota // hosts a lobby that players may join
	AnnPlaying                 // hosts a game in progress
	AnnLooking                 // started with --auto and hosts nothing yet
)

var annStateNames = [...]string{"lobby", "playing", "looking"}

func (s AnnState) String() string {
	if int(s) < len(annStateNames) {
		return annStateNames[s]
	}
	return "unknown"
}

// ParseAnnState reads a state name.
func ParseAnnState(s string) (AnnState, error) {
	for i, n := range annStateNames {
		if s == n {
			return AnnState(i), nil
		}
	}
	return 0, fmt.Errorf("unknown session state %q", s)
}

// Announcement is what a peer advertises on the LAN: the session it hosts
// (or, with --auto, that it looks for one) and how to dial it.
type Announcement struct {
	Protocol    int    // the host's session protocol version
	GameVersion string // the host's game version; joiners need the same
	Name        string // session name ("" while looking)
	Players     int    // occupied slots (players and bots)
	MaxPlayers  int
	State       AnnState
	Password    bool // joining needs the password
	Auto        bool // an --auto lobby, or a peer looking for one
	Host        peer.ID
	HostName    string         // the hosting player's name, for the browser ("" from older peers)
	Addrs       []ma.Multiaddr // where the host listens (no /p2p part)
}

// Errors of DecodeTXT that callers branch on.
var (
	ErrNotHostfall = errors.New("not a Hostfall announcement")
	ErrNewerTXT    = errors.New("announcement of a newer layout")
)

// TXT encodes the announcement as DNS-SD TXT strings (key=value, each at most
// 255 bytes). Loopback and link-local addresses are left out (nobody else can
// dial them), and so are addresses past the size budget.
func (a *Announcement) TXT() []string {
	txt := []string{
		"txtvers=" + strconv.Itoa(txtVersion),
		"proto=" + strconv.Itoa(a.Protocol),
		"gv=" + clip.String(a.GameVersion, maxGameVerLen),
		"name=" + clip.String(a.Name, maxAnnName),
		"players=" + strconv.Itoa(a.Players),
		"max=" + strconv.Itoa(a.MaxPlayers),
		"state=" + a.State.String(),
		"pw=" + flag01(a.Password),
		"auto=" + flag01(a.Auto),
		"peer=" + a.Host.String(),
		"hname=" + clip.String(a.HostName, maxAnnName),
	}
	size := 0
	for _, s := range txt {
		size += len(s) + 1
	}
	n := 0
	for _, m := range a.Addrs {
		if n == maxTXTAddrs || !dialableOnLAN(m) {
			continue
		}
		s := fmt.Sprintf("a%d=%s", n, m)
		if len(s) > MaxTXTString || size+len(s)+1 > MaxTXTBytes {
			continue
		}
		txt = append(txt, s)
		size += len(s) + 1
		n++
	}
	return txt
}

// DecodeTXT reads an announcement from TXT strings. Unknown keys are ignored
// (a newer peer may add some); a missing or unreadable peer ID is an error.
func DecodeTXT(fields []string) (Announcement, error) {
	var a Announcement
	kv := map[string]string{}
	for _, f := range fields {
		k, v, _ := strings.Cut(f, "=")
		k = strings.ToLower(k)
		if _, dup := kv[k]; !dup { // DNS-SD: the first occurrence wins
			kv[k] = v
		}
	}
	vers, ok := kv["txtvers"]
	if !ok {
		return a, fmt.Errorf("%w: no txtvers", ErrNotHostfall)
	}
	if v, err := strconv.Atoi(vers); err != nil || v < 1 {
		return a, fmt.Errorf("%w: txtvers %q", ErrNotHostfall, vers)
	} else if v > txtVersion {
		return a, fmt.Errorf("%w: txtvers %d (this peer reads %d)", ErrNewerTXT, v, txtVersion)
	}
	id, err := peer.Decode(kv["peer"])
	if err != nil {
		return a, fmt.Errorf("%w: peer %q: %v", ErrNotHostfall, kv["peer"], err)
	}
	a.Host = id
	a.Protocol, _ = strconv.Atoi(kv["proto"])
	a.GameVersion = clip.String(kv["gv"], maxGameVerLen)
	a.Name = clip.String(kv["name"], maxAnnName)
	a.HostName = clip.String(kv["hname"], maxAnnName)
	a.Players = boundedInt(kv["players"], maxAnnPlayers)
	a.MaxPlayers = boundedInt(kv["max"], maxAnnPlayers)
	if a.State, err = ParseAnnState(kv["state"]); err != nil {
		return a, fmt.Errorf("%w: %v", ErrNotHostfall, err)
	}
	a.Password = kv["pw"] == "1"
	a.Auto = kv["auto"] == "1"
	for i := range maxTXTAddrs {
		s, ok := kv["a"+strconv.Itoa(i)]
		if !ok {
			break
		}
		m, err := ma.NewMultiaddr(s)
		if err != nil {
			continue // one bad address does not spoil the others
		}
		if _, last := ma.SplitLast(m); last != nil && last.Code() == ma.P_P2P {
			m, _ = ma.SplitLast(m)
		}
		a.Addrs = append(a.Addrs, m)
	}
	return a, nil
}

// AddrInfo is the host's peer ID and addresses, for dialing it.
func (a *Announcement) AddrInfo() peer.AddrInfo {
	return peer.AddrInfo{ID: a.Host, Addrs: append([]ma.Multiaddr(nil), a.Addrs...)}
}

// Joinable reports whether a player of this session protocol and game
// version could join: a lobby with a free slot.
func (a *Announcement) Joinable(protocol int, gameVersion string) bool {
	return a.State == AnnLobby && a.Protocol == protocol &&
		a.GameVersion == gameVersion && (a.MaxPlayers == 0 || a.Players < a.MaxPlayers)
}

// dialableOnLAN keeps addresses another machine could dial: no loopback,
// no IPv6 link-local (it needs a zone), no unspecified.
func dialableOnLAN(m ma.Multiaddr) bool {
	ip, err := manet.ToIP(m)
	if err != nil {
		return true // DNS names and the like
	}
	return !ip.IsLoopback() && !ip.IsUnspecified() && !ip.IsLinkLocalUnicast()
}

func flag01(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

// boundedInt reads a small non-negative number; junk reads as 0.
func boundedInt(s string, most int) int {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return 0
	}
	return min(n, most)
}
