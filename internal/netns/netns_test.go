package netns

import (
	"net"
	"os"
	"slices"
	"testing"
	"time"
)

func TestMain(m *testing.M) {
	RunHelper()
	os.Exit(m.Run())
}

func TestParseNetem(t *testing.T) {
	im, err := ParseNetem([]string{"delay", "50ms", "10ms", "loss", "1%"})
	if err != nil || im != (Impairment{Delay: 50 * time.Millisecond, Jitter: 10 * time.Millisecond, Loss: 0.01}) {
		t.Fatalf("%+v, %v", im, err)
	}
	back, q, err := parseEnv("queue=7 " + im.env())
	if err != nil || back != im || q != 7 {
		t.Fatalf("env round trip: %+v %d %v", back, q, err)
	}
	for _, bad := range [][]string{{"delay"}, {"loss", "200%"}, {"rate", "1mbit"}} {
		if _, err := ParseNetem(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// Two namespaces on a switch: UDP round trips are fast, then Netem delays
// one side's egress by 50 ms ± 10 ms (tc netem, or the NFQUEUE stand-in on
// kernels without it).
func TestSwitchAndNetem(t *testing.T) {
	lab := testLab(t)
	sw, err := lab.Switch("sw", "10.91.0")
	if err != nil {
		t.Fatal(err)
	}
	a, _ := lab.Namespace("a")
	b, _ := lab.Namespace("b")
	if _, err := sw.Plug(a); err != nil {
		t.Fatal(err)
	}
	lb, err := sw.Plug(b)
	if err != nil {
		t.Fatal(err)
	}
	var echo *net.UDPConn
	if err := b.Do(func() (err error) {
		echo, err = net.ListenUDP("udp4", &net.UDPAddr{IP: net.ParseIP(lb.IP), Port: 7007})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	defer echo.Close()
	go func() {
		buf := make([]byte, 64)
		for {
			n, from, err := echo.ReadFromUDP(buf)
			if err != nil {
				return
			}
			_, _ = echo.WriteToUDP(buf[:n], from)
		}
	}()
	var probe *net.UDPConn
	if err := a.Do(func() (err error) {
		probe, err = net.DialUDP("udp4", nil, &net.UDPAddr{IP: net.ParseIP(lb.IP), Port: 7007})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	defer probe.Close()
	median := func() time.Duration {
		var rtts []time.Duration
		buf := make([]byte, 64)
		for range 15 {
			// A second try per ping: on a loaded machine the NFQUEUE
			// stand-in's user-space reader may miss a datagram's deadline.
			var err error
			for try := 0; try < 2; try++ {
				start := time.Now()
				_, _ = probe.Write([]byte("ping"))
				_ = probe.SetReadDeadline(time.Now().Add(3 * time.Second))
				if _, err = probe.Read(buf); err == nil {
					rtts = append(rtts, time.Since(start))
					break
				}
			}
			if err != nil {
				t.Fatalf("no echo in two tries: %v", err)
			}
		}
		slices.Sort(rtts)
		return rtts[len(rtts)/2]
	}
	before := median()
	if err := a.Netem("hflan0", "delay", "50ms", "10ms"); err != nil {
		t.Fatal(err)
	}
	after := median()
	t.Logf("median UDP round trip %v, with 50 ms ± 10 ms netem %v", before, after)
	if after < 40*time.Millisecond || after > 40*time.Millisecond+before+200*time.Millisecond {
		t.Fatalf("netem delay 50 ms ± 10 ms gave a median round trip of %v", after)
	}
}
