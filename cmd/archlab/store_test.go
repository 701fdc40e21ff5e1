package main

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
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

// TestStoreDrillsInProcess runs the 8.2 drills through the command with a
// SQLite file and consumer processes killed for real (this test binary,
// started again by TestMain's switch), and checks the book's counters and
// that nothing is left in the temporary directory.
func TestStoreDrillsInProcess(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	for _, crash := range []string{"model", "real"} {
		t.Run(crash, func(t *testing.T) {
			out, errOut, code := runCLI(t, nil, "drill", "--chapter", "8.2", "--store", "sqlite", "--crash", crash, "--json")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			var all jsonAll
			if err := json.Unmarshal([]byte(out), &all); err != nil {
				t.Fatal(err)
			}
			if all.Passed != 5 || all.Failed != 0 {
				t.Fatalf("passed %d, failed %d: %s", all.Passed, all.Failed, out)
			}
		})
	}
	out, errOut, code := runCLI(t, nil, "drill", "mark-before-effect", "--store", "sqlite", "--crash", "real", "--trace")
	if code != 0 || !strings.Contains(out, "SIGKILL pid ") || !strings.Contains(out, "] COMMIT") {
		t.Fatalf("exit %d, stderr %s, stdout:\n%s", code, errOut, out)
	}
	if left, _ := os.ReadDir(tmp); len(left) > 0 {
		t.Fatalf("left behind in the temporary directory: %v", left)
	}
}

// TestStoreTraceFitsEightyColumns: with --store sqlite the timeline holds SQL
// statements; they wrap under their action instead of widening the page.
func TestStoreTraceFitsEightyColumns(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	for _, lang := range []string{"en", "zh"} {
		for _, crash := range []string{"model", "real"} {
			out, errOut, code := runCLI(t, nil, "drill", "--chapter", "8.2", "--trace", "--store", "sqlite", "--crash", crash, "--lang", lang)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			for _, line := range strings.Split(out, "\n") {
				if strings.ContainsAny(line, "│┌└├") {
					continue // the counter and summary tables
				}
				if w := displayWidth(line); w > traceWidth && !strings.HasPrefix(line, "Chapter") && !strings.HasPrefix(line, "第") {
					t.Errorf("%s, crash %s: %d columns: %s", lang, crash, w, line)
				}
			}
		}
	}
}
