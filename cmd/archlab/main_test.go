package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"archlab/adapters/consumerproc"
	"archlab/check"
	"archlab/harness"
	"archlab/i18n"
	"archlab/internal/inbox"
	"archlab/ui/cli"
	"archlab/ui/cmd/drill"
)

// TestMain lets the test binary act as the archlab command, so the scripts
// in testdata/script run the real CLI in-process, without a separate build.
func TestMain(m *testing.M) {
	// A consumer process of --crash real started by an in-process test
	// (os.Executable is then this test binary) acts as archlab.
	if os.Getenv(consumerproc.ChildEnv) == "1" {
		os.Exit(consumerproc.Main())
	}
	// A Go test that needs archlab as a real process (its stdout on
	// /dev/full, a signal, a second run on one database) starts this
	// binary with asArchlab=1 (exitstatus_test.go).
	if os.Getenv(asArchlab) == "1" || os.Getenv(check.ChildEnv) == "1" || os.Getenv(drill.ChildEnv) == "1" {
		os.Exit(run(scriptIO(), os.Args[1:]))
	}
	if os.Getenv(asScreens) == "1" {
		os.Stdout.WriteString(printScreens())
		os.Exit(0)
	}
	testscript.Main(isolated{m}, map[string]func(){
		"archlab": func() { os.Exit(run(scriptIO(), os.Args[1:])) },
		"sqlexec": sqlexecMain, // scripts make and read SQLite files (store_test.go)
	})
}

// isolated runs the tests with an archlab cache of their own: no test
// reads or writes the user's (the variants built on first use, the hint
// counts). XDG_CACHE_HOME is a temporary folder, removed after; GOCACHE
// stays where go keeps it, so the variants' builds still reuse what go
// compiled. The variants the tests hand runs to are built first, so that
// none is rebuilt, and says so on stderr, in the middle of a test (after a
// student's edit to exercises/, a stale one used to be).
type isolated struct{ m *testing.M }

func (i isolated) Run() (code int) {
	fail := func(err error) int {
		fmt.Fprintln(os.Stderr, "archlab tests: "+err.Error())
		return 1
	}
	if os.Getenv("GOCACHE") == "" {
		out, err := exec.Command("go", "env", "GOCACHE").Output()
		if err != nil {
			return fail(fmt.Errorf("go env GOCACHE: %v", err))
		}
		os.Setenv("GOCACHE", strings.TrimSpace(string(out)))
	}
	// The user's own archlab cache, as it is now: after the tests it must
	// be the same, to the file and its modification time.
	userCache, _ := os.UserCacheDir()
	before := treeState(filepath.Join(userCache, "archlab"))
	dir, err := os.MkdirTemp("", "archlab-test-cache-")
	if err != nil {
		return fail(err)
	}
	defer os.RemoveAll(dir)
	os.Setenv("XDG_CACHE_HOME", dir)
	defer func() {
		if after := treeState(filepath.Join(userCache, "archlab")); after != before && userCache != "" {
			fmt.Fprintf(os.Stderr, "archlab tests: the user's cache %s changed during the tests\n", filepath.Join(userCache, "archlab"))
			code = 1
		}
	}()
	waitMore()
	// The book's whole check, which several tests read (bookChecks),
	// starts at once beside the first tests instead of inside one of
	// them; not under -race, where those tests skip, nor for a -run that
	// picks tests.
	if !raceOn && flag.Lookup("test.run").Value.String() == "" {
		go bookChecks(context.Background(), bookStudents, "")
	}
	g := &cli.Env{IO: &IO{Err: io.Discard}, Lang: i18n.EN}
	for _, part := range []string{"web", "sqlite"} {
		if cli.Linked(part) {
			continue
		}
		if _, err := g.Variant(context.Background(), &cli.NeedsError{Parts: []string{part}, Asker: "the tests"}); err != nil {
			return fail(fmt.Errorf("building the %s variant: %v", part, err))
		}
	}
	return i.m.Run()
}

// waitMore runs four parallel tests at a time, or twice the CPUs, where
// go test runs as many as the CPUs: these tests mostly wait for a child
// (a check past its time limit, a signal, a build), and a script that
// sleeps out a ten-second limit held one of the two places, while the
// other forty scripts queued for the other. -parallel on the command
// line still decides.
func waitMore() {
	flag.Parse()
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if !given {
		flag.Set("test.parallel", strconv.Itoa(max(4, 2*runtime.GOMAXPROCS(0))))
	}
}

// treeState is every path under dir with its size and modification time,
// one string ("" when dir does not exist).
func treeState(dir string) string {
	var b strings.Builder
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if info, err := d.Info(); err == nil {
			fmt.Fprintf(&b, "%s %d %d\n", p, info.Size(), info.ModTime().UnixNano())
		}
		return nil
	})
	return b.String()
}

// testStudentsEnv names the student's code a script's archlab (and the
// children its check starts) runs instead of package exercises: "book" is
// the book's logic, "stuck-shard-loop" the book's but for a shard loop
// that never advances its offset, "sleeping-shard-loop" one that applies an item and
// sleeps for ever, "chatty" the book's with a §8.2 handler that prints, "exits" one that
// calls os.Exit, "recurses" one that overflows its stack, "mark-then-effect" the book's but for a
// §8.2 handler that marks the key before the effect. Unset, it is package exercises.
const testStudentsEnv = "ARCHLAB_TEST_STUDENTS"

// scriptIO is the real process's IO with the student's code the script
// asked for.
func scriptIO() *IO {
	io := newIO()
	switch os.Getenv(testStudentsEnv) {
	case "book":
		io.Students = check.Book()
	case "stuck-shard-loop":
		io.Students = check.Book()
		io.Students.Shardjob = stuckShardLoop
	case "sleeping-shard-loop":
		io.Students = check.Book()
		io.Students.Shardjob = sleepingShardLoop
	case "exits":
		io.Students = check.Book()
		io.Students.Inbox = func(*harness.Delivery) error { os.Exit(0); return nil }
	case "recurses":
		io.Students = check.Book()
		io.Students.Inbox = recurse
	case "chatty":
		io.Students = check.Book()
		io.Students.Inbox = chattyHandler
	case "mark-then-effect":
		io.Students = check.Book()
		io.Students.Inbox = markThenEffect
	case "two-locks":
		io.Students = check.Book()
		io.Students.Ledger = func() harness.Ledger {
			return &twoLockMapLedger{keys: map[string]int64{}, balances: map[string]int64{}}
		}
	default:
		if h, ok := hostileStudents[os.Getenv(testStudentsEnv)]; ok {
			io.Students = check.Book()
			io.Students.Inbox = h
		}
	}
	return io
}

// recurse is a handler that calls itself for ever: a stack overflow, which
// Go cannot recover.
func recurse(d *harness.Delivery) error { return recurse(d) }

// chattyHandler is the book's §8.2 handler, printing each delivery as a
// student debugging it would.
func chattyHandler(d *harness.Delivery) error {
	fmt.Println("got", d.Message())
	if _, err := d.ApplyOnce(); err != nil {
		return err
	}
	if err := d.Notify(d.Message()); err != nil {
		return err
	}
	return d.Ack()
}

// twoLockMapLedger checks the key under one lock and writes it under
// another, in a plain Go map: two deliveries at once may both find the key
// new, or crash the process ("concurrent map read and map write").
type twoLockMapLedger struct {
	check, write sync.Mutex
	keys         map[string]int64
	balances     map[string]int64
	applies      int
}

func (l *twoLockMapLedger) ApplyOnce(m inbox.Message) (bool, error) {
	key := inbox.DedupKey(m)
	l.check.Lock()
	_, dup := l.keys[key]
	l.check.Unlock()
	if dup {
		return false, nil
	}
	l.write.Lock()
	defer l.write.Unlock()
	l.keys[key] = m.Seq
	l.balances[m.OrderID] += m.AmountCents
	l.applies++
	return true, nil
}

func (l *twoLockMapLedger) Prune(maxSeq int64) int {
	l.write.Lock()
	defer l.write.Unlock()
	n := 0
	for k, seq := range l.keys {
		if seq <= maxSeq {
			delete(l.keys, k)
			n++
		}
	}
	return n
}

func (l *twoLockMapLedger) Balance(o string) int64 {
	l.write.Lock()
	defer l.write.Unlock()
	return l.balances[o]
}

func (l *twoLockMapLedger) Applies() int {
	l.write.Lock()
	defer l.write.Unlock()
	return l.applies
}

// markThenEffect is the §8.2 handler that marks the key, then applies the
// effect with no key: two writes where the book has one transaction.
func markThenEffect(d *harness.Delivery) error {
	fresh, err := d.Mark()
	if err != nil {
		return err
	}
	if fresh {
		if err := d.Effect(); err != nil {
			return err
		}
	}
	if err := d.Notify(d.Message()); err != nil {
		return err
	}
	return d.Ack()
}

// sleepingShardLoop applies its first item, then sleeps for ever: stuck
// like stuckShardLoop, without a CPU's worth of spinning.
func sleepingShardLoop(w *harness.Worker) error {
	start, err := w.Fence()
	if err != nil {
		return err
	}
	if _, err := w.Apply(w.Items()[start]); err != nil {
		return err
	}
	for {
		time.Sleep(time.Hour)
	}
}

// stuckShardLoop applies its first item forever: its offset never moves,
// and once the scenario's crash is spent nothing stops it.
func stuckShardLoop(w *harness.Worker) error {
	start, err := w.Fence()
	if err != nil {
		return err
	}
	items := w.Items()
	for off := start; off < len(items); {
		if _, err := w.Apply(items[off]); err != nil {
			return err
		}
	}
	return w.Commit(w.Epoch(), len(items))
}

// TestScripts runs testdata/script/*.txtar: exit codes, --json shape,
// unknown drills, bad parameters, colour and languages.
func TestScripts(t *testing.T) {
	// Beside the other tests that wait on children: the scripts spend
	// most of their time waiting for an archlab they started.
	t.Parallel()
	vars := buildEnv(t)
	testscript.Run(t, testscript.Params{
		Dir: "../../testdata/script",
		// [race]: this test binary has the race detector, under which
		// every archlab a script starts runs several times slower.
		Condition: func(cond string) (bool, error) {
			if cond == "race" {
				return raceOn, nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Cmds: hostileFiles,
		Setup: func(env *testscript.Env) error {
			// A clean locale, so language defaults are what a script sets.
			for _, k := range []string{"LC_ALL", "LC_MESSAGES", "LANG", "NO_COLOR"} {
				env.Setenv(k, "")
			}
			// Drill files live in testdata/files: a drill file's parts
			// would read as the script's own files if it held them.
			files, err := filepath.Abs("../../testdata/files")
			env.Setenv("FILES", files)
			// The clone itself, whose exercises a script copies into the
			// students' repositories it makes (class_clones.txtar).
			root, _ := filepath.Abs("../..")
			env.Setenv("ROOT", root)
			for _, kv := range vars {
				k, v, _ := strings.Cut(kv, "=")
				env.Setenv(k, v)
			}
			return err
		},
	})
}

// buildEnv is what an archlab started by a script needs to find the
// archlab with more parts (ui/cli/parts.go): the tests' own cache, where
// isolated built them, and Go's build and module caches, which
// testscript's HOME (/no-home) would otherwise move to nowhere.
func buildEnv(t *testing.T) []string {
	buildEnvOnce.Do(func() {
		out, err := exec.Command("go", "env", "GOCACHE", "GOMODCACHE", "GOPATH").Output()
		if err != nil {
			t.Fatalf("go env: %v", err)
		}
		v := strings.Fields(string(out))
		// The tests' own cache (isolated), where the variants are built.
		buildEnvVars = []string{"XDG_CACHE_HOME=" + os.Getenv("XDG_CACHE_HOME"), "GOCACHE=" + v[0], "GOMODCACHE=" + v[1], "GOPATH=" + v[2],
			"GOFLAGS=" + os.Getenv("GOFLAGS"), "GOPROXY=" + os.Getenv("GOPROXY"), "GOTOOLCHAIN=" + os.Getenv("GOTOOLCHAIN")}
	})
	return buildEnvVars
}

var (
	buildEnvOnce sync.Once
	buildEnvVars []string
)

// hostileFiles are the files a script cannot write in its archive: a
// huge one (bigfile PATH BYTES), a name with control characters (ctlfile
// PATH, the name Go-quoted: "a\x1b[31m.json") and a FIFO (mkfifo PATH).
var hostileFiles = map[string]func(ts *testscript.TestScript, neg bool, args []string){
	"bigfile": func(ts *testscript.TestScript, neg bool, args []string) {
		n, err := strconv.Atoi(args[1])
		ts.Check(err)
		ts.Check(os.WriteFile(ts.MkAbs(args[0]), bytes.Repeat([]byte{' '}, n), 0o644))
	},
	"ctlfile": func(ts *testscript.TestScript, neg bool, args []string) {
		name, err := strconv.Unquote(`"` + args[0] + `"`)
		ts.Check(err)
		ts.Check(os.WriteFile(ts.MkAbs(name), []byte("{}"), 0o644))
	},
	"mkfifo": func(ts *testscript.TestScript, neg bool, args []string) {
		ts.Check(syscall.Mkfifo(ts.MkAbs(args[0]), 0o644))
	},
}
