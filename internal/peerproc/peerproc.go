// Package peerproc runs headless hostfall processes for end-to-end tests and
// benchmarks: it starts a command, collects the JSON status lines it prints
// on stdout (the operating contract), and waits for the lines a test needs.
// The command is any argv, so a test can wrap it (e.g. `ip netns exec NS …`).
package peerproc

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"syscall"
	"time"
)

// Line is one decoded status line.
type Line map[string]any

// Ev is the line's event name.
func (l Line) Ev() string { return l.Str("ev") }

// Str returns a string field ("" if absent).
func (l Line) Str(k string) string {
	s, _ := l[k].(string)
	return s
}

// Int returns an integer field (0 if absent).
func (l Line) Int(k string) int64 {
	switch v := l[k].(type) {
	case json.Number:
		n, _ := strconv.ParseInt(string(v), 10, 64)
		return n
	}
	return 0
}

// Bool returns a boolean field (false if absent).
func (l Line) Bool(k string) bool {
	b, _ := l[k].(bool)
	return b
}

// Proc is one running process.
type Proc struct {
	Name string
	Cmd  *exec.Cmd

	mu     sync.Mutex
	lines  []Line
	stderr bytes.Buffer
	grew   chan struct{} // closed and replaced whenever a line arrives
	done   chan struct{}
	err    error
}

// Start runs argv with env (added to this process's environment).
func Start(name string, argv []string, env ...string) (*Proc, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), env...)
	p := &Proc{Name: name, Cmd: cmd, grew: make(chan struct{}), done: make(chan struct{})}
	cmd.Stderr = &lockedWriter{p: p}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			d := json.NewDecoder(bytes.NewReader(sc.Bytes()))
			d.UseNumber()
			var l Line
			if d.Decode(&l) != nil {
				continue
			}
			p.mu.Lock()
			p.lines = append(p.lines, l)
			close(p.grew)
			p.grew = make(chan struct{})
			p.mu.Unlock()
		}
		err := cmd.Wait()
		p.mu.Lock()
		p.err = err
		p.mu.Unlock()
		close(p.done)
	}()
	return p, nil
}

type lockedWriter struct{ p *Proc }

func (w *lockedWriter) Write(b []byte) (int, error) {
	w.p.mu.Lock()
	defer w.p.mu.Unlock()
	return w.p.stderr.Write(b)
}

// Lines returns the lines so far.
func (p *Proc) Lines() []Line {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]Line(nil), p.lines...)
}

// Find returns the lines with event ev.
func (p *Proc) Find(ev string) []Line {
	var out []Line
	for _, l := range p.Lines() {
		if l.Ev() == ev {
			out = append(out, l)
		}
	}
	return out
}

// Stderr returns what the process wrote to stderr so far.
func (p *Proc) Stderr() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.stderr.String()
}

// Wait waits for the first line (from the start) that match accepts.
func (p *Proc) Wait(ctx context.Context, match func(Line) bool) (Line, error) {
	seen := 0
	for {
		p.mu.Lock()
		lines, grew := p.lines[seen:], p.grew
		p.mu.Unlock()
		for _, l := range lines {
			if match(l) {
				return l, nil
			}
		}
		seen += len(lines)
		select {
		case <-grew:
		case <-p.done:
			if seen == len(p.Lines()) {
				return nil, fmt.Errorf("%s exited (%v) without the line; stderr:\n%s", p.Name, p.ExitErr(), p.Stderr())
			}
		case <-ctx.Done():
			return nil, fmt.Errorf("%s: %w", p.Name, ctx.Err())
		}
	}
}

// WaitEv waits for the first line of event ev.
func (p *Proc) WaitEv(ctx context.Context, ev string) (Line, error) {
	return p.Wait(ctx, func(l Line) bool { return l.Ev() == ev })
}

// Done is closed when the process has exited.
func (p *Proc) Done() <-chan struct{} { return p.done }

// ExitErr is the process's exit error (nil for exit code 0).
func (p *Proc) ExitErr() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.err
}

// Exit waits for the process to exit, at most d (then kills it).
func (p *Proc) Exit(d time.Duration) error {
	select {
	case <-p.done:
		return p.ExitErr()
	case <-time.After(d):
		p.Kill()
		<-p.done
		return fmt.Errorf("%s did not exit within %v; stderr:\n%s", p.Name, d, p.Stderr())
	}
}

// Kill sends SIGKILL and returns when the signal is sent.
func (p *Proc) Kill() {
	_ = p.Cmd.Process.Signal(syscall.SIGKILL)
}
