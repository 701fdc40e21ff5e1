package main

import "sync"

// memo runs a function once per key for the test binary and keeps what
// it returned: for work several tests read and that gives the same
// result on every run (the book's check, a screen).
type memo[T any] struct {
	mu sync.Mutex
	m  map[string]*memoEntry[T]
}

type memoEntry[T any] struct {
	once sync.Once
	v    T
}

// get is f's value for key, f run by the first caller only.
func (c *memo[T]) get(key string, f func() T) T {
	c.mu.Lock()
	if c.m == nil {
		c.m = map[string]*memoEntry[T]{}
	}
	e := c.m[key]
	if e == nil {
		e = &memoEntry[T]{}
		c.m[key] = e
	}
	c.mu.Unlock()
	e.once.Do(func() { e.v = f() })
	return e.v
}
