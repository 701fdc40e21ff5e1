package harness

import (
	"fmt"

	"archlab/i18n"
)

// §8.2's fault table. Each row is one thing the broker may do with a message
// in one step of a scenario, and what the environment does to that delivery:
// where the consumer dies, whether the ack is lost, whether the message is
// handed over twice or again after it was acked. The book's functions never
// see a row; the row decides what the store and the ack store around them
// do (deliveryEnv).
//
// Every reader of §8.2's faults reads this table and nothing else: the drill
// parser's choices for deliver, `drill --verbs`, the explorer's choices, its
// closed-form count, its sampler and its state engine, and the student's
// path. A new fault is a new row (with its words), and a drill that uses it.

// Point is where a consumer can die during a delivery, seen from outside
// the handler: at the calls it makes to its store and to the broker.
type Point string

// The points of one delivery, in the order a handler passes them.
const (
	BeforeWrites  Point = "before-writes"  // at its first call: delivered, nothing written
	BetweenWrites Point = "between-writes" // at its first write: inside it when it is one transaction (nothing commits), between MarkBeforeEffect's two writes, right after a lone write
	BeforeAck     Point = "before-ack"     // at its ack: every write returned, the ack not sent
	AfterAck      Point = "after-ack"      // at its first call after the ack was sent, or its end: what it does after the ack is lost
	// AtCall is a gap between two of the consumer's calls (InboxFault.Gap):
	// right before its k-th call of the step, or after its last.
	AtCall Point = "at-call"
)

// MsgState is what the broker holds of a message.
type MsgState uint8

// The broker's states of a message.
const (
	Unacked MsgState = iota // the broker will deliver it (again)
	Acked                   // done, unless the broker is rewound
)

// Words is one text in each language. A table row carries its own words;
// the catalogue (package i18n) reads them from the row.
type Words struct{ En, Zh string }

// FaultKind names a row of the table in drill files and schedules:
// "crash-mid"; "" is a delivery with no fault.
type FaultKind string

// InboxFault is one row of §8.2's table.
type InboxFault struct {
	Name FaultKind
	// On is the state of the messages the row applies to: an unacked
	// message is delivered (plainly, or meeting a fault), an acked one
	// only replayed.
	On MsgState
	// Copies is how many times the broker hands the message over in this
	// step: two for a duplicate, whose second copy was sent before the
	// first one's ack arrived.
	Copies int
	// Crash is where the consumer dies, "" for nowhere.
	Crash Point
	// LoseAck keeps the handler's ack from the broker (ErrAckLost).
	LoseAck bool
	// Replay asks the broker for an acked message again, as after an
	// offset rewind; a real broker seeks back to it.
	Replay bool
	// FailEffect makes the local store refuse the write that carries the
	// effect (ErrEffectFailed): the consumer lives, its handler is told,
	// and a handler that returns the error sends no ack, so the broker
	// redelivers (NATS JetStream's AckWait, Kafka's uncommitted offset).
	FailEffect bool
	// Extra marks a row beyond the book's scopes: the explorer's default
	// scopes leave it out (their counts are the book's figures), the
	// student's scope and the state pages take it in
	// (InboxScope.Extra): the store's failures, the crash after the ack.
	Extra bool
	// Gap, when set, is a crash at a gap between the consumer's calls,
	// wherever the code's calls put it: the consumer dies right before its
	// Gap-th call of the step, the calls of its restart (a recovery step,
	// when a crash left it down) counted first; a step of fewer calls dies
	// after its last. The rows crash-call-2 … crash-call-MaxGap are a
	// student's scope's (InboxScope.AtCalls): together with crash-before they
	// strike every gap of every step, whatever calls the code makes and in
	// whatever order, where the other crash rows strike at fixed points of
	// the book's designs.
	Gap int
	// LeaseExpires: the lease a delivery's Claim takes runs out at its
	// next call, while it is alive and slow, and the broker hands the
	// message to another consumer first (inbox_lease.go). A delivery that
	// claims no lease meets no fault.
	LeaseExpires bool
	// Doc says what happens, in one line, for --verbs; Brief in a few
	// words, for the explorer's legend.
	Doc, Brief Words
	// Step, when set, is how the trace names the broker handing over the
	// row's own copy (the last one), with the message and the attempt as
	// arguments (%[1]v, %[2]d); StepPID is the same to a consumer process
	// (%[3]d is its pid). Without them the copy is a plain delivery.
	Step, StepPID Words
}

// Fault reports whether the row spends one of a scope's faults: every row
// but the plain delivery does.
func (f InboxFault) Fault() bool { return f.Name != "" }

// AtCalls reports whether the row strikes at the code's own calls (a gap
// between any two, the call after a Claim): only a student's scope takes
// such rows in (InboxScope.AtCalls), enumerated, and a delivery the row
// did not strike (Delivered.Beyond) is left out as a run already walked.
func (f InboxFault) AtCalls() bool { return f.Gap > 0 || f.LeaseExpires }

// NeedsCall reports whether a fault class strikes only at a call the code
// may never make (the lease's claim): a pass may have met it 0 times.
func NeedsCall(class string) bool {
	for _, f := range InboxFaults {
		if f.Class() == class {
			return f.LeaseExpires
		}
	}
	return false
}

// Class is the fault class the row counts in (check's count of the
// classes a pass met): its name, but one class for every gap row.
func (f InboxFault) Class() string {
	if f.Gap > 0 {
		return GapClass
	}
	return string(f.Name)
}

// GapClass is the class of the gap rows.
const GapClass = "crash-call-k"

// MaxGap is the last call a gap row strikes before: enough for the
// longest step of a student's scope (a durable inbox's restart processing
// three rows, then a delivery that stores, acks and processes one).
const MaxGap = 16

// gapRow is the row that crashes before call k.
func gapRow(k int) InboxFault {
	return InboxFault{Name: FaultKind(fmt.Sprintf("crash-call-%d", k)), On: Unacked, Copies: 1, Gap: k,
		Doc: Words{fmt.Sprintf("the consumer dies right before its %s call of the step (its restart's calls first), or after its last if it makes fewer", ordinal(k)),
			fmt.Sprintf("消费端在这一步的第 %d 次调用之前崩溃（重启时恢复步骤的调用先算）；调用不足 %d 次则在最后一次调用之后崩溃", k, k)},
		Brief: Words{fmt.Sprintf("before call %d", k), fmt.Sprintf("第 %d 次调用之前", k)}}
}

// ordinal is 2nd, 3rd, 4th, … 11th, 12th, … 21st.
func ordinal(k int) string {
	suffix := "th"
	if k%100 < 11 || k%100 > 13 {
		switch k % 10 {
		case 1:
			suffix = "st"
		case 2:
			suffix = "nd"
		case 3:
			suffix = "rd"
		}
	}
	return fmt.Sprintf("%d%s", k, suffix)
}

// Settles reports whether, under a handler that acks every delivery it
// survives, the message ends the step acked.
// A gap row may strike before the ack or after it, so it is taken as not
// settling: the walkers ask the harness what was acked.
func (f InboxFault) Settles() bool {
	return (f.Crash == "" || f.Crash == AfterAck) && !f.LoseAck && !f.FailEffect && f.Gap == 0
}

// Acks is how many ack attempts the broker sees in the step, under such a
// handler: one per copy, unless the consumer dies before its ack.
func (f InboxFault) Acks() int {
	if f.Crash != "" && f.Crash != AfterAck || f.FailEffect {
		return 0
	}
	return f.Copies
}

// InboxFaults is the table, in its canonical order: the explorer tries an
// unacked message's rows in this order, then an acked one's. Row 0 is the
// plain delivery. The rows beyond the book's (Extra) come last: the
// explorer's default scopes leave them out, and their fault classes are
// the table's others, in the same bits. It is an array, so its length is a constant the
// explorer's tables are sized by.
var InboxFaults = [...]InboxFault{
	{Name: "", On: Unacked, Copies: 1,
		Doc: Words{"the broker delivers it; the handler runs to its end", "消息代理投递，处理函数完整运行"}},
	{Name: "crash-before", On: Unacked, Copies: 1, Crash: BeforeWrites,
		Doc:   Words{"the consumer dies before its first write", "消费端在第一次写入之前崩溃"},
		Brief: Words{"before the first write", "第一次写之前"}},
	{Name: "crash-mid", On: Unacked, Copies: 1, Crash: BetweenWrites,
		Doc:   Words{"it dies between its writes (one transaction: nothing commits)", "在两次写入之间崩溃（同一事务之内：什么都不提交）"},
		Brief: Words{"between the writes", "两次写之间"}},
	{Name: "crash-after", On: Unacked, Copies: 1, Crash: BeforeAck,
		Doc:   Words{"it dies after its writes, before the ack", "写入之后、确认之前崩溃"},
		Brief: Words{"after the writes, before the ack", "写完之后、确认之前"}},
	{Name: "ack-lost", On: Unacked, Copies: 1, LoseAck: true,
		Doc:   Words{"its writes commit; the ack never reaches the broker", "写入已提交，确认没有到达消息代理"},
		Brief: Words{"the ack never arrives", "确认没有送达"}},
	{Name: "duplicate", On: Unacked, Copies: 2,
		Doc: Words{"an unacked message delivered twice, the copy sent before its ack arrived",
			"未确认的消息被投递两次：确认到达之前，第二份已经发出"},
		Brief: Words{"an unacked message delivered twice", "未确认的消息投递两次"},
		Step: Words{"delivers %[1]v again before its ack arrived (attempt %[2]d)",
			"确认到达之前又投出 %[1]v 的第二份（第 %[2]d 次）"},
		StepPID: Words{"delivers %[1]v again before its ack arrived (attempt %[2]d) to pid %[3]d",
			"确认到达之前又投出 %[1]v 的第二份（第 %[2]d 次）给进程 %[3]d"}},
	{Name: "replay", On: Acked, Copies: 1, Replay: true,
		Doc:     Words{"an acked message delivered again, as after an offset rewind", "已确认的消息被重放，如偏移量回退之后"},
		Brief:   Words{"an acked message delivered again", "已确认的消息重投"},
		Step:    Words{"replays %[1]v after an offset rewind", "偏移量回退后重放 %[1]v"},
		StepPID: Words{"replays %[1]v (offset rewind) to pid %[3]d", "重放 %[1]v（偏移量回退）给进程 %[3]d"}},
	{Name: "effect-fails", On: Unacked, Copies: 1, FailEffect: true, Extra: true,
		Doc: Words{"the local store refuses the effect's write; the consumer lives, and the broker redelivers what was not acked",
			"本地存储拒绝写入效果；消费端没有崩溃，消息代理重投没有被确认的消息"},
		Brief: Words{"the effect's write fails", "效果写入失败"}},
	{Name: "crash-after-ack", On: Unacked, Copies: 1, Crash: AfterAck, Extra: true,
		Doc: Words{"it dies right after its ack: what it meant to do after the ack never happens, until it restarts",
			"确认之后立刻崩溃：它打算在确认之后做的事没有发生，直到它重启"},
		Brief: Words{"right after the ack", "确认之后"}},
	{Name: "lease-expires", On: Unacked, Copies: 1, LeaseExpires: true,
		Doc: Words{"the lease its Claim took runs out while it is alive and slow: the broker hands the message to another consumer, whose delivery runs first",
			"它 Claim 得到的租约在它还活着、只是慢的时候到期：消息代理把消息交给另一个消费端，那次投递先跑完"},
		Brief: Words{"the lease runs out", "租约到期"},
		Step: Words{"hands %[1]v to another consumer after its lease ran out (attempt %[2]d)",
			"租约到期后把 %[1]v 交给另一个消费端（第 %[2]d 次）"},
		StepPID: Words{"hands %[1]v to another consumer after its lease ran out (attempt %[2]d) to pid %[3]d",
			"租约到期后把 %[1]v 交给另一个消费端（第 %[2]d 次），进程 %[3]d"}},
	gapRow(2), gapRow(3), gapRow(4), gapRow(5), gapRow(6), gapRow(7), gapRow(8), gapRow(9),
	gapRow(10), gapRow(11), gapRow(12), gapRow(13), gapRow(14), gapRow(15), gapRow(16),
}

// InboxFaultByName finds a row by its name; "" is the plain delivery.
func InboxFaultByName(name FaultKind) (int, bool) {
	for k, f := range InboxFaults {
		if f.Name == name {
			return k, true
		}
	}
	return 0, false
}

// inboxFaultNames are the names a drill file may write after deliver.
func inboxFaultNames() []string {
	var out []string
	for _, f := range InboxFaults {
		if f.Fault() {
			out = append(out, string(f.Name))
		}
	}
	return out
}

// inboxFaultsListed are the names as --verbs lists them: the gap rows
// once, as crash-call-k.
func inboxFaultsListed() []string {
	var out []string
	for _, f := range InboxFaults {
		if f.Fault() && f.Gap <= 2 {
			out = append(out, f.Class())
		}
	}
	return out
}

// gapWords explain the gap rows at once, for --verbs.
var gapWords = Words{fmt.Sprintf("the consumer dies right before its k-th call of the step, k from 2 to %d (its restart's calls first), or after its last if it makes fewer", MaxGap),
	fmt.Sprintf("消费端在这一步的第 k 次调用之前崩溃，k 从 2 到 %d（重启时恢复步骤的调用先算）；调用不足 k 次则在最后一次调用之后崩溃", MaxGap)}

// Catalogue keys of a row's words.

// DocKey is the key of the row's Doc.
func (f InboxFault) DocKey() string { return "fault.8.2." + f.name() }

// StepKey is the key of the row's Step; pid selects StepPID's.
func (f InboxFault) StepKey(pid bool) string {
	if pid {
		return "fault.8.2." + f.name() + ".step-pid"
	}
	return "fault.8.2." + f.name() + ".step"
}

func (f InboxFault) name() string {
	if f.Name == "" {
		return "ok"
	}
	return string(f.Name)
}

// The table's words join the catalogue when the program starts.
func init() {
	en, zh := map[string]string{}, map[string]string{}
	for key, w := range Texts() {
		en[key], zh[key] = w.En, w.Zh
	}
	i18n.Add(i18n.EN, en)
	i18n.Add(i18n.ZH, zh)
}

// Texts are the table's words by catalogue key: each row's Doc, Step and
// StepPID, and the explorer's legend of the faults, two to a line.
func Texts() map[string]Words {
	out := map[string]Words{}
	var legend Words
	n := 0
	out["fault.8.2."+GapClass] = gapWords
	for _, f := range InboxFaults {
		out[f.DocKey()] = f.Doc
		if f.Step != (Words{}) {
			out[f.StepKey(false)], out[f.StepKey(true)] = f.Step, f.StepPID
		}
		if !f.Fault() || f.Extra || f.AtCalls() { // explore inbox's legend: its scope has only the book's rows
			continue
		}
		sep, zsep := " · ", " · "
		switch {
		case n == 0:
			sep, zsep = "", ""
		case n%2 == 0:
			sep, zsep = "\n", "\n"
		}
		legend.En += sep + string(f.Name) + ": " + f.Brief.En
		legend.Zh += zsep + string(f.Name) + "：" + f.Brief.Zh
		n++
	}
	out["explore.legend.inbox"] = legend
	return out
}
