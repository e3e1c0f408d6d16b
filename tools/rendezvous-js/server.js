// A libp2p rendezvous point served by a third-party implementation
// (@canvas-js/libp2p-rendezvous on js-libp2p). Go tests start it to check
// that hostfall's directory speaks the standard protocol, not just to itself.
//
// It prints one line "listening <multiaddr>/p2p/<id>" and exits when its
// stdin closes, so it never outlives the test that owns it.
import { protocol, startNode, loopbackAddr } from "./node.js"
import { RendezvousServer, rendezvousServer } from "@canvas-js/libp2p-rendezvous/server"

RendezvousServer.protocol = protocol

const node = await startNode({ rendezvous: rendezvousServer({ maxRegistrationTTL: 7200, maxDiscoverLimit: 64 }) })
process.stdout.write(`listening ${loopbackAddr(node)}\n`)

const stop = async () => {
  await node.stop()
  process.exit(0)
}
process.stdin.on("end", stop)
process.stdin.on("close", stop)
process.stdin.resume()
process.on("SIGTERM", stop)
