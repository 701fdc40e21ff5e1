package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"archlab/adapters/sqlstore"
	"archlab/ui/term"
)

// counter reads one counter from a drill's --json output.
func counter(t *testing.T, out []byte, name string) string {
	t.Helper()
	var j term.JSONDrill
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
	t.Parallel() // a child process's test: it waits more than it computes
	if testing.Short() {
		t.Skip("starts 40 archlab processes and their consumers")
	}
	dir := t.TempDir()
	db := filepath.Join(dir, "s.db")
	args := []string{"drill", "naive-redelivery", "--store", "sqlite", "--crash", "real", "--db", db, "--deliveries", "30", "--json"}
	// Twenty rounds in the long sweep (-tags long, once in CI); three in
	// go test ./..., where TestLockTwoProcesses (sqlstore) runs the
	// lock's own race twenty times.
	rounds := 3
	if longOn {
		rounds = 20
	}
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

// TestCorruptDB: an archlab database whose pages are damaged behind a
// schema that reads right is refused before the drill runs: exit 2, the
// file byte for byte as it was. It used to run, fail at the first INSERT,
// and exit 1: "1 drill disagrees with the book" over an empty table.
func TestCorruptDB(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.db")
	if _, errOut, code := runCLI(t, nil, "drill", "ack-lost", "--store", "sqlite", "--db", good); code != 0 {
		t.Fatalf("making the database: %d %s", code, errOut)
	}
	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	page := 4096
	for p := 2; p*page <= len(data); p++ {
		t.Run("page "+strconv.Itoa(p), func(t *testing.T) {
			bad := append([]byte(nil), data...)
			for i := (p-1)*page + 100; i < p*page; i++ {
				bad[i] = byte(i * 7)
			}
			path := filepath.Join(dir, "bad"+strconv.Itoa(p)+".db")
			if err := os.WriteFile(path, bad, 0o644); err != nil {
				t.Fatal(err)
			}
			out, errOut, code := runCLI(t, nil, "drill", "ack-lost", "--store", "sqlite", "--db", path)
			if code != exitUsage || out != "" || !strings.Contains(errOut, "is archlab's database but damaged") || strings.Count(errOut, "\n") != 1 {
				t.Fatalf("exit %d, stdout %q, stderr %q; want 2 and one line: damaged", code, out, errOut)
			}
			if after, _ := os.ReadFile(path); !bytes.Equal(after, bad) {
				t.Fatal("the damaged file was changed")
			}
		})
	}
}
