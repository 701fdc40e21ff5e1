module archlab/peers

go 1.26.0

require (
	archlab v0.0.0
	github.com/ThreeDotsLabs/watermill v1.5.1
)

require (
	github.com/cenkalti/backoff/v5 v5.0.3 // indirect
	github.com/google/uuid v1.6.0 // indirect
	github.com/lithammer/shortuuid/v3 v3.0.7 // indirect
	github.com/oklog/ulid v1.3.1 // indirect
	github.com/pkg/errors v0.9.1 // indirect
	github.com/sony/gobreaker v1.0.0 // indirect
)

// The peers compare archlab's mechanisms with libraries a Go user would pick.
// They live in their own module so that archlab itself never depends on them.
replace archlab => ../
