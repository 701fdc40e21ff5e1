package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
)

// asArchlab, set to "1", makes the test binary act as archlab (TestMain).
const asArchlab = "ARCHLAB_TEST_AS_MAIN"

// archlabCmd is archlab as a real process: this test binary, acting as it.
func archlabCmd(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, args...)
	// GORACE: under -race every process (and each consumer process it
	// starts) would otherwise sleep a second at exit.
	cmd.Env = append(os.Environ(), asArchlab+"=1", "LC_ALL=", "LC_MESSAGES=", "LANG=", "GORACE=atexit_sleep_ms=0")
	return cmd
}

// exitStatus is a finished process's exit status, or -signal when a signal
// killed it.
func exitStatus(t *testing.T, err error) int {
	t.Helper()
	if err == nil {
		return 0
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		t.Fatal(err)
	}
	if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return -int(ws.Signal())
	}
	return ee.ExitCode()
}

// failingWriter fails every write with err, like stdout on a full disk.
type failingWriter struct{ err error }

func (w failingWriter) Write([]byte) (int, error) { return 0, w.err }

// outputCommands are the commands that print results: each must notice a
// failed write.
var outputCommands = [][]string{
	{"drill", "ack-lost"}, {"drill", "ack-lost", "--trace"}, {"drill", "ack-lost", "--json"},
	{"drill", "ack-lost", "--mermaid"}, {"drill", "--all"}, {"drill", "--chapter", "8.3", "--json"},
	{"explore", "inbox"}, {"explore", "inbox", "--show"}, {"explore", "ordering", "--json"},
	{"list"}, {"--help"}, {"drill", "--help"}, {"help", "explore"}, {"version"}, {"--version"},
	{"explain", "ack-lost"}, {},
	{"explore", "inbox", "--emit"}, {"drill", "ack-lost", "--source"},
}

// TestOutputWriteErrorCouldNotRun: before issue 11, with stdout on a full
// disk, drill, --trace, explore, --show, list and --help exited 0 and said
// nothing. Every command now exits 3 with one line on stderr.
func TestOutputWriteErrorCouldNotRun(t *testing.T) {
	for _, args := range outputCommands {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			var errb bytes.Buffer
			io := &IO{In: strings.NewReader(""), Out: failingWriter{syscall.ENOSPC}, Err: &errb, Getenv: func(string) string { return "" }}
			code := run(io, args)
			want := "archlab: cannot write the output: no space left on device\n"
			if code != exitCouldNotRun || !strings.HasSuffix(errb.String(), want) {
				t.Fatalf("exit %d, stderr %q; want exit 3 and %q", code, errb.String(), want)
			}
		})
	}
}

// TestBrokenPipeIsQuiet: a reader that stops reading (`| head`) is not an
// error: nothing on stderr, the status the run would have had.
func TestBrokenPipeIsQuiet(t *testing.T) {
	for _, args := range outputCommands {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			var errb bytes.Buffer
			io := &IO{In: strings.NewReader(""), Out: failingWriter{syscall.EPIPE}, Err: &errb, Getenv: func(string) string { return "" }}
			if code := run(io, args); code != exitOK || strings.Contains(errb.String(), "archlab:") {
				t.Fatalf("exit %d, stderr %q; want 0 and nothing", code, errb.String())
			}
		})
	}
}

// TestDevFull is the same as a real process, its stdout on /dev/full.
func TestDevFull(t *testing.T) {
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip("no /dev/full:", err)
	}
	defer full.Close()
	for _, args := range [][]string{{"drill", "ack-lost"}, {"explore", "inbox", "--show"}, {"list"}, {"--help"}} {
		cmd := archlabCmd(t, args...)
		var errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = full, &errb
		code := exitStatus(t, cmd.Run())
		if code != exitCouldNotRun || !strings.Contains(errb.String(), "archlab: cannot write the output: write /dev/stdout: no space left on device") {
			t.Errorf("%v > /dev/full: exit %d, stderr %q", args, code, errb.String())
		}
	}
}

// TestClosedPipeIsQuiet: a real process whose reader has gone says
// nothing; Go's runtime ends it with SIGPIPE, as the shell expects.
func TestClosedPipeIsQuiet(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
	cmd := archlabCmd(t, "list")
	var errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = w, &errb
	code := exitStatus(t, cmd.Run())
	w.Close()
	if (code != 0 && code != -int(syscall.SIGPIPE)) || errb.Len() != 0 {
		t.Fatalf("exit %d, stderr %q; want quiet", code, errb.String())
	}
}

// TestExitStatusTable is the table of README.md (and docs/using.md) and --help, path by path
// (the could-not-run paths of the database are in db_test.go, the signals
// in signals_test.go).
func TestExitStatusTable(t *testing.T) {
	tests := []struct {
		name string
		args []string
		code int
	}{
		{"every drill agrees", []string{"drill", "--all"}, exitOK},
		{"an explored verdict is not the book's", []string{"explore", "inbox", "--random", "1"}, exitMismatch},
		{"usage: unknown drill", []string{"drill", "nope"}, exitUsage},
		{"usage: -v with an argument", []string{"-v", "extra"}, exitUsage},
		{"usage: help for nothing", []string{"help", "bogus"}, exitUsage},
		{"usage: help for a drill that does not exist", []string{"help", "drill", "bogus"}, exitUsage},
		{"usage: a second --lang is bad", []string{"--lang", "zh", "--lang", "fr", "list"}, exitUsage},
		{"usage: --db with no name", []string{"drill", "ack-lost", "--store", "sqlite", "--db", ""}, exitUsage},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, stderr, code := runCLI(t, nil, tt.args...)
			if code != tt.code {
				t.Fatalf("exit %d, want %d; stderr %q", code, tt.code, stderr)
			}
			if code == exitUsage && strings.Count(stderr, "\n") > 2 {
				t.Fatalf("a usage error is one line and a hint:\n%s", stderr)
			}
		})
	}
}

// TestJSONUsageError: with --json, a usage error also prints a JSON object
// on stdout, so a program reading stdout always gets JSON.
func TestJSONUsageError(t *testing.T) {
	for _, args := range [][]string{
		{"drill", "ack-lost", "--json", "--deliveries", "0"},
		{"drill", "ack-lost", "--json", "--deliveries", "010"},
		{"drill", "--json"},
		{"drill", "ack-lost", "--json=maybe"},
		{"explore", "inbox", "--json", "--show"},
		{"--lang", "fr", "drill", "ack-lost", "--json"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			stdout, stderr, code := runCLI(t, nil, args...)
			var got jsonError
			if err := json.Unmarshal([]byte(stdout), &got); err != nil {
				t.Fatalf("stdout is not one JSON object: %v\n%s", err, stdout)
			}
			first, _, _ := strings.Cut(stderr, "\n")
			if code != exitUsage || got.Exit != exitUsage || "archlab: "+got.Error != first {
				t.Fatalf("exit %d, JSON %+v, stderr %q", code, got, stderr)
			}
		})
	}
	// Without --json, stdout stays empty.
	if stdout, _, _ := runCLI(t, nil, "drill", "ack-lost", "--deliveries", "0"); stdout != "" {
		t.Fatalf("stdout %q", stdout)
	}
}

// TestArguments: the argument defects of issue 11.
func TestArguments(t *testing.T) {
	tests := []struct {
		args   []string
		code   int
		stdout string // a substring of stdout
		stderr string // the first line of stderr
	}{
		{[]string{"drill", "--", "ack-lost"}, exitOK, "PASS", ""},
		{[]string{"explore", "--", "ordering"}, exitOK, "PASS", ""},
		{[]string{"drill", "--", "ack-lost", "extra"}, exitUsage, "", `archlab: drill ack-lost takes no arguments, got "extra"`},
		{[]string{"drill", "--", "nope"}, exitUsage, "", `archlab: unknown drill "nope"`},
		{[]string{"--lang", "zh", "--lang", "en", "list"}, exitOK, "Chapter 8", ""},
		{[]string{"--lang", "en", "--lang=zh", "list"}, exitOK, "第8章", ""},
		{[]string{"--lang", "zh", "--lang", "fr", "list"}, exitUsage, "", `archlab: --lang 只能是 zh 或 en，实际为 "fr"`},
		{[]string{"--lang", "fr", "--lang", "zh", "list"}, exitUsage, "", `archlab: --lang must be zh or en, got "fr"`},
		{[]string{"-v", "extra"}, exitUsage, "", `archlab: --version takes no arguments, got "extra"`},
		{[]string{"help", "bogus"}, exitUsage, "", `archlab: no help topic for "bogus": give a command, such as drill or explore`},
		{[]string{"help", "drill", "ack-lost"}, exitOK, "--deliveries", ""},
		{[]string{"-v"}, exitOK, "archlab ", ""},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			stdout, stderr, code := runCLI(t, nil, tt.args...)
			first, _, _ := strings.Cut(stderr, "\n")
			if !strings.HasPrefix(first, "archlab:") {
				first = ""
			}
			if code != tt.code || !strings.Contains(stdout, tt.stdout) || first != tt.stderr {
				t.Fatalf("exit %d, stderr %q, stdout:\n%s", code, stderr, stdout)
			}
		})
	}
}
