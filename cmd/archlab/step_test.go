package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestStepAll: drill --all --step pauses between phases and before each
// drill; q between two drills goes to the summary, as its prompt says
// (the answers are lines here; on a terminal q needs no Enter).
func TestStepAll(t *testing.T) {
	out, errOut, code := runWide(80, "\n\n\nq\n", "drill", "--all", "--step")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if n := strings.Count(errOut, "press Enter"); n != 4 || !strings.Contains(errOut, "the next drill, naive-redelivery") {
		t.Fatalf("%d pauses before q, want 4, the last before naive-redelivery:\n%s", n, errOut)
	}
	if !strings.Contains(out, "[recovery]") || !strings.Contains(out, "PASS") || strings.Contains(out, "naive-redelivery — ") {
		t.Fatalf("q did not stop the timelines after ack-lost, whole:\n%s", out)
	}
	if !strings.Contains(out, " pass, 0 fail") {
		t.Fatalf("no summary after q:\n%s", out)
	}
}

// TestStepQuitKeepsTheEnding: q at a pause inside a drill stops it with
// no counters, no checks and no verdict, in either language, alone or
// with --all (no summary either): the ending is the lesson, and the page
// keeps it for its last step too (issue 42).
func TestStepQuitKeepsTheEnding(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"drill", "ack-lost", "--step"}, {"drill", "--all", "--step"}, {"drill", "crash-resume", "--step", "--lang", "zh"}} {
		out, errOut, code := runWide(80, "q\n", args...)
		stopped := "stopped: the counters, the checks and the verdict come at the end"
		if args[len(args)-1] == "zh" {
			stopped = "已停止：计数器、要点与结果在最后才揭晓"
		}
		if code != 0 || !strings.Contains(out, stopped) {
			t.Errorf("%v: exit %d, no %q\n%s%s", args, code, stopped, out, errOut)
		}
		for _, ending := range []string{"PASS", "FAIL", "通过", "✓", "✗", "◆", "[recovery]", "[恢复]", " pass, ", "│"} {
			if strings.Contains(out, ending) {
				t.Errorf("%v: q, and %q still shows\n%s", args, ending, out)
			}
		}
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
