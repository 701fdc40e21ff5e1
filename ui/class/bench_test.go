package class

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"archlab/i18n"
)

// writeClass writes n students' check --json files into dir, each
// breaking the same lessons: each row holds every student.
func writeClass(tb testing.TB, dir string, n int) {
	for i := range n {
		doc := fmt.Sprintf(`{"exercises": [{"name": "consumer-handler", "status": "not-done", "lessons": ["", "", ""], `+
			`"lesson_ids": ["explore/not-lost", "explore/not-doubled", "unfired/crash-mid"]}], "archlab_version": "v1", "sources_sha256": "%064x"}`, i)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("student-%05d.json", i)), []byte(doc), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
}

// BenchmarkClass20000 reads and counts a class of 20,000 students (issue
// 43: 18 s, the rows searched for each student); the target is about a
// second. The baseline reads and decodes the same files with nothing
// else: what the class's own work costs beyond it.
//
//	go test ./ui/class -run '^$' -bench Class20000 -benchtime 3x
func BenchmarkClass20000(b *testing.B) {
	dir := b.TempDir()
	writeClass(b, dir, 20000)
	b.Run("class", func(b *testing.B) {
		for b.Loop() {
			c, err := Read(i18n.EN, dir)
			if err != nil || len(c.Students) != 20000 {
				b.Fatalf("%v, %d students, refused %v", err, len(c.Students), c.Refused[:min(3, len(c.Refused))])
			}
			if s := Count(i18n.EN, c); len(s.Rows) != 3 {
				b.Fatalf("%d rows", len(s.Rows))
			}
		}
	})
	b.Run("baseline-read", func(b *testing.B) {
		for b.Loop() {
			entries, _ := os.ReadDir(dir)
			for _, e := range entries {
				data, err := os.ReadFile(filepath.Join(dir, e.Name()))
				var v map[string]any
				if err != nil || json.Unmarshal(data, &v) != nil {
					b.Fatal(err)
				}
			}
		}
	})
}
