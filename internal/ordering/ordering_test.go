package ordering

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"testing"

	"pgregory.net/rapid"
)

// ev builds an event of order orderID; the ID says which order and type, so
// failure messages and DLQ entries are readable.
func ev(orderID, typ string, version int64) Event {
	return Event{ID: orderID + "/" + typ, OrderID: orderID, Version: version, Type: typ}
}

// TestPartitionAffinity: every event of one order lands on one partition,
// and the orders still spread over all partitions.
func TestPartitionAffinity(t *testing.T) {
	const orders, partitions = 8, 4
	used := make(map[int]bool)
	stable := "yes"
	for i := 1; i <= orders; i++ {
		id := fmt.Sprintf("order-%d", i)
		first, second := Partition(id, partitions), Partition(id, partitions)
		if first < 0 || first >= partitions {
			t.Fatalf("Partition(%s) = %d, want [0, %d)", id, first, partitions)
		}
		if first != second {
			stable = "no"
		}
		used[first] = true
	}
	if stable != "yes" || len(used) != partitions {
		t.Fatalf("got used=%d stable=%s, want %d and yes", len(used), stable, partitions)
	}
	t.Logf("partition-affinity: orders=%d partitions=%d used=%d stable=%s", orders, partitions, len(used), stable)
}

// TestOutOfOrderRejectedThenConverges: pay (v2) overtakes reserve (v1); the
// projection refuses it as a conflict, and the redelivery applies.
func TestOutOfOrderRejectedThenConverges(t *testing.T) {
	p := NewProjection()
	c := NewConsumer(p, 3)
	reserve, pay := ev("o-1", "reserve", 1), ev("o-1", "pay", 2)
	attempts := 0
	steps := []struct {
		e       Event
		attempt int
		want    Outcome
	}{
		{pay, 1, OutcomeRetry},
		{reserve, 1, OutcomeApplied},
		{pay, 2, OutcomeApplied},
	}
	for _, s := range steps {
		attempts++
		if got := c.Handle(s.e, s.attempt); got != s.want {
			t.Fatalf("Handle(%s, %d) = %s, want %s", s.e, s.attempt, got, s.want)
		}
	}
	final, _ := p.Get("o-1")
	dlq := len(c.DLQ())
	if attempts != 3 || p.AppliedCount() != 2 || final.String() != "v2/PAID" || dlq != 0 {
		t.Fatalf("got attempts=%d applied=%d final=%s dlq=%d", attempts, p.AppliedCount(), final, dlq)
	}
	t.Logf("out-of-order: attempts=%d applied=%d final=%s dlq=%d", attempts, p.AppliedCount(), final, dlq)
}

// TestPoisonGoesStraightToDLQ: an event that can never apply is not retried;
// it is dead-lettered on its first delivery.
func TestPoisonGoesStraightToDLQ(t *testing.T) {
	p := NewProjection()
	c := NewConsumer(p, 3)
	events := []Event{ev("o-1", "refund", 1), ev("o-1", "pay", 5)}
	dead := 0
	for _, e := range events {
		if got := c.Handle(e, 1); got == OutcomeDead {
			dead++
		} else {
			t.Fatalf("Handle(%s, 1) = %s, want dead", e, got)
		}
	}
	dlq := c.DLQ()
	attempts := make([]string, len(dlq))
	for i, d := range dlq {
		if d.Attempts != 1 || !strings.Contains(d.Reason, ErrPoison.Error()) {
			t.Fatalf("DLQ[%d] = %+v, want attempt 1 and a poison reason", i, d)
		}
		attempts[i] = fmt.Sprint(d.Attempts)
	}
	if len(events) != 2 || dead != 2 || len(dlq) != 2 || p.AppliedCount() != 0 {
		t.Fatalf("got events=%d dead=%d dlq=%d applied=%d", len(events), dead, len(dlq), p.AppliedCount())
	}
	t.Logf("poison: events=%d dead=%d attempts=%s applied=%d", len(events), dead, strings.Join(attempts, "/"), p.AppliedCount())
}

// TestConflictExhaustsRetryBudget: reserve never arrives, so pay is retried
// until the budget runs out and then dead-lettered.
func TestConflictExhaustsRetryBudget(t *testing.T) {
	p := NewProjection()
	c := NewConsumer(p, 3)
	pay := ev("o-1", "pay", 2)
	attempts := 0
	var outcome Outcome
	for outcome = OutcomeRetry; outcome == OutcomeRetry; {
		attempts++
		outcome = c.Handle(pay, attempts)
	}
	dlq := c.DLQ()
	if attempts != c.MaxAttempts || outcome != OutcomeDead || p.AppliedCount() != 0 {
		t.Fatalf("got max=%d attempts=%d outcome=%s applied=%d", c.MaxAttempts, attempts, outcome, p.AppliedCount())
	}
	if len(dlq) != 1 || dlq[0].Attempts != 3 || !strings.Contains(dlq[0].Reason, ErrConflict.Error()) {
		t.Fatalf("DLQ = %+v, want one conflict entry at attempt 3", dlq)
	}
	t.Logf("retry-budget: max=%d attempts=%d outcome=%s applied=%d", c.MaxAttempts, attempts, outcome, p.AppliedCount())
}

// TestReconcileRepairsDeadLettered: pay was dead-lettered, so no replay of
// the stream can move the order past v1; the source of truth can.
func TestReconcileRepairsDeadLettered(t *testing.T) {
	p := NewProjection()
	// A budget of one delivery: the early pay dies instead of being retried.
	c := NewConsumer(p, 1)
	if got := c.Handle(ev("o-1", "pay", 2), 1); got != OutcomeDead {
		t.Fatalf("early pay = %s, want dead", got)
	}
	if got := c.Handle(ev("o-1", "reserve", 1), 1); got != OutcomeApplied {
		t.Fatalf("reserve = %s, want applied", got)
	}
	before, _ := p.Get("o-1")
	src := MapSource{"o-1": {Version: 2, Status: StatusPaid}}
	fixes := Reconcile(p, src, []string{"o-1"})
	after, _ := p.Get("o-1")
	dlq := len(c.DLQ())
	if before.String() != "v1/INVENTORY_RESERVED" || after.String() != "v2/PAID" || len(fixes) != 1 || dlq != 1 {
		t.Fatalf("got before=%s after=%s fixes=%d dlq=%d", before, after, len(fixes), dlq)
	}
	if want := (Fix{OrderID: "o-1", From: before, To: after}); fixes[0] != want {
		t.Fatalf("fix = %+v, want %+v", fixes[0], want)
	}
	t.Logf("reconcile: before=%s after=%s fixes=%d dlq=%d", before, after, len(fixes), dlq)
}

// TestReplayRebuildsProjection: a fresh projection replayed from offset 0
// matches the stream; a consumer that resumes from an older offset only
// re-reads duplicates and changes nothing.
func TestReplayRebuildsProjection(t *testing.T) {
	log := NewLog(
		ev("o-1", "reserve", 1),
		ev("o-2", "reserve", 1),
		ev("o-1", "pay", 2),
		ev("o-2", "pay", 2),
		ev("o-1", "fulfill", 3),
	)
	p := NewProjection()
	rebuilt, err := Replay(log, p, 0, 2)
	if err != nil {
		t.Fatalf("replay from 0: %v", err)
	}
	if rebuilt.Applied != 5 || rebuilt.Duplicates != 0 || rebuilt.Offset != log.Len() {
		t.Fatalf("replay from 0 = %+v, want 5 applied, 0 duplicates, offset %d", rebuilt, log.Len())
	}
	o1, _ := p.Get("o-1")
	o2, _ := p.Get("o-2")
	if o1.String() != "v3/FULFILLED" || o2.String() != "v2/PAID" {
		t.Fatalf("rebuilt o-1=%s o-2=%s, want v3/FULFILLED and v2/PAID", o1, o2)
	}

	// The consumer committed offset 3 before the last two events, then
	// restarted: those two come again.
	resumed, err := Replay(log, p, 3, 2)
	if err != nil {
		t.Fatalf("replay from 3: %v", err)
	}
	o1After, _ := p.Get("o-1")
	o2After, _ := p.Get("o-2")
	if o1After != o1 || o2After != o2 || p.AppliedCount() != rebuilt.Applied {
		t.Fatalf("duplicates changed the projection: o-1=%s o-2=%s applied=%d", o1After, o2After, p.AppliedCount())
	}
	if log.Len() != 5 || resumed.Applied != 0 || resumed.Duplicates != 2 || resumed.Offset != 5 {
		t.Fatalf("got events=%d resumed=%+v, want 0 applied, 2 duplicates, offset 5", log.Len(), resumed)
	}
	t.Logf("replay: events=%d rebuilt_applied=%d duplicates=%d offset=%d", log.Len(), rebuilt.Applied, resumed.Duplicates, resumed.Offset)
}

// TestNextBatchBounds: reads past the end and empty batches are errors; a
// read exactly at the end is a drained log, not an error.
func TestNextBatchBounds(t *testing.T) {
	log := NewLog(ev("o-1", "reserve", 1), ev("o-1", "pay", 2))
	outOfRange, zeroSize, drained := 0, 0, 0

	if _, next, err := log.NextBatch(log.Len()+1, 1); errors.Is(err, ErrOffsetOutOfRange) && next == log.Len()+1 {
		outOfRange++
	} else {
		t.Fatalf("NextBatch(len+1, 1): next=%d err=%v, want ErrOffsetOutOfRange", next, err)
	}
	if _, next, err := log.NextBatch(0, 0); errors.Is(err, ErrBatchSize) && next == 0 {
		zeroSize++
	} else {
		t.Fatalf("NextBatch(0, 0): next=%d err=%v, want ErrBatchSize", next, err)
	}
	if events, next, err := log.NextBatch(log.Len(), 1); err == nil && len(events) == 0 && next == log.Len() {
		drained++
	} else {
		t.Fatalf("NextBatch(len, 1) = %v, %d, %v; want no events, %d, nil", events, next, err, log.Len())
	}
	if outOfRange != 1 || zeroSize != 1 || drained != 1 {
		t.Fatalf("got out_of_range=%d zero_size=%d drained=%d", outOfRange, zeroSize, drained)
	}
	t.Logf("seek-bounds: out_of_range=%d zero_size=%d drained=%d", outOfRange, zeroSize, drained)
}

func TestApplyErrors(t *testing.T) {
	tests := []struct {
		name    string
		prior   []Event // applied first, must succeed
		e       Event
		want    error // nil means no error
		applied bool
	}{
		{"poison by type", nil, ev("o", "refund", 1), ErrPoison, false},
		{"poison by version", nil, ev("o", "pay", 5), ErrPoison, false},
		// A wrong version is poison even when it looks like a duplicate:
		// the type check comes before the order's current version.
		{"poison by version below current", []Event{ev("o", "reserve", 1), ev("o", "pay", 2)}, ev("o", "reserve", 0), ErrPoison, false},
		{"conflict skips a version", nil, ev("o", "pay", 2), ErrConflict, false},
		{"conflict skips two versions", nil, ev("o", "fulfill", 3), ErrConflict, false},
		{"duplicate", []Event{ev("o", "reserve", 1)}, ev("o", "reserve", 1), nil, false},
		{"older version", []Event{ev("o", "reserve", 1), ev("o", "pay", 2)}, ev("o", "reserve", 1), nil, false},
		{"next version", []Event{ev("o", "reserve", 1)}, ev("o", "pay", 2), nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := NewProjection()
			for _, e := range tt.prior {
				if ok, err := p.Apply(e); !ok || err != nil {
					t.Fatalf("prior Apply(%s) = %v, %v", e, ok, err)
				}
			}
			before, _ := p.Get("o")
			ok, err := p.Apply(tt.e)
			if ok != tt.applied || !errors.Is(err, tt.want) || (tt.want == nil) != (err == nil) {
				t.Fatalf("Apply(%s) = %v, %v; want %v, %v", tt.e, ok, err, tt.applied, tt.want)
			}
			// Only an applied event may move the row or the counter.
			after, _ := p.Get("o")
			if !ok && (after != before || p.AppliedCount() != len(tt.prior)) {
				t.Fatalf("rejected event moved the row %s -> %s, applied=%d", before, after, p.AppliedCount())
			}
		})
	}
}

func TestHandleOutcomes(t *testing.T) {
	tests := []struct {
		name    string
		budget  int
		prior   []Event
		e       Event
		attempt int
		want    Outcome
		dlq     int
	}{
		{"poison by type on attempt 1", 3, nil, ev("o", "refund", 1), 1, OutcomeDead, 1},
		{"poison by version on attempt 1", 3, nil, ev("o", "pay", 5), 1, OutcomeDead, 1},
		{"conflict inside budget", 3, nil, ev("o", "pay", 2), 2, OutcomeRetry, 0},
		{"conflict at budget", 3, nil, ev("o", "pay", 2), 3, OutcomeDead, 1},
		// A broker may count past the budget (another consumer retried it);
		// that is still exhausted, not a retry.
		{"conflict past budget", 3, nil, ev("o", "pay", 2), 7, OutcomeDead, 1},
		{"duplicate", 3, []Event{ev("o", "reserve", 1)}, ev("o", "reserve", 1), 1, OutcomeDuplicate, 0},
		{"applied", 3, []Event{ev("o", "reserve", 1)}, ev("o", "pay", 2), 1, OutcomeApplied, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := NewProjection()
			for _, e := range tt.prior {
				if _, err := p.Apply(e); err != nil {
					t.Fatal(err)
				}
			}
			c := NewConsumer(p, tt.budget)
			if got := c.Handle(tt.e, tt.attempt); got != tt.want {
				t.Fatalf("Handle(%s, %d) = %s, want %s", tt.e, tt.attempt, got, tt.want)
			}
			dlq := c.DLQ()
			if len(dlq) != tt.dlq {
				t.Fatalf("DLQ has %d entries, want %d", len(dlq), tt.dlq)
			}
			if tt.dlq == 1 && (dlq[0].Event != tt.e || dlq[0].Attempts != tt.attempt || dlq[0].Reason == "") {
				t.Fatalf("DLQ[0] = %+v, want %s at attempt %d with a reason", dlq[0], tt.e, tt.attempt)
			}
		})
	}
}

func TestNewConsumerBudget(t *testing.T) {
	tests := []struct {
		name       string
		maxAttempt int
		want       int
	}{
		{"zero means default", 0, 3},
		{"negative means default", -2, 3},
		{"one", 1, 1},
		{"explicit", 5, 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := NewConsumer(NewProjection(), tt.maxAttempt)
			if c.MaxAttempts != tt.want {
				t.Fatalf("MaxAttempts = %d, want %d", c.MaxAttempts, tt.want)
			}
			// The budget is what Handle enforces, not just a field.
			pay := ev("o", "pay", 2)
			for a := 1; a < tt.want; a++ {
				if got := c.Handle(pay, a); got != OutcomeRetry {
					t.Fatalf("attempt %d = %s, want retry", a, got)
				}
			}
			if got := c.Handle(pay, tt.want); got != OutcomeDead {
				t.Fatalf("attempt %d = %s, want dead", tt.want, got)
			}
		})
	}
}

func TestDLQIsACopy(t *testing.T) {
	c := NewConsumer(NewProjection(), 1)
	poison := ev("o", "refund", 1)
	c.Handle(poison, 1)

	got := c.DLQ()
	got[0].Event.ID = "tampered"
	got[0].Attempts = 99
	_ = append(got[:0], DLQEntry{Reason: "overwritten"})

	again := c.DLQ()
	if len(again) != 1 || again[0].Event != poison || again[0].Attempts != 1 {
		t.Fatalf("DLQ after caller edits = %+v, want the original entry", again)
	}
}

func TestReconcileCases(t *testing.T) {
	reserved := OrderState{Version: 1, Status: StatusReserved}
	paid := OrderState{Version: 2, Status: StatusPaid}
	tests := []struct {
		name    string
		prior   []Event
		src     MapSource
		ids     []string
		fixes   []Fix
		wantRow map[string]OrderState // rows after, absent key means no row
	}{
		{"row already matches", []Event{ev("o-1", "reserve", 1)}, MapSource{"o-1": reserved}, []string{"o-1"}, nil,
			map[string]OrderState{"o-1": reserved}},
		{"source does not know the order", []Event{ev("o-1", "reserve", 1)}, MapSource{}, []string{"o-1"}, nil,
			map[string]OrderState{"o-1": reserved}},
		{"order not asked for", []Event{ev("o-1", "reserve", 1)}, MapSource{"o-1": paid}, []string{"o-2"}, nil,
			map[string]OrderState{"o-1": reserved}},
		{"missing row is created", nil, MapSource{"o-1": paid}, []string{"o-1"},
			[]Fix{{OrderID: "o-1", To: paid}}, map[string]OrderState{"o-1": paid}},
		// The source of truth wins even when it is behind the projection.
		{"source behind projection", []Event{ev("o-1", "reserve", 1), ev("o-1", "pay", 2)}, MapSource{"o-1": reserved}, []string{"o-1"},
			[]Fix{{OrderID: "o-1", From: paid, To: reserved}}, map[string]OrderState{"o-1": reserved}},
		{"fixes come in the given order", []Event{ev("o-1", "reserve", 1), ev("o-2", "reserve", 1)},
			MapSource{"o-1": paid, "o-2": paid, "o-3": reserved}, []string{"o-2", "o-3", "o-1"},
			[]Fix{{"o-2", reserved, paid}, {"o-3", OrderState{}, reserved}, {"o-1", reserved, paid}},
			map[string]OrderState{"o-1": paid, "o-2": paid, "o-3": reserved}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := NewProjection()
			for _, e := range tt.prior {
				if _, err := p.Apply(e); err != nil {
					t.Fatal(err)
				}
			}
			fixes := Reconcile(p, tt.src, tt.ids)
			if fmt.Sprint(fixes) != fmt.Sprint(tt.fixes) {
				t.Fatalf("fixes = %+v, want %+v", fixes, tt.fixes)
			}
			for id, want := range tt.wantRow {
				if got, ok := p.Get(id); !ok || got != want {
					t.Fatalf("row %s = %s (exists %v), want %s", id, got, ok, want)
				}
			}
			// Repairs are not events: the applied counter stays with Apply.
			if p.AppliedCount() != len(tt.prior) {
				t.Fatalf("AppliedCount = %d, want %d", p.AppliedCount(), len(tt.prior))
			}
		})
	}
}

func TestPartitionNonPositive(t *testing.T) {
	for _, n := range []int{0, -1, math.MinInt} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			for _, id := range []string{"", "order-1", "order-2"} {
				if got := Partition(id, n); got != 0 {
					t.Fatalf("Partition(%q, %d) = %d, want 0", id, n, got)
				}
			}
		})
	}
}

func TestNextBatchCases(t *testing.T) {
	log := NewLog(
		ev("o-1", "reserve", 1), ev("o-1", "pay", 2), ev("o-1", "fulfill", 3),
		ev("o-2", "reserve", 1), ev("o-2", "pay", 2),
	)
	tests := []struct {
		name     string
		offset   int
		size     int
		wantIDs  []string
		wantNext int
		wantErr  error
	}{
		{"negative offset", -1, 2, nil, -1, ErrOffsetOutOfRange},
		{"offset len+1", 6, 2, nil, 6, ErrOffsetOutOfRange},
		{"size zero", 0, 0, nil, 0, ErrBatchSize},
		{"size negative", 2, -3, nil, 2, ErrBatchSize},
		// The offset is checked first, so a bad offset wins over a bad size.
		{"both bad", 9, 0, nil, 9, ErrOffsetOutOfRange},
		{"first batch", 0, 2, []string{"o-1/reserve", "o-1/pay"}, 2, nil},
		{"partial last batch", 4, 3, []string{"o-2/pay"}, 5, nil},
		{"exact last batch", 3, 2, []string{"o-2/reserve", "o-2/pay"}, 5, nil},
		{"drained", 5, 1, nil, 5, nil},
		// A huge size means "everything that is left", not an overflow.
		{"size MaxInt", 1, math.MaxInt, []string{"o-1/pay", "o-1/fulfill", "o-2/reserve", "o-2/pay"}, 5, nil},
		{"size MaxInt drained", 5, math.MaxInt, nil, 5, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			events, next, err := log.NextBatch(tt.offset, tt.size)
			if !errors.Is(err, tt.wantErr) || (tt.wantErr == nil) != (err == nil) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			var ids []string
			for _, e := range events {
				ids = append(ids, e.ID)
			}
			if fmt.Sprint(ids) != fmt.Sprint(tt.wantIDs) || next != tt.wantNext {
				t.Fatalf("NextBatch(%d, %d) = %v, %d; want %v, %d", tt.offset, tt.size, ids, next, tt.wantIDs, tt.wantNext)
			}
		})
	}
}

func TestNextBatchReturnsACopy(t *testing.T) {
	log := NewLog(ev("o-1", "reserve", 1))
	events, _, err := log.NextBatch(0, 1)
	if err != nil {
		t.Fatal(err)
	}
	events[0].Type = "refund"
	again, _, _ := log.NextBatch(0, 1)
	if again[0].Type != "reserve" {
		t.Fatalf("caller edit reached the log: %s", again[0])
	}
}

func TestReplayErrors(t *testing.T) {
	tests := []struct {
		name       string
		events     []Event
		offset     int
		batch      int
		wantErr    error
		wantResult ReplayResult
	}{
		// The poison event sits at offset 2; Offset stays on it so an
		// operator can skip or fix exactly that event.
		{"stops at poison", []Event{ev("o", "reserve", 1), ev("o", "reserve", 1), ev("o", "refund", 2), ev("o", "pay", 2)},
			0, 2, ErrPoison, ReplayResult{Applied: 1, Duplicates: 1, Offset: 2}},
		{"stops at conflict", []Event{ev("o", "pay", 2), ev("o", "reserve", 1)},
			0, 5, ErrConflict, ReplayResult{Offset: 0}},
		{"batch zero", []Event{ev("o", "reserve", 1)}, 0, 0, ErrBatchSize, ReplayResult{}},
		{"offset past end", []Event{ev("o", "reserve", 1)}, 2, 1, ErrOffsetOutOfRange, ReplayResult{Offset: 2}},
		{"negative offset", []Event{ev("o", "reserve", 1)}, -1, 1, ErrOffsetOutOfRange, ReplayResult{Offset: -1}},
		{"empty log", nil, 0, 1, nil, ReplayResult{}},
		{"batch of one", []Event{ev("o", "reserve", 1), ev("o", "pay", 2)}, 0, 1, nil, ReplayResult{Applied: 2, Offset: 2}},
		{"batch MaxInt", []Event{ev("o", "reserve", 1), ev("o", "pay", 2)}, 0, math.MaxInt, nil, ReplayResult{Applied: 2, Offset: 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Replay(NewLog(tt.events...), NewProjection(), tt.offset, tt.batch)
			if !errors.Is(err, tt.wantErr) || (tt.wantErr == nil) != (err == nil) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if got != tt.wantResult {
				t.Fatalf("result = %+v, want %+v", got, tt.wantResult)
			}
		})
	}
}

// TestConsumerConcurrentDuplicates: many goroutines redeliver the same
// in-order streams of many orders at once; each version applies exactly once
// and every order ends fulfilled.
func TestConsumerConcurrentDuplicates(t *testing.T) {
	const orders, workers = 40, 8
	p := NewProjection()
	c := NewConsumer(p, 3)
	types := []string{"reserve", "pay", "fulfill"}
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range orders {
				id := fmt.Sprint("o-", (i+w)%orders) // workers start at different orders
				for v, typ := range types {
					// Each worker delivers in order, so by the time it sends
					// version v it has seen v-1 applied: no conflict is possible.
					if got := c.Handle(ev(id, typ, int64(v+1)), 1); got != OutcomeApplied && got != OutcomeDuplicate {
						t.Errorf("Handle(%s v%d) = %s", id, v+1, got)
						return
					}
				}
			}
		}()
	}
	// Readers race the writers; -race checks Get and AppliedCount too.
	wg.Add(1)
	go func() {
		defer wg.Done()
		for range 100 {
			p.Get("o-0")
			p.AppliedCount()
			c.DLQ()
		}
	}()
	wg.Wait()
	for i := range orders {
		id := fmt.Sprint("o-", i)
		if got, _ := p.Get(id); got.String() != "v3/FULFILLED" {
			t.Fatalf("%s = %s, want v3/FULFILLED", id, got)
		}
	}
	if p.AppliedCount() != orders*len(types) || len(c.DLQ()) != 0 {
		t.Fatalf("applied=%d dlq=%d, want %d and 0", p.AppliedCount(), len(c.DLQ()), orders*len(types))
	}
}

// TestAnyDeliveryOrderConverges is the central claim of 8.3: whatever order
// one order's events arrive in, with duplicates, a consumer that requeues
// conflicts at the back applies each version exactly once, never moves the
// version backwards, and ends at v3/FULFILLED.
//
// The default budget of 3 is enough: between two attempts of one event the
// whole queue is handled once, and the queue always holds a copy of the next
// missing version, so each pass advances the order by at least one. An
// event of version v therefore conflicts at most v-1 = 2 times.
func TestAnyDeliveryOrderConverges(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		events := []Event{ev("o", "reserve", 1), ev("o", "pay", 2), ev("o", "fulfill", 3)}
		extra := rapid.SliceOfN(rapid.IntRange(0, 2), 0, 6).Draw(t, "duplicates")
		order := rapid.Permutation(append([]int{0, 1, 2}, extra...)).Draw(t, "delivery")

		type delivery struct {
			e       Event
			attempt int
		}
		queue := make([]delivery, len(order))
		for i, k := range order {
			queue[i] = delivery{events[k], 1}
		}
		p := NewProjection()
		c := NewConsumer(p, 0)
		appliedPerVersion := make(map[int64]int)
		var last int64
		for len(queue) > 0 {
			d := queue[0]
			queue = queue[1:]
			switch got := c.Handle(d.e, d.attempt); got {
			case OutcomeApplied:
				appliedPerVersion[d.e.Version]++
			case OutcomeRetry:
				queue = append(queue, delivery{d.e, d.attempt + 1})
			case OutcomeDead:
				t.Fatalf("%s died at attempt %d: %+v", d.e, d.attempt, c.DLQ())
			}
			row, _ := p.Get("o")
			if row.Version < last {
				t.Fatalf("version moved backwards: v%d -> v%d", last, row.Version)
			}
			last = row.Version
		}
		for v := int64(1); v <= 3; v++ {
			if appliedPerVersion[v] != 1 {
				t.Fatalf("version %d applied %d times, want once", v, appliedPerVersion[v])
			}
		}
		if row, _ := p.Get("o"); row.String() != "v3/FULFILLED" || p.AppliedCount() != 3 {
			t.Fatalf("final=%s applied=%d, want v3/FULFILLED and 3", row, p.AppliedCount())
		}
	})
}
