package i18n

// untrustedEN holds the words of issue 43's defences: a result file's
// counterexample checked against the model, names that look alike, the
// class page's limits, --save and --output-dir.
var untrustedEN = map[string]string{
	"class.err.calls":          "its calls are not a run of exercise %s's model (edited by hand?)",
	"class.err.lesson":         "exercise %s: no lesson %q in this archlab (edited by hand, or another archlab?)",
	"class.lesson.unit":        "the book's test %s fails",
	"class.lesson.drill":       "drill %s: %s",
	"class.lesson.counter":     "drill %s: the counter %s is not the book's",
	"class.err.name-invisible": "its name has a character that does not show (a zero-width space, a direction mark or override): another student's name could hide in it",
	"class.err.name-mixed":     "its name mixes Latin letters with Cyrillic or Greek ones: a letter that only looks Latin?",
	"class.err.look-alike":     "its name reads the same as %s (the same letters in another case or Unicode form, or look-alike letters of another alphabet): one student",
	"state.col.table":          "inbox table",
	"state.table.waiting":      "stored, waiting for the recovery",
	"state.table.none":         "—",
	"web.class.refused-hidden": "Files not read: %d. They are named by the students' names: archlab class lists them, and so does this page with --names.",
	"err.os.dangling":          "%s is a link to %s, which does not exist",
	"err.os.not-folder":        "%s is not a folder",
	"err.os.too-long":          "the path is too long for this system",
	"class.saved-drill":        "Row %[1]d's shortest run, saved by archlab class as %[2]s: in the student's repository,\n\"archlab drill --file %[2]s\" replays it. The lines below are the student's result's, as it gave them.",
}
