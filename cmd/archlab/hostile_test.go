package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// drillFile is a drill file of a section around its steps, counters and
// checks.
func drillFile(section, steps, counters, checks string) string {
	return "drill hostile\nsection " + section + "\n-- steps --\n" + steps + "\n-- counters --\n" + counters + "\n-- checks --\n" + checks + "\n"
}

// TestHostileDrillFiles: issue 25's attack pass on drill files, each class
// as a real archlab process given the hostile file. Each ends in under 5
// seconds with exit 2 and one line naming the file's line and the budget
// or the mistake; never a panic, a fatal error, an exhausted memory, an
// endless run or a result that is silently wrong.
func TestHostileDrillFiles(t *testing.T) {
	t.Parallel() // a child process's test: it waits more than it computes
	var loops strings.Builder
	for i := range 500 {
		fmt.Fprintf(&loops, "c%d-{i} = split_size(10000000, 1, 0) for i < 100000\n", i)
	}
	tests := []struct {
		name, file string
		args       []string
		want       string // stderr's first line, after "archlab: FILE:"
	}{
		{"route -1 4 panicked (makeslice)", drillFile("8.3", "route -1 4", "used", "ok: true"),
			nil, `4: route: orders must be at least 0, got -1$`},
		{"route 1000000000000 4 ran out of memory", drillFile("8.3", "route 1000000000000 4", "used", "ok: true"),
			nil, `4: route: orders 1000000000000 is past the size budget of 1000000 \(--max-keys raises it\)$`},
		{"route 1e12 4", drillFile("8.3", "route 1e12 4", "used", "ok: true"),
			nil, `4: route: orders: unexpected "e12" after the expression$`},
		{"route 10000000 4 ran for minutes and took gigabytes", drillFile("8.3", "route 10000000 4", "used", "ok: true"),
			nil, `4: route: orders 10000000 is past the size budget of 1000000`},
		{"route within the size budget fills the timeline", drillFile("8.3", "route 200000 4", "used", "ok: true"),
			nil, `4: the run recorded more than 100000 steps in its timeline \(the timeline budget\)$`},
		{"split 1000000000 4 ran out of memory", drillFile("11.2", "split 1000000000 4", "applied", "ok: true"),
			nil, `4: split: keys 1000000000 is past the size budget of 1000000`},
		{"a counter loop over split_size(10000000,1,0)", drillFile("11.2", "split 10 1", "x{i} = split_size(10000000,1,0) for i < 100", "ok: true"),
			nil, `6: counter x\{i\}: split_size: keys 10000000 is past the size budget of 1000000`},
		{"500 counter loops took 60 s and 620 MB", drillFile("11.2", "split 10 1", strings.TrimSpace(loops.String()), "ok: true"),
			nil, `6: counter c0-\{i\}: the loop runs 100000 times, past the counter budget of 10000$`},
		{"240 KB of nested parentheses took 8.5 s and 470 MB", drillFile("8.2", "message pay:evt-1", "effects", "ok: "+strings.Repeat("(", 120_000)+"true"+strings.Repeat(")", 120_000)),
			nil, `8: check ok: the expression nests deeper than 64 levels$`},
		{"repeat 2 repeat 3 X ran X twice", drillFile("8.2", "message pay:evt-1\nrepeat 2 repeat 3 deliver pay:evt-1", "effects", "ok: true"),
			nil, `5: a step repeats at most once: for N×M runs write repeat \{N\*M\} STEP, not repeat N repeat M STEP$`},
		{"9223372036854775807+1 wrapped", drillFile("8.2", "message pay:evt-1", "x = 9223372036854775807 + 1", "ok: true"),
			nil, `6: counter x: 9223372036854775807 \+ 1 overflows a 64-bit integer$`},
		{"two maximum amounts made the balance -2", drillFile("8.2", "message pay:evt-1 amount=9223372036854775807\nmessage pay:evt-2 amount=9223372036854775807\ndeliver pay:evt-1\ndeliver pay:evt-2", `balance = balance("o-1")`, "ok: true"),
			nil, `4: message: amount must be between -1000000000000 and 1000000000000, got 9223372036854775807$`},
		{"for i < 1000000 printed 100,000 counters and PASS", drillFile("11.2", "split 10 1", "x{i} = i for i < 1000000", "ok: true"),
			nil, `6: counter x\{i\}: the loop runs 1000000 times, past the counter budget of 10000$`},
		{"param n 100 -5..-1 was accepted", strings.Replace(drillFile("8.2", "message pay:evt-1", "effects", "ok: true"), "section 8.2", "section 8.2\nparam n 100 -5..-1", 1),
			nil, `3: param n's default 100 is outside -5..-1$`},
		{"two drill lines: the last won", strings.Replace(drillFile("8.2", "message pay:evt-1", "effects", "ok: true"), "section 8.2", "section 8.2\ndrill other", 1),
			nil, `3: drill appears twice in the header \(first on line 1\): a drill says it once$`},
		{"an endless retry grew 60 MB/s", drillFile("8.3", "event e1 o-1 v3 fulfill\nconsumer max-attempts=9223372036854775807\npublish e1\ndispatch", "deliveries", "ok: true"),
			nil, `7: more than 50000 deliveries \(the delivery budget; --max-deliveries raises it\)`},
		{"an endless retry under a smaller budget", drillFile("8.3", "event e1 o-1 v3 fulfill\nconsumer max-attempts=9223372036854775807\npublish e1\ndispatch", "deliveries", "ok: true"),
			[]string{"--max-deliveries", "10"}, `7: more than 10 deliveries`},
		{"steps past the budget", drillFile("8.2", "message pay:evt-1\nrepeat 9000 deliver pay:evt-1\nrepeat 9000 deliver pay:evt-1", "effects", "ok: true"),
			nil, `6: more than 10000 steps: a drill is a scenario, not a load test \(the step budget; --max-steps raises it\)$`},
		{"a run past its time", drillFile("11.2", "split 10 1", "x{i} = split_size(1000000, i+1, 0) for i < 5000", "ok: true"),
			[]string{"--max-time", "300ms"}, `6: the run took longer than 300ms \(the time budget; --max-time raises it\)$`},
		{"{producer()} panicked", drillFile("8.2", "message {producer()}:evt-1", "effects", "ok: true"),
			nil, `4: message: msg: producer takes 1 argument\(s\), got 0$`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "hostile.txtar")
			if err := os.WriteFile(path, []byte(tt.file), 0o644); err != nil {
				t.Fatal(err)
			}
			// A guard against a hang, not a limit: a busy machine may
			// take seconds to start a process.
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			cmd := archlabCmd(t, append([]string{"drill", "--file", path}, tt.args...)...)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			var err error
			select {
			case err = <-done:
			case <-ctx.Done():
				cmd.Process.Kill()
				<-done
				t.Fatalf("still running after a minute\n%s", stderr.String())
			}
			code := exitStatus(t, err)
			lines := strings.Split(strings.TrimSuffix(stderr.String(), "\n"), "\n")
			want := regexp.MustCompile(`^archlab: ` + regexp.QuoteMeta(path) + `:` + tt.want)
			if code != 2 || stdout.Len() != 0 || !want.MatchString(lines[0]) {
				t.Fatalf("exit %d, stdout %q, stderr:\n%s\nwant exit 2 and a first line matching %s", code, stdout.String(), stderr.String(), want)
			}
			if len(lines) > 2 || strings.Contains(stderr.String(), "panic:") || strings.Contains(stderr.String(), "goroutine ") || strings.Contains(stderr.String(), "fatal error") {
				t.Fatalf("more than the error and its hint:\n%s", stderr.String())
			}
		})
	}
}

// TestDrillFileInterruptible: Ctrl-C stops a drill file that runs for
// seconds within a second, with exit 130, even when the shell started
// archlab with SIGINT ignored (a background job of a script).
func TestDrillFileInterruptible(t *testing.T) {
	t.Parallel() // a child process's test: it waits more than it computes
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("needs /proc")
	}
	path := filepath.Join(t.TempDir(), "slow.txtar")
	// Minutes of counters, each a split_size of 200,000 keys: a few
	// milliseconds, the longest the run cannot be stopped inside.
	slow := drillFile("11.2", "split 10 1", "x{i} = split_size(200000, i+1, 0) for i < 10000", "ok: true")
	if err := os.WriteFile(path, []byte(slow), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		sig  syscall.Signal
		code int
	}{{syscall.SIGINT, 130}, {syscall.SIGTERM, 143}} {
		t.Run(tt.sig.String(), func(t *testing.T) {
			cmd := archlabCmd(t, "drill", "--file", path)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			pid := cmd.Process.Pid
			// Running the counters: half a second of CPU is ten times
			// the start (building the command, parsing the drills); two
			// under -race. The run has minutes to go. (A Go process
			// catches SIGINT from its first instant, Notify or not, so
			// SigCgt cannot tell.)
			past := clockTicks / 2
			if raceOn {
				past = 2 * clockTicks
			}
			if ok, err := waitFor(done, func() bool { return cpuTicks(pid) > past }); !ok {
				t.Fatalf("the run ended first: %v\n%s", err, stderr.String())
			}
			ticks := cpuTicks(pid)
			cmd.Process.Signal(tt.sig)
			var err error
			select {
			case err = <-done:
			case <-time.After(time.Minute):
				cmd.Process.Kill()
				t.Fatal("still running a minute after the signal")
			}
			if code := exitStatus(t, err); code != tt.code || !strings.Contains(stderr.String(), "archlab: interrupted") {
				t.Fatalf("exit %d, stderr %q; want %d", code, stderr.String(), tt.code)
			}
			// Within a second of its own CPU time: the run stops at its
			// next check, however busy the machine (a wall-clock second
			// is missed when other work holds the CPUs).
			ps := cmd.ProcessState
			if after := ps.UserTime() + ps.SystemTime() - time.Duration(ticks)*time.Second/clockTicks; after >= time.Second {
				t.Errorf("ran %v of CPU after the signal; want under a second", after)
			}
		})
	}
}

// TestFIFOIsRefused: a FIFO given as --file or --db is refused at once
// (exit 2) instead of blocking on the open for ever.
func TestFIFOIsRefused(t *testing.T) {
	t.Parallel() // a child process's test: it waits more than it computes
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe.txtar")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	for _, args := range [][]string{
		{"drill", "--file", fifo},
		{"drill", "--file", dir},
		{"drill", "ack-lost", "--store", "sqlite", "--db", fifo},
	} {
		// A guard: an open that blocks, blocks for ever.
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		cmd := archlabCmd(t, args...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Start()
		if err == nil {
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case err = <-done:
			case <-ctx.Done():
				cmd.Process.Kill()
				err = errors.New("blocked for a minute")
			}
		}
		cancel()
		if code := exitStatus(t, err); code != 2 || !strings.Contains(stderr.String(), "is not a regular file") {
			t.Errorf("%v: exit %d (%v), stderr %q; want 2, not a regular file", args, code, err, stderr.String())
		}
	}
}
