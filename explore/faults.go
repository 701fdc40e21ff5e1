package explore

import (
	"slices"

	"archlab/harness"
	"archlab/internal/ordering"
)

// The fault classes of each section's scope, as a pass on a student's code
// counts them: how many of the schedules the code ran hit each one. The
// checker refuses a pass where a class never struck (a lucky pass: the code
// was never tested against it).

// inboxFaultClasses are §8.2's fault table's classes, in the table's
// order: every row but the plain delivery (every crash point, the lost
// ack, the duplicate, the replay, the rows beyond the book's, the lease
// running out), and one class for all the gap rows, last
// (harness.InboxFault.Class).
var inboxFaultClasses, inboxRowClass = func() ([]string, [len(harness.InboxFaults)]uint8) {
	var out []string
	var class [len(harness.InboxFaults)]uint8
	for d, f := range harness.InboxFaults[1:] {
		i := slices.Index(out, f.Class())
		if i < 0 {
			i, out = len(out), append(out, f.Class())
		}
		class[d+1] = uint8(i)
	}
	return out, class
}()

// inboxClasses are the classes of sc: the book's rows, then the rows
// beyond them when the scope has them, then the classes of the rows at
// the code's own calls when it has those (such a scope has the Extra rows
// too): the table keeps them in that order.
func inboxClasses(sc InboxScope) []string {
	var in []string
	for _, f := range harness.InboxFaults[1:] {
		if (!f.Extra || sc.Extra) && (!f.AtCalls() || sc.AtCalls) && !slices.Contains(in, f.Class()) {
			in = append(in, f.Class())
		}
	}
	return inboxFaultClasses[:len(in)]
}

// faults is the classes the schedule hit, a bit for each class.
func (s *inboxSchedule) faults() uint32 {
	var m uint32
	for i := range int(s.n) {
		if d := s.steps[i].what; d != ok {
			m |= 1 << inboxRowClass[d]
		}
	}
	return m
}

// orderingFaultClasses are §8.3's fault table's rows, in its order: an
// event delivered after a higher version of its order, an event delivered
// again, the poison event.
var orderingFaultClasses = func() []string {
	var out []string
	for _, f := range harness.OrderingFaults {
		out = append(out, f.Name)
	}
	return out
}()

// faults is the rows the schedule's delivery order struck, as the table
// recognises them.
func (s *orderingSchedule) faults() uint32 {
	var events [maxOrderingLen]ordering.Event
	for i, e := range s.events[:s.n] {
		events[i] = orderingEvents[e]
	}
	return harness.OrderingFaultsOf(events[:s.n])
}

// classes are §11.2's fault table's rows the scope walks, in the table's
// order: each of the first worker's rows (a stop, or the failing sink's),
// then each zombie of the rerun.
func (sp *shardSpace) classes() []string {
	var out []string
	for _, row := range append(slices.Clone(sp.stops), shardZombies...) {
		out = append(out, harness.ShardFaults[row].Name)
	}
	return out
}

// faults is the classes schedule s hit: its first worker's row's and its
// zombie's.
func (sp *shardSpace) faults(s *shardSchedule) uint32 {
	if s.stop == 0 {
		return 0
	}
	return 1<<slices.Index(sp.stops, int(s.stop)) | 1<<(len(sp.stops)+slices.Index(shardZombies, int(s.zombie)))
}

// FaultClasses are every section's fault classes: the names a lesson
// "unfired/CLASS" may carry (check.KnownLessonID).
func FaultClasses() []string {
	widest := &shardSpace{stops: append(slices.Clone(shardStops), harness.ShardFails()...)}
	return slices.Concat(inboxFaultClasses, orderingFaultClasses, widest.classes())
}
