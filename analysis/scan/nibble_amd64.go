//go:build gc && !purego

package scan

import "golang.org/x/sys/cpu"

// nibbleBitsAVX2 sets dst[i] to the bitmap of src[64i:64i+64] in the set
// whose tables are tables[0:16] (lo) and tables[16:32] (hi), for i below
// blocks (nibble_amd64.s).
//
//go:noescape
func nibbleBitsAVX2(dst *uint64, src *byte, blocks int, tables *[32]byte)

// vectorBits is whether markBits marks with vector instructions: this
// processor runs nibbleBitsAVX2.
var vectorBits = cpu.X86.HasAVX2

// nibbleBlocks makes the bitmaps of the 64-byte blocks of b (len(dst) of
// them) with AVX2 when the processor has it, and returns how many it made:
// markBits makes the others.
func nibbleBlocks(t *nibbleSet, dst []uint64, b []byte) int {
	if !vectorBits || len(dst) == 0 {
		return 0
	}
	nibbleBitsAVX2(&dst[0], &b[0], len(dst), &t.tables)
	return len(dst)
}
