package drill

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// A run on SQLite keeps its databases in a temporary directory it removes
// when it ends, Ctrl-C included. A run killed with SIGKILL cannot: its
// directory stays. The directory's name carries the run's pid
// (archlab-run-<pid>-<random>), and every later run that makes one first
// removes those whose run is gone.

const tempPrefix = "archlab-run-"

// makeTempDir sweeps the directories of dead runs, then makes this run's.
func makeTempDir() (string, error) {
	sweepTempDirs(os.TempDir())
	return os.MkdirTemp("", tempPrefix+strconv.Itoa(os.Getpid())+"-")
}

// sweepTempDirs removes, from dir, the temporary directories of archlab
// runs that no longer exist: its own user's only, and only when the pid in
// the name names no process (a live process with that pid, archlab or
// not, keeps its directory). Errors are ignored: a directory left is the
// state before the sweep.
func sweepTempDirs(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		pid, ok := tempDirPid(e.Name())
		if !ok || !e.IsDir() || pid == os.Getpid() || alive(pid) {
			continue
		}
		path := filepath.Join(dir, e.Name())
		if fi, err := os.Lstat(path); err != nil || !ownedByMe(fi) {
			continue
		}
		os.RemoveAll(path)
	}
}

// tempDirPid reads the pid out of a run's directory name.
func tempDirPid(name string) (int, bool) {
	rest, ok := strings.CutPrefix(name, tempPrefix)
	if !ok {
		return 0, false
	}
	digits, _, ok := strings.Cut(rest, "-")
	pid, err := strconv.Atoi(digits)
	return pid, ok && err == nil && pid > 0
}

// alive reports whether a process with pid exists (signal 0 checks
// without sending anything; EPERM means it exists but is not ours).
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

func ownedByMe(fi os.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Geteuid()
}
