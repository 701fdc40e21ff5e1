//go:build long

package explore

// longOn: this test binary was built with -tags long, for the long
// sweeps: the parts of a few tests that go test ./... leaves out (the
// largest scopes, more rounds, more screens). .ci/run runs them once,
// with -run set to .ci/long-tests; docs/testing.md lists them.
const longOn = true
