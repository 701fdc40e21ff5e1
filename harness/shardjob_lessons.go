package harness

import (
	"errors"
	"strconv"
	"strings"

	"archlab/internal/shardjob"
)

// commitFields is one commit as a drill binds it: whether the checkpoint
// accepted it, the sentinel it was rejected with ("" when accepted), the
// checkpoint after it, and whether it moved the checkpoint. An equal offset
// is accepted and moves nothing: the book's idempotent commit.
func (s *Shardjob) commitFields(shard string, epoch uint64, offset int) Fields {
	before, beforeEpoch := s.cp.Load(shard), s.cp.Epoch(shard)
	err := s.Commit(shard, epoch, offset)
	name := ""
	switch {
	case errors.Is(err, shardjob.ErrStaleEpoch):
		name = "ErrStaleEpoch"
	case errors.Is(err, shardjob.ErrStaleOffset):
		name = "ErrStaleOffset"
	case err != nil:
		name = err.Error()
	}
	after := s.cp.Load(shard)
	return Fields{"accepted": err == nil, "error": name, "checkpoint": after,
		"moved": after != before || s.cp.Epoch(shard) != beforeEpoch}
}

// splitInOrder reports whether every shard of the last split holds its keys
// in input order (order-i before order-j when i < j), read off the split
// itself: Split promises it, so a shard's offsets mean the same on every
// run.
func (s *Shardjob) splitInOrder() bool {
	for _, shard := range s.shards {
		last := -1
		for _, k := range shard {
			i, err := strconv.Atoi(strings.TrimPrefix(k, "order-"))
			if err != nil || i <= last {
				return false
			}
			last = i
		}
	}
	return true
}
