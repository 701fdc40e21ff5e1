package ordering_test

import (
	"fmt"

	"archlab/internal/ordering"
)

// Pay overtakes reserve: the projection refuses it as a conflict, the
// redelivery applies. Replaying the log into a fresh projection rebuilds the
// same row, and a second replay from an old offset only sees duplicates.
func Example() {
	reserve := ordering.Event{ID: "evt-1", OrderID: "o-1", Version: 1, Type: "reserve"}
	pay := ordering.Event{ID: "evt-2", OrderID: "o-1", Version: 2, Type: "pay"}

	p := ordering.NewProjection()
	c := ordering.NewConsumer(p, 3)
	fmt.Println(pay, "attempt 1:", c.Handle(pay, 1))
	fmt.Println(reserve, "attempt 1:", c.Handle(reserve, 1))
	fmt.Println(pay, "attempt 2:", c.Handle(pay, 2))
	row, _ := p.Get("o-1")
	fmt.Println("projection:", row)

	log := ordering.NewLog(reserve, pay)
	fresh := ordering.NewProjection()
	res, err := ordering.Replay(log, fresh, 0, 10)
	row, _ = fresh.Get("o-1")
	fmt.Printf("replay from 0: %+v %v -> %s\n", res, err, row)
	res, err = ordering.Replay(log, fresh, 0, 10)
	fmt.Printf("replay again:  %+v %v\n", res, err)
	// Output:
	// evt-2(o-1 pay v2) attempt 1: retry
	// evt-1(o-1 reserve v1) attempt 1: applied
	// evt-2(o-1 pay v2) attempt 2: applied
	// projection: v2/PAID
	// replay from 0: {Applied:2 Duplicates:0 Offset:2} <nil> -> v2/PAID
	// replay again:  {Applied:0 Duplicates:2 Offset:2} <nil>
}
