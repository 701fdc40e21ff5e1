// Package view is what every front end shows of a drill run, in one
// language: the trace's rows (actor, action, result, phase, tone), the
// counter table with the book's column, the lesson checks, the verdict and
// the sequence diagram's model. The terminal and the web page lay these out
// in their own ways; the words and their order are decided here, once, from
// the run's one recording (harness.Recorder), so the two never disagree.
//
// It prints nothing and knows no colour, HTML or terminal: a front end
// turns a Tone into a colour and a Diagram into Mermaid text or SVG.
package view
