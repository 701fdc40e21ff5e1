//go:build race

package check

// raceOn: this test binary was built with -race, where the engines'
// agreement over the largest scopes costs ten times as long; the race
// detector watches the same code on the smaller ones.
const raceOn = true
