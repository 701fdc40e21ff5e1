package fuzz

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"archlab/drills"
)

const okFile = `# ok
drill tiny
section 8.2
-- steps --
message pay:evt-1
deliver pay:evt-1
-- counters --
effects
-- checks --
once: effects == 1
`

// addBuiltins seeds the corpus with every built-in drill file and okFile.
func addBuiltins(f *testing.F) {
	for _, d := range drills.All() {
		src, err := drills.Source(d)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src)
	}
	f.Add([]byte(okFile))
}

// FuzzParse: whatever the bytes, Parse returns a drill or a *drills.FileError,
// never panics, and a file that parses runs or fails without panicking.
func FuzzParse(f *testing.F) {
	addBuiltins(f)
	f.Add([]byte("drill x\nsection 8.3\n-- steps --\nrepeat 3 as i publish e{i}\n-- counters --\ndlq\n-- checks --\na: dlq == 0 ? true : false\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := drills.Parse("fuzz.txtar", data)
		if err != nil {
			var fe *drills.FileError
			if !errors.As(err, &fe) || fe.Msg == "" {
				t.Fatalf("not a *drills.FileError with a message: %v", err)
			}
			return
		}
		if d.Name == "" || d.Section == "" {
			t.Fatalf("parsed without a name or a section: %+v", d)
		}
	})
}

// fuzzBudget is DefaultBudget with a time budget of a second: a run may
// stop on it, and must then stop within the second after.
var fuzzBudget = drills.Budget{Time: time.Second}

// Limits FuzzRun holds every run to.
const (
	maxRunTime = 2 * time.Second
	maxRSS     = 500 << 20
)

// FuzzRun: whatever the bytes, a file that parses runs under the budget
// and ends, within two seconds of CPU time, with a result, a *drills.FileError (a
// mistake or a budget, at a line) or a *drills.ParamError; never a panic;
// and the process's peak resident memory stays under 500 MB. With
// ARCHLAB_FUZZ_STATS=FILE each fuzzing process appends its longest run and
// its peak memory to FILE whenever either grows (for docs/testing.md).
func FuzzRun(f *testing.F) {
	addBuiltins(f)
	f.Add([]byte("drill r\nsection 8.3\n-- steps --\nroute 1000 4\nrestart\n-- counters --\nused\nmoved\n-- checks --\nok: moved == 0\n"))
	f.Add([]byte("drill c\nsection 8.3\n-- steps --\nevent e1 o-1 v3 fulfill\nconsumer max-attempts=100\npublish e1\ndispatch\n-- counters --\ndeliveries\n-- checks --\nok: deliveries >= 0\n"))
	f.Add([]byte("drill s\nsection 11.2\n-- steps --\nsplit 1000 4\nrepeat 4 as i run shard-{i} every=10\ncount\n-- counters --\nk{i} = shard_keys(i) for i < 4\napplied\n-- checks --\nok: applied == 1000\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		start, cpu := time.Now(), processCPU()
		d, err := drills.ParseBudget("fuzz.txtar", data, fuzzBudget)
		if err == nil {
			_, err = d.RunContext(context.Background(), d.Defaults(), drills.RunOptions{Budget: fuzzBudget})
		}
		took, used := time.Since(start), processCPU()-cpu
		var (
			fe *drills.FileError
			pe *drills.ParamError
		)
		if err != nil && !errors.As(err, &fe) && !errors.As(err, &pe) {
			t.Fatalf("not a *drills.FileError or a *drills.ParamError: %v", err)
		}
		if fe != nil && (fe.Msg == "" || strings.Contains(fe.Error(), "\n")) {
			t.Fatalf("not one line: %q", fe.Error())
		}
		// The run's CPU time, not the wall clock's: a busy machine holds
		// a run back for seconds that it never spent.
		if used > maxRunTime {
			t.Fatalf("the run took %v of CPU, %v in all (error: %v)", used, took, err)
		}
		hwm := peakRSS()
		if hwm > maxRSS {
			t.Fatalf("peak resident memory %d MB", hwm>>20)
		}
		record(took, hwm)
	})
}

var stats struct {
	sync.Mutex
	took time.Duration
	hwm  int64
}

// record appends the process's longest run and peak memory to
// $ARCHLAB_FUZZ_STATS when either grew.
func record(took time.Duration, hwm int64) {
	path := os.Getenv("ARCHLAB_FUZZ_STATS")
	if path == "" {
		return
	}
	stats.Lock()
	defer stats.Unlock()
	if took <= stats.took && hwm>>20 <= stats.hwm>>20 {
		return
	}
	stats.took, stats.hwm = max(stats.took, took), max(stats.hwm, hwm)
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return
	}
	fmt.Fprintf(f, "pid %d longest %v peak %d MB\n", os.Getpid(), stats.took, stats.hwm>>20)
	f.Close()
}

// peakRSS is the process's peak resident memory in bytes (VmHWM), 0 where
// /proc is not.
// processCPU is the CPU time this process has used so far.
func processCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func peakRSS() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			n, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return n << 10
		}
	}
	return 0
}
