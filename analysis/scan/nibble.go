package scan

import "math/bits"

// nibbleSet is a set of ASCII bytes in the form a vector byte shuffle tests
// 32 bytes against at once (the "nibble lookup" of simdjson's structural
// index): byte c is in the set when the lo table's entry c&15 has bit c>>4
// set, which the hi table's entry c>>4 selects. Its bitmap of a whole
// inline region, made a block of 64 bytes at a time (markBits), lets the
// Markdown scanner step from one special byte to the next with a count of
// trailing zeros, where a search from each one (byteSet.next) cost a fifth
// of the scan: in real Markdown one comes every few dozen bytes.
type nibbleSet struct {
	tables [32]byte // the lo table, then the hi table
	bytes  byteSet  // the same set, for the blocks the vector code does not take
}

// newNibbleSet returns the set of the bytes of s, which must be ASCII.
func newNibbleSet(s string) *nibbleSet {
	t := &nibbleSet{bytes: *newByteSet(s)}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x80 {
			panic("newNibbleSet: not ASCII")
		}
		t.tables[c&15] |= 1 << (c >> 4)     // lo
		t.tables[16+(c>>4)] = 1 << (c >> 4) // hi
	}
	return t
}

// markBits returns the bitmap of the bytes of b in the set: bit k%64 of
// word k/64 is set when b[k] is, and no bit past len(b). It reuses dst's
// memory.
func (t *nibbleSet) markBits(dst []uint64, b []byte) []uint64 {
	n := (len(b) + 63) / 64
	if cap(dst) < n {
		dst = make([]uint64, n, n+n/4)
	}
	dst = dst[:n]
	// The vector code takes whole blocks. The last, short one it takes
	// too when b's memory goes on for a block (a region of a document
	// does), its bits past len(b) then cleared: an inline region is a
	// few lines, and a byte loop over its last block cost what the
	// vector code did over the rest.
	full := len(b) / 64
	if rem := len(b) % 64; rem > 0 && vectorBits && cap(b) >= n*64 {
		if nibbleBlocks(t, dst, b[:n*64]) == n {
			dst[n-1] &= 1<<rem - 1
			return dst
		}
	}
	done := nibbleBlocks(t, dst[:full], b[:full*64])
	for w := done; w < n; w++ {
		block := b[w*64 : min(len(b), w*64+64)]
		in := &t.bytes
		var m uint64
		k := 0
		for ; k+8 <= len(block); k += 8 { // eight bytes a step, as byteSet.next
			x := block[k : k+8 : k+8]
			m |= uint64(uint(in[x[0]])|uint(in[x[1]])<<1|uint(in[x[2]])<<2|uint(in[x[3]])<<3|
				uint(in[x[4]])<<4|uint(in[x[5]])<<5|uint(in[x[6]])<<6|uint(in[x[7]])<<7) << k
		}
		for ; k < len(block); k++ {
			m |= uint64(in[block[k]]) << k
		}
		dst[w] = m
	}
	return dst
}

// nextBit returns the offset of the first byte marked in bm (markBits of
// the bytes from base) at or after from and before lim, or lim (also when
// from is past lim). from is base or after.
func nextBit(bm []uint64, base, from, lim int) int {
	if from >= lim {
		return lim
	}
	k := from - base
	w := k >> 6
	if w >= len(bm) {
		return lim
	}
	x := bm[w] &^ (1<<(k&63) - 1)
	for x == 0 {
		w++
		if w >= len(bm) || base+w<<6 >= lim {
			return lim
		}
		x = bm[w]
	}
	return min(base+w<<6+bits.TrailingZeros64(x), lim)
}
