// Package term lays a run out on the terminal: a drill's header, trace,
// counter table and verdict (Renderer), explore's report, the drill list,
// Mermaid diagrams and the JSON forms of each. The words and their order
// come from ui/view, so the terminal and the web page never disagree;
// this package decides only the layout: the width of the screen (80
// columns, 60, or a pipe's), wrapping Chinese and English between words
// (ui/wrap), colour when the terminal has it, and stderr's own width for
// progress and errors.
//
// It runs nothing: a command (ui/cmd/...) runs the drill or the explorer
// and hands the result here.
package term
