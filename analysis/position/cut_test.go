package position

import (
	"testing"
	"unicode/utf8"
)

func TestCutAt(t *testing.T) {
	tests := []struct {
		name string
		s    string
		n    int
		want string
	}{
		{"shorter", "abc", 4, "abc"},
		{"exactly n", "abc", 3, "abc"},
		{"ascii", "abcdef", 4, "abcd"},
		{"zero", "abc", 0, ""},
		{"empty", "", 0, ""},
		{"at a character's start", "ab😀", 2, "ab"},
		{"inside a four-byte character", "ab😀c", 4, "ab"},
		{"after a four-byte character", "ab😀c", 6, "ab😀"},
		{"inside a two-byte character", "xé", 2, "x"},
		{"inside the first character", "漢字", 2, ""},
		{"stray continuation bytes", "\x80\x80\x80", 2, ""},
		{"invalid lead byte is a start", "a\xffb", 2, "a\xff"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := CutAt(tc.s, tc.n); got != tc.want {
				t.Errorf("CutAt(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.want)
			}
		})
	}
}

// FuzzCutAt: the cut is all of s when s has at most n bytes; else a start
// of s of at most n bytes, that is empty or ends where a character starts,
// and no longer such start exists.
func FuzzCutAt(f *testing.F) {
	f.Add("ab😀c", 4)
	f.Add("\x80\x80", 1)
	f.Fuzz(func(t *testing.T, s string, n int) {
		if n < 0 {
			return
		}
		got := CutAt(s, n)
		switch {
		case len(s) <= n:
			if got != s {
				t.Fatalf("CutAt(%q, %d) = %q, want all of it", s, n, got)
			}
			return
		case len(got) > n || s[:len(got)] != got:
			t.Fatalf("CutAt(%q, %d) = %q: not a start of s of at most n bytes", s, n, got)
		case got != "" && !utf8.RuneStart(s[len(got)]):
			t.Fatalf("CutAt(%q, %d) = %q: splits a character", s, n, got)
		}
		for k := len(got) + 1; k <= n; k++ {
			if utf8.RuneStart(s[k]) {
				t.Fatalf("CutAt(%q, %d) = %q: the start of %d bytes is longer", s, n, got, k)
			}
		}
	})
}
