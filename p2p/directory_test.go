package p2p

import (
	"bytes"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-msgio/pbio"

	"hostfall/p2p/internal/dirpb"
)

// bareDirectory is a Directory with no host: serve is called directly.
func bareDirectory() *Directory {
	return &Directory{opt: DirectoryOptions{TTL: DefaultDirTTL}, log: testLog(), now: time.Now, entries: map[peer.ID]*dirEntry{}}
}

func freshPeer(t testing.TB) peer.ID {
	t.Helper()
	k, _, err := crypto.GenerateEd25519Key(nil)
	if err != nil {
		t.Fatal(err)
	}
	id, err := peer.IDFromPrivateKey(k)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func registerAs(d *Directory, id peer.ID, addr string, a Announcement) *dirpb.Response {
	a.Host = id
	return d.serve(id, addr, &dirpb.Request{Kind: &dirpb.Request_Register{Register: &dirpb.Register{Txt: a.TXT()}}})
}

// Fresh peer IDs from one address cannot fill the directory: after
// dirMaxPerAddr sessions that address is refused, another is not, and a
// registered host still refreshes its own entry.
func TestDirectoryBoundsEachAddress(t *testing.T) {
	d := bareDirectory()
	a := testAnnouncement(t)
	var first peer.ID
	for i := range dirMaxPerAddr {
		id := freshPeer(t)
		if i == 0 {
			first = id
		}
		if r := registerAs(d, id, "198.51.100.7", a); r.Status != dirpb.Status_OK {
			t.Fatalf("session %d from one address refused: %v %s", i, r.Status, r.Text)
		}
	}
	if r := registerAs(d, freshPeer(t), "198.51.100.7", a); r.Status != dirpb.Status_FULL {
		t.Fatalf("session %d from one address: %v, want FULL", dirMaxPerAddr+1, r.Status)
	}
	if r := registerAs(d, freshPeer(t), "203.0.113.9", a); r.Status != dirpb.Status_OK {
		t.Fatalf("another address refused: %v %s", r.Status, r.Text)
	}
	d.now = func() time.Time { return time.Now().Add(time.Second) } // past dirMinRegister
	if r := registerAs(d, first, "198.51.100.7", a); r.Status != dirpb.Status_OK {
		t.Fatalf("a registered host's heartbeat refused: %v %s", r.Status, r.Text)
	}
}

// Any bytes as a request: a clear refusal or an answer, never a panic, and
// the directory stays within its bounds.
func FuzzDirectoryRequest(f *testing.F) {
	a := testAnnouncement(f)
	for _, req := range []*dirpb.Request{
		{Kind: &dirpb.Request_Register{Register: &dirpb.Register{Txt: a.TXT()}}},
		{Kind: &dirpb.Request_List{List: &dirpb.List{}}},
		{Kind: &dirpb.Request_Unregister{Unregister: &dirpb.Unregister{}}},
		{},
	} {
		var b bytes.Buffer
		if err := pbio.NewDelimitedWriter(&b).WriteMsg(req); err != nil {
			f.Fatal(err)
		}
		f.Add(b.Bytes())
	}
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0x0f})
	d := bareDirectory()
	id := freshPeer(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		var req dirpb.Request
		if err := pbio.NewDelimitedReader(bytes.NewReader(data), dirMaxRequest).ReadMsg(&req); err != nil {
			return
		}
		if resp := d.serve(id, "192.0.2.1", &req); resp == nil {
			t.Fatal("no answer")
		}
		if n := len(d.entries); n > 1 {
			t.Fatalf("one peer holds %d entries", n)
		}
	})
}

// Any bytes as a listing: entries that cannot be read are skipped, never a
// panic.
func FuzzDirectoryResponse(f *testing.F) {
	a := testAnnouncement(f)
	for _, resp := range []*dirpb.Response{
		{Entries: []*dirpb.Entry{{Txt: a.TXT(), AgeSeconds: 3}, {Txt: []string{"junk"}}}},
		{Status: dirpb.Status_FULL, Text: "full"},
	} {
		var b bytes.Buffer
		if err := pbio.NewDelimitedWriter(&b).WriteMsg(resp); err != nil {
			f.Fatal(err)
		}
		f.Add(b.Bytes())
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var resp dirpb.Response
		if err := pbio.NewDelimitedReader(bytes.NewReader(data), dirMaxResponse).ReadMsg(&resp); err != nil {
			return
		}
		for _, e := range directoryEntries(&resp) {
			if e.Host == "" {
				t.Fatalf("an entry without a host was read: %+v", e)
			}
		}
	})
}
