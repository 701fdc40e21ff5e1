//go:build !race

package drills

const raceOn = false
