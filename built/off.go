//go:build !race

package built

// WithRace is false: this binary was built without -race.
const WithRace = false
