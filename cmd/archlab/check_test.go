package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"archlab/check"
	"archlab/harness"
	"archlab/internal/ordering"
)

// The book's logic for the three exercises, for the command's tests; the
// checker's own tests (package check) hold the wrong variants. Nothing of
// this ships in exercises/.
var bookStudents = &harness.Students{
	Inbox: func(d *harness.Delivery) error {
		if _, err := d.ApplyOnce(); err != nil {
			return err
		}
		return d.Ack()
	},
	Ordering: func(d *harness.EventDelivery) (ordering.Outcome, error) {
		applied, err := d.Apply()
		switch {
		case err == nil && applied:
			return ordering.OutcomeApplied, nil
		case err == nil:
			return ordering.OutcomeDuplicate, nil
		case errors.Is(err, ordering.ErrConflict) && d.Attempt() < d.MaxAttempts():
			return ordering.OutcomeRetry, nil
		}
		return ordering.OutcomeDead, nil
	},
	Shardjob: func(w *harness.Worker) error {
		start, err := w.Fence()
		if err != nil {
			return err
		}
		items, every := w.Items(), w.CommitEvery()
		for i := start; i < len(items); i++ {
			if _, err := w.Apply(items[i]); err != nil {
				return err
			}
			if every > 0 && (i+1-start)%every == 0 {
				if err := w.Commit(w.Epoch(), i+1); err != nil {
					return err
				}
			}
		}
		return w.Commit(w.Epoch(), len(items))
	},
	// The §8.3 mechanism: the book's own Projection and Consumer.
	Projection: check.Book().Projection,
}

// ackBeforeEffect is a wrong §8.2 handler: it tells the broker before the
// payment is committed.
var ackBeforeEffect = &harness.Students{Inbox: func(d *harness.Delivery) error {
	if err := d.Ack(); err != nil {
		return err
	}
	_, err := d.ApplyOnce()
	return err
}}

func runWith(t *testing.T, s *harness.Students, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb strings.Builder
	io := &IO{In: strings.NewReader(""), Out: &out, Err: &errb, Getenv: func(string) string { return "" }, Students: s}
	code = run(io, args)
	return out.String(), errb.String(), code
}

// TestCheckBookLogicAllDone: with the book's logic plugged in, every
// exercise is done and check exits 0.
func TestCheckBookLogicAllDone(t *testing.T) {
	for _, lang := range []string{"en", "zh"} {
		out, errOut, code := runWith(t, bookStudents, "check", "--lang", lang)
		if code != exitOK {
			t.Fatalf("--lang %s: exit %d\n%s%s", lang, code, out, errOut)
		}
		if want := map[string]string{"en": "4/4 exercises done", "zh": "已完成 4/4 个练习"}[lang]; !strings.Contains(out, want) {
			t.Errorf("--lang %s: no %q in\n%s", lang, want, out)
		}
	}
}

// TestCheckWrongVariant: a wrong handler is not done (exit 1), with its
// lesson, its shortest run in one line and a hint; --show prints the
// timeline and a drill file, and `drill --file` replays that file with the
// same handler to the same broken lesson.
func TestCheckWrongVariant(t *testing.T) {
	out, _, code := runWith(t, ackBeforeEffect, "check", "consumer-handler")
	if code != exitMismatch {
		t.Fatalf("exit %d, want 1\n%s", code, out)
	}
	for _, want := range []string{"✗ consumer-handler (§8.2): not done: ", "shortest run: ", "⇒ m3 lost", "hint: ", "0/1 exercises done"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	out, _, code = runWith(t, ackBeforeEffect, "check", "consumer-handler", "--show")
	if code != exitMismatch {
		t.Fatalf("--show: exit %d", code)
	}
	i := strings.Index(out, "\n# ")
	j := strings.LastIndex(out, "0/1 exercises done")
	if i < 0 || j < 0 {
		t.Fatalf("--show prints no drill file:\n%s", out)
	}
	file := filepath.Join(t.TempDir(), "counterexample.txtar")
	if err := os.WriteFile(file, []byte(out[i+1:j]), 0o644); err != nil {
		t.Fatal(err)
	}
	replay, _, code := runWith(t, ackBeforeEffect, "drill", "--file", file)
	if code != exitMismatch || !strings.Contains(replay, "✗ no message is lost") {
		t.Fatalf("replay: exit %d, want 1 with the not-lost check failing\n%s", code, replay)
	}
	if _, _, code := runWith(t, bookStudents, "drill", "--file", file); code != exitMismatch {
		// The expected counters are the wrong handler's, so the book's
		// logic disagrees with them; its lessons hold.
		t.Logf("the book's logic against the variant's file: exit %d", code)
	}
}
