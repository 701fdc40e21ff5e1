//go:build race

package built

// WithRace is true: this binary was built with -race.
const WithRace = true
