package harness

import (
	"errors"

	"archlab/internal/ordering"
)

// §8.3's event log and partitions: appending, replaying from an offset in
// batches, losing an offset, reading the log, routing orders to partitions
// and restarting the projection from the log.

// Append appends event i to the log.
func (o *Ordering) Append(i int) error {
	e := o.events[i]
	n, err := o.broker.Append(e)
	if err != nil {
		return err
	}
	o.step("producer", "log", M("step.append", e), M("res.log-length", n), Neutral)
	return nil
}

// ReplayFrom replays the log from offset in batches into the projection.
func (o *Ordering) ReplayFrom(actor string, offset, batch int) (ordering.ReplayResult, error) {
	res, err := ordering.Replay(o.broker, o.proj, offset, batch)
	if o.mineProj != nil && (errors.Is(err, ordering.ErrConflict) || errors.Is(err, ordering.ErrPoison)) {
		// The student's gate refused an event the book's takes: the
		// replay stops there, which is what the run shows, not an error
		// of the scenario's.
		o.step(actor, "log", M("step.replay-from", offset, batch), M("student.res.replay-refused", res.Applied, res.Duplicates, res.Offset), Harm)
		return res, nil
	}
	if err != nil {
		return res, err
	}
	o.step(actor, "log", M("step.replay-from", offset, batch), M("res.replayed", res.Applied, res.Duplicates, res.Offset), Good)
	return res, nil
}

// LoseOffset is the fault of replay: the consumer's offset commit was lost,
// so it resumes from an older offset and will read the tail again.
func (o *Ordering) LoseOffset(offset int) error {
	n, err := o.broker.Len()
	if err != nil {
		return err
	}
	o.fault("consumer", "log", M("step.resume-from", offset), M(Plural("res.offset-behind", n-offset), n-offset))
	return nil
}

// ReadLog is one NextBatch call, classified: an error a consumer must
// handle, an empty batch (drained), or events.
func (o *Ordering) ReadLog(offset, size int) error {
	events, next, err := o.broker.NextBatch(offset, size)
	action := M("step.read", offset, size)
	switch {
	case IsBrokerError(err):
		return err
	case errors.Is(err, ordering.ErrOffsetOutOfRange):
		o.outOfRange++
		o.step("consumer", "log", action, M("res.err", "ErrOffsetOutOfRange"), Bad)
	case errors.Is(err, ordering.ErrBatchSize):
		o.zeroSize++
		o.step("consumer", "log", action, M("res.err", "ErrBatchSize"), Bad)
	case err != nil:
		o.step("consumer", "log", action, M("res.err", err), Bad)
	case len(events) == 0:
		o.drained++
		o.step("consumer", "log", action, M("res.drained", next), Good)
	default:
		o.step("consumer", "log", action, M(Plural("res.batch", len(events)), len(events), next), Good)
	}
	return nil
}

// Route routes order-1 … order-n to partitions by ordering.Partition.
func (o *Ordering) Route(n, partitions int) error {
	o.partitions = partitions
	o.routes = make([]int, n)
	used := map[int]bool{}
	for i := range n {
		id := orderName(i)
		p, err := o.broker.Partition(id, partitions)
		if err != nil {
			return err
		}
		o.routes[i] = p
		used[o.routes[i]] = true
		o.step("router", "partitions", M("step.route", id), M("res.partition", o.routes[i]), Neutral)
	}
	o.used = len(used)
	return nil
}

// Restart is the consumer group restarting: every order is routed again
// and compared with where it went before.
func (o *Ordering) Restart() error {
	o.fault("group", "router", M("step.restart"), M("res.restarted"))
	moved := 0
	for i, first := range o.routes {
		id := orderName(i)
		again, err := o.broker.Partition(id, o.partitions)
		if err != nil {
			return err
		}
		if again != first {
			moved++
			o.step("router", "partitions", M("step.route", id), M("res.partition-moved", first, again), Bad)
		}
	}
	o.moved = moved
	o.step("router", "partitions", M("step.reroute-all", len(o.routes)), M("res.moved", moved), toneIf(moved == 0, Good, Bad))
	return nil
}

// CountPartitions is the reader counting the partitions in use.
func (o *Ordering) CountPartitions() {
	o.step("reader", "partitions", M("step.count-partitions"), M("res.used", o.used, o.partitions), Neutral)
}
