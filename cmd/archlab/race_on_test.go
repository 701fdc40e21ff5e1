//go:build race

package main

// raceOn: this test binary was built with -race, where every archlab and
// consumer process it starts costs ten times as long.
const raceOn = true
