package inbox

// Store is the lab's, not the book's: the consumer's local store as the
// book's Ledger exposes it, so that Consume and the drills run unchanged on
// the in-memory Ledger or on a real database (adapters/sqlstore), and so
// that the lab can wrap it to inject a fault around the book's functions.
// *Ledger satisfies it as it is. Mark and Effect, MarkBeforeEffect's two
// writes on their own, are there for the student's handler.
//
// Four of the methods have no error result, because the book's in-memory
// Ledger cannot fail. A store that can fail records the first error of such a
// call, turns later calls into no-ops, and reports it from an Err() error
// method, the way bufio.Scanner does; Err reads it.
type Store interface {
	// ApplyOnce records the dedup key and applies the effect atomically; a
	// duplicate returns false, nil and changes nothing.
	ApplyOnce(Message) (bool, error)
	// NaiveApply applies every delivery, duplicates included.
	NaiveApply(Message)
	// MarkBeforeEffect records the key, then applies the effect, as two
	// writes; with crash set it returns ErrSimulatedCrash between them.
	MarkBeforeEffect(m Message, crash bool) error
	// Mark records the dedup key alone and reports whether it was new:
	// MarkBeforeEffect's first write.
	Mark(Message) (bool, error)
	// Effect applies the effect alone, with no key: MarkBeforeEffect's
	// second write.
	Effect(Message) error
	// Prune forgets the keys with Seq <= maxSeq and reports how many.
	Prune(maxSeq int64) int
	// Balance returns the cents applied to an order.
	Balance(orderID string) int64
	// Applies reports how many effects were applied.
	Applies() int
}

// Err returns the first error s hit in a method without an error result, or
// nil. It is always nil for the in-memory Ledger, which cannot fail.
func Err(s Store) error {
	if f, ok := s.(interface{ Err() error }); ok {
		return f.Err()
	}
	return nil
}

var _ Store = (*Ledger)(nil)
