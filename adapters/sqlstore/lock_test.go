package sqlstore

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// lockChildEnv, set to a path, makes this test binary a process that takes
// the path with Lock (or Open, with lockChildOp=open), says on stdout
// "locked PID" or "refused PID problem holder", and keeps the lock until
// its stdin closes.
const (
	lockChildEnv = "SQLSTORE_TEST_LOCK_CHILD"
	lockChildOp  = "SQLSTORE_TEST_LOCK_OP"
)

func TestMain(m *testing.M) {
	if path := os.Getenv(lockChildEnv); path != "" {
		os.Exit(lockChild(path, os.Getenv(lockChildOp)))
	}
	os.Exit(m.Run())
}

func lockChild(path, op string) int {
	var release func() error
	var err error
	if op == "open" {
		var s *Store
		if s, err = Open(path, Options{}); err == nil {
			release = s.Close
		}
	} else {
		var l *RunLock
		if l, err = Lock(path); err == nil {
			release = l.Release
		}
	}
	if err != nil {
		var oe *OpenError
		if !errors.As(err, &oe) {
			fmt.Println("error", err)
			return 1
		}
		fmt.Println("refused", os.Getpid(), int(oe.Problem), oe.Pid)
		return 0
	}
	fmt.Println("locked", os.Getpid())
	io.Copy(io.Discard, os.Stdin) // until the test closes stdin
	if err := release(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// child is one lock-taking process of a round.
type child struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	line  []string
}

func startChild(t *testing.T, path, op string) *child {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	// GORACE: a -race child otherwise sleeps a second at exit.
	cmd.Env = append(os.Environ(), lockChildEnv+"="+path, lockChildOp+"="+op, "GORACE=atexit_sleep_ms=0")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := &child{cmd: cmd, stdin: stdin}
	line, _ := bufio.NewReader(stdout).ReadString('\n')
	c.line = strings.Fields(line)
	return c
}

func (c *child) stop(t *testing.T) {
	t.Helper()
	c.stdin.Close()
	if err := c.cmd.Wait(); err != nil {
		t.Fatal(err)
	}
}

// TestLockTwoProcesses: 20 rounds of two processes taking one database at
// the same time. In every round exactly one holds it; the other is refused
// at once with InUse, naming the holder's pid. When the round ends, no lock
// file is left.
func TestLockTwoProcesses(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "shared.db")
	for round := range 20 {
		if round == 10 { // half the rounds on a new file, half on an existing one
			archlabFile(t, path)
		}
		var a, b *child
		var wg sync.WaitGroup
		wg.Go(func() { a = startChild(t, path, "lock") })
		wg.Go(func() { b = startChild(t, path, "lock") })
		wg.Wait()
		winner, loser := a, b
		if a.line[0] != "locked" {
			winner, loser = b, a
		}
		want := []string{"refused", loser.line[1], strconv.Itoa(int(InUse)), winner.line[1]}
		if winner.line[0] != "locked" || strings.Join(loser.line, " ") != strings.Join(want, " ") {
			t.Fatalf("round %d: %v and %v; want one locked and the other %v", round, a.line, b.line, want)
		}
		// A third process that only opens the file (not a child of the
		// holder) is refused too; a few rounds are enough for that.
		if round%5 == 0 {
			c := startChild(t, path, "open")
			if c.line[0] != "refused" || c.line[2] != strconv.Itoa(int(InUse)) {
				t.Fatalf("round %d: Open while held: %v", round, c.line)
			}
			c.stop(t)
		}
		loser.stop(t)
		winner.stop(t)
		if _, err := os.Stat(path + LockSuffix); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("round %d: the lock file is left behind (%v)", round, err)
		}
	}
}

// TestLockGoroutines: the same race inside one process, 20 rounds: flock
// belongs to an open file, so two Locks from one process exclude each other
// too. Open from the holding process itself is allowed (one run opens the
// file once per drill).
func TestLockGoroutines(t *testing.T) {
	path := filepath.Join(t.TempDir(), "shared.db")
	for round := range 20 {
		var locks [2]*RunLock
		var errs [2]error
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i := range 2 {
			wg.Go(func() {
				<-start
				locks[i], errs[i] = Lock(path)
			})
		}
		close(start)
		wg.Wait()
		won := 0
		for i := range 2 {
			var oe *OpenError
			switch {
			case errs[i] == nil:
				won++
			case !errors.As(errs[i], &oe) || oe.Problem != InUse || oe.Pid != os.Getpid():
				t.Fatalf("round %d: %v, want InUse by pid %d", round, errs[i], os.Getpid())
			}
		}
		if won != 1 {
			t.Fatalf("round %d: %d Locks succeeded, want exactly 1 (%v)", round, won, errs)
		}
		s, err := Open(path, Options{})
		if err != nil {
			t.Fatalf("round %d: the holder's own Open: %v", round, err)
		}
		s.ApplyOnce(pay)
		if s.Applies() != 1 || s.Err() != nil {
			t.Fatalf("round %d: effects=%d err=%v", round, s.Applies(), s.Err())
		}
		s.Reset()
		s.Close()
		for _, l := range locks {
			if err := l.Release(); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestLockRefusedFileLeavesNoLockFile: Lock checks the file before it
// creates PATH.lock.
func TestLockRefusedFileLeavesNoLockFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "notes.txt")
	os.WriteFile(path, []byte("not a database\n"), 0o644)
	if _, err := Lock(path); err == nil {
		t.Fatal("Lock accepted a text file")
	}
	if _, err := os.Stat(path + LockSuffix); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("lock file left on a refused file: %v", err)
	}
}

// TestStaleLockFileIsTakenOver: a run killed with SIGKILL leaves its lock
// file, but not its flock; the next run takes the file.
func TestStaleLockFileIsTakenOver(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.db")
	os.WriteFile(path+LockSuffix, []byte("999999\n"), 0o644)
	l, err := Lock(path)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path + LockSuffix)
	if string(b) != strconv.Itoa(os.Getpid())+"\n" {
		t.Fatalf("lock file holds %q", b)
	}
	if err := l.Release(); err != nil {
		t.Fatal(err)
	}
	if err := l.Release(); err != nil { // twice is fine
		t.Fatal(err)
	}
}

// TestLockFollowsSymlinks: a run through a symbolic link to the database
// is refused like a run on the file itself.
func TestLockFollowsSymlinks(t *testing.T) {
	dir := t.TempDir()
	path := archlabFile(t, filepath.Join(dir, "a.db"))
	link := filepath.Join(dir, "link.db")
	if err := os.Symlink(path, link); err != nil {
		t.Skip(err)
	}
	l, err := Lock(path)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()
	var oe *OpenError
	if _, err := Lock(link); !errors.As(err, &oe) || oe.Problem != InUse {
		t.Fatalf("Lock through a link = %v, want InUse", err)
	}
}
