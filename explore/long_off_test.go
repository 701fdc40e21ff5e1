//go:build !long

package explore

const longOn = false
