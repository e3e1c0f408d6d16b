// A third-party rendezvous client (@canvas-js/libp2p-rendezvous on
// js-libp2p) against the point at argv[2]: it registers itself under the
// namespace argv[3], discovers that namespace, and prints one JSON line:
// {"id": its peer ID, "ttl": the TTL granted, "peers": the peer IDs found}.
import { multiaddr } from "@multiformats/multiaddr"
import { protocol, startNode } from "./node.js"
import { RendezvousClient, rendezvousClient } from "@canvas-js/libp2p-rendezvous/client"

RendezvousClient.protocol = protocol

const [point, ns] = process.argv.slice(2)
const node = await startNode({ rendezvous: rendezvousClient({ autoDiscover: false }) })
let out
await node.services.rendezvous.connect(multiaddr(point), async (p) => {
  const { ttl } = await p.register(ns, { ttl: 120 })
  const peers = await p.discover(ns)
  out = { id: node.peerId.toString(), ttl, peers: peers.map((peer) => peer.id.toString()) }
})
process.stdout.write(JSON.stringify(out) + "\n")
await node.stop()
process.exit(0)
