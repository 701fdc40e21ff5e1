package check

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"archlab/harness"
)

// Durable inboxes in every order of their four moves for the delivered
// message: store its row, ack it, call the service outside the store for
// it, process its row (Store always before Process, which takes a stored
// row); each recovers as the lab's does, calling and processing every
// row left pending. A crash may strike at any gap between two calls
// (issue 45: before, the fixed points let an inbox that processes its row
// and only then makes the call pass, though a crash between the two loses
// the call for good). Which orders are sound is worked out here from what
// each move guards, apart from the checker:
//   - acked before stored: a crash between the two loses the message;
//   - the call after both the row's processing and the ack: a crash just
//     before the call leaves nothing that would make it (no pending row,
//     no redelivery), and the call is lost;
//   - every other order is done.
func TestDurableInboxInEveryOrder(t *testing.T) {
	e := handlerChecks(t)
	recover := harness.LabStudents(harness.DurableInbox).Recover
	for _, order := range durableOrders() {
		name := strings.Join(order, "-")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			at := func(move string) int { return slices.Index(order, move) }
			want := ""
			switch {
			case at("ack") < at("store"):
				want = "not-lost"
			case at("call") > at("process") && at("call") > at("ack"):
				want = "outside-called"
			}
			r := checked(e, "durable-"+name, &harness.Students{Inbox: durableInOrder(order), Recover: recover})
			switch {
			case want == "" && r.Status != Done:
				t.Errorf("status %s (%v), lessons %v: a sound order is accused", r.Status, r.Err, r.Lessons)
			case want != "" && r.Status != NotDone:
				t.Errorf("status %s (%v): it can %s, and passes", r.Status, r.Err, want)
			case want != "" && r.Lessons[0].Check != want:
				t.Errorf("headline %s, want %s", r.Lessons[0].Check, want)
			}
		})
	}
}

// durableOrders are the orders of store, ack, call and process with store
// before process.
func durableOrders() [][]string {
	var out [][]string
	var perm func(done, rest []string)
	perm = func(done, rest []string) {
		if len(rest) == 0 {
			if slices.Index(done, "store") < slices.Index(done, "process") {
				out = append(out, slices.Clone(done))
			}
			return
		}
		for i, m := range rest {
			perm(append(done, m), slices.Concat(rest[:i], rest[i+1:]))
		}
	}
	perm(nil, []string{"store", "ack", "call", "process"})
	return out
}

// durableInOrder is a durable inbox's handler making its moves in order.
// A lost ack leaves the row stored: it goes on, and returns the error at
// its end.
func durableInOrder(order []string) func(*harness.Delivery) error {
	return func(d *harness.Delivery) error {
		var ackErr error
		for _, move := range order {
			var err error
			switch move {
			case "store":
				_, err = d.Store()
			case "ack":
				if err = d.Ack(); !errors.Is(err, harness.ErrCrashed) {
					ackErr, err = err, nil
				}
			case "call":
				err = d.Notify(d.Message())
			case "process":
				_, err = d.Process(d.Message())
			default:
				panic(fmt.Sprint("no move ", move))
			}
			if err != nil {
				return err
			}
		}
		return ackErr
	}
}
