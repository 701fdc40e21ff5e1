package check

import (
	"testing"
	"testing/fstest"
)

// TestFingerprintCoversSubfolders: the stale-binary fingerprint changes
// when a file of a helper package under exercises/ changes (issue 37: an
// archlab built before exercises/helper/ changed said done), and not when
// a test file or a file go build leaves out does.
func TestFingerprintCoversSubfolders(t *testing.T) {
	fsys := fstest.MapFS{
		"ledger.go":        {Data: []byte("package exercises\n")},
		"helper/x.go":      {Data: []byte("package helper\n")},
		"helper/x_test.go": {Data: []byte("package helper\n")},
		"_old/y.go":        {Data: []byte("package old\n")},
	}
	before, err := Fingerprint(fsys)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"helper/x_test.go", "_old/y.go"} {
		fsys[name] = &fstest.MapFile{Data: []byte("package changed\n")}
		if got, _ := Fingerprint(fsys); got != before {
			t.Errorf("%s changed the fingerprint", name)
		}
	}
	fsys["helper/x.go"] = &fstest.MapFile{Data: []byte("package helper\n\nvar X = 1\n")}
	if got, _ := Fingerprint(fsys); got == before {
		t.Error("a helper package's file changed and the fingerprint did not")
	}
}
