// Package web is archlab's page for the projector: the drills by section,
// a drill run whose sequence diagram grows step by step (buttons, and the
// keyboard a presenter's clicker sends), its counters beside the book's,
// its lesson checks and explanation, "what if" parameters as form fields,
// the explorer's counterexamples as step-throughs, and a field to paste a
// teacher's drill file. The words, rows and diagram come from package
// view, the same ones the terminal prints; this package only lays them out
// as HTML and SVG.
//
// Everything it serves is embedded: no CDN, no file system. A run from the
// page uses the book's in-memory mechanisms only (no --db, no --store
// sqlite, no student code), and every request body is bounded.
package web
