// Package fuzz holds the drill-file fuzz tests: FuzzParse (the parser) and
// FuzzRun (parse and run under the budget: no panic, no run over two
// seconds, no process over 500 MB). Their seed corpus, the built-in drill
// files, runs with go test ./...; a longer run:
//
//	go test -run '^$' -fuzz '^FuzzRun$' -fuzztime 5m ./drills/fuzz
package fuzz
