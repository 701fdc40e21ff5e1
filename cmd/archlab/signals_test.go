package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// waitFor polls cond until it holds or the process ends; it reports
// whether cond held. This is a wait for a state, not a timed assertion.
func waitFor(done <-chan error, cond func() bool) (bool, error) {
	for {
		if cond() {
			return true, nil
		}
		select {
		case err := <-done:
			return false, err
		case <-time.After(2 * time.Millisecond):
		}
	}
}

// isExe reports whether process pid runs the executable exe.
func isExe(pid int, exe string) bool {
	got, err := os.Readlink("/proc/" + strconv.Itoa(pid) + "/exe")
	return err == nil && got == exe
}

// catches reports whether process pid has a handler for sig
// (/proc/PID/status, SigCgt): the moment it can be signalled cleanly.
func catches(pid int, sig syscall.Signal) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return false
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, "SigCgt:"); ok {
			mask, err := strconv.ParseUint(strings.TrimSpace(v), 16, 64)
			return err == nil && mask&(1<<(uint(sig)-1)) != 0
		}
	}
	return false
}

// TestSignalDuringCrashReal: a --crash real run stopped by a signal kills
// its consumer, removes its temporary directory and exits 128+signal: 143
// for SIGTERM (before issue 11: 130 for both), 130 for SIGINT.
func TestSignalDuringCrashReal(t *testing.T) {
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("needs /proc")
	}
	for _, tt := range []struct {
		sig  syscall.Signal
		code int
	}{{syscall.SIGTERM, 143}, {syscall.SIGINT, 130}} {
		t.Run(tt.sig.String(), func(t *testing.T) {
			tmp := t.TempDir()
			cmd := archlabCmd(t, "drill", "naive-redelivery", "--store", "sqlite", "--crash", "real", "--deliveries", "1000")
			cmd.Env = append(cmd.Env, "TMPDIR="+tmp)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			// Running: its database exists in its temporary directory.
			running, err := waitFor(done, func() bool {
				m, _ := filepath.Glob(filepath.Join(tmp, "archlab-*", "*.db"))
				return len(m) > 0
			})
			if !running {
				t.Fatalf("the run ended before it was signalled: %v\n%s", err, stderr.String())
			}
			cmd.Process.Signal(tt.sig)
			code := exitStatus(t, <-done)
			if code != tt.code || !strings.Contains(stderr.String(), "archlab: interrupted: the consumer process was killed and waited for, temporary files removed") {
				t.Fatalf("exit %d, stderr %q; want %d", code, stderr.String(), tt.code)
			}
			if m, _ := filepath.Glob(filepath.Join(tmp, "archlab-*")); len(m) != 0 {
				t.Fatalf("temporary directory left: %v", m)
			}
		})
	}
}

// TestExploreInterruptible: explore started from a script that ignores
// SIGINT (before issue 11 it could not be interrupted) stops on SIGINT with
// 130, and on SIGTERM with 143, printing nothing on stdout.
func TestExploreInterruptible(t *testing.T) {
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("needs /proc")
	}
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("needs sh")
	}
	for _, tt := range []struct {
		sig  syscall.Signal
		code int
	}{{syscall.SIGINT, 130}, {syscall.SIGTERM, 143}} {
		t.Run(tt.sig.String(), func(t *testing.T) {
			exe, _ := os.Executable()
			// The script ignores SIGINT, as `nohup` or a background job in
			// a non-interactive shell does, and execs archlab.
			cmd := exec.Command(sh, "-c", `trap '' INT; exec "$0" explore inbox --random 1000000000 --workers 1`, exe)
			cmd.Env = archlabCmd(t).Env
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			pid := cmd.Process.Pid
			// Until the exec, pid is the shell, which may catch SIGINT
			// itself: wait for archlab (its executable is this test's).
			if ok, err := waitFor(done, func() bool { return isExe(pid, exe) && catches(pid, syscall.SIGINT) }); !ok {
				t.Fatalf("explore ended before it listened for SIGINT: %v\n%s", err, stderr.String())
			}
			cmd.Process.Signal(tt.sig)
			code := exitStatus(t, <-done)
			if code != tt.code || stdout.Len() != 0 || !strings.Contains(stderr.String(), "archlab: interrupted: the exploration stopped before it finished") {
				t.Fatalf("exit %d, stdout %q, stderr %q; want %d", code, stdout.String(), stderr.String(), tt.code)
			}
		})
	}
}
