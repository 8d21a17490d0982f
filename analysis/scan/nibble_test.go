package scan

import (
	"math/rand"
	"strings"
	"testing"
)

// wantBits is the definition markBits meets: a bit for each byte of b in
// the set of the bytes of s.
func wantBits(s string, b []byte) []uint64 {
	in := newByteSet(s)
	out := make([]uint64, (len(b)+63)/64)
	for k, c := range b {
		if in[c] != 0 {
			out[k/64] |= 1 << (k % 64)
		}
	}
	return out
}

// checkNibble compares markBits and nextBit over b with their definitions
// under the set of the bytes of s.
func checkNibble(t *testing.T, s string, b []byte, reuse []uint64) []uint64 {
	t.Helper()
	set := newNibbleSet(s)
	got := set.markBits(reuse, b)
	want := wantBits(s, b)
	if len(got) != len(want) {
		t.Fatalf("set %q, %d bytes: %d words, want %d", s, len(b), len(got), len(want))
	}
	for w := range want {
		if got[w] != want[w] {
			t.Fatalf("set %q, %d bytes %q: word %d is %064b, want %064b", s, len(b), b, w, got[w], want[w])
		}
	}
	// nextBit from every offset, to a few limits, against the next byte
	// of the set at or after each offset (nextIn, len(b) where none).
	nextIn := make([]int, len(b)+1)
	nextIn[len(b)] = len(b)
	for k := len(b) - 1; k >= 0; k-- {
		nextIn[k] = nextIn[k+1]
		if set.bytes[b[k]] != 0 {
			nextIn[k] = k
		}
	}
	base := 7
	for from := base; from <= base+len(b)+1; from++ {
		for _, lim := range []int{base + len(b), base + len(b)/2, from + 1, from} {
			lim = min(lim, base+len(b))
			want := lim
			if from < lim {
				want = min(base+nextIn[from-base], lim)
			}
			if got := nextBit(got, base, from, lim); got != want {
				t.Fatalf("set %q, %q: nextBit from %d to %d is %d, want %d", s, b, from, lim, got, want)
			}
		}
	}
	return got
}

// TestNibbleBits: the bitmaps of the vector code (on a processor with
// AVX2) and of the byte loop are the definition's, for random bytes of
// every value, of every length up to a few blocks, at the end of their
// memory and followed by more, under the Markdown scanner's set and random
// sets of ASCII bytes; the memory of one bitmap is reused for the next.
func TestNibbleBits(t *testing.T) { checkNibbleRandom(t) }

// checkNibbleRandom compares markBits and nextBit with their definitions
// on random bytes and sets (TestNibbleBits), with the vector code or
// without it (TestNibbleByteLoop).
func checkNibbleRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	sets := []string{mdSpecialBytes, "", "\x00", "\x7f", "/", "\n\r"}
	for range 20 {
		var s []byte
		for range 1 + rng.Intn(12) {
			s = append(s, byte(rng.Intn(128)))
		}
		sets = append(sets, string(s))
	}
	var reuse []uint64
	for _, s := range sets {
		for n := range 300 {
			b := make([]byte, n)
			for k := range b {
				switch rng.Intn(3) {
				case 0:
					b[k] = byte(rng.Intn(256))
				case 1:
					b[k] = mdSpecialBytes[rng.Intn(len(mdSpecialBytes))]
				default:
					b[k] = byte(128 + rng.Intn(128)) // the high nibble the tables have no entry for
				}
			}
			reuse = checkNibble(t, s, b, reuse)
			// b with memory after it, as a region of a document has, full
			// of the set's bytes: the vector code reads the last block
			// whole, and no bit past b may be set.
			more := append(b[:n:n], strings.Repeat(mdSpecialBytes+s, 20)...)
			reuse = checkNibble(t, s, more[:n], reuse)
		}
	}
	t.Logf("vector instructions: %v", vectorBits)
}

// FuzzNibbleBits: markBits and nextBit are their definitions on any bytes,
// at the end of their memory and followed by more.
func FuzzNibbleBits(f *testing.F) {
	f.Add(mdSpecialBytes, []byte("see [a](http://x.org/a) and `b` <c> \\: é"))
	f.Add("\x00\x7f", make([]byte, 130))
	f.Fuzz(func(t *testing.T, s string, b []byte) {
		var set []byte
		for i := 0; i < len(s); i++ {
			set = append(set, s[i]&0x7f)
		}
		checkNibble(t, string(set), b, nil)
		// b with memory after it full of the set's bytes, as a region of
		// a document has: the vector code reads the last block whole.
		n := len(b)
		more := append(b[:n:n], strings.Repeat(mdSpecialBytes+string(set), 64)[:64]...)
		checkNibble(t, string(set), more[:n], nil)
	})
}
