// Package brokertest holds what the broker adapters' tests share: that a
// drill left no goroutine behind.
package brokertest

import (
	"runtime"
	"strings"
	"testing"
	"time"
)

// NoGoroutineLeft fails t when, after f, more goroutines run than before
// it. Goroutines end a little after the Close that stops them, so it waits
// for the count to come down (polling the count, the event itself), for at
// most 5 s, and prints the survivors' stacks.
func NoGoroutineLeft(t *testing.T, f func()) {
	t.Helper()
	before := runtime.NumGoroutine()
	f()
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			buf = buf[:runtime.Stack(buf, true)]
			t.Fatalf("%d goroutines before, %d after:\n%s", before, runtime.NumGoroutine(), strings.TrimSpace(string(buf)))
		}
		runtime.Gosched()
		time.Sleep(time.Millisecond)
	}
}
