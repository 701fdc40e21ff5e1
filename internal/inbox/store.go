package inbox

// Store is the consumer's local store as the book's Ledger exposes it: the
// dedup table and the effects it protects. MarkBeforeEffect is there as its
// two writes, Mark and Effect, so that a crash between them is the
// scenario's decision (it does not call Effect), not a flag of the store.
// *Ledger satisfies it as it is; a store on a real database
// (adapters/sqlstore) satisfies it too, so a drill and Consume run
// unchanged on either.
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
