package sqlstore

import (
	"errors"
	"testing"
)

// The error paths, with exact errors (issue 11: a planted bug that let the
// rollback's nil replace the body's error, silently losing a message, and
// one that forgot to record a verb's error, both passed go test).

var errBody = errors.New("the body failed")

// TestTxKeepsTheBodysError: an error in the transaction body is the error
// tx returns, whether the rollback then succeeds or fails itself.
func TestTxKeepsTheBodysError(t *testing.T) {
	t.Run("rollback succeeds", func(t *testing.T) {
		s := newStore(t)
		err := s.tx(func() (bool, error) { return false, errBody })
		if !errors.Is(err, errBody) {
			t.Fatalf("tx = %v, want the body's error", err)
		}
		// The rollback did run: a new transaction can begin.
		if err := s.tx(func() (bool, error) { return true, nil }); err != nil {
			t.Fatalf("after the rollback: %v", err)
		}
	})
	t.Run("rollback fails too", func(t *testing.T) {
		s := newStore(t)
		err := s.tx(func() (bool, error) {
			s.conn.Close() // the rollback will fail
			return false, errBody
		})
		if !errors.Is(err, errBody) {
			t.Fatalf("tx = %v, want the body's error, not the rollback's", err)
		}
	})
	t.Run("no commit: the rollback's error is reported", func(t *testing.T) {
		s := newStore(t)
		err := s.tx(func() (bool, error) {
			s.conn.Close()
			return false, nil // a duplicate: roll back, which fails
		})
		if err == nil {
			t.Fatal("a failed rollback must be reported")
		}
	})
	t.Run("nothing written after a body error", func(t *testing.T) {
		s := newStore(t)
		s.tx(func() (bool, error) {
			if err := s.effect(pay); err != nil {
				t.Fatal(err)
			}
			return false, errBody
		})
		if s.Applies() != 0 || s.Balance(pay.OrderID) != 0 {
			t.Fatalf("effects=%d balance=%d after a rolled-back body", s.Applies(), s.Balance(pay.OrderID))
		}
	})
}

// TestEveryVerbRecordsItsError: each verb, on a store whose connection is
// gone, records the error in Err, and every later call returns that first
// error. One fresh store per verb, so each verb is tested on its own.
func TestEveryVerbRecordsItsError(t *testing.T) {
	verbs := map[string]func(s *Store) error{
		"ApplyOnce":  func(s *Store) error { _, err := s.ApplyOnce(pay); return err },
		"NaiveApply": func(s *Store) error { s.NaiveApply(pay); return nil },
		"Mark":       func(s *Store) error { _, err := s.Mark(pay); return err },
		"Effect":     func(s *Store) error { return s.Effect(pay) },
		"Prune":      func(s *Store) error { s.Prune(10); return nil },
		"Balance":    func(s *Store) error { s.Balance("o-1"); return nil },
		"Applies":    func(s *Store) error { s.Applies(); return nil },
		"Keys":       func(s *Store) error { _, err := s.Keys(); return err },
		"Balances":   func(s *Store) error { _, err := s.Balances(); return err },
		"Reset":      func(s *Store) error { return s.Reset() },
	}
	for _, name := range sortedKeys(verbs) {
		t.Run(name, func(t *testing.T) {
			s := newStore(t)
			s.conn.Close()
			returned := verbs[name](s)
			first := s.Err()
			if first == nil {
				t.Fatalf("%s on a closed connection recorded no error", name)
			}
			if returned != nil && returned != first {
				t.Fatalf("%s returned %v but recorded %v", name, returned, first)
			}
			if ok, err := s.ApplyOnce(pay); ok || err != first {
				t.Fatalf("ApplyOnce after %s = %v, %v; want false and the first error", name, ok, err)
			}
			if _, err := s.Mark(pay); err != first {
				t.Fatalf("Mark after %s = %v", name, err)
			}
			if err := s.Effect(pay); err != first {
				t.Fatalf("Effect after %s = %v", name, err)
			}
			if _, err := s.Keys(); err != first {
				t.Fatalf("Keys after %s = %v", name, err)
			}
			if s.Err() != first {
				t.Fatal("the first error must stay")
			}
		})
	}
}

// TestApplyOnceBodyErrorIsNotAnAnswer: a failed ApplyOnce never reports
// "applied" or "duplicate" as if the message were handled.
func TestApplyOnceBodyErrorIsNotAnAnswer(t *testing.T) {
	s := newStore(t)
	s.conn.Close()
	applied, err := s.ApplyOnce(pay)
	if applied || err == nil {
		t.Fatalf("ApplyOnce on a closed connection = %v, %v; want false and an error", applied, err)
	}
}
