package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// startServe starts `archlab serve` on a free loopback port as a real
// process and returns it with the page's URL once it listens.
func startServe(t *testing.T, args ...string) (*exec.Cmd, string, *bytes.Buffer, <-chan error) {
	t.Helper()
	cmd := archlabCmd(t, append([]string{"serve", "--addr", "127.0.0.1:0"}, args...)...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	line, err := bufio.NewReader(stdout).ReadString('\n')
	go func() { io.Copy(io.Discard, stdout); done <- cmd.Wait() }()
	t.Cleanup(func() {
		cmd.Process.Kill()
	})
	// "archlab serve: http://127.0.0.1:PORT/ (Ctrl-C stops it)"
	f := strings.Fields(line)
	if err != nil || len(f) < 3 || !strings.HasPrefix(f[2], "http://") {
		t.Fatalf("serve did not say where it listens: %q %v\n%s", line, err, stderr.String())
	}
	return cmd, strings.TrimSuffix(f[2], "/"), &stderr, done
}

// paste posts a drill file to the page as its own form does.
func paste(base, src string, header http.Header) (int, string, error) {
	req, err := http.NewRequest(http.MethodPost, base+"/file", strings.NewReader(url.Values{"source": {src}, "lang": {"en"}}.Encode()))
	if err != nil {
		return 0, "", err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	for k, v := range header {
		req.Header[k] = v
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), err
}

// rss is a process's resident memory in kB (/proc/PID/status, VmRSS).
func rss(t *testing.T, pid int) int {
	t.Helper()
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
			if err == nil {
				return n
			}
		}
	}
	t.Fatal("no VmRSS")
	return 0
}

// The pastes of issue 25: one asked for a route of a trillion orders and
// died of out of memory; the other retried an event that never applies
// for ever, holding the one run lock while every other page waited.
const (
	hugeRoute = "drill huge-route\nsection 8.3\n-- steps --\nroute 1000000000000 4\n-- counters --\nused\n-- checks --\nok: used >= 0\n"
	endless   = "drill endless\nsection 8.3\n-- steps --\nevent e1 o-1 v3 fulfill\nconsumer max-attempts=9223372036854775807\npublish e1\ndispatch\n-- counters --\ndeliveries\n-- checks --\nok: deliveries >= 0\n"
)

// TestServeHostile: what a web page can send archlab serve. A cross-site
// POST and a request for a foreign Host are refused; the two pastes that
// killed or hung the server are refused or stopped by the budget, while
// the book's own page keeps answering; and 600 pastes with new names
// leave the process's memory where it was.
func TestServeHostile(t *testing.T) {
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("needs /proc")
	}
	cmd, base, stderr, done := startServe(t)
	ok := "drill tiny\nsection 8.2\n-- steps --\nmessage pay:evt-1\ndeliver pay:evt-1\n-- counters --\neffects\n-- checks --\nonce: effects == 1\n"

	t.Run("cross-site", func(t *testing.T) {
		// A form on another localhost port, in the teacher's browser.
		for _, h := range []http.Header{
			{"Origin": {"http://127.0.0.1:9999"}},
			{"Sec-Fetch-Site": {"same-site"}, "Origin": {"http://localhost:9999"}},
			{"Sec-Fetch-Site": {"cross-site"}},
		} {
			code, body, err := paste(base, ok, h)
			if err != nil || code != http.StatusForbidden || !strings.Contains(body, "refuses a form sent from another web page") {
				t.Errorf("%v: %d %v %q; want 403", h, code, err, body)
			}
		}
		// The page's own form, with the headers a browser sends.
		if code, body, err := paste(base, ok, http.Header{"Origin": {base}, "Sec-Fetch-Site": {"same-origin"}}); err != nil || code != 200 {
			t.Errorf("the page's own form: %d %v\n%.300s", code, err, body)
		}
	})

	t.Run("foreign host", func(t *testing.T) {
		// DNS rebinding: a name that resolves to 127.0.0.1.
		req, _ := http.NewRequest(http.MethodGet, base+"/drill/ack-lost", nil)
		req.Host = "attacker.example:" + strings.TrimPrefix(base, "http://127.0.0.1:")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusMisdirectedRequest {
			t.Errorf("Host %s: %d, want 421", req.Host, resp.StatusCode)
		}
		resp, err = http.Get(strings.Replace(base, "127.0.0.1", "localhost", 1) + "/")
		if err != nil || resp.StatusCode != 200 {
			t.Errorf("localhost: %v %v", resp, err)
		}
	})

	t.Run("budget", func(t *testing.T) {
		var wg sync.WaitGroup
		results := make([]string, 4)
		for i, src := range []string{hugeRoute, endless, endless, hugeRoute} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				code, body, err := paste(base, src, nil)
				results[i] = fmt.Sprintf("%d %v %s", code, err, errorLine(body))
			}()
		}
		// While they run, the book's page answers.
		slowest := time.Duration(0)
		for range 5 {
			start := time.Now()
			resp, err := http.Get(base + "/drill/ack-lost")
			if err != nil {
				t.Fatal(err)
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			slowest = max(slowest, time.Since(start))
			if resp.StatusCode != 200 {
				t.Errorf("/drill/ack-lost: %d", resp.StatusCode)
			}
		}
		wg.Wait()
		// The pastes run in their slots, each up to serve's 10 s budget;
		// a page queued behind them would wait that long. Ten seconds is
		// the bound: a busy machine may take a second to answer anyway.
		if slowest >= 10*time.Second {
			t.Errorf("/drill/ack-lost took %v while the pastes ran; want under 10 s", slowest)
		}
		t.Logf("/drill/ack-lost: slowest answer %v", slowest)
		for i, r := range results {
			want := "route: orders 1000000000000 is past the size budget of 1000000"
			if i == 1 || i == 2 {
				want = "more than 50000 deliveries (the delivery budget"
			}
			if !strings.HasPrefix(r, "400 <nil>") || !strings.Contains(r, want) {
				t.Errorf("paste %d: %s\nwant 400 with %q", i, r, want)
			}
		}
	})

	t.Run("600 pastes", func(t *testing.T) {
		// A server of its own: the memory the pastes above used is not
		// this subtest's to count.
		cmd, base, _, _ := startServe(t)
		start := rss(t, cmd.Process.Pid)
		for i := range 20 { // warm up: templates, the first allocations
			paste(base, strings.Replace(ok, "drill tiny", fmt.Sprintf("drill warm-%d", i), 1), nil)
		}
		before := rss(t, cmd.Process.Pid)
		for i := range 600 {
			src := strings.Replace(ok, "drill tiny", fmt.Sprintf("drill pasted-%d", i), 1)
			src = strings.Replace(src, "once: effects == 1", fmt.Sprintf("once: effects == 1\n-- en --\ntitle: pasted file number %d, with words of its own\nexplain:\n%s", i, strings.Repeat("a long explanation ", 200)), 1)
			if code, body, err := paste(base, src, nil); err != nil || code != 200 {
				t.Fatalf("paste %d: %d %v %s", i, code, err, errorLine(body))
			}
		}
		after := rss(t, cmd.Process.Pid)
		t.Logf("resident memory: %d kB at the start, %d kB before 600 pastes, %d kB after", start, before, after)
		if after-start > 50<<10 {
			t.Errorf("600 pastes grew the resident memory by %d kB; want under 50 MB", after-start)
		}
	})
	cmd.Process.Signal(syscall.SIGTERM)
	<-done // stderr is complete, and no longer written
	if strings.Contains(stderr.String(), "panic:") || strings.Contains(stderr.String(), "fatal error") {
		t.Errorf("the server's stderr: %s", stderr.String())
	}
}

// errorLine is the page's error message, or the body's start.
func errorLine(body string) string {
	if i := strings.Index(body, `class="error"`); i >= 0 {
		s := body[i:]
		if j := strings.Index(s, "</"); j > 0 {
			return s[:j]
		}
	}
	return body[:min(len(body), 300)]
}

// TestServeSignalStatus: serve stopped by a signal exits 128+signal, like
// every command (it exited 0, or 2 with "context deadline exceeded" when a
// request was in flight), and a run in flight does not hold it up.
func TestServeSignalStatus(t *testing.T) {
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("needs /proc")
	}
	// A paste that runs for seconds: split_size of a million keys, asked
	// again and again with a new shard count.
	slow := "drill slow\nsection 11.2\n-- steps --\nsplit 10 1\n-- counters --\nx{i} = split_size(1000000, i+1, 0) for i < 5000\n-- checks --\nok: true\n"
	for _, tt := range []struct {
		name     string
		sig      syscall.Signal
		code     int
		inFlight bool
	}{
		{"idle SIGINT", syscall.SIGINT, 130, false},
		{"idle SIGTERM", syscall.SIGTERM, 143, false},
		{"SIGTERM with a run in flight", syscall.SIGTERM, 143, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cmd, base, stderr, done := startServe(t)
			if tt.inFlight {
				go paste(base, slow, nil)
				ok, err := waitFor(done, func() bool { return cpuTicks(cmd.Process.Pid) > 20 })
				if !ok {
					t.Fatalf("serve ended: %v", err)
				}
			}
			cmd.Process.Signal(tt.sig)
			var code int
			select {
			case err := <-done:
				code = exitStatus(t, err)
			case <-time.After(10 * time.Second):
				t.Fatalf("serve did not stop after %v\n%s", tt.sig, stderr.String())
			}
			if code != tt.code || !strings.Contains(stderr.String(), "archlab: serve stopped") || strings.Contains(stderr.String(), "deadline") {
				t.Errorf("exit %d, stderr %q; want %d", code, stderr.String(), tt.code)
			}
		})
	}
}

// cpuTicks is the CPU time a process has used, in clock ticks
// (/proc/PID/stat: utime + stime): a run in flight uses it.
// clockTicks is how many of cpuTicks's ticks make a second: Linux's
// USER_HZ, 100 on every architecture Go runs on.
const clockTicks = 100

func cpuTicks(pid int) int {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
	if len(f) < 13 {
		return 0
	}
	u, _ := strconv.Atoi(f[11])
	st, _ := strconv.Atoi(f[12])
	return u + st
}

// TestServeAddrWarning: serve warns on stderr when it listens on an
// address other than loopback (all interfaces, given as 0.0.0.0 or as no
// host at all), never on loopback, and Ctrl-C stops it with its line. It
// sends Ctrl-C once serve has said where it listens: serve_addr.txtar slept
// a second instead, and a loaded machine had not started serve by then.
func TestServeAddrWarning(t *testing.T) {
	for _, tt := range []struct {
		addr string
		warn bool
	}{{"0.0.0.0:0", true}, {":0", true}, {"127.0.0.1:0", false}} {
		t.Run(tt.addr, func(t *testing.T) {
			cmd, _, stderr, done := startServe(t, "--addr", tt.addr)
			cmd.Process.Signal(syscall.SIGINT)
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Fatalf("serve did not stop after Ctrl-C\n%s", stderr.String())
			}
			warned := strings.Contains(stderr.String(), "warning: "+tt.addr+" is not a loopback address")
			if warned != tt.warn || !strings.Contains(stderr.String(), "archlab: serve stopped") {
				t.Errorf("--addr %s: warned %t, want %t; stderr %q", tt.addr, warned, tt.warn, stderr.String())
			}
		})
	}
}
