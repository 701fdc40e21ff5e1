package check

import (
	"testing"

	"archlab/harness"
)

// TestOutsideCallBeforeTheAckIsDone: the call outside the store may come
// before the commit or after it, as long as every delivery that gets that
// far makes it: a handler that calls first, then ApplyOnce, then acks is
// done, as the book's order is (issue 33, point 4). Calling only for a new
// payment is the wrong variant notify-only-when-new (students_test.go), and
// never calling is caught with no fault at all.
func TestOutsideCallBeforeTheAckIsDone(t *testing.T) {
	e, err := Lookup("consumer-handler")
	if err != nil {
		t.Fatal(err)
	}
	first := &harness.Students{Inbox: func(d *harness.Delivery) error {
		if err := d.Notify(d.Message()); err != nil {
			return err
		}
		if _, err := d.ApplyOnce(); err != nil {
			return err
		}
		return d.Ack()
	}}
	if r := Run(ctx, e, first); r.Status != Done {
		t.Fatalf("notify, then ApplyOnce, then ack: status %s, lessons %+v", r.Status, r.Lessons)
	}
	never := &harness.Students{Inbox: func(d *harness.Delivery) error {
		if _, err := d.ApplyOnce(); err != nil {
			return err
		}
		return d.Ack()
	}}
	r := Run(ctx, e, never)
	if r.Status != NotDone || r.Lessons[0].Check != "outside-called" || r.Shortest == nil || r.Shortest.Schedule == nil {
		t.Fatalf("never notifying: status %s, lessons %+v; want not done, the outside call lost", r.Status, r.Lessons)
	}
	if faults := r.Shortest.Schedule.Line("en"); faults != "m1 ok, m2 ok, m3 ok ⇒ m1 never notified" {
		t.Errorf("never notifying: shortest run %q, want no fault at all", faults)
	}
}
