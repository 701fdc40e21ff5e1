//go:build !long

package main

const longOn = false
