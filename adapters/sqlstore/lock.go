package sqlstore

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// One archlab run at a time per database file. SQLite's own locks keep
// each transaction whole, but a drill is many transactions: it resets the
// tables, delivers, then reads the counters. Two runs on one file
// interleave those and each prints the other's effects (before issue 11:
// effects=22 and effects=40 for two runs of 30 deliveries). So a run takes
// the file with Lock for its whole length, and a second run is refused at
// once, told which process holds it.
//
// The lock is flock(2) on a file beside the database, PATH.lock, holding
// the pid of the run. The kernel drops a flock when its process dies, so a
// run killed with SIGKILL leaves at worst a stale file that the next Lock
// takes over; nothing is ever waited for.

// LockSuffix is added to the database's path to name its lock file.
const LockSuffix = ".lock"

// RunLock is a run's hold on a database file.
type RunLock struct {
	f    *os.File
	path string
}

// Lock checks path as Open does, without writing anything, and then takes
// it for this process. It refuses with an *OpenError: InUse when another
// run holds the file, ReadOnly when the file or its directory cannot be
// written, and every problem Open reports. A refused path gets no lock
// file. Release the lock when the run ends.
//
// The run's own consumer processes open the file with Open while the run
// holds it: Open accepts a file held by its caller's process, its parent
// or Options.Owner.
func Lock(path string) (*RunLock, error) {
	if _, err := precheck(path, 0); err != nil {
		return nil, err
	}
	lp := lockPath(path)
	for {
		f, err := os.OpenFile(lp, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			return nil, &OpenError{Path: path, Problem: lockProblem(err), Err: err}
		}
		if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
			pid := readPid(f)
			f.Close()
			if errors.Is(err, unix.EWOULDBLOCK) {
				return nil, &OpenError{Path: path, Problem: InUse, Pid: pid}
			}
			return nil, &OpenError{Path: path, Problem: CannotOpen, Err: err}
		}
		// The holder before us may have removed the file between our open
		// and our flock: then we hold a lock on a file nobody else will
		// ever open. Take it only if it is still the one at lp.
		if same(f, lp) {
			l := &RunLock{f: f, path: lp}
			if err := l.writePid(); err != nil {
				l.Release()
				return nil, &OpenError{Path: path, Problem: lockProblem(err), Err: err}
			}
			// Now that no other run can change it, look at the file
			// again: it may have been created or changed since precheck.
			if _, err := precheck(path, os.Getpid()); err != nil {
				l.Release()
				return nil, err
			}
			return l, nil
		}
		f.Close()
	}
}

// Release removes the lock file and drops the lock. It may be called on a
// nil Lock and more than once.
func (l *RunLock) Release() error {
	if l == nil || l.f == nil {
		return nil
	}
	// Remove before unlocking: a run waiting in Lock then finds that its
	// file is not the one at the path and opens a new one.
	err := os.Remove(l.path)
	if errors.Is(err, fs.ErrNotExist) {
		err = nil // someone removed it for us: the hold ends all the same
	}
	err = errors.Join(err, l.f.Close()) // closing drops the flock
	l.f = nil
	return err
}

func (l *RunLock) writePid() error {
	if err := l.f.Truncate(0); err != nil {
		return err
	}
	_, err := l.f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	return err
}

// precheck is what Lock and Open check before they write anything: the
// file (inspect), the run that may hold it, and whether it can be written.
// A hold by owner is no obstacle (0: no owner named).
func precheck(path string, owner int) (fileState, error) {
	state, err := inspect(path)
	if pid, held := holder(path); held && !allowed(pid, owner) {
		// Said first even when inspect failed: a file another run is
		// creating may look half-made, and the run is the cause.
		return 0, &OpenError{Path: path, Problem: InUse, Pid: pid}
	}
	if err != nil {
		return 0, err
	}
	_, statErr := os.Stat(path)
	return state, checkWritable(path, statErr == nil)
}

// allowed reports whether a hold by pid lets this process use the file:
// its own (one run opens the file several times), its parent's (a consumer
// process of the run) or the owner the caller named.
func allowed(pid, owner int) bool {
	return pid == os.Getpid() || pid == os.Getppid() || (owner != 0 && pid == owner)
}

// holder reports whether some process holds path's lock, and its pid.
func holder(path string) (pid int, held bool) {
	f, err := os.Open(lockPath(path))
	if err != nil {
		return 0, false
	}
	defer f.Close()
	// A shared lock is granted unless someone holds the exclusive one. It
	// is dropped at once by Close: this is only a look.
	if err := unix.Flock(int(f.Fd()), unix.LOCK_SH|unix.LOCK_NB); err == nil {
		return 0, false
	}
	return readPid(f), true
}

// readPid reads the holder's pid. The holder writes it just after its
// flock succeeds, so a run refused in between finds the file empty: it
// looks again a few times, briefly, before it says the pid is unknown (0).
func readPid(f *os.File) int {
	b := make([]byte, 32)
	for range 50 {
		n, _ := f.ReadAt(b, 0)
		if pid, err := strconv.Atoi(strings.TrimSpace(string(b[:n]))); err == nil && strings.HasSuffix(string(b[:n]), "\n") {
			return pid
		}
		time.Sleep(2 * time.Millisecond)
	}
	return 0
}

// lockPath is the lock file of the database at path. A symbolic link to
// the database shares the lock of the file it points to.
func lockPath(path string) string {
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	return path + LockSuffix
}

// same reports whether f is still the file at path.
func same(f *os.File, path string) bool {
	a, err := f.Stat()
	if err != nil {
		return false
	}
	b, err := os.Stat(path)
	return err == nil && os.SameFile(a, b)
}

func lockProblem(err error) Problem {
	if errors.Is(err, fs.ErrPermission) || errors.Is(err, unix.EROFS) {
		return ReadOnly
	}
	return CannotOpen
}
