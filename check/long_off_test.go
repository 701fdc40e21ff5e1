//go:build !long

package check

const longOn = false
