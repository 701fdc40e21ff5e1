package main

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"archlab/drills"
	"archlab/i18n"
	"archlab/ui/cli"
	"archlab/ui/cmd/drill"
	"archlab/ui/status"
)

// TestMismatchExitsOne: a drill that disagrees with what it is held to
// exits 1 and the line names the drill, the counter and whose number it
// is: the book's, the lab's (the book prints none), or a teacher's file's
// own expect part, which is not the book (issue 42). The real drills all
// agree, so the disagreement is built by hand from a real drill's result.
func TestMismatchExitsOne(t *testing.T) {
	for _, tt := range []struct {
		drill            string
		builtin, labOnly bool
		want             string
	}{
		{"ack-lost", true, false, "1 drill disagrees with the book (ack-lost): ack-lost: effects is 1, the book prints 2"},
		{"ack-lost", false, false, "1 drill file disagrees with its own expect part (ack-lost): ack-lost: effects is 1, the file's expect part says 2"},
		{"effect-fails", true, true, "1 drill disagrees with the lab's expectation, the book printing none (effect-fails): effect-fails: "},
	} {
		d, err := drills.Lookup(tt.drill)
		if err != nil {
			t.Fatal(err)
		}
		if !d.LabOnly && tt.labOnly {
			t.Fatalf("%s: the book prints its counters now: pick a drill whose counters are the lab's", tt.drill)
		}
		file := *d
		file.Builtin = tt.builtin
		res, err := file.Run(file.Defaults())
		if err != nil {
			t.Fatal(err)
		}
		book, no := "2", false
		res.Counters[1].Book, res.Counters[1].Match = &book, &no
		res.Pass = false
		g := &cli.Env{Lang: i18n.EN}
		var stderr bytes.Buffer
		code := exitCode(&stderr, i18n.EN, drill.Mismatch(g, []*drills.Result{res}))
		if code != exitMismatch {
			t.Fatalf("exit %d, want %d", code, exitMismatch)
		}
		if !strings.HasPrefix(stderr.String(), "archlab: "+tt.want) {
			t.Errorf("stderr = %q, want %q", stderr.String(), "archlab: "+tt.want)
		}
	}
}

func TestExitCodes(t *testing.T) {
	tests := []struct {
		err  error
		code int
		line string
	}{
		{nil, exitOK, ""},
		{&status.Usage{Msg: "--shards must be at least 1, got 0"}, exitUsage, "archlab: --shards must be at least 1, got 0\n"},
		{&status.Usage{Msg: "unknown drill \"x\"", Hint: "run 'archlab list' to see every drill"}, exitUsage, "archlab: unknown drill \"x\"\nrun 'archlab list' to see every drill\n"},
		{errors.New("some cobra error\n\nwith more lines"), exitUsage, "archlab: some cobra error\n"},
		{&status.Mismatch{Msg: "drift"}, exitMismatch, "archlab: drift\n"},
	}
	for _, tt := range tests {
		var stderr bytes.Buffer
		if got := exitCode(&stderr, i18n.EN, tt.err); got != tt.code || stderr.String() != tt.line {
			t.Errorf("exitCode(%v) = %d, %q; want %d, %q", tt.err, got, stderr.String(), tt.code, tt.line)
		}
	}
}

// TestNoInputPanics feeds the command awkward input; every answer must be
// an exit code, never a panic or a stack trace.
func TestNoInputPanics(t *testing.T) {
	inputs := [][]string{
		{}, {""}, {"drill", ""}, {"drill", "--chapter", ""}, {"drill", "--lang"},
		{"--lang="}, {"drill", "crash-resume", "--keys", "99999999999999999999"},
		{"drill", "crash-resume", "--shards", "1000", "--keys", "3"},
		{"drill", "crash-resume", "--shards", "5", "--keys", "3", "--crash-after", "0"},
		{"drill", "--all", "--mermaid", "--json"}, {"explain", "a", "b"}, {"version", "x"},
		{"drill", "partition-affinity", "--orders", "1", "--partitions", "1000"},
		{"drill", "replay", "--resume-from", "5", "--batch", "100"},
		{"drill", "stale-epoch", "--keys", "1", "--lease-expires-after", "1"},
	}
	for _, args := range inputs {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			defer func() {
				if p := recover(); p != nil {
					t.Fatalf("panic: %v", p)
				}
			}()
			_, stderr, code := runCLI(t, nil, args...)
			if strings.Contains(stderr, "goroutine ") || code < 0 || code > 2 {
				t.Fatalf("exit %d, stderr %q", code, stderr)
			}
		})
	}
}

// TestStepWaitsBetweenPhases: on a terminal, --step shows one phase, then
// asks for Enter before each of the next ones; if stdin closes it stops.
func TestStepWaitsBetweenPhases(t *testing.T) {
	step := func(input string) (string, string) {
		var out, errb bytes.Buffer
		io := &IO{In: strings.NewReader(input), Out: &out, Err: &errb, Getenv: func(string) string { return "" },
			OutIsTerminal: true, InIsTerminal: true}
		run(io, []string{"drill", "ack-lost", "--step", "--no-color"})
		return out.String(), errb.String()
	}
	out, prompts := step("\n\n\n")
	if n := strings.Count(prompts, "press Enter"); n != 3 {
		t.Fatalf("%d prompts, want 3 (setup → fault → recovery → verdict):\n%s", n, prompts)
	}
	if !strings.Contains(out, "[verdict]") || !strings.Contains(out, "PASS") {
		t.Fatalf("the whole drill should show after three Enters:\n%s", out)
	}
	out, _ = step("\n") // one Enter, then stdin closes
	if strings.Contains(out, "[recovery]") || !strings.Contains(out, "[the fault]") {
		t.Fatalf("with stdin closed after one Enter, output should stop at the fault:\n%s", out)
	}
}
