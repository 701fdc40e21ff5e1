package harness

import (
	"errors"

	"archlab/i18n"
	"archlab/internal/ordering"
)

// §8.3's fault table. Each row is one thing the broker does to an event's
// delivery that the book's consumer must survive: hand it over before a
// lower version of its order, hand it over again, or hand over an event
// no retry can fix. A scenario stages each by what it delivers and in
// which order (a drill's deliver and publish steps, the explorer's delivery
// orders); the row says how a delivery is recognised as struck by it.
//
// Every reader of §8.3's faults reads this table: `drill --verbs` (its
// words), the explorer's fault classes and the pass's counts of them.

// OrderingDelivery is one delivery as the table sees it: the event, and
// what the broker had delivered before it.
type OrderingDelivery struct {
	Event ordering.Event
	// Seen: the broker delivered this event before; Highest: the highest
	// version of its order it delivered before.
	Seen    bool
	Highest int64
}

// OrderingFault is one row of §8.3's table.
type OrderingFault struct {
	Name string
	// Strikes reports whether a delivery is struck by the row.
	Strikes func(OrderingDelivery) bool
	// Doc says what happens, in one line, for --verbs; Brief in a few
	// words.
	Doc, Brief Words
}

// poisonous reports whether no retry can ever apply e: the book's
// projection refuses it as poison whatever it holds.
func poisonous(e ordering.Event) bool {
	_, err := ordering.NewProjection().Apply(e)
	return errors.Is(err, ordering.ErrPoison)
}

// OrderingFaults is the table, in its canonical order.
var OrderingFaults = [...]OrderingFault{
	{Name: "out-of-order", Strikes: func(d OrderingDelivery) bool { return !poisonous(d.Event) && d.Event.Version < d.Highest },
		Doc: Words{"the broker delivers an event after a higher version of its order (deliver and publish it later)",
			"消息代理在同一订单更高的版本之后才投递某个事件（把它的 deliver、publish 写在后面）"},
		Brief: Words{"an event after a higher version", "事件晚于更高版本到达"}},
	{Name: "duplicate", Strikes: func(d OrderingDelivery) bool { return d.Seen },
		Doc: Words{"the broker delivers an event it delivered before (deliver or publish it again)",
			"消息代理再次投递已投递过的事件（再写一次 deliver 或 publish）"},
		Brief: Words{"an event delivered again", "事件被再次投递"}},
	{Name: "gap", Strikes: func(d OrderingDelivery) bool {
		return !poisonous(d.Event) && !d.Seen && d.Event.Version > d.Highest+1
	},
		Doc: Words{"the broker delivers an event while a version before it was never delivered (publish it before its predecessor)",
			"消息代理投递某个事件时，它之前的某个版本还从未投递过（把它的 publish 写在前驱之前）"},
		Brief: Words{"an event past a missing version", "事件越过了缺失的版本"}},
	{Name: "poison", Strikes: func(d OrderingDelivery) bool { return poisonous(d.Event) },
		Doc: Words{"the broker delivers an event no retry can apply: a type the order's state machine does not know, or a version its type never has",
			"消息代理投递一个任何重试都无法应用的事件：订单状态机不认识的类型，或该类型不可能有的版本"},
		Brief: Words{"an event no retry can apply", "无法靠重试应用的事件"}},
}

// DocKey is the key of the row's Doc.
func (f OrderingFault) DocKey() string { return "fault.8.3." + f.Name }

// OrderingFaultsOf is the rows a run of deliveries struck, bit k for row k.
func OrderingFaultsOf(events []ordering.Event) uint32 {
	var m uint32
	seen := map[string]bool{}
	highest := map[string]int64{}
	for _, e := range events {
		d := OrderingDelivery{Event: e, Seen: seen[e.ID], Highest: highest[e.OrderID]}
		for k, f := range OrderingFaults {
			if f.Strikes(d) {
				m |= 1 << k
			}
		}
		seen[e.ID] = true
		if !poisonous(e) {
			highest[e.OrderID] = max(highest[e.OrderID], e.Version)
		}
	}
	return m
}

// orderingStaged is the table as --verbs lists it.
func orderingStaged() []StagedFault {
	var out []StagedFault
	for _, f := range OrderingFaults {
		out = append(out, StagedFault{f.Name, f.DocKey()})
	}
	return out
}

func init() {
	en, zh := map[string]string{"cli.verbs.staged": "faults of the section's table, staged by what the steps deliver and when:"},
		map[string]string{"cli.verbs.staged": "本节故障表中的故障，由步骤投递什么、何时投递来安排："}
	for _, f := range OrderingFaults {
		en[f.DocKey()], zh[f.DocKey()] = f.Doc.En, f.Doc.Zh
	}
	i18n.Add(i18n.EN, en)
	i18n.Add(i18n.ZH, zh)
}
