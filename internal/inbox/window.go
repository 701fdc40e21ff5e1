package inbox

// seqWindow holds every live dedup key ordered by its producer Seq, as a
// binary min-heap: the oldest key is always at index 0.
//
// The book's Prune scans the whole table to find keys with Seq <= maxSeq,
// which costs O(table) even when only a handful expire. With the keys also
// in a heap ordered by Seq, Prune pops from the front until the oldest key is inside
// the window, so it costs O(removed × log table) and never looks at the keys
// it keeps. Each live key has exactly one entry: a key enters when it is
// first recorded and leaves only when Prune pops it.
//
// It is hand-written rather than container/heap so that a push does not box
// the entry into an interface (one allocation per ApplyOnce).
type seqWindow struct {
	entries []seqEntry
}

type seqEntry struct {
	seq int64
	key string
}

func (w *seqWindow) len() int { return len(w.entries) }

// minSeq is the Seq of the oldest key; the window must not be empty.
func (w *seqWindow) minSeq() int64 { return w.entries[0].seq }

// push adds a key and sifts it up towards the root.
func (w *seqWindow) push(key string, seq int64) {
	if len(w.entries) == cap(w.entries) {
		// Double the capacity ourselves. Left to append, a slice past a
		// few hundred entries grows by about 1.25× at a time, so a table
		// that grows to n keys copies about 4n entries and allocates 5n;
		// doubling copies about n and allocates 2n, for at most n spare
		// entries. That copying was the largest part of what ApplyOnce
		// cost beyond a plain map insert (see BenchmarkApplyOnce).
		grown := make([]seqEntry, len(w.entries), max(2*cap(w.entries), 4))
		copy(grown, w.entries)
		w.entries = grown
	}
	w.entries = append(w.entries, seqEntry{seq: seq, key: key})
	i := len(w.entries) - 1
	for i > 0 {
		parent := (i - 1) / 2
		if w.entries[parent].seq <= w.entries[i].seq {
			break
		}
		w.entries[parent], w.entries[i] = w.entries[i], w.entries[parent]
		i = parent
	}
}

// pop removes the oldest key and returns it.
func (w *seqWindow) pop() string {
	top := w.entries[0].key
	last := len(w.entries) - 1
	w.entries[0] = w.entries[last]
	w.entries[last] = seqEntry{} // let the key string be collected
	w.entries = w.entries[:last]
	// Sift the moved entry down until both children are not older.
	i := 0
	for {
		small, l, r := i, 2*i+1, 2*i+2
		if l < last && w.entries[l].seq < w.entries[small].seq {
			small = l
		}
		if r < last && w.entries[r].seq < w.entries[small].seq {
			small = r
		}
		if small == i {
			return top
		}
		w.entries[i], w.entries[small] = w.entries[small], w.entries[i]
		i = small
	}
}
