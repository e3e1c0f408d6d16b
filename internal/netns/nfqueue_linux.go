package netns

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"sync"
	"syscall"
	"time"
)

// A minimal NFQUEUE client over raw netlink (linux/netfilter/nfnetlink_queue.h):
// bind a queue, receive packet IDs (metadata only), answer with verdicts.
const (
	nfnlSubsysQueue  = 3
	nfqnlMsgPacket   = 0
	nfqnlMsgVerdict  = 1
	nfqnlMsgConfig   = 2
	nfqaCfgCmd       = 1
	nfqaCfgParams    = 2
	nfqaCfgQueueLen  = 3
	nfqaPacketHdr    = 1
	nfqaVerdictHdr   = 2
	nfqnlCfgCmdBind  = 1
	nfqnlCopyMeta    = 1
	nfDrop           = 0
	nfAccept         = 1
	nlmFRequest      = 1
	nlmFAck          = 4
	nlmsgHdrLen      = 16
	nfgenHdrLen      = 4
	nlaTypeMask      = 0x3fff
	netlinkNetfilter = 12
)

// runQueue binds queue number q and delays or drops every packet it gets,
// forever. ready is called once the queue is bound.
func runQueue(q uint16, im Impairment, ready func()) error {
	fd, err := syscall.Socket(syscall.AF_NETLINK, syscall.SOCK_RAW, netlinkNetfilter)
	if err != nil {
		return fmt.Errorf("nfqueue: socket: %w", err)
	}
	defer syscall.Close(fd)
	_ = syscall.SetsockoptInt(fd, syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4<<20)
	if err := syscall.Bind(fd, &syscall.SockaddrNetlink{Family: syscall.AF_NETLINK}); err != nil {
		return fmt.Errorf("nfqueue: bind: %w", err)
	}
	nl := &nlSock{fd: fd}
	cmd := []byte{nfqnlCfgCmdBind, 0, 0, syscall.AF_INET}
	params := binary.BigEndian.AppendUint32(nil, 0xffff)
	params = append(params, nfqnlCopyMeta)
	qlen := binary.BigEndian.AppendUint32(nil, 4096)
	for _, attr := range []struct {
		typ  uint16
		data []byte
	}{{nfqaCfgCmd, cmd}, {nfqaCfgParams, params}, {nfqaCfgQueueLen, qlen}} {
		if err := nl.request(nfqnlMsgConfig, q, attr.typ, attr.data, true); err != nil {
			return fmt.Errorf("nfqueue: configure queue %d: %w", q, err)
		}
	}
	ready()
	buf := make([]byte, 1<<16)
	for {
		n, _, err := syscall.Recvfrom(fd, buf, 0)
		if err != nil {
			if err == syscall.ENOBUFS || err == syscall.EINTR {
				continue // the kernel dropped packets of ours: they are lost, as on a bad link
			}
			return fmt.Errorf("nfqueue: receive: %w", err)
		}
		for _, id := range packetIDs(buf[:n]) {
			if rand.Float64() < im.Loss {
				nl.verdict(q, id, nfDrop)
				continue
			}
			d := im.Delay
			if im.Jitter > 0 {
				d += time.Duration(rand.Int64N(int64(2*im.Jitter)+1)) - im.Jitter
			}
			time.AfterFunc(d, func() { nl.verdict(q, id, nfAccept) })
		}
	}
}

type nlSock struct {
	mu  sync.Mutex
	fd  int
	seq uint32
}

// request sends one nfqueue message with one attribute; with ack it waits
// for the kernel's answer and returns its error.
func (s *nlSock) request(msg uint8, q uint16, attrType uint16, data []byte, ack bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seq++
	flags := uint16(nlmFRequest)
	if ack {
		flags |= nlmFAck
	}
	b := make([]byte, nlmsgHdrLen, 64)
	b = append(b, syscall.AF_UNSPEC, 0, byte(q>>8), byte(q))
	b = binary.NativeEndian.AppendUint16(b, uint16(4+len(data)))
	b = binary.NativeEndian.AppendUint16(b, attrType)
	b = append(b, data...)
	for len(b)%4 != 0 {
		b = append(b, 0)
	}
	binary.NativeEndian.PutUint32(b[0:], uint32(len(b)))
	binary.NativeEndian.PutUint16(b[4:], nfnlSubsysQueue<<8|uint16(msg))
	binary.NativeEndian.PutUint16(b[6:], flags)
	binary.NativeEndian.PutUint32(b[8:], s.seq)
	if err := syscall.Sendto(s.fd, b, 0, &syscall.SockaddrNetlink{Family: syscall.AF_NETLINK}); err != nil {
		return err
	}
	if !ack {
		return nil
	}
	resp := make([]byte, 4096)
	n, _, err := syscall.Recvfrom(s.fd, resp, 0)
	if err != nil {
		return err
	}
	if n >= nlmsgHdrLen+4 && binary.NativeEndian.Uint16(resp[4:]) == syscall.NLMSG_ERROR {
		if code := int32(binary.NativeEndian.Uint32(resp[nlmsgHdrLen:])); code != 0 {
			return syscall.Errno(-code)
		}
	}
	return nil
}

func (s *nlSock) verdict(q uint16, id uint32, v uint32) {
	hdr := binary.BigEndian.AppendUint32(nil, v)
	hdr = binary.BigEndian.AppendUint32(hdr, id)
	_ = s.request(nfqnlMsgVerdict, q, nfqaVerdictHdr, hdr, false)
}

// packetIDs reads the packet IDs of the NFQNL_MSG_PACKET messages in b.
func packetIDs(b []byte) []uint32 {
	var ids []uint32
	for len(b) >= nlmsgHdrLen {
		l := int(binary.NativeEndian.Uint32(b))
		if l < nlmsgHdrLen || l > len(b) {
			break
		}
		typ := binary.NativeEndian.Uint16(b[4:])
		if typ == nfnlSubsysQueue<<8|nfqnlMsgPacket {
			attrs := b[nlmsgHdrLen+nfgenHdrLen : l]
			for len(attrs) >= 4 {
				al := int(binary.NativeEndian.Uint16(attrs))
				at := binary.NativeEndian.Uint16(attrs[2:]) & nlaTypeMask
				if al < 4 || al > len(attrs) {
					break
				}
				if at == nfqaPacketHdr && al >= 8 {
					ids = append(ids, binary.BigEndian.Uint32(attrs[4:]))
				}
				step := (al + 3) &^ 3
				if step > len(attrs) {
					break
				}
				attrs = attrs[step:]
			}
		}
		step := (l + 3) &^ 3
		if step > len(b) {
			break
		}
		b = b[step:]
	}
	return ids
}
