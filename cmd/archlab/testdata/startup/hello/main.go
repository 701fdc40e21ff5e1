// Command hello is BenchmarkStartup's first floor: a Go binary that prints
// one line.
package main

import "fmt"

func main() { fmt.Println("hello") }
