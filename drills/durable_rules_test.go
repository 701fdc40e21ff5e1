package drills

import (
	"fmt"
	"strings"
	"testing"
)

// TestDurableFaultRules: a fault the table reserves for an unacked message
// struck on an acked one is the same error under each of the lab's own
// designs as under the book's strategies (issue 43: durable-inbox skipped
// the rule, and ran the lines effect-then-ack refuses; after its fix,
// outbox and lease still did).
func TestDurableFaultRules(t *testing.T) {
	t.Parallel()
	for _, strategy := range []string{"effect-then-ack", "durable-inbox", "outbox", "lease"} {
		for _, fault := range []string{"crash-mid", "crash-after-ack", "effect-fails"} {
			src := fmt.Sprintf(`drill fault-on-acked
section 8.2
harness inbox
strategy %s
-- steps --
message checkout:evt-1 seq=1 order=o-1 amount=100
deliver checkout:evt-1
deliver checkout:evt-1 %s
-- counters --
deliveries
-- checks --
some: deliveries > 0
-- expect --
deliveries 2
-- en --
title: a fault on an acked message
check some: something was delivered
-- zh --
title: 已确认消息上的故障
check some: 有消息被投递
`, strategy, fault)
			d, err := Parse("fault-on-acked.txtar", []byte(src))
			if err == nil {
				var res *Result
				res, err = d.Run(d.Defaults())
				if err == nil {
					err = res.Err
				}
			}
			if err == nil || !strings.Contains(err.Error(), "acked already") {
				t.Errorf("%s, %s on an acked message: err %v, want it refused", strategy, fault, err)
			}
		}
	}
}
