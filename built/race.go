// Package built says whether this binary was built with the race detector
// (go build -race, go test -race). Two layers ask: check, because the
// detector maps terabytes of shadow memory that no address-space limit on
// a child can hold, and adapters/ondemand, which builds its variants with
// -race too so that go test -race tests the wiring they hold. It imports
// nothing, so both can.
package built
