package beacon

import (
	"context"
	"fmt"
	"net"
	"syscall"
)

// conn is one UDP socket of a beacon: the net package's, or on Windows a
// plain Winsock one where the net package cannot open UDP (Wine; see
// conn_windows.go).
type conn interface {
	ReadFrom(b []byte) (int, *net.UDPAddr, error) // net.ErrClosed after Close
	WriteTo(b []byte, to *net.UDPAddr) error
	Close() error
}

// open binds port on every IPv4 address (0: any free port). A shared
// socket shares its port with the machine's other beacon sockets (a host
// and a browser on one machine): each gets its own copy of a broadcast.
func open(port int, shared bool) (conn, error) {
	c, err := openNet(port, shared)
	if err != nil && useRaw(err) {
		return openRaw(port, shared)
	}
	return c, err
}

type netConn struct{ *net.UDPConn }

func (c netConn) ReadFrom(b []byte) (int, *net.UDPAddr, error) { return c.ReadFromUDP(b) }

func (c netConn) WriteTo(b []byte, to *net.UDPAddr) error {
	_, err := c.WriteToUDP(b, to)
	return err
}

func openNet(port int, shared bool) (conn, error) {
	var lc net.ListenConfig
	if shared {
		lc.Control = func(_, _ string, rc syscall.RawConn) error {
			var serr error
			if err := rc.Control(func(fd uintptr) { serr = reuse(fd) }); err != nil {
				return err
			}
			return serr
		}
	}
	pc, err := lc.ListenPacket(context.Background(), "udp4", fmt.Sprintf("0.0.0.0:%d", port))
	if err != nil {
		return nil, fmt.Errorf("beacon: cannot listen on UDP port %d: %w", port, err)
	}
	return netConn{pc.(*net.UDPConn)}, nil
}
