package main

import (
	"fmt"
	"log"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"

	"archlab/check"
	"archlab/harness"
)

// The hostile students of issue 37: §8.2 handlers that are the book's but
// for one thing a student's code may do to the process check runs it in.
// scriptIO plugs them in by name (testStudentsEnv); each is checked in a
// real child process.

// hostileStudents is each hostile student by its name.
var hostileStudents = map[string]func(*harness.Delivery) error{
	"grandchild": grandchildHandler,
	"floods":     floodingHandler,
	"init-print": bookDelivery, // prints in init (below)
	"logger":     loggingHandler,
	"hog":        hoggingHandler,
	"slow":       slowHandler,
	"loops":      loopingHandler,
	"panics":     panickingHandler,
	// issue 43's
	"closes-stdin":   bookDelivery, // closes stdin in init (below)
	"session-helper": sessionHelperHandler,
	// their second round: a helper started in init, orphaned at once
	"init-session-helper": bookDelivery, // (below)
	// issue 45's
	"dedup-in-memory": dedupInMemory,
}

// applied is dedupInMemory's memory, outside any store.
var applied = map[string]bool{}

// dedupInMemory deduplicates in a package-level map instead of the
// store, and calls out for every message it applies: a restart of a real
// consumer forgets the map; check's one process does not.
func dedupInMemory(d *harness.Delivery) error {
	key := d.Message().String()
	if !applied[key] {
		applied[key] = true
		if err := d.Notify(d.Message()); err != nil {
			return err
		}
		if err := d.NaiveApply(); err != nil {
			return err
		}
	}
	return d.Ack()
}

// In a child checking the closes-stdin student, package init closes
// stdin, as a correct handler may.
func init() {
	if os.Getenv(testStudentsEnv) == "closes-stdin" && os.Getenv(check.ChildEnv) == "1" {
		os.Stdin.Close()
	}
}

// In a child checking the init-session-helper student, package init
// starts a helper in a session of its own through a shell that exits at
// once: the helper is orphaned before main runs, so only a subreaper set
// before the student's init keeps it a descendant of the child.
func init() {
	if os.Getenv(testStudentsEnv) == "init-session-helper" && os.Getenv(check.ChildEnv) == "1" {
		exec.Command("sh", "-c", `(setsid sh -c 'echo $$ > "$`+pidFileEnv+`.tmp" && mv "$`+pidFileEnv+`.tmp" "$`+pidFileEnv+`" && exec sleep 60' &)`).Run()
	}
}

var helperOnce sync.Once

// sessionHelperHandler starts, once, a helper in a session of its own
// (out of the child's process group) that writes its pid where
// pidFileEnv says and sleeps a minute, and does not wait for it; then it
// is the book's.
func sessionHelperHandler(d *harness.Delivery) error {
	helperOnce.Do(func() {
		cmd := exec.Command("sh", "-c", `echo $$ > "$`+pidFileEnv+`.tmp" && mv "$`+pidFileEnv+`.tmp" "$`+pidFileEnv+`" && exec sleep 60`)
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		cmd.Start()
	})
	return bookDelivery(d)
}

// bookDelivery is the book's §8.2 handler.
func bookDelivery(d *harness.Delivery) error {
	if _, err := d.ApplyOnce(); err != nil {
		return err
	}
	if err := d.Notify(d.Message()); err != nil {
		return err
	}
	return d.Ack()
}

// pidFileEnv names the file grandchildHandler's grandchild writes its pid in.
const pidFileEnv = "ARCHLAB_TEST_PIDFILE"

// grandchildHandler starts `sleep 60` with its stderr inherited and waits
// for it: a child that never ends by itself, holding the child's stderr.
func grandchildHandler(d *harness.Delivery) error {
	cmd := exec.Command("sh", "-c", `echo $$ > "$`+pidFileEnv+`.tmp" && mv "$`+pidFileEnv+`.tmp" "$`+pidFileEnv+`" && exec sleep 60`)
	cmd.Stderr = os.Stderr
	cmd.Run()
	return bookDelivery(d)
}

// studentOut is os.Stdout as a package of the student's holds it: taken
// before main runs, so no later os.Stdout = ... moves it.
var studentOut = os.Stdout

// floodBytes is what floodingHandler prints: enough that a parent keeping
// it all grows by hundreds of MB, little enough to print in a second.
const floodBytes = 512 << 20

var floodOnce sync.Once

// floodingHandler prints floodBytes through studentOut once, then is the
// book's.
func floodingHandler(d *harness.Delivery) error {
	floodOnce.Do(func() {
		line := []byte(strings.Repeat("x", 1023) + "\n")
		buf := []byte(strings.Repeat(string(line), 64))
		for n := 0; n < floodBytes; n += len(buf) {
			studentOut.Write(buf)
		}
	})
	return bookDelivery(d)
}

// In a child checking the init-print student, package init prints, as a
// student's exercises package may.
func init() {
	if os.Getenv(testStudentsEnv) == "init-print" && os.Getenv(check.ChildEnv) == "1" {
		fmt.Println("exercises loaded")
	}
}

// studentLog is a logger a student's package makes on stdout.
var studentLog = log.New(os.Stdout, "student: ", 0)

// loggingHandler logs each delivery, then is the book's.
func loggingHandler(d *harness.Delivery) error {
	studentLog.Println("handling", d.Message())
	return bookDelivery(d)
}

// hogSink keeps hoggingHandler's memory alive.
var hogSink []byte

// hoggingHandler asks for 3 GB (never touched: on code without a memory
// limit it costs address space, not the machine's memory), then is the
// book's.
func hoggingHandler(d *harness.Delivery) error {
	if hogSink == nil {
		hogSink = make([]byte, 3<<30)
	}
	return bookDelivery(d)
}

var slowOnce sync.Once

// slowCPU is the CPU time slowHandler burns on its first call.
const slowCPU = 500 * time.Millisecond

// slowHandler burns slowCPU of its process's CPU time on its first call,
// then is the book's: code that is slow, not stuck; on a busy machine its
// wall time is several times that.
func slowHandler(d *harness.Delivery) error {
	slowOnce.Do(func() {
		start := cpuTime()
		for cpuTime()-start < slowCPU {
			for i := 0; i < 1e5; i++ {
			}
		}
	})
	return bookDelivery(d)
}

// cpuTime is this process's CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// loopingHandler never returns: it writes this process's pid where
// pidFileEnv says (when it says), then loops.
func loopingHandler(*harness.Delivery) error {
	if f := os.Getenv(pidFileEnv); f != "" {
		os.WriteFile(f+".tmp", []byte(fmt.Sprint(os.Getpid())), 0o644)
		os.Rename(f+".tmp", f)
	}
	for n := 0; ; n++ {
	}
}

// panickingHandler panics in a goroutine of its own, which no recover of
// the caller's can catch: Go ends the process with a dump of every
// goroutine.
func panickingHandler(*harness.Delivery) error {
	go func() { panic("boom in a goroutine") }()
	time.Sleep(time.Minute)
	return nil
}
