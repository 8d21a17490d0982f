//go:build !unix

package main

// holdSignals does nothing where signals cannot be held and raised again.
func holdSignals() (stop func()) { return func() {} }
