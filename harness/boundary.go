package harness

import "archlab/internal/inbox"

// The real boundary of exactly-once (§8.2's title). The dedup key makes an
// effect once only when the effect lives in the same local store, written
// in the same transaction as the key. A message declared with "notify" is
// one whose handler also calls a service outside that store (a
// notification, another service's API) after its local transaction and
// before its ack. Nothing rolls that call back and no dedup key guards it,
// so every delivery whose handler gets that far calls again.

// outside counts the calls to the outside service, per message.
type outside struct {
	notify map[int]bool
	calls  map[int]int
	total  int
}

// Uncalled counts the messages whose handler was to call the outside
// service, and which were applied, but whose call was never made: a
// harm, as a lost payment is.
func (h *Inbox) Uncalled() int {
	n := 0
	for i := range h.outside.notify {
		if h.applied[i] > 0 && h.outside.calls[i] == 0 {
			n++
		}
	}
	return n
}

// Notify makes message i's handler call the outside service.
func (h *Inbox) Notify(i int) {
	if h.outside.notify == nil {
		h.outside.notify, h.outside.calls = map[int]bool{}, map[int]int{}
	}
	h.outside.notify[i] = true
}

// Calls is how often message i's handler called the outside service.
func (h *Inbox) Calls(i int) int { return h.outside.calls[i] }

// callOutside is the handler's call to the outside service, made after its
// local writes returned and before the ack: the environment makes it when
// the handler acks (or, for a consumer process killed before its ack, when
// the broker's side learns the writes returned). A handler that died before
// that point made no call.
func (h *Inbox) callOutside(i int) {
	if !h.outside.notify[i] {
		return
	}
	h.outside.calls[i]++
	h.outside.total++
	n := h.outside.calls[i]
	h.step("consumer", "notifier", M("step.notify", h.msgs[i]), M("res.notified", n), toneIf(n > 1, Bad, Neutral))
}

// notifyFor is the student's call to the outside service for m: a message
// declared notify is called, another is not.
func (h *Inbox) notifyFor(m inbox.Message) {
	for i, x := range h.msgs {
		if x == m {
			h.callOutside(i)
			return
		}
	}
}
