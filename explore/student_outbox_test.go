package explore

import (
	"errors"
	"slices"
	"testing"

	"archlab/harness"
	"archlab/internal/inbox"
)

// TestStudentOutbox: a handler that writes its outside call as an outbox
// row in the effect's transaction is judged in the student's scope (every
// crash point, the lost ack, the duplicate, the failing effect, the crash
// after the ack) by whether the call is made. Relayed before the ack, the
// row of a crash is relayed by the redelivery: safe with no recovery.
// Relayed after the ack (the lab's outbox strategy), a crash between the
// ack and the relay leaves the row to the restart: safe when the recovery
// relays, a call lost for good when it does not.
func TestStudentOutbox(t *testing.T) {
	handler := func(relayFirst bool) func(d *harness.Delivery) error {
		return func(d *harness.Delivery) error {
			if _, err := d.ApplyOnceWithOutbox(); err != nil {
				return err
			}
			if relayFirst {
				if err := d.Relay(); err != nil {
					return err
				}
				return d.Ack()
			}
			if err := d.Ack(); err != nil && !errors.Is(err, inbox.ErrAckLost) {
				return err
			}
			return d.Relay()
		}
	}
	relay := func(r *harness.Restart) error { return r.Relay() }
	for _, tc := range []struct {
		name       string
		relayFirst bool
		recover    func(*harness.Restart) error
		broken     string // the invariant its shortest run breaks, "" for none
	}{
		{"relay, ack, no recovery", true, nil, ""},
		{"ack, relay, relay at restart", false, relay, ""},
		{"ack, relay, no recovery", false, nil, "outside-lost"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rep, err := StudentInbox(ctx, StudentInboxScope, &harness.Students{Inbox: handler(tc.relayFirst), Recover: tc.recover}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			st := rep.Strategies[0]
			switch {
			case tc.broken == "" && st.Shortest != nil:
				t.Fatalf("broken by %s: %v", st.Shortest.Schedule, st.Shortest.Broken)
			case tc.broken != "" && (st.Shortest == nil || !slices.Contains(st.Shortest.Broken, tc.broken)):
				t.Fatalf("want a run that breaks %s, got %+v", tc.broken, st.Shortest)
			}
		})
	}
}
