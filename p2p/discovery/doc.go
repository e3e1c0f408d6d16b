// Package discovery finds games on the LAN and makes a hosted game findable
// there: an Advertiser answers mDNS / DNS-SD queries for the host's records
// and runs a beacon (package p2p/beacon) beside it for networks that drop
// multicast; a Browser asks both ways and merges what it hears into one
// list, keyed by the host's peer ID. What a record says is an Announcement
// (the game's name, players, state, versions and the host's addresses) in
// DNS-SD TXT strings that both paths carry unchanged. AnnounceLobby keeps
// the records of a hosted game current with what the peer that hosts it
// says to announce (Hosting: the client builds the announcement from its
// lobby; discovery only carries the fields); SessionResolver finds a game
// by name.
package discovery
