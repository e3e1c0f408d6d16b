// Package transport carries Hostfall's session between real processes: one
// go-libp2p host per process (TCP and QUIC, TLS or Noise, yamux) and the
// session transport on /hostfall/session/1. It moves bytes and reports
// connectivity; what the messages mean is the session's, and the loop that
// runs a session.Node with its game lives above (client/network.Peer). It
// also keeps a peer behind NAT reachable through a relay (RelayClient),
// renews limited relay circuits within the punch window, relays for the
// members of its game (playerrelay.go), and moves a session onto a direct
// connection, or one without limits, once one opens. Finding games is the business of
// the packages beside it: p2p/discovery (the LAN), p2p/codes (invite codes
// and the internet) and p2p/relay (a relay of one's own with its
// directory).
//
// # Host
//
// NewHost starts the libp2p host. Its identity key lives where
// datadir.Identity says (identity.key beside the settings;
// $HOSTFALL_IDENTITY or Options.IdentityPath override it), so a restarted
// peer is the same player.
// Options.Libp2p takes further libp2p options (relay client, auto relay,
// reachability); Options.HolePunching runs DCUtR. Dials try TCP before QUIC
// (TCPFirst): a dead process's TCP connections are reset by its kernel, so the
// others learn of it at once, where QUIC leaves it to the session's heartbeat.
// A gater refuses blocked peers (Host.Block).
//
// # Transport
//
// One stream per peer pair carries frames: uvarint(n) | kind byte | n-1 bytes
// of body, n ≤ MaxFrameSize (a session message of session.MaxMessageSize plus
// the kind). Kinds: a hello that each side writes first (frame version and
// its listen addresses), session messages, an address directory the host
// sends so followers can reach each other (the next host is one of them),
// and ping/pong for the round trip shown in Status. Whoever has something
// to send opens the stream; when both open at once, the stream opened by the
// smaller peer ID stays on both sides and the other is reset (frames on it
// are lost; the session resends).
//
// Sending never blocks the loop: each peer has a bounded queue
// (Limits.QueueFrames) and a frame that finds it full is dropped — it only
// fills when the peer stopped reading, and the session resends turns,
// commands and heartbeats. A link goroutine per peer owns the stream's
// writing side (batched, with a write deadline); a reader goroutine per
// stream decodes frames, throttles each peer to its frame and byte rates
// (token buckets, Limits) and hands session messages to the loop. A frame
// that is malformed, oversized, truncated or unexpected (no hello first, a
// second hello, an unknown kind) resets the stream with a logged reason and
// counts a strike; MaxStrikes within StrikeWindow and the peer is
// disconnected and blocked for BlockFor.
//
// Connections are reported to the session as they are: the first connection
// to a peer steps MsgConnected, the loss of the last one MsgDisconnected, so
// a host that goes away starts a migration at once. While a game runs, every
// player keeps a connection to every other (the mesh), so the next host is
// already connected to everyone and a follower's loss is known too. Silent
// failures (a network that drops packets, streams that die under a live
// connection) are the session's heartbeats' to catch.
//
// # What the loop sees
//
// Transport is the loop's side: Inbound delivers decoded session messages
// with their sender, Changed and ConnChanges the connection changes, Send
// queues a message, Mesh dials the members this peer holds no connection to,
// ShareDirectory sends them the addresses the host knows, and Links counts
// bytes, drops and round trips for the network panel.
package transport
