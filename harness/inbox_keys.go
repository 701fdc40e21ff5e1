package harness

// The dedup keys, as the environment sees them. The book's Store has no
// call that reads a key without writing one, so the harness keeps what the
// store's answers said: a write that takes the key (ApplyOnce, the book's
// MarkBeforeEffect, Mark) leaves it held, new or found; a write that dies
// inside its transaction tells nothing and leaves nothing; the janitor's
// prune forgets every key through its Seq.
//
// That is what "lost" means before a run ends. A message is dropped when
// something takes it as handled though its effect never landed: the broker
// (it holds the ack) or the dedup table (it holds the key, so every
// redelivery is suppressed as a duplicate). At a run's end, when every
// message is acked, dropped is exactly lost.

// noteKey notes what write w of message i did to its dedup key.
func (h *Inbox) noteKey(i int, w Wrote) {
	if w.Failed && !w.NewKey {
		return // refused whole: no key
	}
	switch w.Call {
	case "ApplyOnce", "MarkBeforeEffect", "Mark":
		h.keys[i] = true
	}
}

// forgetKeys is the prune through seq, on the harness's notes.
func (h *Inbox) forgetKeys(seq int64) {
	for i, m := range h.msgs {
		if m.Seq <= seq {
			h.keys[i] = false
		}
	}
}

// KeyHeld reports whether the store holds message i's dedup key.
func (h *Inbox) KeyHeld(i int) bool { return h.keys[i] }

// Acked reports whether the broker holds message i's ack.
func (h *Inbox) Acked(i int) bool { return h.broker.Acked(h.msgs[i]) }

// Dropped reports whether message i is taken as handled, by the broker or
// by the dedup table, though its effect never landed.
func (h *Inbox) Dropped(i int) bool {
	return h.applied[i] == 0 && (h.keys[i] || h.Acked(i))
}
