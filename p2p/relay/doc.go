// Package relay is a relay of one's own and what is found through it: the
// circuit relay service with its session directory, a rendezvous point
// (Start; Run is the whole `hostfall relay` process), hosts'
// registration in the directory and browsers' listing of it, each listed
// host's answer with its lobby (directory.go), and short invite codes kept
// in the relay's rendezvous point instead of the public DHT (relaycode.go).
// The client side that keeps a host behind NAT reachable through a relay is
// transport.RelayClient.
package relay
