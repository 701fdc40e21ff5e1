// Package drills holds archlab's scenarios: each one builds a mechanism of
// the book, injects the failure the book describes, records every step and
// returns the counters the book prints, in the book's order.
//
// A drill is one file (ack_lost.go, crash_resume.go, ...) that opens with
// the scenario and its lesson. The registry (registry.go) lists them in book
// order. Nothing here prints: the command renders a Run as a table, a trace,
// a Mermaid diagram or JSON.
package drills
