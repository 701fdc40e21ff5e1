package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"archlab/adapters/consumerproc"
)

// TestMain lets the test binary act as the archlab command, so the scripts
// in testdata/script run the real CLI in-process, without a separate build.
func TestMain(m *testing.M) {
	// A consumer process of --crash real started by an in-process test
	// (os.Executable is then this test binary) acts as archlab.
	if os.Getenv(consumerproc.ChildEnv) == "1" {
		os.Exit(consumerproc.Main())
	}
	// A Go test that needs archlab as a real process (its stdout on
	// /dev/full, a signal, a second run on one database) starts this
	// binary with asArchlab=1 (exitstatus_test.go).
	if os.Getenv(asArchlab) == "1" {
		os.Exit(run(newIO(), os.Args[1:]))
	}
	if os.Getenv(asScreens) == "1" {
		os.Stdout.WriteString(printScreens())
		os.Exit(0)
	}
	testscript.Main(m, map[string]func(){
		"archlab": func() { os.Exit(run(newIO(), os.Args[1:])) },
		"sqlexec": sqlexecMain, // scripts make and read SQLite files (store_test.go)
	})
}

// TestScripts runs testdata/script/*.txtar: exit codes, --json shape,
// unknown drills, bad parameters, colour and languages.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir: "../../testdata/script",
		Setup: func(env *testscript.Env) error {
			// A clean locale, so language defaults are what a script sets.
			for _, k := range []string{"LC_ALL", "LC_MESSAGES", "LANG", "NO_COLOR"} {
				env.Setenv(k, "")
			}
			// Drill files live in testdata/files: a drill file's parts
			// would read as the script's own files if it held them.
			files, err := filepath.Abs("../../testdata/files")
			env.Setenv("FILES", files)
			return err
		},
	})
}
