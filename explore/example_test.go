package explore_test

import (
	"context"
	"fmt"

	"archlab/explore"
	"archlab/i18n"
)

// Every schedule of the default §8.2 scope, on the real inbox: only
// effect-then-ack survives them all, and the shortest schedule that breaks
// mark-before-effect is a crash between mark and effect.
func ExampleInbox() {
	rep, err := explore.Inbox(context.Background(), explore.DefaultInbox, explore.Options{})
	if err != nil {
		panic(err)
	}
	fmt.Println(rep.Schedules, "schedules")
	for _, s := range rep.Strategies {
		fmt.Printf("%-18s %v %s\n", s.Name, s.Violations, s.Verdict)
		if s.Shortest != nil {
			fmt.Println("  shortest:", s.Shortest.Line(i18n.EN))
		}
	}
	// Output:
	// 4272 schedules
	// naive              [{lost 0} {doubled 3594}] as-the-book-teaches
	//   shortest: m1 ok, m2 ok, m3 duplicate ⇒ m3 applied 2×
	// mark-before-effect [{lost 1314} {doubled 0}] as-the-book-teaches
	//   shortest: m1 ok, m2 ok, m3 crash-mid, m3 ok ⇒ m3 lost
	// effect-then-ack    [{lost 0} {doubled 0}] as-the-book-teaches
	// early-prune        [{lost 0} {doubled 2490}] as-the-book-teaches
	//   shortest: m1 ok, m2 ok, m3 duplicate ⇒ m3 applied 2×
}
