//go:build race

package drills

// raceOn: this test binary was built with -race, where the largest runs
// cost ten times as long.
const raceOn = true
