//go:build windows

package beacon

import (
	"errors"
	"fmt"
	"net"
	"sync/atomic"

	"golang.org/x/sys/windows"
)

func reuse(fd uintptr) error {
	return windows.SetsockoptInt(windows.Handle(fd), windows.SOL_SOCKET, windows.SO_REUSEADDR, 1)
}

// useRaw reports the net package's failure under Wine 8: every UDP socket
// it opens first calls WSAIoctl(SIO_UDP_NETRESET), which Wine 8's ws2_32
// does not know (WSAEOPNOTSUPP), so no UDP socket opens at all. Plain
// Winsock calls (socket, setsockopt, bind, sendto, recvfrom) work there.
func useRaw(err error) bool { return errors.Is(err, windows.WSAEOPNOTSUPP) }

// rawConn is a blocking Winsock UDP socket. Reads wake every rawPoll so a
// Close is noticed without closing a handle another thread is blocked on.
type rawConn struct {
	s      windows.Handle
	closed atomic.Bool
}

const rawPoll = 200 // ms

func openRaw(port int, shared bool) (conn, error) {
	s, err := windows.Socket(windows.AF_INET, windows.SOCK_DGRAM, windows.IPPROTO_UDP)
	if err != nil {
		return nil, fmt.Errorf("beacon: cannot open a UDP socket: %w", err)
	}
	opts := [][2]int{{windows.SO_BROADCAST, 1}, {windows.SO_RCVTIMEO, rawPoll}}
	if shared {
		opts = append(opts, [2]int{windows.SO_REUSEADDR, 1})
	}
	for _, o := range opts {
		if err := windows.SetsockoptInt(s, windows.SOL_SOCKET, o[0], o[1]); err != nil {
			windows.Closesocket(s)
			return nil, fmt.Errorf("beacon: socket option %#x: %w", o[0], err)
		}
	}
	if err := windows.Bind(s, &windows.SockaddrInet4{Port: port}); err != nil {
		windows.Closesocket(s)
		return nil, fmt.Errorf("beacon: cannot listen on UDP port %d: %w", port, err)
	}
	return &rawConn{s: s}, nil
}

func (c *rawConn) ReadFrom(b []byte) (int, *net.UDPAddr, error) {
	for {
		if c.closed.Load() {
			return 0, nil, net.ErrClosed
		}
		n, from, err := windows.Recvfrom(c.s, b, 0)
		switch {
		case c.closed.Load():
			return 0, nil, net.ErrClosed
		case errors.Is(err, windows.WSAETIMEDOUT) || errors.Is(err, windows.WSAECONNRESET):
			continue
		case err != nil:
			return 0, nil, err
		}
		if sa, ok := from.(*windows.SockaddrInet4); ok {
			return n, &net.UDPAddr{IP: net.IP(sa.Addr[:]).To16(), Port: sa.Port}, nil
		}
	}
}

func (c *rawConn) WriteTo(b []byte, to *net.UDPAddr) error {
	ip := to.IP.To4()
	if ip == nil {
		return fmt.Errorf("beacon: %v is not IPv4", to)
	}
	sa := &windows.SockaddrInet4{Port: to.Port}
	copy(sa.Addr[:], ip)
	return windows.Sendto(c.s, b, 0, sa)
}

// Close closes the socket; a ReadFrom under way returns within rawPoll.
func (c *rawConn) Close() error {
	if c.closed.Swap(true) {
		return nil
	}
	return windows.Closesocket(c.s)
}
