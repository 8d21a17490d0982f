//go:build !amd64 || !gc || purego

package scan

// vectorBits is whether markBits marks with vector instructions.
const vectorBits = false

// nibbleBlocks makes no bitmap without vector code: markBits makes them
// all.
func nibbleBlocks(t *nibbleSet, dst []uint64, b []byte) int { return 0 }
