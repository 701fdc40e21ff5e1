package check

import (
	"archlab/harness"
	"archlab/internal/inbox"
	"sync"
	"testing"
	"time"
)

func TestScratchLedgerModel(t *testing.T) {
	res, err := ledgerMachine.check(Book())
	if err != nil {
		t.Fatal(err)
	}
	if res.Run != nil {
		t.Fatalf("book differs: %+v", res.Run)
	}
	t.Logf("calls %d coverage %v", res.Calls, res.Coverage)
	for _, v := range wrong {
		if v.exercise != "ledger" {
			continue
		}
		res, err := ledgerMachine.check(v.students)
		if err != nil {
			t.Fatal(err)
		}
		if res.Run == nil {
			t.Errorf("%s: not caught", v.name)
			continue
		}
		t.Logf("%s: clause %s harm %s, %d calls", v.name, res.Run.Clause, res.Run.Harm, len(res.Run.Calls))
		for _, c := range res.Run.Calls {
			t.Logf("   %s  book %v yours %v", c.Text, c.Book, c.Yours)
		}
	}
}

func TestScratchModels(t *testing.T) {
	for _, m := range []*machine{projectionMachine, runnerMachine} {
		res, err := m.check(Book())
		if err != nil {
			t.Fatal(err)
		}
		if res.Run != nil {
			for _, c := range res.Run.Calls {
				t.Logf("   %s  book %v yours %v", c.Text, c.Book, c.Yours)
			}
			t.Fatalf("book differs: %+v", res.Run)
		}
		t.Logf("%s calls %d coverage %v", m.exercise, res.Calls, res.Coverage)
		for _, v := range wrong {
			if v.exercise != m.exercise {
				continue
			}
			res, err := m.check(v.students)
			if err != nil {
				t.Fatal(err)
			}
			if res.Run == nil {
				t.Errorf("%s: not caught", v.name)
				continue
			}
			t.Logf("%s: clause %s harm %s, %d calls", v.name, res.Run.Clause, res.Run.Harm, len(res.Run.Calls))
			for _, c := range res.Run.Calls {
				i := c.differs()
				if i >= 0 {
					t.Logf("   %s  differs at %s: book %s yours %s", c.Text, c.Book[i].What, c.Book[i].Value, c.Yours[i].Value)
				} else {
					t.Logf("   %s -> %s", c.Text, c.Book[0].Value)
				}
			}
		}
	}
}

type twoLockLedger struct {
	check, write sync.Mutex
	keys         sync.Map
	balances     map[string]int64
	applies      int
}

func (l *twoLockLedger) ApplyOnce(m inbox.Message) (bool, error) {
	key := inbox.DedupKey(m)
	l.check.Lock()
	_, dup := l.keys.Load(key)
	l.check.Unlock()
	if dup {
		return false, nil
	}
	l.write.Lock()
	defer l.write.Unlock()
	l.keys.Store(key, m.Seq)
	l.balances[m.OrderID] += m.AmountCents
	l.applies++
	return true, nil
}
func (l *twoLockLedger) Prune(maxSeq int64) int {
	l.write.Lock()
	defer l.write.Unlock()
	n := 0
	l.keys.Range(func(k, v any) bool {
		if v.(int64) <= maxSeq {
			l.keys.Delete(k)
			n++
		}
		return true
	})
	return n
}
func (l *twoLockLedger) Balance(o string) int64 {
	l.write.Lock()
	defer l.write.Unlock()
	return l.balances[o]
}
func (l *twoLockLedger) Applies() int { l.write.Lock(); defer l.write.Unlock(); return l.applies }

func TestScratchLinear(t *testing.T) {
	for _, m := range []*machine{ledgerMachine, projectionMachine, runnerMachine} {
		t0 := time.Now()
		res, err := m.linearizable(Book())
		if err != nil || res != nil {
			t.Fatalf("%s book: %v %+v", m.exercise, err, res)
		}
		t.Logf("%s book linearizable in %v", m.exercise, time.Since(t0))
	}
	t0 := time.Now()
	res, err := ledgerMachine.linearizable(&harness.Students{Ledger: func() harness.Ledger { return &twoLockLedger{balances: map[string]int64{}} }})
	t.Logf("two-lock: %v %+v in %v", err, res, time.Since(t0))
}
