// Package fuzz holds the drill-file parser's fuzz test (FuzzParse). Its
// seed corpus, the built-in drill files, runs with go test ./...; a longer
// run: go test -run '^$' -fuzz FuzzParse -fuzztime 5m ./drills/fuzz
package fuzz
