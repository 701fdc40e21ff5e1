package drills

import (
	"errors"
	"os"
	"strings"
	"testing"

	"archlab/i18n"
)

// TestBuiltinFilesHaveTheirWords: adding a drill is one file, and that file
// carries its words in both languages: a title, every parameter's help,
// every bound's reason, every check and the explanation.
func TestBuiltinFilesHaveTheirWords(t *testing.T) {
	for _, d := range All() {
		f := d.file
		for _, lang := range i18n.Langs {
			texts := f.texts[lang]
			if texts == nil {
				t.Errorf("%s: no -- %s -- part", d.Path, lang)
				continue
			}
			want := []string{"title", "explain"}
			for _, p := range f.params {
				want = append(want, "param "+p.Name)
				if p.maxExpr != nil {
					want = append(want, "why "+p.Name)
				}
			}
			for _, c := range f.checks {
				want = append(want, "check "+c.name)
			}
			for _, k := range want {
				if strings.TrimSpace(texts[k]) == "" {
					t.Errorf("%s: the %s part has no %q", d.Path, lang, k)
				}
			}
		}
		if f.doc == "" || !strings.Contains(f.doc, "Lesson") {
			t.Errorf("%s: the header's comment must tell the scenario and its lesson", d.Path)
		}
		if !f.hasExpect {
			t.Errorf("%s: a built-in drill states what the book prints in -- expect --", d.Path)
		}
	}
}

// TestTeacherFile: the example of docs/drill-files.md, written with no Go, runs green.
func TestTeacherFile(t *testing.T) {
	data, err := os.ReadFile("../testdata/files/ack-lost-twice-then-crash.txtar")
	if err != nil {
		t.Fatal(err)
	}
	d, err := Parse("ack-lost-twice-then-crash.txtar", data)
	if err != nil {
		t.Fatal(err)
	}
	res, err := d.Run(d.Defaults())
	if err != nil || res.Err != nil || !res.Pass {
		t.Fatalf("err=%v res.Err=%v pass=%v checks=%v", err, res.Err, res.Pass, res.Checks)
	}
	got := map[string]string{}
	for _, c := range res.Counters {
		got[c.Name] = c.Value
	}
	// Four deliveries; three ack attempts reach the broker's count (the
	// crash sends none); one effect.
	want := map[string]string{"deliveries": "4", "effects": "1", "balance": "2599", "acks": "3"}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s=%s, want %s", k, got[k], v)
		}
	}
}

// A minimal valid file, to break one part at a time.
const okFile = `# ok
drill tiny
section 8.2
-- steps --
message pay:evt-1
deliver pay:evt-1
-- counters --
effects
-- checks --
once: effects == 1
`

// TestParseErrors: a bad file names its line, what is wrong and what is
// allowed.
func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, file, line, want string
	}{
		{"no drill line", strings.Replace(okFile, "drill tiny\n", "", 1), ":1:", "needs \"drill NAME\""},
		{"bad section", strings.Replace(okFile, "section 8.2", "section 9.9", 1), ":3:", "the sections are 8.2"},
		{"unknown header", strings.Replace(okFile, "section 8.2", "section 8.2\ncolour red", 1), ":4:", "unknown header line"},
		{"unknown verb", strings.Replace(okFile, "deliver pay", "delivr pay", 1), ":6:", "did you mean deliver?"},
		{"missing argument", strings.Replace(okFile, "deliver pay:evt-1", "deliver", 1), ":6:", "deliver needs MSG"},
		{"unknown option", strings.Replace(okFile, "deliver pay:evt-1", "deliver pay:evt-1 twice=yes", 1), ":6:", "has no option twice="},
		{"bad expression", strings.Replace(okFile, "effects == 1", "effects == ", 1), ":10:", "expected a value"},
		{"unknown name", strings.Replace(okFile, "effects == 1", "effect == 1", 1), ":10:", "unknown name \"effect\""},
		{"unknown parameter", strings.Replace(okFile, "effects == 1", "effects == $n", 1), ":10:", "unknown parameter $n"},
		{"no checks", strings.Replace(okFile, "once: effects == 1\n", "", 1), ":", "no checks"},
		{"missing part", strings.Replace(okFile, "-- counters --\neffects\n", "", 1), ":", "no \"counters\" part"},
		{"unknown part", okFile + "-- notes --\nhi\n", ":11:", "unknown part \"notes\""},
		{"unknown phase", strings.Replace(okFile, "deliver pay", "[later]\ndeliver pay", 1), ":6:", "unknown phase [later]"},
		{"bad param", strings.Replace(okFile, "section 8.2", "section 8.2\nparam n 010 1..5", 1), ":4:", "not a decimal number"},
		{"bad strategy", strings.Replace(okFile, "section 8.2", "section 8.2\nstrategy yolo", 1), ":", "unknown strategy \"yolo\""},
		{"bind nothing", strings.Replace(okFile, "message pay:evt-1", "message pay:evt-1 -> m", 1), ":5:", "reports nothing to bind"},
		{"unknown field", strings.Replace(strings.Replace(okFile, "deliver pay:evt-1\n", "deliver pay:evt-1 -> d\n", 1), "effects == 1", "d.nope", 1), ":10:", "d has no field nope; its fields are applied"},
		{"not text", okFile + "\x00", ":", "not UTF-8 text"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("f.txtar", []byte(tt.file))
			if tt.want == "" {
				if err != nil {
					t.Fatalf("want no error, got %v", err)
				}
				return
			}
			var fe *FileError
			if !errors.As(err, &fe) {
				t.Fatalf("want a *FileError, got %v", err)
			}
			if msg := err.Error(); !strings.HasPrefix(msg, "f.txtar"+tt.line) || !strings.Contains(msg, tt.want) {
				t.Fatalf("got %q, want f.txtar%s… containing %q", msg, tt.line, tt.want)
			}
		})
	}
}

// TestRunErrorsNameTheLine: a step that asks for a message never declared
// is the file's mistake, reported at its line, not the mechanism's.
func TestRunErrorsNameTheLine(t *testing.T) {
	d, err := Parse("f.txtar", []byte(strings.Replace(okFile, "deliver pay:evt-1", "deliver pay:evt-2", 1)))
	if err != nil {
		t.Fatal(err)
	}
	_, err = d.Run(d.Defaults())
	var fe *FileError
	if !errors.As(err, &fe) || fe.Line != 6 || !strings.Contains(err.Error(), "no message pay:evt-2") {
		t.Fatalf("got %v", err)
	}
}
