package discovery

import (
	"os"
	"strings"
)

// Way is a set of ways a browser finds LAN sessions.
type Way uint8

const (
	MDNS   Way = 1 << iota // mDNS / DNS-SD (multicast)
	Beacon                 // UDP broadcast beacons (p2p/beacon)
)

func (d Way) String() string {
	var out []string
	if d&MDNS != 0 {
		out = append(out, "mdns")
	}
	if d&Beacon != 0 {
		out = append(out, "beacon")
	}
	return strings.Join(out, "+")
}

// waysFromEnv reads $HOSTFALL_DISCOVERY ("mdns" or "beacon" to look
// one way only, for measuring each path and for trying a LAN where one
// misbehaves); anything else means both.
func waysFromEnv() Way {
	switch os.Getenv("HOSTFALL_DISCOVERY") {
	case "mdns":
		return MDNS
	case "beacon":
		return Beacon
	}
	return MDNS | Beacon
}
