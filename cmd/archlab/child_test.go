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

// hostileCheck is `archlab check consumer-handler` as a real process, its
// child checking the hostile student named (hostile_students_test.go).
func hostileCheck(t *testing.T, student string, args ...string) *exec.Cmd {
	t.Helper()
	cmd := archlabCmd(t, append([]string{"check", "consumer-handler"}, args...)...)
	cmd.Env = append(cmd.Env, testStudentsEnv+"="+student)
	return cmd
}

// running reports whether process pid lives (a zombie nobody reaped has
// ended: a container's init may never reap it).
// outlives reports whether pid is still running a moment after the check
// ended: SIGKILL to the group is sent as the check ends, and a loaded
// machine may take a few hundred milliseconds to reap what it killed.
func outlives(pid int) bool {
	for range 40 {
		if !running(pid) {
			return false
		}
		time.Sleep(50 * time.Millisecond)
	}
	return true
}

func running(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	_, rest, _ := strings.Cut(string(b), ") ")
	return !strings.HasPrefix(rest, "Z") && !strings.HasPrefix(rest, "X")
}

// grandchild starts a check whose student's handler starts `sleep 60`
// holding the child's stderr, and returns the check, the file the sleep
// writes its pid in, and a channel that gets Wait's error.
func grandchild(t *testing.T, limit string) (*exec.Cmd, string, chan error) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	cmd := hostileCheck(t, "grandchild", "--timeout", limit)
	cmd.Env = append(cmd.Env, pidFileEnv+"="+pidFile)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		if pid, ok := readPid(pidFile); ok {
			syscall.Kill(pid, syscall.SIGKILL) // on the old code, the sleep outlives the test
		}
	})
	return cmd, pidFile, done
}

func readPid(file string) (int, bool) {
	b, err := os.ReadFile(file)
	if err != nil {
		return 0, false
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	return pid, err == nil
}

// TestCheckGrandchildLimit: a student's handler that starts `sleep 60`
// with its stderr inherited ends at its limit plus 2 s, and the sleep
// with it. Issue 37: the check took the sleep's 60 s (the parent read the
// child's stderr until the sleep closed it), and the sleep outlived it.
func TestCheckGrandchildLimit(t *testing.T) {
	t.Parallel() // a child process's test: it waits more than it computes
	if raceOn {
		t.Skip("process plumbing; the child under -race takes seconds to start")
	}
	start := time.Now()
	_, pidFile, done := grandchild(t, "1s")
	var err error
	select {
	case err = <-done:
	case <-time.After(50 * time.Second):
		t.Fatal("check still running 50 s after it started, with a 1 s limit")
	}
	// Well before the sleep's minute, which a check waiting for its
	// grandchild would take; a bound of the limit plus seconds failed on
	// busy machines, where starting two processes takes seconds.
	if took := time.Since(start); took > 30*time.Second {
		t.Errorf("check took %v with a 1 s limit; want it not to wait for the student's minute-long sleep", took)
	}
	if got := exitStatus(t, err); got != exitMismatch {
		t.Errorf("exit status %d, want %d (the exercise did not finish)", got, exitMismatch)
	}
	pid, ok := readPid(pidFile)
	if !ok {
		t.Fatal("the student's sleep never started")
	}
	if outlives(pid) {
		t.Errorf("the student's sleep (pid %d) outlived the check", pid)
	}
}

// TestCheckGrandchildCtrlC: Ctrl-C during that check ends it with 130,
// at once, and nothing it started survives. Issue 37: SIGINT waited for
// the sleep's stderr, however often it was sent.
func TestCheckGrandchildCtrlC(t *testing.T) {
	t.Parallel() // a child process's test: it waits more than it computes
	if raceOn {
		t.Skip("process plumbing; the child under -race takes seconds to start")
	}
	cmd, pidFile, done := grandchild(t, "1m")
	var pid int
	if ok, err := waitFor(done, func() bool { var ok bool; pid, ok = readPid(pidFile); return ok }); !ok {
		t.Fatalf("check ended (%v) before the student's sleep started", err)
	}
	if !catches(cmd.Process.Pid, syscall.SIGINT) {
		t.Fatal("the check does not catch SIGINT while its child runs")
	}
	cmd.Process.Signal(syscall.SIGINT)
	var err error
	select {
	case err = <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("check still running 30 s after Ctrl-C: it waits for the student's minute-long sleep")
	}
	if got := exitStatus(t, err); got != exitInterrupted {
		t.Errorf("exit status %d after Ctrl-C, want %d", got, exitInterrupted)
	}
	if outlives(pid) {
		t.Errorf("the student's sleep (pid %d) outlived the check", pid)
	}
}

// TestCheckFloodBounded: a correct handler that prints 512 MB through a
// package-level os.Stdout is done, and the parent stays small (its peak
// RSS, and the child's, from the kernel's rusage). Issue 37: the parent
// kept the child's whole stdout (the result stream then): 4.2 GB for
// 2 GiB printed, and the verdict was a timeout.
func TestCheckFloodBounded(t *testing.T) {
	t.Parallel() // a child process's test: it waits more than it computes
	if raceOn {
		t.Skip("process plumbing; printing 512 MB under -race takes minutes")
	}
	// One run: its report, and its peak memory. Maxrss (KB) covers the
	// process and the children it reaped.
	cmd := hostileCheck(t, "floods", "--timeout", "1m")
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	err := cmd.Run()
	out := stdout.Bytes()
	if got := exitStatus(t, err); got != exitOK {
		t.Fatalf("exit status %d, want 0; stdout:\n%s", got, out)
	}
	if !strings.Contains(string(out), "✓ consumer-handler (§8.2): done") {
		t.Errorf("not done:\n%s", out)
	}
	if !strings.Contains(string(out), "your code printed 524,288 lines") {
		t.Errorf("the lines printed are not counted:\n%s", out)
	}
	if rss := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss; rss > 200<<10 {
		t.Errorf("peak RSS %d MB while the child printed 512 MB; want under 200 MB", rss>>10)
	}
}

// TestCheckSlowMachineIsNotHang: on a CPU shared with three endless
// loops, a handler that needs 0.5 s of CPU, in a check of about 1.7 s of
// CPU in all (the scope's 12,282 schedules take the rest; four times that
// in wall time there), is done within a 3 s limit: the limit counts the
// time the child ran or waited for something other than a CPU (check's
// clock). Issue 32: under a load of 10 the book's own §8.3 decision ran
// past the wall-clock limit and was reported as a timeout. The limit was
// 1 s until the scope grew (issue 33) and left the child no margin under
// go test's other packages, and 2 s until the gaps between the handler's
// calls quadrupled the scope (issue 45).
func TestCheckSlowMachineIsNotHang(t *testing.T) {
	if raceOn {
		t.Skip("a clock test; the child under -race takes seconds to start")
	}
	taskset, err := exec.LookPath("taskset")
	if err != nil {
		t.Skip("needs taskset")
	}
	t.Parallel() // the other tests beside it are more load, which its clock must not count
	for range 3 {
		burn := exec.Command(taskset, "-c", "0", "sh", "-c", "while :; do :; done")
		if err := burn.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { burn.Process.Kill(); burn.Wait() })
	}
	cmd := hostileCheck(t, "slow", "--timeout", "3s")
	cmd.Args = append([]string{taskset, "-c", "0"}, cmd.Args...)
	cmd.Path = taskset
	start := time.Now()
	out, err := cmd.Output()
	if got := exitStatus(t, err); got != exitOK || !strings.Contains(string(out), "✓ consumer-handler (§8.2): done") {
		t.Errorf("exit status %d after %v on a shared CPU, want 0 and done:\n%s", got, time.Since(start), out)
	}
}

// TestDrillStudentSignals: Ctrl-C and SIGTERM stop a drill file of
// strategy student whose code loops for ever (128+signal, at once), and
// the child running the code goes with it. Issue 37: the code ran in
// archlab's own process, and both signals were ignored.
func TestDrillStudentSignals(t *testing.T) {
	t.Parallel() // a child process's test: it waits more than it computes
	if raceOn {
		t.Skip("process plumbing; the child under -race takes seconds to start")
	}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			pidFile := filepath.Join(t.TempDir(), "pid")
			cmd := archlabCmd(t, "drill", "--file", "../../testdata/files/student-ack.txtar", "--max-time", "1m")
			cmd.Env = append(cmd.Env, testStudentsEnv+"=loops", pidFileEnv+"="+pidFile)
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			var pid int
			t.Cleanup(func() {
				cmd.Process.Kill()
				if pid != 0 {
					syscall.Kill(pid, syscall.SIGKILL)
				}
			})
			if ok, err := waitFor(done, func() bool { var ok bool; pid, ok = readPid(pidFile); return ok }); !ok {
				t.Fatalf("the drill ended (%v) before the student's loop started", err)
			}
			if !catches(cmd.Process.Pid, sig) {
				t.Fatalf("archlab does not catch %v while the student's code runs", sig)
			}
			cmd.Process.Signal(sig)
			var err error
			select {
			case err = <-done:
			case <-time.After(30 * time.Second):
				t.Fatalf("still running 30 s after %v: it waits for the student's loop (--max-time 1m)", sig)
			}
			if got, want := exitStatus(t, err), 128+int(sig); got != want {
				t.Errorf("exit status %d after %v, want %d", got, sig, want)
			}
			if outlives(pid) {
				t.Errorf("the process running the student's code (pid %d) outlived archlab", pid)
			}
		})
	}
}

// TestCheckChildStdinAndSession: a correct handler that closes stdin in
// init is checked as any other (issue 43: "did not finish within 10.0s"
// after 0.17 s, stdin's end read as "your time is up"); and a helper the
// code starts in a session of its own ends with the check.
func TestCheckChildStdinAndSession(t *testing.T) {
	t.Parallel() // child processes: they wait more than they compute
	if raceOn {
		t.Skip("process plumbing; the child under -race takes seconds to start")
	}
	out, err := hostileCheck(t, "closes-stdin").CombinedOutput()
	if got := exitStatus(t, err); got != 0 || bytes.Contains(out, []byte("did not finish")) {
		t.Errorf("a handler that closes stdin: exit %d, want 0:\n%s", got, out)
	}
	// A helper the handler starts, and one package init starts and
	// leaves at once (before main, where the subreaper was set first).
	for _, student := range []string{"session-helper", "init-session-helper"} {
		pidFile := filepath.Join(t.TempDir(), "pid")
		cmd := hostileCheck(t, student)
		cmd.Env = append(cmd.Env, pidFileEnv+"="+pidFile)
		out, err = cmd.CombinedOutput()
		pid, ok := readPid(pidFile)
		if !ok {
			t.Fatalf("%s: the helper never started (exit %v):\n%s", student, err, out)
		}
		t.Cleanup(func() { syscall.Kill(pid, syscall.SIGKILL) }) // on the old code, it outlives the test
		if got := exitStatus(t, err); got != 0 {
			t.Errorf("%s: exit %d, want 0:\n%s", student, got, out)
		}
		if outlives(pid) {
			t.Errorf("%s: the helper in a session of its own (pid %d) outlived the check", student, pid)
		}
	}
}
