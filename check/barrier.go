package check

import (
	"math"
	"sync/atomic"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// A race's goroutines make their calls in step: each waits at every step
// for the others to reach it (runRace). While the others are close, a
// goroutine spins; once it has spun for spinFor, the others are as a
// rule without a CPU (a busy machine's scheduler gave theirs to another
// process), and it sleeps on a futex until the last one arrives and wakes
// it. The kernel runs a thread woken after a sleep ahead of the busy
// processes around it, so the goroutines are soon running side by side
// again: on a busy machine a race meets far more calls in full flight
// for the same time than it does spinning, which only holds a CPU while
// the others wait for one.
const spinFor = 50 * time.Microsecond

// sleeping is a step's bit that says a goroutine sleeps on it: the last
// to arrive wakes it. The rest of the step's value counts the goroutines
// that reached it.
const sleeping = 1 << 30

// arrive counts a goroutine in at step and returns once all n have.
func arrive(step *atomic.Int32, n int32) {
	if v := step.Add(1); v&^sleeping == n {
		if v&sleeping != 0 {
			futex(step, futexWake, math.MaxInt32)
		}
		return
	}
	from := time.Now()
	for spin := 0; ; spin++ {
		v := step.Load()
		if v&^sleeping >= n {
			return
		}
		if spin%64 != 63 || time.Since(from) < spinFor {
			continue
		}
		if v&sleeping != 0 || step.CompareAndSwap(v, v|sleeping) {
			// Sleeps unless the value moved on since (the last one
			// arrived): then it looks again.
			futex(step, futexWait, v|sleeping)
		}
	}
}

// futex(2)'s operations on a word of this process's own.
const (
	futexWait = 0 | 128 // FUTEX_WAIT | FUTEX_PRIVATE_FLAG
	futexWake = 1 | 128 // FUTEX_WAKE | FUTEX_PRIVATE_FLAG
)

// futex is the futex(2) call op on word, with val.
func futex(word *atomic.Int32, op int, val int32) {
	unix.Syscall6(unix.SYS_FUTEX, uintptr(unsafe.Pointer(word)), uintptr(op), uintptr(val), 0, 0, 0)
}
