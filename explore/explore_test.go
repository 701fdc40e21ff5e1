package explore

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	"archlab/harness"
	"archlab/i18n"
)

var ctx = context.Background()

// counts returns a strategy's violations by invariant name.
func counts(s Strategy) map[string]uint64 {
	m := map[string]uint64{}
	for _, v := range s.Violations {
		m[v.Name] = v.N
	}
	return m
}

func strategy(t *testing.T, rep *Report, name string) Strategy {
	t.Helper()
	for _, s := range rep.Strategies {
		if s.Name == name {
			return s
		}
	}
	t.Fatalf("%s has no strategy %q", rep.Mechanism, name)
	return Strategy{}
}

// TestDefaultVerdicts: the default scopes give the book's verdicts, each
// unsafe design broken the way the book says (naive and early-prune double,
// mark-before-effect loses, retry alone diverges, a late fence lets the
// zombie in), with the exact schedule counts docs/explore.md prints.
func TestDefaultVerdicts(t *testing.T) {
	inbox, err := Inbox(ctx, DefaultInbox, Options{})
	if err != nil {
		t.Fatal(err)
	}
	ordering, err := Ordering(ctx, DefaultOrdering, Options{})
	if err != nil {
		t.Fatal(err)
	}
	shard, err := Shardjob(ctx, DefaultShardjob, Options{})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		rep       *Report
		schedules uint64
		strategy  string
		want      map[string]uint64 // exact violations per invariant
	}{
		{inbox, 4272, "naive", map[string]uint64{"lost": 0, "doubled": 3594}},
		{inbox, 4272, "mark-before-effect", map[string]uint64{"lost": 1314, "doubled": 0}},
		{inbox, 4272, "effect-then-ack", map[string]uint64{"lost": 0, "doubled": 0}},
		{inbox, 4272, "early-prune", map[string]uint64{"lost": 0, "doubled": 2490}},
		{ordering, 576, "retry-then-reconcile", map[string]uint64{"moved-back": 0, "applied-twice": 0, "diverged": 0, "duplicate-refused": 0}},
		{ordering, 576, "retry-only", map[string]uint64{"moved-back": 0, "applied-twice": 0, "diverged": 141, "duplicate-refused": 0}},
		{shard, 13539, "fence-at-takeover", map[string]uint64{"not-exactly-once": 0, "replay-mismatch": 0, "moved-back": 0, "zombie-moved": 0}},
		{shard, 13539, "fence-at-first-commit", map[string]uint64{"not-exactly-once": 0, "replay-mismatch": 0, "moved-back": 103, "zombie-moved": 2458}},
	}
	for _, tt := range tests {
		t.Run(tt.rep.Mechanism+"/"+tt.strategy, func(t *testing.T) {
			s := strategy(t, tt.rep, tt.strategy)
			if tt.rep.Schedules != tt.schedules || tt.rep.Space != tt.schedules || s.Schedules != tt.schedules {
				t.Fatalf("schedules: report %d of %d, strategy %d; want %d", tt.rep.Schedules, tt.rep.Space, s.Schedules, tt.schedules)
			}
			if got := counts(s); !mapsEqual(got, tt.want) {
				t.Fatalf("violations %v, want %v", got, tt.want)
			}
			if s.Verdict != AsTheBook {
				t.Fatalf("verdict %s", s.Verdict)
			}
			if (s.Shortest == nil) != s.Safe {
				t.Fatalf("safe=%v but shortest=%v", s.Safe, s.Shortest)
			}
			t.Logf("%s: schedules=%d violations=%v verdict=%s", s.Name, s.Schedules, counts(s), s.Verdict)
		})
	}
	for _, rep := range []*Report{inbox, ordering, shard} {
		if !rep.Pass() {
			t.Errorf("%s does not pass", rep.Mechanism)
		}
	}
}

func mapsEqual(a, b map[string]uint64) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// TestRetryBudgetTable: a bigger budget converges more orders by retry
// alone, and a budget of 3 (one per version) needs no reconciliation.
func TestRetryBudgetTable(t *testing.T) {
	rep, err := Ordering(ctx, DefaultOrdering, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []Budget{
		{MaxAttempts: 1, Schedules: 192, ByRetry: 61, Reconciled: 131, Deliveries: 912},
		{MaxAttempts: 2, Schedules: 192, ByRetry: 182, Reconciled: 10, Deliveries: 1272},
		{MaxAttempts: 3, Schedules: 192, ByRetry: 192, Reconciled: 0, Deliveries: 1302},
	}
	if !slices.Equal(rep.Budgets, want) {
		t.Fatalf("budgets\n got %v\nwant %v", rep.Budgets, want)
	}
}

// TestReplayCost: the rerun after a crash at K replays (K-1) mod C + 1
// items, so the mean over K grows with the commit interval while the commits
// of a clean run fall: the trade-off the chart draws.
func TestReplayCost(t *testing.T) {
	const n = 30
	rep, err := Shardjob(ctx, ShardjobScope{Keys: n}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Replay) != n {
		t.Fatalf("%d points, want %d", len(rep.Replay), n)
	}
	for _, p := range rep.Replay {
		c := p.CommitEvery
		var sum uint64
		for k := 1; k <= n; k++ {
			sum += uint64((k-1)%c + 1)
		}
		if p.Commits != (n+c-1)/c || p.Crashes != n || p.ReplaySum != sum || p.ReplayMax != min(c, n) {
			t.Fatalf("C=%d: got %+v, want commits=%d crashes=%d replay_sum=%d replay_max=%d", c, p, (n+c-1)/c, n, sum, min(c, n))
		}
	}
}

// inboxClosedForm is the number of inbox schedules, derived without the
// enumeration, from what the table's rows do: N! orders in which the
// messages are first acked, each ack a plain delivery or one of the S
// faults that settle a message (a duplicate), and the other faults placed
// among the acks. A fault after s acks is one of the U faults that leave a
// message unacked, on one of the N-s unacked messages, or one of the R
// faults of an acked one: w_s = U(N-s) + Rs ways. Placing k such faults in
// the N+1 gaps, in order, weighs the complete homogeneous polynomial
// h_k(w_0, …, w_N); j settling faults among the N acks weigh C(N, j) S^j;
// j + k <= F.
func inboxClosedForm(n, f int) uint64 {
	var u, settle, r uint64
	for _, row := range harness.InboxFaults {
		switch {
		case !row.Fault(), row.Extra, row.AtCalls(): // the rows beyond the book's are no default scope's
		case row.On == harness.Acked:
			r++
		case row.Settles():
			settle++
		default:
			u++
		}
	}
	w := make([]uint64, n+1)
	for s := range w {
		w[s] = u*uint64(n-s) + r*uint64(s)
	}
	// h[k] over the first i weights, by h_k(w_0..w_i) = h_k(w_0..w_{i-1}) + w_i h_{k-1}(w_0..w_i).
	h := make([]uint64, f+1)
	h[0] = 1
	for _, wi := range w {
		for k := 1; k <= f; k++ {
			h[k] += wi * h[k-1]
		}
	}
	var sum uint64
	binom, pow := uint64(1), uint64(1) // C(n, j), settle^j
	for j := 0; j <= min(n, f); j++ {
		for k := 0; k <= f-j; k++ {
			sum += binom * pow * h[k]
		}
		binom = binom * uint64(n-j) / uint64(j+1)
		pow *= settle
	}
	return factorial(n) * sum
}

// TestInboxScheduleCount: the enumeration yields exactly the closed-form
// number of schedules, all distinct, so it neither misses nor repeats one;
// and the engine's own count agrees.
func TestInboxScheduleCount(t *testing.T) {
	tests := []struct {
		n, f int
		want uint64 // the closed form, spelled out for the smallest scopes
	}{
		{1, 1, 7},    // ok; 4 faults then ok; ok then replay; duplicate
		{2, 1, 36},   // 2! * (1 + 8+5+2 + 2 duplicates)
		{3, 2, 4272}, // the default scope
		{2, 3, 0},
		{4, 2, 0},
	}
	for _, tt := range tests {
		want := inboxClosedForm(tt.n, tt.f)
		if tt.want != 0 && tt.want != want {
			t.Fatalf("closed form (%d, %d) = %d, spelled out %d", tt.n, tt.f, want, tt.want)
		}
		sp := newInboxSpace(InboxScope{Messages: tt.n, Faults: tt.f})
		seen := map[string]bool{}
		var got uint64
		sp.each(func(s inboxSchedule) bool {
			got++
			seen[s.String()] = true
			return true
		})
		if got != want || uint64(len(seen)) != want || sp.size() != want {
			t.Errorf("messages=%d faults=%d: enumerated %d (%d distinct), size %d, closed form %d", tt.n, tt.f, got, len(seen), sp.size(), want)
		}
	}
}

// TestOrderingAndShardjobCounts: the other two spaces against their own
// closed forms.
func TestOrderingAndShardjobCounts(t *testing.T) {
	// Orders of the multiset {r, p, f} plus d duplicates: (3+d)! / prod(c!)
	// summed over how the duplicates fall; the default scope per budget is
	// 6 + 3*12 + (3*20 + 3*30) = 192.
	sp := newOrderingSpace(DefaultOrdering)
	var got uint64
	seen := map[string]bool{}
	sp.each(func(s orderingSchedule) bool { got++; seen[s.String()] = true; return true })
	if got != 3*192 || len(seen) != 3*192 || sp.size() != 3*192 {
		t.Fatalf("ordering: enumerated %d (%d distinct), size %d, want 576", got, len(seen), sp.size())
	}
	// A shard of n keys: per commit interval C, one clean run plus, per
	// stop of the first worker, each of the three zombies at one step
	// before the rerun's commits and one after each of them. The stops: a
	// crash after each of its n items (the rerun resumes at the last
	// multiple of C below it), after each of its n/C+1 commits (at J·C, or
	// n after the last), after its one load (at 0).
	if got := harness.ShardZombies(true); len(got) != 3 {
		t.Fatalf("the scope's zombies are %v, this count knows three", got)
	}
	if got := harness.ShardStops(true); len(got) != 3 {
		t.Fatalf("the scope's stops are %v, this count knows three", got)
	}
	for _, n := range []int{1, 2, 3, 7, 30} {
		var want uint64
		rerun := func(resume, c int) uint64 { return 3 * uint64(int(math.Ceil(float64(n-resume)/float64(c)))+1) }
		for c := 1; c <= n; c++ {
			want++
			for k := 1; k <= n; k++ {
				want += rerun((k-1)/c*c, c)
			}
			for j := 1; j <= n/c+1; j++ {
				want += rerun(min(j*c, n), c)
			}
			want += rerun(0, c)
		}
		sp := newShardSpace(ShardjobScope{Keys: n})
		var got uint64
		sp.each(func(shardSchedule) bool { got++; return true })
		if got != want || sp.size() != want {
			t.Fatalf("shardjob keys=%d: enumerated %d, size %d, want %d", n, got, sp.size(), want)
		}
	}
}

// TestMarkBeforeEffectShortestIsCrashBetweenMarkAndEffect: the shortest
// schedule that breaks mark-before-effect crashes it between mark and
// effect, and its trace shows the key marked, the crash, then the
// redelivery dropped as a duplicate.
func TestMarkBeforeEffectShortestIsCrashBetweenMarkAndEffect(t *testing.T) {
	rep, err := Inbox(ctx, DefaultInbox, Options{})
	if err != nil {
		t.Fatal(err)
	}
	ce := strategy(t, rep, "mark-before-effect").Shortest
	if ce == nil {
		t.Fatal("no counterexample")
	}
	if want := "m1 ok, m2 ok, m3 crash-mid, m3 ok ⇒ m3 lost"; ce.Line(i18n.EN) != want || ce.Length != 4 {
		t.Fatalf("shortest = %q (%d deliveries), want %q", ce.Line(i18n.EN), ce.Length, want)
	}
	steps, err := ce.Trace()
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, s := range steps {
		keys = append(keys, s.Action.Key+">"+s.Result.Key)
	}
	trace := strings.Join(keys, " ")
	for _, want := range []string{
		"step.mark>res.marked step.crash-before-effect>res.crashed",
		"step.deliver>res.received step.mark>res.taken-for-duplicate",
		"explore.step.effects-of>explore.res.lost",
	} {
		if !strings.Contains(trace, want) {
			t.Fatalf("trace lacks %q:\n%s", want, trace)
		}
	}
	// The harm is named where it happened, in a phase of its own (no
	// fault struck the redelivery); the verdict reads the loss back as bad.
	if last := steps[len(steps)-1]; last.Phase != harness.Verdict || last.Tone != harness.Bad {
		t.Fatalf("last step %+v, want the loss read back in the verdict", last)
	}
	for _, s := range steps {
		if s.Result.Key == "res.taken-for-duplicate" && (s.Phase != harness.Damage || s.Tone != harness.Harm) {
			t.Fatalf("the duplicate taken for a handled message: %+v, want the harm in the damage phase", s)
		}
	}
}

// TestDeterministicAcrossWorkers: one worker or four, enumerated or sampled,
// the report is the same.
func TestDeterministicAcrossWorkers(t *testing.T) {
	type run func(Options) (*Report, error)
	runs := map[string]run{
		"inbox": func(o Options) (*Report, error) { return Inbox(ctx, InboxScope{Messages: 3, Faults: 3}, o) },
		"ordering": func(o Options) (*Report, error) {
			return Ordering(ctx, OrderingScope{Duplicates: 2, Poison: true, MaxAttempts: 3}, o)
		},
		"shardjob": func(o Options) (*Report, error) { return Shardjob(ctx, ShardjobScope{Keys: 20}, o) },
		"inbox-sampled": func(o Options) (*Report, error) {
			o.Samples, o.Seed = 5000, 42
			return Inbox(ctx, InboxScope{Messages: 6, Faults: 4}, o)
		},
		"shardjob-sampled": func(o Options) (*Report, error) {
			o.Samples, o.Seed = 2000, 7
			return Shardjob(ctx, ShardjobScope{Keys: 300}, o)
		},
	}
	for name, run := range runs {
		t.Run(name, func(t *testing.T) {
			one, err := run(Options{Workers: 1})
			if err != nil {
				t.Fatal(err)
			}
			four, err := run(Options{Workers: 4})
			if err != nil {
				t.Fatal(err)
			}
			if a, b := fingerprint(one), fingerprint(four); a != b {
				t.Fatalf("1 worker:\n%s\n4 workers:\n%s", a, b)
			}
		})
	}
}

// fingerprint is every result of a report as text.
func fingerprint(r *Report) string {
	var b strings.Builder
	b.WriteString(strings.Join([]string{r.Mechanism, r.Section}, " "))
	for _, s := range r.Strategies {
		line := "-"
		if s.Shortest != nil {
			line = s.Shortest.Line(i18n.EN) + " #" + strings.Join(s.Shortest.Broken, ",") +
				" " + itoa(uint64(s.Shortest.Length)) + " " + itoa(s.Shortest.Index)
		}
		b.WriteString("\n" + s.Name + " " + itoa(s.Schedules) + " " + itoa(s.Broken) + " " + string(s.Verdict) + " " + line)
		for _, v := range s.Violations {
			b.WriteString(" " + v.Name + "=" + itoa(v.N))
		}
	}
	for _, x := range r.Budgets {
		b.WriteString("\n" + itoa(uint64(x.MaxAttempts)) + " " + itoa(x.ByRetry) + " " + itoa(x.Reconciled) + " " + itoa(x.Deliveries))
	}
	for _, p := range r.Replay {
		b.WriteString("\n" + itoa(uint64(p.CommitEvery)) + " " + itoa(uint64(p.Commits+1)) + " " + itoa(p.Crashes) + " " + itoa(p.ReplaySum) + " " + itoa(uint64(p.ReplayMax)))
	}
	return b.String()
}

func itoa(n uint64) string {
	if n == 0 {
		return "0"
	}
	var d []byte
	for ; n > 0; n /= 10 {
		d = append([]byte{byte('0' + n%10)}, d...)
	}
	return string(d)
}

// TestSamplesAreSchedules: every sampled schedule is one the enumeration
// yields, and a seed always draws the same ones.
func TestSamplesAreSchedules(t *testing.T) {
	sp := newInboxSpace(InboxScope{Messages: 2, Faults: 2})
	all := map[string]bool{}
	sp.each(func(s inboxSchedule) bool { all[s.String()] = true; return true })
	osp := newOrderingSpace(OrderingScope{Duplicates: 2, Poison: true, MaxAttempts: 2})
	oall := map[string]bool{}
	osp.each(func(s orderingSchedule) bool { oall[s.String()] = true; return true })
	ssp := newShardSpace(ShardjobScope{Keys: 9})
	sall := map[shardSchedule]bool{}
	ssp.each(func(s shardSchedule) bool { sall[s] = true; return true })

	// One worker records which schedules the sample hit; three only check
	// membership, reading the maps concurrently.
	hits := map[string]bool{}
	for _, o := range []Options{{Samples: 4000, Seed: 1, Workers: 1}, {Samples: 4000, Seed: 2, Workers: 3}} {
		record := o.Workers == 1
		_, _, err := walk(ctx, sp, sp.size(), o, func() *sampleCheck[inboxSchedule] {
			return &sampleCheck[inboxSchedule]{ok: func(s *inboxSchedule) bool {
				if record {
					hits[s.String()] = true
				}
				return all[s.String()]
			}}
		})
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = walk(ctx, osp, osp.size(), o, func() *sampleCheck[orderingSchedule] {
			return &sampleCheck[orderingSchedule]{ok: func(s *orderingSchedule) bool { return oall[s.String()] }}
		})
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = walk(ctx, ssp, ssp.size(), o, func() *sampleCheck[shardSchedule] {
			return &sampleCheck[shardSchedule]{ok: func(s *shardSchedule) bool { return sall[*s] }}
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	// 4000 uniform draws from 2 * (1 + 8+5 + …) schedules reach most of them.
	if len(hits) < len(all)*3/4 {
		t.Fatalf("4000 samples hit %d of %d schedules", len(hits), len(all))
	}
}

// sampleCheck fails on a schedule ok rejects.
type sampleCheck[S any] struct{ ok func(*S) bool }

func (c *sampleCheck[S]) add(_ uint64, s *S) error {
	if !c.ok(s) {
		return errors.New("sampled a schedule the enumeration does not have")
	}
	return nil
}

func (c *sampleCheck[S]) merge(*sampleCheck[S]) {}

// TestInboxBrokerAgrees runs every default schedule with the broker's view
// (MemoryAck.Acked) checked at every delivery: the schedule's idea of what
// is acked is the ack store's, for every strategy.
func TestInboxBrokerAgrees(t *testing.T) {
	sp := newInboxSpace(DefaultInbox)
	sp.paranoid = true
	sp.each(func(s inboxSchedule) bool {
		for _, k := range harness.InboxStrategies {
			if _, err := sp.run(k, &s, nil, nil); err != nil {
				t.Fatal(err)
			}
		}
		return true
	})
}

// TestScopeErrors: bad flags are ScopeErrors wrapping ErrRange, with the
// bounds, and a scope too large to enumerate says so unless it is sampled.
func TestScopeErrors(t *testing.T) {
	var pe *ScopeError
	if _, err := Inbox(ctx, InboxScope{Messages: 0, Faults: 2}, Options{}); !errors.Is(err, ErrRange) || !errors.As(err, &pe) || pe.Flag != "messages" || pe.Min != 1 || pe.Max != MaxInboxMessages {
		t.Fatalf("messages=0: %v", err)
	}
	if _, err := Ordering(ctx, OrderingScope{Duplicates: 7, MaxAttempts: 3}, Options{}); !errors.As(err, &pe) || pe.Flag != "duplicates" {
		t.Fatalf("duplicates=7: %v", err)
	}
	if _, err := Shardjob(ctx, ShardjobScope{Keys: MaxShardjobKeys + 1}, Options{}); !errors.As(err, &pe) || pe.Flag != "keys" {
		t.Fatalf("keys too many: %v", err)
	}
	_, err := Inbox(ctx, InboxScope{Messages: 8, Faults: 6}, Options{Engine: EngineEnumerate})
	var se *ScopeError
	if !errors.Is(err, ErrTooLarge) || !errors.As(err, &se) || se.Schedules <= EnumerateLimit {
		t.Fatalf("8 messages, 6 faults: %v", err)
	}
	rep, err := Inbox(ctx, InboxScope{Messages: 8, Faults: 6}, Options{Samples: 200, Seed: 3})
	if err != nil || rep.Schedules != 200 || !rep.Sampled || rep.Space != se.Schedules {
		t.Fatalf("sampled: %v %+v", err, rep)
	}
}

// TestCancel: a cancelled context stops the walk with its error.
func TestCancel(t *testing.T) {
	c, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := Inbox(c, DefaultInbox, Options{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
}

// TestOutsideCallsAsTheScheduleSays: with --notify, the explorer counts
// for each strategy the schedules where m1's call outside the store was
// made twice or more, and never (issue 33, point 4). The oracle reads the
// schedule alone: every copy of m1 handed over calls once unless the
// consumer dies before its ack (the call comes right before it), whatever
// the strategy does with the payment. The verdicts and violations are the
// scope's without --notify: the call is no invariant of the book's.
func TestOutsideCallsAsTheScheduleSays(t *testing.T) {
	plain, err := Inbox(context.Background(), DefaultInbox, Options{Engine: EngineEnumerate})
	if err != nil {
		t.Fatal(err)
	}
	sc := DefaultInbox
	sc.Notify = true
	rep, err := Inbox(context.Background(), sc, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var want OutsideCalls
	newInboxSpace(DefaultInbox).each(func(s inboxSchedule) bool {
		calls := 0
		for _, st := range s.steps[:s.n] {
			if row := st.what.row(); st.msg == 0 && (row.Crash == "" || row.Crash == harness.AfterAck) {
				calls += max(row.Copies, 1)
			}
		}
		want.count(calls)
		return true
	})
	if want.Repeated == 0 {
		t.Fatal("the oracle found no schedule that repeats the call")
	}
	for k, st := range rep.Strategies {
		if st.Outside == nil || *st.Outside != want {
			t.Errorf("%s: outside %+v, want %+v", st.Name, st.Outside, want)
		}
		if p := plain.Strategies[k]; p.Outside != nil || fmt.Sprint(p.Violations) != fmt.Sprint(st.Violations) || p.Verdict != st.Verdict {
			t.Errorf("%s: --notify changed the verdict: %v %v, without it %v %v (outside %v)", st.Name, st.Violations, st.Verdict, p.Violations, p.Verdict, p.Outside)
		}
	}
}

// TestDocsListTheInvariants: docs/explore.md's table of the scopes names
// every invariant each explorer checks, in its order (duplicate-refused
// was missing from ordering's row, issue 42).
func TestDocsListTheInvariants(t *testing.T) {
	doc, err := os.ReadFile("../docs/explore.md")
	if err != nil {
		t.Fatal(err)
	}
	for name, invariants := range map[string][]string{"inbox": inboxInvariants, "ordering": orderingInvariants, "shardjob": shardjobInvariants} {
		found := false
		for _, line := range strings.Split(string(doc), "\n") {
			if !strings.HasPrefix(line, "| `explore "+name+"`") {
				continue
			}
			cells := strings.Split(strings.Trim(line, "| "), " | ")
			last, _, _ := strings.Cut(cells[len(cells)-1], " (")
			if found = true; last != strings.Join(invariants, ", ") {
				t.Errorf("docs/explore.md lists %s's invariants as %q, want %q", name, last, strings.Join(invariants, ", "))
			}
		}
		if !found {
			t.Errorf("docs/explore.md has no row for explore %s", name)
		}
	}
}
