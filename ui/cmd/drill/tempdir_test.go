package drill

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
)

// TestSweepTempDirs: the temporary directory of a run killed with SIGKILL
// is removed by the next run that makes one; a live process's is not, nor
// anything not named as a run's directory.
func TestSweepTempDirs(t *testing.T) {
	tmp := t.TempDir()
	// A pid that is surely gone: a process that has exited and been waited for.
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Skip("no true(1):", err)
	}
	dead := filepath.Join(tmp, tempPrefix+strconv.Itoa(gone.Process.Pid)+"-123")
	live := filepath.Join(tmp, tempPrefix+strconv.Itoa(os.Getppid())+"-456")
	other := filepath.Join(tmp, "archlab-nats-789")
	notOurs := filepath.Join(tmp, tempPrefix+"x-1")
	for _, d := range []string{dead, live, other, notOurs} {
		if err := os.MkdirAll(filepath.Join(d, "sub"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, "ack-lost.db"), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sweepTempDirs(tmp)
	if _, err := os.Stat(dead); !os.IsNotExist(err) {
		t.Errorf("the dead run's directory is still there: %v", err)
	}
	for _, d := range []string{live, other, notOurs} {
		if _, err := os.Stat(d); err != nil {
			t.Errorf("%s was removed: %v", filepath.Base(d), err)
		}
	}
	// A run on SQLite sweeps before it makes its own (openStores calls
	// makeTempDir).
	t.Setenv("TMPDIR", tmp)
	dead2 := filepath.Join(tmp, tempPrefix+strconv.Itoa(gone.Process.Pid)+"-999")
	if err := os.Mkdir(dead2, 0o755); err != nil {
		t.Fatal(err)
	}
	own, err := makeTempDir()
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(own)
	if _, err := os.Stat(dead2); !os.IsNotExist(err) {
		t.Errorf("a run on SQLite left the dead run's directory: %v", err)
	}
}
