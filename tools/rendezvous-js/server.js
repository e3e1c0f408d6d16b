// A libp2p rendezvous point served by a third-party implementation
// (@canvas-js/libp2p-rendezvous on js-libp2p). Go tests start it to check
// that hostfall's directory speaks the standard protocol, not just to itself.
//
// It listens on loopback TCP, prints one line "listening <multiaddr>/p2p/<id>",
// and exits when its stdin closes, so it never outlives the test that owns it.

// js-libp2p's queue (it-queue) calls Promise.withResolvers, which node has
// only from version 22; define it before loading libp2p, so node 20 runs it.
if (typeof Promise.withResolvers !== "function") {
  Promise.withResolvers = function () {
    let resolve, reject
    const promise = new this((res, rej) => {
      resolve = res
      reject = rej
    })
    return { promise, resolve, reject }
  }
}

const { createLibp2p } = await import("libp2p")
const { tcp } = await import("@libp2p/tcp")
const { noise } = await import("@chainsafe/libp2p-noise")
const { yamux } = await import("@chainsafe/libp2p-yamux")
const { RendezvousServer, rendezvousServer } = await import("@canvas-js/libp2p-rendezvous/server")

// canvas-js registers its handler under its own id (/canvas/rendezvous/1.0.0)
// although the messages are the spec's; give it the spec's id.
RendezvousServer.protocol = "/rendezvous/1.0.0"

const node = await createLibp2p({
  addresses: { listen: ["/ip4/127.0.0.1/tcp/0"] },
  transports: [tcp()],
  connectionEncrypters: [noise()],
  streamMuxers: [yamux()],
  services: { rendezvous: rendezvousServer({ maxRegistrationTTL: 7200, maxDiscoverLimit: 64 }) },
})
await node.start()

const addr = node.getMultiaddrs().find((a) => a.toString().startsWith("/ip4/127.0.0.1/tcp/"))
process.stdout.write(`listening ${addr.toString()}\n`)

const stop = async () => {
  await node.stop()
  process.exit(0)
}
process.stdin.on("end", stop)
process.stdin.on("close", stop)
process.stdin.resume()
process.on("SIGTERM", stop)
