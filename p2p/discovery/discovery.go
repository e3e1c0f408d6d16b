package discovery

import (
	"os"
	"strings"
)

// Discovery is a set of ways a browser finds LAN sessions.
type Discovery uint8

const (
	DiscoveryMDNS   Discovery = 1 << iota // mDNS / DNS-SD (multicast)
	DiscoveryBeacon                       // UDP broadcast beacons (p2p/beacon)
)

func (d Discovery) String() string {
	var out []string
	if d&DiscoveryMDNS != 0 {
		out = append(out, "mdns")
	}
	if d&DiscoveryBeacon != 0 {
		out = append(out, "beacon")
	}
	return strings.Join(out, "+")
}

// discoveryFromEnv reads $HOSTFALL_DISCOVERY ("mdns" or "beacon" to look
// one way only, for measuring each path and for trying a LAN where one
// misbehaves); anything else means both.
func discoveryFromEnv() Discovery {
	switch os.Getenv("HOSTFALL_DISCOVERY") {
	case "mdns":
		return DiscoveryMDNS
	case "beacon":
		return DiscoveryBeacon
	}
	return DiscoveryMDNS | DiscoveryBeacon
}
