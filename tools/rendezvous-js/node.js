// What server.js and client.js share: a js-libp2p node on loopback TCP with
// noise and yamux, as go-libp2p speaks them.
import { createLibp2p } from "libp2p"
import { tcp } from "@libp2p/tcp"
import { noise } from "@chainsafe/libp2p-noise"
import { yamux } from "@chainsafe/libp2p-yamux"

// js-libp2p's queue (it-queue) calls Promise.withResolvers, which node has
// only from version 22; node 20 gets this stand-in.
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

// The spec's protocol id. canvas-js serves and asks under its own
// (/canvas/rendezvous/1.0.0) although its messages are the spec's.
export const protocol = "/rendezvous/1.0.0"

export async function startNode(services) {
  const node = await createLibp2p({
    addresses: { listen: ["/ip4/127.0.0.1/tcp/0"] },
    transports: [tcp()],
    connectionEncrypters: [noise()],
    streamMuxers: [yamux()],
    // Every test peer dials from 127.0.0.1: js-libp2p's default of 5 inbound
    // connections a second from one address would refuse most of them.
    connectionManager: { inboundConnectionThreshold: 1000, maxIncomingPendingConnections: 256, maxConnections: 1000 },
    services,
  })
  await node.start()
  return node
}

export function loopbackAddr(node) {
  return node.getMultiaddrs().find((a) => a.toString().startsWith("/ip4/127.0.0.1/tcp/")).toString()
}
