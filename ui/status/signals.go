package status

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"sync"
	"syscall"
)

// signalCause is the cause of a context that a signal cancelled.
type signalCause struct{ sig syscall.Signal }

func (c *signalCause) Error() string { return "stopped by " + c.sig.String() }

// SignalContext is a context that SIGINT, SIGTERM or SIGHUP cancels, with
// the signal as its cause, so the run can stop cleanly (kill and wait for
// its consumer process, remove its temporary files, release the database)
// and then exit with the shell's 128+signal status: 130 for Ctrl-C, 143 for
// a kill. signal.Notify also takes SIGINT back from a script that started
// archlab with it ignored, so explore can always be interrupted.
func SignalContext(parent context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(parent)
	ch := make(chan os.Signal, 1)
	// Notify takes the signals in order, and SIGINT last: until it does,
	// the runtime's own handler would end the process at a SIGTERM. A
	// process started with SIGINT ignored shows SIGINT caught (SigCgt in
	// /proc/PID/status) only from here on, so that is when every signal
	// is ours (TestExploreInterruptible waits for it).
	signal.Notify(ch, syscall.SIGTERM, syscall.SIGHUP, os.Interrupt)
	done := make(chan struct{})
	go func() {
		select {
		case s := <-ch:
			if sig, ok := s.(syscall.Signal); ok {
				cancel(&signalCause{sig})
			} else {
				cancel(&signalCause{syscall.SIGINT})
			}
		case <-done:
		}
	}()
	var once sync.Once
	return ctx, func() {
		once.Do(func() {
			signal.Stop(ch)
			close(done)
			cancel(nil)
		})
	}
}

// SignalStatus is the exit status of a run that ctx's signal stopped:
// 128+signal, 130 when the cause is not known.
func SignalStatus(ctx context.Context) int {
	var c *signalCause
	if errors.As(context.Cause(ctx), &c) {
		return 128 + int(c.sig)
	}
	return Interrupted130
}

// StoppedBySignal reports whether ctx was cancelled by a signal.
func StoppedBySignal(ctx context.Context) bool {
	var c *signalCause
	return errors.As(context.Cause(ctx), &c)
}
