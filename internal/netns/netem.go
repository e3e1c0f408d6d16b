package netns

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// Impairment is what Netem applies to a link's egress.
type Impairment struct {
	Delay  time.Duration
	Jitter time.Duration // uniform ± around Delay
	Loss   float64       // 0..1
}

// ParseNetem reads netem's arguments: delay D [J] and loss P%.
func ParseNetem(args []string) (Impairment, error) {
	var im Impairment
	for i := 0; i < len(args); i++ {
		switch args[i] {
		case "delay":
			if i+1 >= len(args) {
				return im, errors.New("netem: delay needs a duration")
			}
			d, err := time.ParseDuration(args[i+1])
			if err != nil {
				return im, fmt.Errorf("netem: delay: %w", err)
			}
			im.Delay = d
			i++
			if i+1 < len(args) {
				if j, err := time.ParseDuration(args[i+1]); err == nil {
					im.Jitter = j
					i++
				}
			}
		case "loss":
			if i+1 >= len(args) {
				return im, errors.New("netem: loss needs a percentage")
			}
			p, err := strconv.ParseFloat(strings.TrimSuffix(args[i+1], "%"), 64)
			if err != nil || p < 0 || p > 100 {
				return im, fmt.Errorf("netem: loss %q", args[i+1])
			}
			im.Loss = p / 100
			i++
		default:
			return im, fmt.Errorf("netem: %q is not supported here (delay, loss)", args[i])
		}
	}
	return im, nil
}

func (im Impairment) env() string {
	return fmt.Sprintf("delay=%d jitter=%d loss=%g", im.Delay, im.Jitter, im.Loss)
}

func parseEnv(s string) (Impairment, uint16, error) {
	var im Impairment
	var queue uint64
	for _, f := range strings.Fields(s) {
		k, v, _ := strings.Cut(f, "=")
		var err error
		switch k {
		case "delay":
			var n int64
			n, err = strconv.ParseInt(v, 10, 64)
			im.Delay = time.Duration(n)
		case "jitter":
			var n int64
			n, err = strconv.ParseInt(v, 10, 64)
			im.Jitter = time.Duration(n)
		case "loss":
			im.Loss, err = strconv.ParseFloat(v, 64)
		case "queue":
			queue, err = strconv.ParseUint(v, 10, 16)
		}
		if err != nil {
			return im, 0, fmt.Errorf("netem helper: %s: %w", f, err)
		}
	}
	return im, uint16(queue), nil
}

// helperEnv makes a test binary act as the netem stand-in (RunHelper).
const helperEnv = "HFLAN_NETEM_HELPER"

// RunHelper must be the first thing TestMain does in a package whose tests
// call Netem: where the kernel has no netem qdisc, Netem starts the test
// binary itself inside the namespace as a userspace stand-in, and this is
// where that process runs it (and exits).
func RunHelper() {
	spec := os.Getenv(helperEnv)
	if spec == "" {
		return
	}
	im, queue, err := parseEnv(spec)
	if err == nil {
		err = runQueue(queue, im, func() { fmt.Println("ready") })
	}
	fmt.Fprintln(os.Stderr, err)
	os.Exit(1)
}

var queueSeq atomic.Uint32

// Netem impairs the egress of dev in ns, e.g. "delay", "50ms", "10ms",
// "loss", "1%", with tc's netem qdisc. Kernels built without netem (this
// package's CI machine is one) get a stand-in: iptables hands the link's
// outgoing packets to a userspace queue (NFQUEUE), where a helper process
// (see RunHelper) holds each for the delay ± jitter and drops the lost share.
// The stand-in covers IPv4 only.
func (ns *NS) Netem(dev string, args ...string) error {
	out, err := ns.Output(append([]string{"tc", "qdisc", "replace", "dev", dev, "root", "netem"}, args...)...)
	if err == nil {
		return nil
	}
	if !strings.Contains(out, "qdisc kind is unknown") && !strings.Contains(err.Error(), "qdisc kind is unknown") {
		return err
	}
	im, err := ParseNetem(args)
	if err != nil {
		return err
	}
	queue := 1000 + queueSeq.Add(1)%60000
	cmd := ns.Command(os.Args[0])
	cmd.Env = append(os.Environ(), fmt.Sprintf("%s=queue=%d %s", helperEnv, queue, im.env()))
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("netem stand-in: %w", err)
	}
	ready := make(chan bool, 1)
	go func() {
		line, _ := bufio.NewReader(stdout).ReadString('\n')
		ready <- strings.TrimSpace(line) == "ready"
		_, _ = bufio.NewReader(stdout).ReadString(0)
	}()
	go func() { _ = cmd.Wait() }()
	select {
	case ok := <-ready:
		if !ok {
			return fmt.Errorf("netem stand-in in %s did not start: %s", ns.Name, stderr.String())
		}
	case <-time.After(5 * time.Second):
		_ = cmd.Process.Kill()
		return fmt.Errorf("netem stand-in in %s did not start within 5 s: %s", ns.Name, stderr.String())
	}
	_, err = ns.Output("iptables", "-A", "OUTPUT", "-o", dev, "-j", "NFQUEUE", "--queue-num", strconv.Itoa(int(queue)))
	return err
}
