package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"archlab/adapters/sqlstore"
)

// counter reads one counter from a drill's --json output.
func counter(t *testing.T, out []byte, name string) string {
	t.Helper()
	var j jsonDrill
	if err := json.Unmarshal(out, &j); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	for _, c := range j.Counters {
		if c.Name == name {
			return fmt.Sprint(c.Value)
		}
	}
	t.Fatalf("no counter %s:\n%s", name, out)
	return ""
}

// TestSharedDatabaseTwoRuns: 20 rounds of two archlab runs on one --db,
// the second started while the first holds the file. In every round the
// first succeeds with exactly its own counters and the second is refused
// at once, exit 3, naming the first's pid; no lock file is left. Before
// issue 11 two such runs printed effects=22 and effects=40 and both
// exited 1.
func TestSharedDatabaseTwoRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("starts 40 archlab processes and their consumers")
	}
	dir := t.TempDir()
	db := filepath.Join(dir, "s.db")
	args := []string{"drill", "naive-redelivery", "--store", "sqlite", "--crash", "real", "--db", db, "--deliveries", "30", "--json"}
	rounds := 20
	if raceOn {
		rounds = 4 // the lock's own race is TestLockTwoProcesses' (sqlstore), 20 rounds
	}
	for round := range rounds {
		a := archlabCmd(t, args...)
		var aout, aerr bytes.Buffer
		a.Stdout, a.Stderr = &aout, &aerr
		if err := a.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- a.Wait() }()
		// Wait until the first run holds the file (its lock file names it),
		// or has ended.
		var aErr error
		ended := false
		for !ended {
			if b, _ := os.ReadFile(db + sqlstore.LockSuffix); string(b) == strconv.Itoa(a.Process.Pid)+"\n" {
				break
			}
			select {
			case aErr = <-done:
				ended = true
			case <-time.After(time.Millisecond):
			}
		}
		if ended {
			t.Fatalf("round %d: the first run ended before it was seen holding the file: %v\n%s", round, aErr, aerr.String())
		}
		b := archlabCmd(t, args...)
		var bout, berr bytes.Buffer
		b.Stdout, b.Stderr = &bout, &berr
		bcode := exitStatus(t, b.Run())
		acode := exitStatus(t, <-done)
		if acode != exitOK || counter(t, aout.Bytes(), "effects") != "30" || counter(t, aout.Bytes(), "balance") != "77970" {
			t.Fatalf("round %d: the first run: exit %d\n%s%s", round, acode, aout.String(), aerr.String())
		}
		want := "archlab: --db " + db + " is in use by another archlab run (pid " + strconv.Itoa(a.Process.Pid) + "); wait for it to end, or give another file\n"
		if bcode != exitCouldNotRun || berr.String() != want {
			t.Fatalf("round %d: the second run: exit %d, stderr %q; want 3, %q", round, bcode, berr.String(), want)
		}
		var je jsonError
		if err := json.Unmarshal(bout.Bytes(), &je); err != nil || je.Exit != exitCouldNotRun {
			t.Fatalf("round %d: the second run's stdout: %q", round, bout.String())
		}
		if _, err := os.Stat(db + sqlstore.LockSuffix); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("round %d: the lock file is left behind", round)
		}
	}
}
