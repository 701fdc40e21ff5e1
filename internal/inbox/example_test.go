package inbox_test

import (
	"fmt"

	"archlab/internal/inbox"
)

// A lost ack makes the broker redeliver; the dedup key, written in the same
// transaction as the effect, turns the redelivery into a no-op.
func Example() {
	ledger, acks := inbox.NewLedger(), inbox.NewMemoryAck()
	m := inbox.Message{Producer: "pay", ID: "evt-1", Seq: 1, OrderID: "o-1", AmountCents: 2599}

	acks.LoseNext()
	applied, err := inbox.Consume(ledger, m, acks)
	fmt.Println("first delivery:", applied, err)

	applied, err = inbox.Consume(ledger, m, acks)
	fmt.Println("redelivery:", applied, err)
	fmt.Println("balance:", ledger.Balance("o-1"), "effects:", ledger.Applies())
	// Output:
	// first delivery: true inbox: ack pay:evt-1: ack lost
	// redelivery: false <nil>
	// balance: 2599 effects: 1
}
