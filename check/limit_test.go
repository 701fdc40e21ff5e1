package check

import (
	"bytes"
	"encoding/gob"
	"errors"
	"fmt"
	"testing"
)

// A child the machine refused a thread is "could not run", whatever it
// was running: never not done (a race named for right code), never the
// code's failure.
func TestMachineLimitIsNoVerdict(t *testing.T) {
	t.Parallel()
	e, err := Lookup("ledger")
	if err != nil {
		t.Fatal(err)
	}
	var note bytes.Buffer
	gob.NewEncoder(&note).Encode(&wire{Exercise: e.Name, Racing: "m1 ‖ m1"})
	for _, last := range []string{
		"runtime/cgo: pthread_create failed: Resource temporarily unavailable",
		"fatal error: newosproc",
	} {
		for _, racing := range []bool{false, true} {
			t.Run(fmt.Sprint(last, racing), func(t *testing.T) {
				p := &Printed{}
				fmt.Fprintln(p.stream(true), last)
				fmt.Fprintln(p.stream(true), "SIGABRT: abort")
				run := &ChildRun{Printed: p}
				if racing {
					run.Result = note.Bytes()
				}
				r := childResult(e, run, 0)
				var limit *LimitError
				if r.Status != Failed || !errors.As(r.Err, &limit) || r.Race != nil || r.Mistake != "" {
					t.Errorf("got %s, %v, race %v, mistake %q; want a LimitError and no verdict", r.Status, r.Err, r.Race, r.Mistake)
				}
			})
		}
	}
}
