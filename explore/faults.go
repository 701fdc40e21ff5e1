package explore

import (
	"slices"

	"archlab/harness"
)

// The fault classes of each section's scope, as a pass on a student's code
// counts them: how many of the schedules the code ran hit each one. The
// checker refuses a pass where a class never struck (a lucky pass: the code
// was never tested against it).

// inboxFaultClasses are §8.2's fault table's rows but the plain delivery,
// in the table's order: every crash point, the lost ack, the duplicate and
// the replay.
var inboxFaultClasses = func() []string {
	var out []string
	for _, f := range harness.InboxFaults[1:] {
		out = append(out, string(f.Name))
	}
	return out
}()

// faults is the classes the schedule hit, bit d-1 for the table's row d.
func (s *inboxSchedule) faults() uint32 {
	var m uint32
	for i := range int(s.n) {
		if d := s.steps[i].what; d != ok {
			m |= 1 << (d - 1)
		}
	}
	return m
}

// orderingFaultClasses are §8.3's: an event delivered before one of a lower
// version of its order, an event delivered twice, the poison event.
var orderingFaultClasses = []string{"out-of-order", "duplicate", "poison"}

func (s *orderingSchedule) faults() uint32 {
	var m uint32
	var seen [len(orderingEvents)]bool
	var highest int64
	for _, e := range s.events[:s.n] {
		if seen[e] {
			m |= 1 << 1
		}
		seen[e] = true
		if e == poisonEvent {
			m |= 1 << 2
			continue
		}
		v := orderingEvents[e].Version
		if v < highest {
			m |= 1 << 0
		}
		highest = max(highest, v)
	}
	return m
}

// shardjobFaultClasses are §11.2's fault table's rows the scope walks, in
// the table's order: each stop of the first worker, each zombie of the
// rerun.
var shardjobFaultClasses = func() []string {
	var out []string
	for _, row := range append(slices.Clone(shardStops), shardZombies...) {
		out = append(out, harness.ShardFaults[row].Name)
	}
	return out
}()

// faults is the classes the schedule hit: its stop's and its zombie's.
func (s *shardSchedule) faults() uint32 {
	if s.stop == 0 {
		return 0
	}
	return 1<<slices.Index(shardStops, int(s.stop)) | 1<<(len(shardStops)+slices.Index(shardZombies, int(s.zombie)))
}
