package explore

import (
	"runtime"
	"testing"
)

// The benchmarks measure the targets: the default inbox scope in
// well under a second on two cores, at least 200,000 schedules per second
// per core (a schedule runs all four strategies on the real inbox), and
// memory per schedule that does not grow with the scope. The baseline,
// measured in the same run, is the enumeration alone: producing the
// schedules without running them, the part no amount of mechanism speed can
// remove.
//
//	go test -run '^$' -bench . -benchmem ./explore/

// BenchmarkInboxDefault explores the default inbox scope (4,272 schedules)
// with one worker, then with one per core. sched/s/core is the throughput
// divided by the workers used.
func BenchmarkInboxDefault(b *testing.B) {
	for _, workers := range []int{1, runtime.GOMAXPROCS(0)} {
		b.Run(workersName(workers), func(b *testing.B) {
			benchExplore(b, workers, func(o Options) (*Report, error) { return Inbox(ctx, DefaultInbox, o) })
		})
	}
}

// BenchmarkInboxWider is a scope ten times larger (4 messages, 2 faults:
// 38,304 schedules) on every core: time and bytes per schedule stay those
// of the default scope, because schedules are streamed, not collected.
func BenchmarkInboxWider(b *testing.B) {
	benchExplore(b, runtime.GOMAXPROCS(0), func(o Options) (*Report, error) {
		return Inbox(ctx, InboxScope{Messages: 4, Faults: 2}, o)
	})
}

// BenchmarkInboxEnumerateOnly is the baseline: the default scope's
// schedules produced and counted, none run.
func BenchmarkInboxEnumerateOnly(b *testing.B) {
	sp := newInboxSpace(DefaultInbox)
	var n uint64
	for b.Loop() {
		n = 0
		sp.each(func(inboxSchedule) bool { n++; return true })
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "sched/s/core")
}

// BenchmarkOrderingDefault and BenchmarkShardjobDefault time the other two
// default scopes on every core.
func BenchmarkOrderingDefault(b *testing.B) {
	benchExplore(b, runtime.GOMAXPROCS(0), func(o Options) (*Report, error) { return Ordering(ctx, DefaultOrdering, o) })
}

func BenchmarkShardjobDefault(b *testing.B) {
	benchExplore(b, runtime.GOMAXPROCS(0), func(o Options) (*Report, error) { return Shardjob(ctx, DefaultShardjob, o) })
}

func benchExplore(b *testing.B, workers int, explore func(Options) (*Report, error)) {
	b.ReportAllocs()
	var schedules uint64
	for b.Loop() {
		rep, err := explore(Options{Workers: workers})
		if err != nil {
			b.Fatal(err)
		}
		schedules = rep.Schedules
	}
	total := float64(schedules) * float64(b.N)
	perSec := total / b.Elapsed().Seconds()
	b.ReportMetric(float64(schedules), "schedules")
	b.ReportMetric(perSec, "sched/s")
	b.ReportMetric(perSec/float64(workers), "sched/s/core")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/total, "ns/sched")
}

func workersName(n int) string {
	if n == 1 {
		return "workers=1"
	}
	return "workers=all"
}

// BenchmarkInboxEngines is issue 15's target: the scope of 5 messages and
// 3 faults (14,482,320 schedules), walked by the enumerator and by the
// state engine in the same run, on every core. The state engine must be at
// least 50 times faster; states/op is the distinct states it visited over
// the four strategies.
//
//	go test -run '^$' -bench InboxEngines -benchtime 1x -benchmem ./explore/
func BenchmarkInboxEngines(b *testing.B) {
	sc := InboxScope{Messages: 5, Faults: 3}
	for _, engine := range []Engine{EngineEnumerate, EngineStates} {
		b.Run("messages=5/faults=3/engine="+string(engine), func(b *testing.B) {
			benchEngine(b, engine, func(o Options) (*Report, error) { return Inbox(ctx, sc, o) })
		})
	}
}

// BenchmarkOrderingEngines is the same comparison for §8.3 at the largest
// scope its flags allow (6 duplicates, the poison event, budgets 1 to 10:
// 2,529,960 schedules), which the enumerator still runs.
//
//	go test -run '^$' -bench OrderingEngines -benchtime 1x -benchmem ./explore/
func BenchmarkOrderingEngines(b *testing.B) {
	sc := OrderingScope{Duplicates: MaxOrderingDuplicates, Poison: true, MaxAttempts: MaxOrderingAttempts}
	for _, engine := range []Engine{EngineEnumerate, EngineStates} {
		b.Run("max/engine="+string(engine), func(b *testing.B) {
			benchEngine(b, engine, func(o Options) (*Report, error) { return Ordering(ctx, sc, o) })
		})
	}
}

// BenchmarkLargestScopes walks the largest scope each section's flags allow
// without sampling, on every core: inbox 8×6 and ordering's maximum through
// their states, shardjob's 223 keys (the most it enumerates: it has no state
// graph) schedule by schedule. Each must take under 10 s; states/op and
// B/op are the states visited and the bytes allocated.
//
//	go test -run '^$' -bench LargestScopes -benchtime 1x -benchmem ./explore/
func BenchmarkLargestScopes(b *testing.B) {
	b.Run("inbox/messages=8/faults=6", func(b *testing.B) {
		benchEngine(b, EngineStates, func(o Options) (*Report, error) {
			return Inbox(ctx, InboxScope{Messages: MaxInboxMessages, Faults: MaxInboxFaults}, o)
		})
	})
	b.Run("ordering/duplicates=6/poison/max-attempts=10", func(b *testing.B) {
		benchEngine(b, EngineStates, func(o Options) (*Report, error) {
			return Ordering(ctx, OrderingScope{Duplicates: MaxOrderingDuplicates, Poison: true, MaxAttempts: MaxOrderingAttempts}, o)
		})
	})
	b.Run("shardjob/keys=223", func(b *testing.B) {
		benchEngine(b, EngineEnumerate, func(o Options) (*Report, error) { return Shardjob(ctx, ShardjobScope{Keys: 223}, o) })
	})
}

func benchEngine(b *testing.B, engine Engine, explore func(Options) (*Report, error)) {
	b.ReportAllocs()
	var rep *Report
	for b.Loop() {
		var err error
		if rep, err = explore(Options{Engine: engine}); err != nil {
			b.Fatal(err)
		}
	}
	if rep.Engine != engine {
		b.Fatalf("walked by %s, not %s", rep.Engine, engine)
	}
	b.ReportMetric(float64(rep.Schedules), "schedules")
	b.ReportMetric(float64(rep.States), "states")
	b.ReportMetric(float64(b.Elapsed().Seconds())/float64(b.N), "s/op")
}

// BenchmarkInboxNotify is issue 43's target: --notify (m1's call outside
// the store) at 4 messages and 3 faults within twice the time of the same
// scope without it, the baseline measured in the same run. It enumerated
// before: more than 60 s against 0.1 s.
//
//	go test -run '^$' -bench InboxNotify -benchmem ./explore/
func BenchmarkInboxNotify(b *testing.B) {
	for _, notify := range []bool{false, true} {
		name := "baseline"
		if notify {
			name = "notify"
		}
		b.Run(name, func(b *testing.B) {
			sc := InboxScope{Messages: 4, Faults: 3, Notify: notify}
			for b.Loop() {
				if _, err := Inbox(ctx, sc, Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
