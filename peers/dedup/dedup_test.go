package dedup

import (
	"context"
	"errors"
	"testing"
	"time"

	"archlab/internal/inbox"

	"github.com/ThreeDotsLabs/watermill"
	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/ThreeDotsLabs/watermill/message/router/middleware"
	"github.com/ThreeDotsLabs/watermill/pubsub/gochannel"
)

// TestSameStreamSameEffects: the benchmarks' stream through both, handler
// level. Both must apply every message once and drop every redelivery, so
// the throughput figures compare two consumers that do the same work.
func TestSameStreamSameEffects(t *testing.T) {
	const deliveries = 10_000
	s := NewStream(0, deliveries)

	ledger, ack := inbox.NewLedger(), &CountingAck{}
	archlabApplied := 0
	for _, m := range s.Archlab {
		applied, err := inbox.Consume(ledger, m, ack)
		if err != nil {
			t.Fatal(err)
		}
		if applied {
			archlabApplied++
		}
	}

	d, err := NewDeduplicator()
	if err != nil {
		t.Fatal(err)
	}
	balances := NewBalances()
	h := d.Middleware(balances.Handler)
	for _, m := range s.Watermill {
		if _, err := h(m); err != nil {
			t.Fatal(err)
		}
	}

	const want = deliveries / 10 * 9 // one in ten is a redelivery
	if archlabApplied != want || ledger.Applies() != want || balances.Applies() != want {
		t.Fatalf("effects: archlab %d (ledger %d), watermill %d; want %d each", archlabApplied, ledger.Applies(), balances.Applies(), want)
	}
	for i := range Orders {
		id := orderIDs[i]
		if a, w := ledger.Balance(id), balances.Balance(id); a != w || a == 0 {
			t.Fatalf("order %s: archlab balance %d, watermill %d", id, a, w)
		}
	}
	if ack.Acks != deliveries {
		t.Fatalf("archlab acked %d deliveries, want all %d", ack.Acks, deliveries)
	}
	t.Logf("same-stream: deliveries=%d effects_archlab=%d effects_watermill=%d orders=%d", deliveries, ledger.Applies(), balances.Applies(), Orders)
}

var errHandler = errors.New("handler failed")

// markBeforeEffect is one row of the book's mark-before-effect scenario run
// against a consumer: the first delivery fails, the broker delivers again.
type markBeforeEffect struct {
	name string
	// run delivers pay twice, the first attempt failing, and reports the
	// effects that stuck and the order's balance.
	run  func(t *testing.T, pay inbox.Message) (effects int, balance int64)
	want int // effects applied today: 1, or 0 when the payment is lost
}

// TestMarkBeforeEffect runs the book's 8.2 mark-before-effect scenario (a
// handler that fails once, then a redelivery) against archlab and Watermill,
// and asserts what each does today:
//
//   - archlab's Consume writes the key and the effect in one transaction and
//     acks after it; the failure (a lost ack) comes after the commit, so the
//     redelivery is a duplicate and the effect is applied exactly once;
//   - the book's MarkBeforeEffect writes the key first and dies before the
//     effect: the redelivery is taken for a duplicate and the payment is lost;
//   - Watermill's Deduplicator remembers the key before the handler runs and
//     keeps it when the handler fails, so it does what MarkBeforeEffect does:
//     the redelivery is dropped and the effect never applied, whether the
//     middleware is called directly or a router nacks and its broker
//     (GoChannel) redelivers;
//   - a Retry middleware inside the Deduplicator retries the handler in the
//     same process, without asking the Deduplicator again: the effect is
//     applied once, as long as the process lives through the retries;
//   - a handler that fails after its effect (the failure archlab's row
//     injects) is fine with the Deduplicator too: the effect stays, the
//     redelivery is dropped, the effect is applied once. It is a failure
//     before the effect that it turns into a lost message.
//
// archlab has no row for a failure before the effect: the Ledger's
// transaction cannot fail halfway, and a real one that fails rolls the key
// back with the effect, so the redelivery applies it.
//
// If either library changes its behaviour, a row here fails.
func TestMarkBeforeEffect(t *testing.T) {
	rows := []markBeforeEffect{
		{"archlab-Consume", archlabConsume, 1},
		{"archlab-MarkBeforeEffect", archlabMarkBeforeEffect, 0},
		{"watermill-Deduplicator", watermillMiddleware(false, false), 0},
		{"watermill-router-gochannel", watermillRouter, 0},
		{"watermill-Deduplicator+Retry", watermillMiddleware(true, false), 1},
		{"watermill-Deduplicator-fails-after-effect", watermillMiddleware(false, true), 1},
	}
	pay := Payment(1)
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			effects, balance := r.run(t, pay)
			if effects != r.want || balance != int64(r.want)*Amount {
				t.Fatalf("effects=%d balance=%d; want %d and %d", effects, balance, r.want, int64(r.want)*Amount)
			}
			t.Logf("mark-before-effect: consumer=%s deliveries=2 effects=%d balance=%d lost=%v",
				r.name, effects, balance, effects == 0)
		})
	}
}

// archlabConsume: the ack of the first delivery is lost after the commit, the
// broker redelivers, ApplyOnce finds the key. Consume's body runs twice.
func archlabConsume(t *testing.T, pay inbox.Message) (int, int64) {
	ledger, ack := inbox.NewLedger(), inbox.NewMemoryAck()
	ack.LoseNext()
	if _, err := inbox.Consume(ledger, pay, ack); !errors.Is(err, inbox.ErrAckLost) {
		t.Fatalf("first delivery: %v, want ErrAckLost", err)
	}
	if applied, err := inbox.Consume(ledger, pay, ack); applied || err != nil {
		t.Fatalf("redelivery: applied=%v err=%v, want a duplicate", applied, err)
	}
	return ledger.Applies(), ledger.Balance(pay.OrderID)
}

// archlabMarkBeforeEffect: the book's wrong order, for reference. The crash
// comes between the key and the effect; the redelivery finds the key and
// returns without running the effect.
func archlabMarkBeforeEffect(t *testing.T, pay inbox.Message) (int, int64) {
	ledger := inbox.NewLedger()
	if err := ledger.MarkBeforeEffect(pay, true); !errors.Is(err, inbox.ErrSimulatedCrash) {
		t.Fatalf("first delivery: %v, want ErrSimulatedCrash", err)
	}
	if err := ledger.MarkBeforeEffect(pay, false); err != nil {
		t.Fatalf("redelivery: %v", err)
	}
	return ledger.Applies(), ledger.Balance(pay.OrderID)
}

// failingOnce is a handler whose first run fails: before the payment is
// applied, or with afterEffect just after. Later runs apply it and succeed.
type failingOnce struct {
	runs        int
	afterEffect bool
	balances    *Balances
}

func (f *failingOnce) handle(msg *message.Message) ([]*message.Message, error) {
	f.runs++
	if f.runs > 1 {
		return f.balances.Handler(msg)
	}
	if f.afterEffect {
		f.balances.Handler(msg)
	}
	return nil, errHandler
}

// watermillMiddleware calls the Deduplicator's middleware directly, the
// redelivery being a second *message.Message with the same metadata. With
// retry, a middleware.Retry sits between the Deduplicator and the handler,
// as in router.AddMiddleware(dedup.Middleware, retry.Middleware). With
// afterEffect the handler fails after applying the payment.
func watermillMiddleware(retry, afterEffect bool) func(*testing.T, inbox.Message) (int, int64) {
	return func(t *testing.T, pay inbox.Message) (int, int64) {
		d, err := NewDeduplicator()
		if err != nil {
			t.Fatal(err)
		}
		f := &failingOnce{afterEffect: afterEffect, balances: NewBalances()}
		inner := message.HandlerFunc(f.handle)
		if retry {
			inner = middleware.Retry{MaxRetries: 1, InitialInterval: time.Millisecond}.Middleware(inner)
		}
		h := d.Middleware(inner)
		_, err = h(WatermillMessage(pay))
		if retry != (err == nil) {
			t.Fatalf("first delivery: err=%v (retry=%v)", err, retry)
		}
		if _, err := h(WatermillMessage(pay)); err != nil {
			t.Fatalf("redelivery: %v", err)
		}
		// The redelivery never reaches the handler: one run, or two when
		// Retry ran it again inside the first delivery.
		if wantRuns := map[bool]int{false: 1, true: 2}[retry]; f.runs != wantRuns {
			t.Fatalf("the handler ran %d times, want %d", f.runs, wantRuns)
		}
		return f.balances.Applies(), f.balances.Balance(pay.OrderID)
	}
}

// watermillRouter runs the scenario end to end: a Router with the
// Deduplicator as middleware over a GoChannel pub/sub. The handler's error
// makes the router nack; GoChannel resends; the Deduplicator drops the resend
// and the router acks it. Publish blocks until that ack.
func watermillRouter(t *testing.T, pay inbox.Message) (int, int64) {
	logger := watermill.NopLogger{}
	pubSub := gochannel.NewGoChannel(gochannel.Config{BlockPublishUntilSubscriberAck: true}, logger)
	defer pubSub.Close()
	router, err := message.NewRouter(message.RouterConfig{}, logger)
	if err != nil {
		t.Fatal(err)
	}
	d, err := NewDeduplicator()
	if err != nil {
		t.Fatal(err)
	}
	router.AddMiddleware(d.Middleware)
	f := &failingOnce{balances: NewBalances()}
	router.AddConsumerHandler("payments", "payments", pubSub, func(msg *message.Message) error {
		_, err := f.handle(msg)
		return err
	})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- router.Run(ctx) }()
	select {
	case <-router.Running():
	case <-ctx.Done():
		t.Fatal("router did not start")
	}
	if err := pubSub.Publish("payments", WatermillMessage(pay)); err != nil {
		t.Fatal(err)
	}
	if err := router.Close(); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if f.runs != 1 {
		t.Fatalf("the handler ran %d times; the Deduplicator should have dropped the redelivery before it", f.runs)
	}
	return f.balances.Applies(), f.balances.Balance(pay.OrderID)
}
