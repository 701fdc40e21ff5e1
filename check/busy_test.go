package check

import (
	"context"
	"encoding/gob"
	"io"
	"sync/atomic"
	"testing"
	"time"

	"archlab/harness"
	"archlab/i18n"
	"archlab/internal/inbox"
)

// When a child's time runs out while its race's rounds still finish, the
// machine was too busy for the race (its goroutines rarely ran at once),
// and the answer is "too busy", never a hang; a round that stopped in the
// student's code is a hang, with the race as where. On CI's busy machine
// a right ledger read as "did not finish within 10.0s".
func TestTimeUpInARace(t *testing.T) {
	if raceOn {
		t.Skip("a clock test: under the race detector a round of the short races takes longer than the stopped case waits")
	}
	defer func(was time.Duration) { stuckRound = was }(stuckRound)
	stuckRound = 300 * time.Millisecond
	for _, c := range []struct {
		name  string
		stops bool          // the code stops for good in the race
		wait  time.Duration // from the race's start to the time's end
	}{
		{"slow", false, 100 * time.Millisecond},
		{"stopped", true, time.Second},
	} {
		t.Run(c.name, func(t *testing.T) {
			release := make(chan struct{})
			defer close(release)
			w := serveUntil(t, overlapLedger(c.stops, release), c.wait)
			switch {
			case !c.stops && (w.Status != Failed || w.Err != ErrTooBusy.Error()):
				t.Errorf("status %s, error %q; want too busy", w.Status, w.Err)
			case c.stops && (w.Status != Hung || w.Hang == nil || w.Hang.Where == ""):
				t.Errorf("status %s, hang %+v; want hung in the race", w.Status, w.Hang)
			}
		})
	}
}

// overlapLedger is a right ledger written apart from the book's, but a call made while another runs
// waits 2 ms (a busy machine's slow round) or, if stops, until release.
func overlapLedger(stops bool, release chan struct{}) *harness.Students {
	right := ledger2(ledgerFlaws{}).Ledger
	return &harness.Students{Ledger: func() harness.Ledger {
		return &slowLedger{Ledger: right(), stops: stops, release: release}
	}}
}

type slowLedger struct {
	harness.Ledger
	in      atomic.Int32
	stops   bool
	release chan struct{}
}

func (l *slowLedger) ApplyOnce(m inbox.Message) (bool, error) {
	if l.in.Add(1) > 1 {
		if l.stops {
			<-l.release
		} else {
			time.Sleep(2 * time.Millisecond)
		}
	}
	defer l.in.Add(-1)
	return l.Ledger.ApplyOnce(m)
}

// serveUntil serves the ledger exercise on s as a child does, ends its
// time wait after its first race began, and returns its answer.
func serveUntil(t *testing.T, s *harness.Students, wait time.Duration) *wire {
	t.Helper()
	e, err := Lookup("ledger")
	if err != nil {
		t.Fatal(err)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	go Serve(context.Background(), e.Name, i18n.EN, s, inR, outW)
	dec := gob.NewDecoder(outR)
	for {
		var next wire
		if err := dec.Decode(&next); err != nil {
			t.Fatal(err)
		}
		if next.Racing != "" {
			break
		}
		if next.Status != "" {
			t.Fatalf("answered %s before any race", next.Status)
		}
	}
	time.Sleep(wait)
	inW.Close()
	for {
		var next wire
		if err := dec.Decode(&next); err != nil {
			t.Fatal(err)
		}
		if next.Status != "" {
			go io.Copy(io.Discard, outR) // the run goes on until its end
			return &next
		}
	}
}
