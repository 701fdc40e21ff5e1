package shardjob_test

// Benchmarks for the 11.2 mechanism, each beside its baseline so one run
// gives the ratio:
//
//	go test ./internal/shardjob -run '^$' -bench . -benchmem -count=6 | benchstat -col /impl -
//
// Split's baseline hashes the same keys to their shards without building the
// shards; Run's baseline applies the same keys to a Sink with no checkpoints,
// no crash and no replay.

import (
	"errors"
	"fmt"
	"testing"

	"archlab/internal/shardjob"
)

// keys returns order-0 … order-(n-1), the book's job input, built before the
// timer starts.
func keys(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprint("order-", i)
	}
	return out
}

func BenchmarkSplit(b *testing.B) {
	const n, shards = 1_000_000, 4
	in := keys(n)
	b.Run("keys=1M/impl=baseline", func(b *testing.B) {
		var sizes [shards]int
		for b.Loop() {
			for _, k := range in {
				sizes[shardjob.ShardOf(k, shards)]++
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/key")
	})
	b.Run("keys=1M/impl=Split", func(b *testing.B) {
		for b.Loop() {
			if _, err := shardjob.Split(in, shards); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/key")
	})
}

// BenchmarkRun works through one shard per op, starting from an empty sink
// and checkpoint: a run that crashes 37 items past a checkpoint halfway
// through the shard, then the rerun that resumes from that checkpoint,
// replays the 37 items (the sink suppresses them) and finishes. The baseline
// applies every key of the shard to an empty sink once.
func BenchmarkRun(b *testing.B) {
	shards, err := shardjob.Split(keys(40_000), 4)
	if err != nil {
		b.Fatal(err)
	}
	items := shards[0] // about 10K keys
	const commitEvery, past = 100, 37
	crashAfter := len(items)/2/commitEvery*commitEvery + past
	b.Run("shard=10K/impl=baseline", func(b *testing.B) {
		for b.Loop() {
			sink := shardjob.NewSink()
			for _, k := range items {
				sink.Apply(k)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(items)), "ns/item")
	})
	b.Run("shard=10K/impl=Run-crash-resume", func(b *testing.B) {
		for b.Loop() {
			r := &shardjob.Runner{Sink: shardjob.NewSink(), CP: shardjob.NewCheckpoint(), Epoch: 1, CommitEvery: commitEvery}
			if _, err := r.Run("shard-0", items, crashAfter); !errors.Is(err, shardjob.ErrInjectedCrash) {
				b.Fatalf("crash run: %v, want ErrInjectedCrash", err)
			}
			res, err := r.Run("shard-0", items, 0)
			if err != nil || res.Suppressed != past {
				b.Fatalf("rerun: %+v, %v; want %d suppressed", res, err, past)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(items)), "ns/item")
	})
}
