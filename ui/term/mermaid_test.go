package term

import "testing"

// TestMermaidEscapesLabels: text that would end a statement, start a
// comment or open markup is written with Mermaid's entity codes.
func TestMermaidEscapesLabels(t *testing.T) {
	got := mermaidText("a;b#c<d>e\nf%%g")
	want := "a#59;b#35;c#lt;d#gt;e f#37;#37;g"
	if got != want {
		t.Fatalf("mermaidText = %q, want %q", got, want)
	}
	if id := mermaidID("worker-e1"); id != "worker_e1" {
		t.Fatalf("mermaidID = %q", id)
	}
}
