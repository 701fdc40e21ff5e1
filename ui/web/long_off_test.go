//go:build !long

package web_test

const longOn = false
