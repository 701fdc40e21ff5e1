package main

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"archlab/ui/term"
)

// sqlexecMain is the scripts' "sqlexec FILE STATEMENT...": it runs each
// statement on a SQLite file with plain database/sql, as another program
// would, and prints the rows of a query one per line, tab-separated. The
// scripts use it to make a file with someone else's schema and to look
// inside a kept --db.
func sqlexecMain() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: sqlexec FILE STATEMENT...")
		os.Exit(2)
	}
	db, err := sql.Open("sqlite", os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer db.Close()
	for _, q := range os.Args[2:] {
		if err := sqlexec(db, q); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
}

func sqlexec(db *sql.DB, q string) error {
	rows, err := db.Query(q)
	if err != nil {
		return err
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
		parts := make([]string, len(vals))
		for i, v := range vals {
			parts[i] = fmt.Sprint(v)
		}
		fmt.Println(strings.Join(parts, "\t"))
	}
	return rows.Err()
}

// TestStoreDrillsInProcess runs a drill through the command in this process
// with a SQLite file and consumer processes killed for real (this test
// binary, started again by TestMain's switch), and checks the book's
// counters and that nothing is left in the temporary directory.
func TestStoreDrillsInProcess(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	// One drill is enough here: the scripts run all five, and each child
	// costs a process start (a second each under -race).
	out, errOut, code := runCLI(t, nil, "drill", "ack-lost", "--store", "sqlite", "--crash", "real", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var res term.JSONDrill
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if !res.Pass || !slices.ContainsFunc(res.Checks, func(c term.JSONCheck) bool { return c.Name == "crash-real.killed" && c.OK }) {
		t.Fatalf("want a pass with the real-kill lesson among its checks: %s", out)
	}
	if left, _ := os.ReadDir(tmp); len(left) > 0 {
		t.Fatalf("left behind in the temporary directory: %v", left)
	}
}

// TestStoreTraceFitsEightyColumns: with --store sqlite the timeline holds SQL
// statements; they wrap under their action instead of widening the page.
func TestStoreTraceFitsEightyColumns(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	// The statements are the same with and without real processes, which
	// add only a pid and the kill: one real drill per language covers those.
	runs := [][]string{
		{"--chapter", "8.2", "--crash", "model", "--lang", "en"},
		{"--chapter", "8.2", "--crash", "model", "--lang", "zh"},
		{"ack-lost", "--crash", "real", "--lang", "en"},
		{"mark-before-effect", "--crash", "real", "--lang", "zh"},
	}
	for _, args := range runs {
		{
			lang, crash := args[len(args)-1], args[len(args)-3]
			out, errOut, code := runCLI(t, nil, append([]string{"drill", "--trace", "--store", "sqlite"}, args...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			for _, line := range strings.Split(out, "\n") {
				if strings.ContainsAny(line, "│┌└├") || strings.HasPrefix(line, "PASS") || strings.HasPrefix(line, "FAIL") {
					continue // the counter and summary tables, and a drill's verdict line
				}
				if w := term.DisplayWidth(line); w > term.DefaultWidth && !strings.HasPrefix(line, "Chapter") && !strings.HasPrefix(line, "第") {
					t.Errorf("%s, crash %s: %d columns: %s", lang, crash, w, line)
				}
			}
		}
	}
}
