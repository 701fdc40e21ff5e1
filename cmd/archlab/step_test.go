package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestStepAll: drill --all --step pauses between phases and before each
// drill; q stops the timelines and goes to the summary (the answers are
// lines here; on a terminal q needs no Enter).
func TestStepAll(t *testing.T) {
	out, errOut, code := runWide(80, "\n\nq\n", "drill", "--all", "--step")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if n := strings.Count(errOut, "press Enter"); n != 3 {
		t.Fatalf("%d pauses before q, want 3:\n%s", n, errOut)
	}
	if !strings.Contains(out, "[recovery]") || strings.Contains(out, "naive-redelivery — ") {
		t.Fatalf("q did not stop the timelines after ack-lost:\n%s", out)
	}
	if !strings.Contains(out, " pass, 0 fail") {
		t.Fatalf("no summary after q:\n%s", out)
	}
}

// TestStepWithoutTerminal: --step where no one can press Enter says so on
// stderr and shows the timeline, rather than ignoring the flag.
func TestStepWithoutTerminal(t *testing.T) {
	for _, args := range [][]string{{"drill", "ack-lost", "--step"}, {"drill", "--all", "--step"}} {
		var out, errb bytes.Buffer
		io := &IO{In: strings.NewReader(""), Out: &out, Err: &errb, Getenv: func(string) string { return "" }}
		if code := run(io, args); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errb.String())
		}
		if !strings.Contains(errb.String(), "--step pauses only with a terminal") {
			t.Fatalf("%v: nothing said about --step:\n%s", args, errb.String())
		}
		if !strings.Contains(out.String(), "[fault]") && !strings.Contains(out.String(), "[the fault]") {
			t.Fatalf("%v: no timeline:\n%s", args, out.String())
		}
	}
}
