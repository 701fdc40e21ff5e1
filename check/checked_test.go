package check

import (
	"runtime"
	"sync"

	"archlab/harness"
)

// One check of each exercise on each student's code the tests name (the
// book's, a wrong variant, a class's pick), for the whole test binary.
// Several tests read one part each of the same verdict (the headline, the
// mistake, the replay, the diagnosis, the class's counts); before, each
// ran the whole check again for its part, and the package took minutes.
// Run's verdict is the same on every run of the same code, so reading it
// once loses no test: a test that is about running the check again (the
// same bytes twice) calls Run itself.

type runKey struct{ exercise, code string }

var (
	runsMu sync.Mutex
	runs   = map[runKey]*runOnce{}
)

type runOnce struct {
	once sync.Once
	r    *Result
}

// checked is Run(ctx, e, s), run once for the exercise and code: code
// names s ("book", the variant's name), and the first caller's s is the
// one run.
func checked(e *Exercise, code string, s *harness.Students) *Result {
	runsMu.Lock()
	o := runs[runKey{e.Name, code}]
	if o == nil {
		o = &runOnce{}
		runs[runKey{e.Name, code}] = o
	}
	runsMu.Unlock()
	o.once.Do(func() { o.r = Run(ctx, e, s) })
	return o.r
}

// checkedBook is the book's logic checked on e, once.
func checkedBook(e *Exercise) *Result { return checked(e, "book", Book()) }

var warm sync.Once

// inRaceSample says whether the variant's whole check runs in this test
// binary: every variant's does, but under -race, where a whole check is
// ten times slower, only the first wrong variant of each protocol
// exercise's does. The race detector watches the checker's goroutines
// (the explorer's workers, the model's two callers) there, and in
// TestModelBookPasses and the book's check; the variants' verdicts and
// words are the plain run's.
func inRaceSample(v variant) bool {
	if !raceOn {
		return true
	}
	for _, w := range wrong {
		if w.exercise == v.exercise {
			e, err := Lookup(w.exercise)
			return err == nil && e.Tier == TierProtocol && w.name == v.name
		}
	}
	return false
}

// checkedVariant is v's verdict. The first call checks every wrong
// variant and the book's logic on every exercise, on as many goroutines
// as the machine has CPUs (each variant's code is its own value, so the
// runs share nothing); the tests of the variants then read them in turn.
func checkedVariant(v variant) *Result {
	warm.Do(func() {
		type job struct {
			e    *Exercise
			code string
			s    *harness.Students
		}
		var jobs []job
		for _, e := range Exercises {
			jobs = append(jobs, job{e, "book", Book()})
		}
		for _, v := range wrong {
			e, err := Lookup(v.exercise)
			if err != nil {
				continue // the test that reads it says so
			}
			if !inRaceSample(v) {
				continue // not read under -race
			}
			jobs = append(jobs, job{e, v.name, v.students})
		}
		next := make(chan job)
		var wg sync.WaitGroup
		for range runtime.GOMAXPROCS(0) {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for j := range next {
					checked(j.e, j.code, j.s)
				}
			}()
		}
		for _, j := range jobs {
			next <- j
		}
		close(next)
		wg.Wait()
	})
	e, err := Lookup(v.exercise)
	if err != nil {
		return &Result{Status: Failed, Err: err}
	}
	return checked(e, v.name, v.students)
}
