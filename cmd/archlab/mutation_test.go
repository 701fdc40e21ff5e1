package main

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The lab earns its trust by running the book's own code: a bug planted in
// internal/ must make archlab say so. Each mutant below is one such bug,
// written into a copy of one of the book's files; the test builds archlab
// with the copy in place of the file (go build -overlay: the tree is not
// touched) and runs what CI runs, drill --all and the three explore
// scopes. At least one of them must exit 1, "disagrees with the book", and
// none may fail in another way.
var mutants = []struct {
	name      string
	file      string // the book's file, from the repository's root
	old, new_ string // old must occur exactly once
}{
	{"Consume acks before the effect", "internal/inbox/inbox.go",
		`	applied, err := l.ApplyOnce(m)
	if err != nil {
		return false, fmt.Errorf("inbox: apply %s: %w", m, err)
	}
	if err := ack.Ack(m); err != nil {
		return applied, fmt.Errorf("inbox: ack %s: %w", m, err)
	}
	return applied, nil`,
		`	ackErr := ack.Ack(m)
	applied, err := l.ApplyOnce(m)
	if err != nil {
		return false, fmt.Errorf("inbox: apply %s: %w", m, err)
	}
	if ackErr != nil {
		return applied, fmt.Errorf("inbox: ack %s: %w", m, ackErr)
	}
	return applied, nil`},
	{"Consume reports applied=false on a lost ack", "internal/inbox/inbox.go",
		`		return applied, fmt.Errorf("inbox: ack %s: %w", m, err)`,
		`		return false, fmt.Errorf("inbox: ack %s: %w", m, err)`},
	{"MarkBeforeEffect applies the effect before the key", "internal/inbox/inbox.go",
		`	l.remember(key, m.Seq)
	if crash {
		return ErrSimulatedCrash
	}
	l.balances[m.OrderID] += m.AmountCents
	l.applies++
	return nil`,
		`	l.balances[m.OrderID] += m.AmountCents
	l.applies++
	if crash {
		return ErrSimulatedCrash
	}
	l.remember(key, m.Seq)
	return nil`},
	{"ApplyOnce forgets the key", "internal/inbox/inbox.go",
		`	l.remember(key, m.Seq)
	l.balances[m.OrderID] += m.AmountCents
	l.applies++
	return true, nil`,
		`	l.balances[m.OrderID] += m.AmountCents
	l.applies++
	return true, nil`},
	{"Projection.Apply accepts a version gap", "internal/ordering/ordering.go",
		`	if e.Version != cur.Version+1 {
		return false, fmt.Errorf("ordering: order %s at v%d, got v%d: %w", e.OrderID, cur.Version, e.Version, ErrConflict)
	}`,
		``},
	{"Runner.Run ignores the checkpoint", "internal/shardjob/shard.go",
		`	start := r.CP.Load(shard)`,
		`	start := 0`},
}

// TestBookMutantsFail plants each mutant in turn: archlab must disagree
// with the book for every one.
func TestBookMutantsFail(t *testing.T) {
	if testing.Short() || raceOn {
		t.Skip("builds archlab once per mutant; the race detector has nothing to add here")
	}
	t.Parallel() // builds and children: it waits more than it computes
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range mutants {
		t.Run(m.name, func(t *testing.T) {
			t.Parallel()
			src, err := os.ReadFile(filepath.Join(root, m.file))
			if err != nil {
				t.Fatal(err)
			}
			if n := strings.Count(string(src), m.old); n != 1 {
				t.Fatalf("%s holds the code to mutate %d times, want once: the book's code changed, update the mutant", m.file, n)
			}
			dir := t.TempDir()
			mutated := filepath.Join(dir, filepath.Base(m.file))
			if err := os.WriteFile(mutated, []byte(strings.Replace(string(src), m.old, m.new_, 1)), 0o644); err != nil {
				t.Fatal(err)
			}
			overlay, _ := json.Marshal(map[string]map[string]string{"Replace": {filepath.Join(root, m.file): mutated}})
			if err := os.WriteFile(filepath.Join(dir, "overlay.json"), overlay, 0o644); err != nil {
				t.Fatal(err)
			}
			bin := filepath.Join(dir, "archlab")
			build := exec.Command("go", "build", "-overlay", filepath.Join(dir, "overlay.json"), "-o", bin, "./cmd/archlab")
			build.Dir = root
			if out, err := build.CombinedOutput(); err != nil {
				t.Fatalf("building archlab with the mutant: %v\n%s", err, out)
			}
			caught := ""
			for _, args := range [][]string{
				{"drill", "--all"},
				{"explore", "inbox"}, {"explore", "ordering"}, {"explore", "shardjob"},
			} {
				cmd := exec.Command(bin, args...)
				cmd.Env = append(os.Environ(), "NO_COLOR=1", "LANG=C")
				out, err := cmd.CombinedOutput()
				var exit *exec.ExitError
				switch {
				case err == nil:
				case errors.As(err, &exit) && exit.ExitCode() == exitMismatch:
					if caught == "" {
						caught = strings.Join(args, " ")
					}
				default:
					t.Fatalf("archlab %s with the mutant: %v, want 0 or 1 (disagrees with the book)\n%s", strings.Join(args, " "), err, out)
				}
			}
			if caught == "" {
				t.Fatalf("%s: drill --all and explore all pass with the bug planted", m.name)
			}
			t.Logf("%s: caught by archlab %s", m.name, caught)
		})
	}
}
