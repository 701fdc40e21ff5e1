package check

import (
	"fmt"
	"slices"
	"strings"

	"archlab/drills"
	"archlab/explore"
	"archlab/harness"
	"archlab/i18n"
)

// A lesson's ID names it the same in every result and every language, so
// that a class of results can be counted by lesson (archlab class):
//
//	unit/NAME             a unit of the book's that failed
//	counter/DRILL/NAME    a drill's counter that differs from the book's
//	drill/DRILL/CHECK     a drill's check, or a harm its run did (its
//	                      section's, by the check it breaks: not-lost)
//	clause/CLAUSE         a clause of a mechanism exercise's doc comment
//	explore/INVARIANT     an invariant of the explorer's scope
//	unfired/FAULT         a fault class no schedule struck
//	unreached/CLAUSE      a clause no call reached
//	too-busy/CLAUSE       a clause the machine was too busy to judge
//	book-type/TYPE        the book's own mechanism type, handed over
func (l Lesson) ID() string {
	switch {
	case l.Unit != "":
		return "unit/" + l.Unit
	case l.Counter != "":
		return "counter/" + l.Drill + "/" + l.Counter
	case l.Drill != "":
		return "drill/" + l.Drill + "/" + l.Check
	case strings.HasPrefix(l.Key, "check.clause."):
		return "clause/" + l.Check
	case strings.HasPrefix(l.Key, "check.lesson.") && len(l.Args) == 1:
		return strings.TrimPrefix(l.Key, "check.lesson.") + "/" + fmt.Sprint(l.Args[0])
	}
	return "explore/" + l.Check
}

// LessonTextByID is the text of exercise's lesson id in lang, when the ID
// alone says it (every lesson but a unit's and a counter's, whose texts
// carry values): ok is false otherwise, or for an ID no lesson has.
func LessonTextByID(lang i18n.Lang, exercise, id string) (text string, ok bool) {
	kind, rest, _ := strings.Cut(id, "/")
	var l Lesson
	switch kind {
	case "drill":
		drill, c, found := strings.Cut(rest, "/")
		if !found {
			return "", false
		}
		l = Lesson{Drill: drill, Check: c, Key: "check." + drill + "." + c}
		if d, err := drills.Lookup(drill); err == nil && slices.Contains(d.Harms(), c) {
			l = harmLesson(drill, c) // a harm the drill's run did
		}
	case "clause":
		l = Lesson{Check: rest, Key: "check.clause." + exercise + "." + rest}
	case "explore":
		l = Lesson{Check: rest, Key: "explore.emit.check." + rest}
	case "unfired", "unreached", "too-busy", "book-type":
		l = Lesson{Check: kind, Key: "check.lesson." + kind, Args: []any{rest}}
	default:
		return "", false
	}
	// A key the catalogue lacks (a drill or a check no archlab has, in a
	// hand-edited result) comes back as "[key]".
	text = LessonText(lang, l)
	if l.Drill != "" && text == l.Check {
		return "", false // a drill's own words fall back to the check's name: none for it
	}
	return text, text != "" && !strings.HasPrefix(text, "[")
}

// KnownLessonID reports whether id is a lesson exercise can break, as
// this archlab names them: a unit the exercise has, a counter of one of
// its drills, a check or clause the catalogue has words for, a fault
// class or a clause of its own. A class (ui/class) counts only those:
// an ID a result made up would bring its own words to the projector
// (issue 43).
func KnownLessonID(exercise, id string) bool {
	ex, err := Lookup(exercise)
	if err != nil {
		return false
	}
	kind, rest, _ := strings.Cut(id, "/")
	switch kind {
	case "unit":
		return slices.ContainsFunc(ex.Units, func(u Unit) bool { return u.Name == rest })
	case "counter":
		drill, name, _ := strings.Cut(rest, "/")
		d, err := drills.Lookup(drill)
		return err == nil && slices.Contains(ex.Drills, drill) &&
			slices.ContainsFunc(d.Book, func(c harness.Counter) bool { return c.Name == name })
	case "unfired":
		return slices.Contains(explore.FaultClasses(), rest)
	case "unreached", "too-busy":
		return ex.model != nil && slices.Contains(ex.model.clauses, rest)
	}
	_, ok := LessonTextByID(i18n.EN, exercise, id)
	return ok
}
