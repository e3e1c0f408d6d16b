// Package beacon finds LAN sessions without multicast: UDP broadcast on one
// fixed port (Port). It is the second discovery path beside mDNS, for
// networks and platforms where multicast does not work (Wi-Fi access points
// and switches that filter it; Wine, whose sockets cannot join a multicast
// group on this machine).
//
// A host runs an Announcer: it broadcasts its announcement every Interval
// (and at once, at most every minGap, when it changes) to the broadcast
// address of each IPv4 interface and to 255.255.255.255, answers each query
// by unicast to the asker, and broadcasts a goodbye when it closes. A
// browser runs a Listener: it hears announcements on Port and, when it
// opens, asks every host to answer at once (a query, sent again twice in
// its first second since UDP may lose one).
//
// What an announcement carries is opaque here: DNS-SD TXT strings, the same
// that the host's mDNS records hold (package p2p/discovery builds and reads them).
//
// # Packet
//
// Every packet starts with the magic "HFLB" and a version byte, then a kind
// (query, announce, goodbye), the announcer's random instance number (a
// restarted host is told from the one that said goodbye), and the TXT
// strings in DNS form (a count, then length-prefixed strings). A packet is
// at most MaxPacket bytes, so it never fragments; the decoder checks each
// length against what is left before it reads a byte.
//
// # Bounds
//
// An announcer answers queries at most once per asking socket (address and
// port) every minGap and answerRate in all a second (a forged query costs it
// one packet at most, and not many of them); a listener remembers nothing
// itself: its owner bounds what it keeps.
package beacon
