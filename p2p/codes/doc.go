// Package codes turns invite codes into the address of a game's host.
// A long code (HF1-…, invite.go) holds the host's peer ID, a relay and its
// direct addresses itself. A short one (K7Q2-9XPM, code.go) is a hash of the
// host's ID with a salt, published as a signed, expiring record in the
// public libp2p DHT (coderecord.go) by the host's internet play (Internet:
// DHT client, public relays found on the DHT, hole punching), which also
// looks codes up. DHTNode is a public-network server for tests that build a
// network of their own.
package codes
