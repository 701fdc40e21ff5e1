package drills

import (
	"archlab/internal/ordering"
)

// This drill demonstrates rebuilding a projection by replay. Five events of
// two orders sit in an append-only log. A fresh projection replays the log
// from offset 0 and reaches the same rows as the live one. Then a consumer
// that lost its last offset commit resumes from an older offset
// (--resume-from) and reads the tail again: every re-read event is a
// duplicate, and the rows do not move. Lesson: because Apply is idempotent by
// version, replay from any offset is safe, and a rebuild needs only the log.
var replay = Drill{
	Name:    "replay",
	Section: "8.3",
	Params: []Param{
		{Name: "resume-from", Default: 3, Min: 0, Max: 5},
		{Name: "batch", Default: 2, Min: 1, Max: 100},
	},
	Book: book("events", "5", "rebuilt_applied", "5", "duplicates", "2", "offset", "5"),
	run:  runReplay,
}

// orderLog is the 8.3 log: two orders, interleaved.
var orderLog = []ordering.Event{
	{ID: "evt-1", OrderID: "o-1", Version: 1, Type: "reserve"},
	{ID: "evt-2", OrderID: "o-2", Version: 1, Type: "reserve"},
	{ID: "evt-3", OrderID: "o-1", Version: 2, Type: "pay"},
	{ID: "evt-4", OrderID: "o-2", Version: 2, Type: "pay"},
	{ID: "evt-5", OrderID: "o-1", Version: 3, Type: "fulfill"},
}

func runReplay(v Values, r *Recorder) error {
	log := ordering.NewLog()
	r.Phase(Setup)
	for _, e := range orderLog {
		r.Step("producer", "log", M("step.append", e), M("res.log-length", log.Append(e)), Neutral)
	}
	rebuilt := ordering.NewProjection()
	full, err := ordering.Replay(log, rebuilt, 0, v["batch"])
	if err != nil {
		return err
	}
	r.Step("rebuilder", "log", M("step.replay-from", 0, v["batch"]), M("res.replayed", full.Applied, full.Duplicates, full.Offset), Good)
	o1, _ := rebuilt.Get("o-1")
	o2, _ := rebuilt.Get("o-2")
	// The fault: the consumer's last offset commit was lost, so it resumes
	// from an older offset and reads the tail again.
	r.Phase(Fault)
	r.Step("consumer", "log", M("step.resume-from", v["resume-from"]), M("res.offset-behind", log.Len()-v["resume-from"]), Bad)
	r.Phase(Recovery)
	again, err := ordering.Replay(log, rebuilt, v["resume-from"], v["batch"])
	if err != nil {
		return err
	}
	r.Step("consumer", "log", M("step.replay-from", v["resume-from"], v["batch"]), M("res.replayed", again.Applied, again.Duplicates, again.Offset), Good)
	r.Phase(Verdict)
	after1 := recordState(r, rebuilt, "o-1")
	after2 := recordState(r, rebuilt, "o-2")
	r.Count("events", log.Len())
	r.Count("rebuilt_applied", full.Applied)
	r.Count("duplicates", again.Duplicates)
	r.Count("offset", again.Offset)
	r.Check("check.replay.rebuild-applies-all", full.Applied == log.Len() && full.Offset == log.Len())
	r.Check("check.replay.tail-is-duplicates", again.Applied == 0 && again.Duplicates == log.Len()-v["resume-from"])
	r.Check("check.replay.rows-unchanged", after1 == o1 && after2 == o2)
	return nil
}
