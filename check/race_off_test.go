//go:build !race

package check

const raceOn = false
