package check

import "testing"

// BenchmarkCheckPass: a passing mechanism exercise (the book's logic) is
// checked with the model (the calls in sequence, then at once) and
// without it, which is the check before the model: its baseline, in the
// same run. Both in this process; `archlab check` adds its child process
// (docs/benchmarks.md).
func BenchmarkCheckPass(b *testing.B) {
	for _, e := range Exercises {
		if e.model == nil {
			continue
		}
		before := *e
		before.model = nil
		for _, c := range []struct {
			name string
			e    *Exercise
		}{{"model", e}, {"baseline-no-model", &before}} {
			b.Run(e.Name+"/"+c.name, func(b *testing.B) {
				for b.Loop() {
					if r := Run(ctx, c.e, Book()); r.Status != Done {
						b.Fatalf("status %s: %v", r.Status, r.Lessons)
					}
				}
			})
		}
	}
}

// BenchmarkCheckEach is archlab check of each exercise on the book's code,
// in this process (no child): the time a passing exercise takes, which
// the target holds to 2 s on a quiet machine. Run it beside the same
// benchmark on the build before a change, in one sitting.
func BenchmarkCheckEach(b *testing.B) {
	for _, e := range Exercises {
		b.Run(e.Name, func(b *testing.B) {
			for b.Loop() {
				if r := Run(ctx, e, Book()); r.Status != Done {
					b.Fatalf("status %s: %v", r.Status, r.Lessons)
				}
			}
		})
	}
}
