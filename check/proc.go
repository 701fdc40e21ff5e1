package check

import (
	"archlab/built"

	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// A student's code runs with the rights of the one who checks it, in a
// child process (Spawn), so that whatever it does ends when its time does:
//
//   - The child leads a process group of its own; at the limit, at Ctrl-C
//     and when it exits, the whole group is killed, so a `sleep 60` the
//     code started (holding the child's stderr) dies with it.
//   - The result comes back on a pipe of its own (fd 3 in the child), read
//     to at most MaxResult bytes: what the code prints, to stdout or
//     stderr, from init() or through a logger made before main, is only
//     shown, never mistaken for the result.
//   - What the child prints is kept bounded (printed): the first lines,
//     the line count and the last bytes, however much it prints.
//   - Its address space is limited (MemoryBudget).
//   - Its time is the time it ran or waited for something other than a
//     CPU (clock): on a machine busy with other work a slow child is not
//     a hung one.
//   - Its stdin is /dev/null; "your time is up" comes on a pipe of its
//     own (fd 4), so code that closes stdin (a correct handler may, in
//     init) is not taken for code out of time.
//   - It is a child subreaper (PR_SET_CHILD_SUBREAPER, package subreaper,
//     before any package init of the student's): a
//     process the code starts stays its descendant even in a session of
//     its own (setsid, which leaves the group); the child ends its
//     descendants before it exits (EndDescendants), and the parent ends
//     every descendant it saw at its last look (every 100 ms) when it
//     kills the child.
//
// What remains out of reach: code that undoes the subreaper or closes
// fd 4 (it runs in the child's process, with its rights), and a process
// started in the last 100 ms before the parent had to kill the child
// outright (Ctrl-C, or no answer within grace) that left its group.

// MemoryBudget is the address space a child may map beyond what it has
// when the student's code starts (RLIMIT_AS, which the child sets on
// itself: LimitChild). It is a hard limit: memory the code asks for past
// it is refused at once ("fatal error: out of memory"), before it is
// touched, and a process the code starts inherits it; debug.SetMemoryLimit
// is a goal the garbage collector aims at, which live memory passes, and a
// watchdog polling the child's size would see a fast allocation only once
// it had taken the machine's memory. Go and the C library reserve address
// space they may never use (the heap's page summaries, a malloc arena per
// thread: well over a GB at start), so the limit counts from there, not
// from zero; the book's own checks use under 50 MB of it. Under the race
// detector (whose shadow memory is terabytes of address space) no limit
// is set.
const MemoryBudget = 1 << 30

// MaxResult is the most a child's result may be: far more than any
// exercise's (a counterexample's steps and its drill file) or drill's
// output (its trace and JSON, under their budgets), far less than
// a flood would take.
const MaxResult = 64 << 20

// ResultFD is the child's end of its result pipe; TimeUpFD, of the pipe
// whose end says its time is up.
const (
	ResultFD = 3
	TimeUpFD = 4
)

// graceTime is how long a check's child told its time is up has to say
// where its code was, and how long a child's stdout and stderr are read
// after it ends (a process that escaped its group may hold them).
const graceTime = 2 * time.Second

// Ending is how a child's run ended.
type Ending int

const (
	Exited   Ending = iota // the child ended by itself
	TimedOut               // its time ran out: it was told, then killed
	Canceled               // the context ended first (Ctrl-C)
)

// ChildRun is what a child left: its result, what it printed, how it ended.
type ChildRun struct {
	Result   []byte // what it wrote on its result pipe
	TooLarge bool   // it wrote more than MaxResult
	Printed  *Printed
	Ending   Ending
	State    *os.ProcessState
}

// Spawn runs argv (with env) as a child under limit: in its own process
// group, its result on fd 3, its output bounded. At the limit the child's
// stdin is closed (its time is up) and it has grace to write where its
// code was; then, and whenever it ends, its group is killed. An error is
// the environment's (no pipe, no program): the child never started.
func Spawn(ctx context.Context, argv, env []string, limit, grace time.Duration) (*ChildRun, error) {
	// The pipes are made here, not by exec: Wait then returns when the
	// child ends, not when the last process holding its stdout or stderr
	// (a grandchild's `sleep 60`) lets go, and the group is killed at once.
	var ours, theirs []*os.File
	defer func() {
		for _, f := range append(ours, theirs...) {
			f.Close()
		}
	}()
	for range 3 {
		r, w, err := os.Pipe()
		if err != nil {
			return nil, err
		}
		ours, theirs = append(ours, r), append(theirs, w)
	}
	resultR, outR, errR := ours[0], ours[1], ours[2]
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(env[:len(env):len(env)], "MALLOC_ARENA_MAX=2") // fewer C arenas to take MemoryBudget
	cmd.ExtraFiles = []*os.File{theirs[0]}
	cmd.Stdout, cmd.Stderr = theirs[1], theirs[2]
	// Its own group, so one kill reaches what it started; and killed if
	// this process dies first.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	timeUp, err := timeUpPipe(cmd, &ours, &theirs) // fd 4; stdin is /dev/null
	if err != nil {
		return nil, err
	}
	childStackOnce.Do(childStack)
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	for _, f := range theirs {
		f.Close()
	}
	theirs = nil
	pid := cmd.Process.Pid
	seen := descendants{}
	killGroup := func() {
		syscall.Kill(-pid, syscall.SIGKILL)
		seen.kill()
	}

	p := &Printed{}
	var result []byte
	var reading sync.WaitGroup
	reading.Go(func() { io.Copy(p.stream(false), outR) })
	reading.Go(func() { io.Copy(p.stream(true), errR) })
	reading.Go(func() { result, _ = io.ReadAll(io.LimitReader(resultR, MaxResult+1)) })
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()

	run := &ChildRun{Printed: p}
	clk := newClock(pid)
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
wait:
	for {
		select {
		case <-exited:
			break wait
		case <-ctx.Done():
			run.Ending = Canceled
			killGroup()
			<-exited
			break wait
		case <-tick.C:
			seen.look(pid)
			if clk.used() < limit {
				continue
			}
			run.Ending = TimedOut
			timeUp.Close()
			select {
			case <-exited:
			case <-time.After(grace):
				killGroup()
				<-exited
			}
			break wait
		}
	}
	// The child is reaped; whatever it started in its group goes now (a
	// group's id names no other group while a member lives).
	killGroup()
	run.State = cmd.ProcessState
	// Its pipes are read to their end, or for graceTime more where a
	// process that left the group holds them (exec.Cmd's WaitDelay, for
	// pipes of our own): then what was read is all there is.
	all := make(chan struct{})
	go func() { reading.Wait(); close(all) }()
	select {
	case <-all:
	case <-time.After(graceTime):
		for _, f := range ours {
			f.Close()
		}
		<-all
	}
	run.Result = result
	if len(run.Result) > MaxResult {
		run.Result, run.TooLarge = nil, true
	}
	return run, nil
}

// timeUpPipe gives cmd a pipe's end as fd 4 (after fd 3, the result's):
// the other end, returned, is closed when the child's time is up. The
// ends join ours and theirs, closed as those are.
func timeUpPipe(cmd *exec.Cmd, ours, theirs *[]*os.File) (*os.File, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	*ours, *theirs = append(*ours, w), append(*theirs, r)
	cmd.ExtraFiles = append(cmd.ExtraFiles, r)
	return w, nil
}

// TimeUpPipe is the child's side of the pipe that closes when its time
// is up, which no process the student's code starts inherits.
func TimeUpPipe() (*os.File, error) {
	var st unix.Stat_t
	if err := unix.Fstat(TimeUpFD, &st); err != nil || st.Mode&unix.S_IFMT != unix.S_IFIFO {
		return nil, ErrNoPipe
	}
	unix.CloseOnExec(TimeUpFD)
	return os.NewFile(TimeUpFD, "check-time-up"), nil
}

// descendants are the processes a child started, as the parent saw them
// (pid and start time, so that a pid used again is not killed).
type descendants map[int]string

// look adds the descendants of pid now.
func (d descendants) look(pid int) {
	for _, p := range descendantsOf(pid) {
		if start, ok := startTime(p); ok {
			d[p] = start
		}
	}
}

// kill ends every descendant seen that is still the same process.
func (d descendants) kill() {
	for p, start := range d {
		if now, ok := startTime(p); ok && now == start {
			syscall.Kill(p, syscall.SIGKILL)
		}
	}
}

// EndDescendants kills every process this one started, in any session:
// as a child subreaper (LimitChild), the processes its code started and
// left are its children still. The child calls it before it exits.
func EndDescendants() {
	for _, p := range descendantsOf(os.Getpid()) {
		syscall.Kill(p, syscall.SIGKILL)
	}
}

// descendantsOf are the processes under pid: from each one's children,
// as /proc/P/task/T/children lists them (a few reads for a child's few
// threads, every 100 ms), or, on a kernel without those files, from
// every process's parent (milliseconds a look).
func descendantsOf(pid int) []int {
	if !procChildren() {
		return scanDescendants(pid)
	}
	var out []int
	for next := []int{pid}; len(next) > 0; next = next[1:] {
		tasks, _ := os.ReadDir("/proc/" + strconv.Itoa(next[0]) + "/task")
		for _, t := range tasks {
			b, _ := os.ReadFile("/proc/" + strconv.Itoa(next[0]) + "/task/" + t.Name() + "/children")
			for _, f := range strings.Fields(string(b)) {
				if c, err := strconv.Atoi(f); err == nil {
					out, next = append(out, c), append(next, c)
				}
			}
		}
	}
	return out
}

// procChildren says whether the kernel lists each thread's children.
var procChildren = sync.OnceValue(func() bool {
	_, err := os.Stat("/proc/thread-self/children")
	return err == nil
})

// scanDescendants is descendantsOf from every process's parent.
func scanDescendants(pid int) []int {
	entries, _ := os.ReadDir("/proc")
	children := map[int][]int{}
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if parent, ok := statField(p, 1); ok {
			pp, _ := strconv.Atoi(parent)
			children[pp] = append(children[pp], p)
		}
	}
	var out []int
	for next := []int{pid}; len(next) > 0; next = next[1:] {
		out, next = append(out, children[next[0]]...), append(next, children[next[0]]...)
	}
	return out
}

// startTime is when process p started (its stat's 22nd field).
func startTime(p int) (string, bool) { return statField(p, 19) }

// statField is the field i (from 0) after the command name of p's
// /proc/p/stat: 0 its state, 1 its parent, 19 its start time.
func statField(p, i int) (string, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(p) + "/stat")
	if err != nil {
		return "", false
	}
	_, rest, ok := strings.Cut(string(b), ") ")
	f := strings.Fields(rest)
	if !ok || i >= len(f) {
		return "", false
	}
	return f[i], true
}

// ResultPipe is the child's side of its result pipe, which no process the
// student's code starts inherits. A process not started by Spawn has no
// such pipe: the error says so.
func ResultPipe() (*os.File, error) {
	var st unix.Stat_t
	if err := unix.Fstat(ResultFD, &st); err != nil || st.Mode&unix.S_IFMT != unix.S_IFIFO {
		return nil, ErrNoPipe
	}
	unix.CloseOnExec(ResultFD)
	return os.NewFile(ResultFD, "check-result"), nil
}

// LimitChild sets the child's limits before the student's code runs (it
// is a child subreaper already: package subreaper): its address space (MemoryBudget past what it has now) and its stack, so
// that a recursion that never ends says "stack overflow" at a quarter of
// a GB, before its stack's copies take the budget (Go's own limit is 1 GB,
// copied from the half it outgrew).
func LimitChild() {
	// A subreaper since before the student's init (package subreaper):
	// the processes the code starts stay this process's descendants, in
	// a session of their own too (EndDescendants).
	debug.SetMaxStack(256 << 20)
	if built.WithRace { // the shadow memory needs terabytes of address space
		return
	}
	if size, ok := vmSize(); ok {
		lim := unix.Rlimit{Cur: size + MemoryBudget, Max: size + MemoryBudget}
		unix.Setrlimit(unix.RLIMIT_AS, &lim)
	}
}

// childStack keeps a huge stack limit (`ulimit -s 1048576`) from
// breaking the child. The C library sizes every thread's stack by
// RLIMIT_STACK, reserving it as address space: under MemoryBudget a child
// whose threads each reserve a gigabyte could not start its second thread,
// and the check would fail right code. A child inherits the limit, so this
// process lowers its own soft limit to Linux's usual 8 MB before the first
// child starts: its own threads were sized when it started and keep their
// stacks, and Go's goroutine stacks do not use the limit at all.
func childStack() {
	var lim unix.Rlimit
	if unix.Getrlimit(unix.RLIMIT_STACK, &lim) != nil || lim.Cur <= childStackSize {
		return
	}
	lim.Cur = childStackSize
	unix.Setrlimit(unix.RLIMIT_STACK, &lim)
}

// childStackSize is the stack limit a child runs under at most.
const childStackSize = 8 << 20

var childStackOnce sync.Once

// vmSize is this process's address space now (VmSize, in bytes).
func vmSize() (uint64, bool) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, false
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmSize:"); ok {
			kb, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb << 10, err == nil
		}
	}
	return 0, false
}

// ErrNoPipe is ResultPipe's error in a process Spawn did not start.
var ErrNoPipe = errors.New("no result pipe on fd 3: archlab check starts this process itself")

// clock is a child's time as its limit counts it: wall time less the time
// it stood in the run queue, waiting for a CPU that other processes had
// (the kernel's schedstat, per thread). A child in an endless loop counts
// as the wall clock on a quiet machine and as its CPU time on a busy one;
// one blocked for ever (a channel nobody sends on, a grandchild it waits
// for) counts as the wall clock on both, where counting CPU time alone
// would never end it. Calibrating the limit against a run of the book's
// code on the same machine was the other way: it costs a run of the book
// per check, and a load that changes during the check defeats it. Where
// /proc has no schedstat the clock is the wall clock.
type clock struct {
	pid     int
	last    time.Time
	total   time.Duration
	waited  map[string]int64 // each thread's run-queue wait so far (ns)
	noStats bool
}

func newClock(pid int) *clock {
	c := &clock{pid: pid, last: time.Now(), waited: map[string]int64{}}
	c.noStats = !c.sample()
	return c
}

// used is the child's time so far.
func (c *clock) used() time.Duration {
	now := time.Now()
	dt := now.Sub(c.last)
	c.last = now
	before := maps(c.waited)
	if c.noStats || !c.sample() {
		c.total += dt
		return c.total
	}
	// The threads run side by side: the child was held back by as much
	// as its most delayed thread waited.
	var held int64
	for tid, w := range c.waited {
		held = max(held, w-before[tid])
	}
	c.total += dt - min(dt, time.Duration(held))
	return c.total
}

func maps(m map[string]int64) map[string]int64 {
	out := make(map[string]int64, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// sample reads each thread's run-queue wait; false when it cannot.
func (c *clock) sample() bool {
	dir := filepath.Join("/proc", strconv.Itoa(c.pid), "task")
	tids, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, t := range tids {
		b, err := os.ReadFile(filepath.Join(dir, t.Name(), "schedstat"))
		if err != nil {
			continue // a thread that just ended
		}
		f := strings.Fields(string(b))
		if len(f) < 2 {
			return false
		}
		w, err := strconv.ParseInt(f[1], 10, 64)
		if err != nil {
			return false
		}
		c.waited[t.Name()] = w
	}
	return true
}

// printedKept is how many of the lines a child printed are kept to show;
// the rest are only counted.
const printedKept = 10

// Printed is what a child printed on stdout and stderr: its first lines
// kept and every line counted, however much a loop prints, and the first
// and last 4 KB of stderr, where a child that died says why (a stack
// overflow first, then a dump of every goroutine; a panic after whatever
// the code printed).
type Printed struct {
	mu         sync.Mutex
	first      []string
	lines      int
	head, tail []byte
}

// stream is the writer for one of the child's streams; each keeps its own
// partial line, so two streams never mix within a line.
func (p *Printed) stream(isErr bool) io.Writer { return &printedStream{p: p, isErr: isErr} }

type printedStream struct {
	p       *Printed
	isErr   bool
	partial []byte
}

func (s *printedStream) Write(b []byte) (int, error) {
	p := s.p
	p.mu.Lock()
	defer p.mu.Unlock()
	if s.isErr {
		if len(p.head) < 4096 {
			p.head = append(p.head, b[:min(len(b), 4096-len(p.head))]...)
		}
		p.tail = append(p.tail, b[max(0, len(b)-4096):]...)
		if len(p.tail) > 8192 {
			p.tail = append(p.tail[:0], p.tail[len(p.tail)-4096:]...)
		}
	}
	for rest := b; len(rest) > 0; {
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			s.keep(rest)
			break
		}
		s.keep(rest[:i])
		if p.lines < printedKept {
			p.first = append(p.first, string(s.partial))
		}
		p.lines++
		s.partial = s.partial[:0]
		rest = rest[i+1:]
	}
	return len(b), nil
}

// keep adds b to the line being printed, up to 512 bytes of it.
func (s *printedStream) keep(b []byte) {
	if room := 512 - len(s.partial); room > 0 && s.p.lines < printedKept {
		s.partial = append(s.partial, b[:min(len(b), room)]...)
	}
}

// Lines is the first lines printed and how many were printed in all.
func (p *Printed) Lines() ([]string, int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.first, p.lines
}

// Why is the line that says why a child died: Go's "fatal error:",
// "panic:" or "runtime:" line on stderr, else the last line it printed
// there ("" for none).
func (p *Printed) Why() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	lines := strings.Split(strings.TrimSpace(string(p.tail)), "\n")
	first := strings.Split(string(p.head), "\n")
	for _, prefix := range []string{"fatal error:", "runtime/cgo:", "panic:", "runtime:"} {
		for _, l := range append(first, lines...) {
			if strings.HasPrefix(l, prefix) {
				return l
			}
		}
	}
	return lines[len(lines)-1]
}

// exitWords is how a child that left no result ended, as Go says it.
func exitWords(st *os.ProcessState) string {
	return fmt.Sprintf("it exited (%v) before it was done", st)
}
