package drills

import (
	"errors"

	"archlab/internal/ordering"
)

// This drill demonstrates the edges of reading a log by offset. After a
// normal read, a consumer asks for an offset past the end (as after a log was
// truncated under it), for a batch of zero events, and for the batch at
// exactly the end. The first two are errors a consumer must handle; the last
// is not an error at all: it is how a consumer learns it has caught up.
// Lesson: offset == length means drained, only offsets outside [0, length]
// are out of range.
var seekBounds = Drill{
	Name:    "seek-bounds",
	Section: "8.3",
	Book:    book("out_of_range", "1", "zero_size", "1", "drained", "1"),
	run:     runSeekBounds,
}

func runSeekBounds(_ Values, r *Recorder) error {
	log := ordering.NewLog(orderLog...)
	var outOfRange, zeroSize, drained int
	read := func(offset, size int) {
		events, next, err := log.NextBatch(offset, size)
		switch {
		case errors.Is(err, ordering.ErrOffsetOutOfRange):
			outOfRange++
			r.Step("consumer", "log", M("step.read", offset, size), M("res.err", "ErrOffsetOutOfRange"), Bad)
		case errors.Is(err, ordering.ErrBatchSize):
			zeroSize++
			r.Step("consumer", "log", M("step.read", offset, size), M("res.err", "ErrBatchSize"), Bad)
		case err != nil:
			r.Step("consumer", "log", M("step.read", offset, size), M("res.err", err), Bad)
		case len(events) == 0:
			drained++
			r.Step("consumer", "log", M("step.read", offset, size), M("res.drained", next), Good)
		default:
			r.Step("consumer", "log", M("step.read", offset, size), M("res.batch", len(events), next), Good)
		}
	}
	r.Phase(Setup)
	read(0, 2)
	r.Phase(Fault)
	read(log.Len()+1, 2)
	read(0, 0)
	r.Phase(Recovery)
	read(log.Len(), 2)
	r.Phase(Verdict)
	r.Count("out_of_range", outOfRange)
	r.Count("zero_size", zeroSize)
	r.Count("drained", drained)
	r.Check("check.seek-bounds.end-is-not-error", drained == 1)
	r.Check("check.seek-bounds.errors-classified", outOfRange == 1 && zeroSize == 1)
	return nil
}
