// Package samples makes the documents the project's benchmarks measure
// against, so that the scanner's, the checks' and the language server's
// ratios compare with one and the same peer.
package samples

import (
	"fmt"
	"strings"
)

// Prose is an ordinary document of size bytes, the peer issue 12 means by
// "an ordinary document of the same size": prose with a URL a line, all
// different, one in ten with findings (a bad escape and a "~"), and a blank
// line every eight lines, cut to size: 1.14 MB of it holds about 10k URLs.
func Prose(size int) []byte {
	var b strings.Builder
	for i := 0; b.Len() < size; i++ {
		u := fmt.Sprintf("https://example.com/docs/section-%d/page.html?id=%d", i%97, i)
		if i%10 == 0 {
			u = fmt.Sprintf("http://example.org/a%%zz/~user/%d", i)
		}
		fmt.Fprintf(&b, "Line %d of the document talks about things and links to %s for more.\n", i, u)
		if i%8 == 7 {
			b.WriteString("\n")
		}
	}
	return []byte(b.String()[:size])
}

// DistinctBadURLs is one of the pathological lines of issue 12: n
// different URLs on one line, each with a bad escape, so that no URL's
// findings can be remembered for another. format makes the i-th URL of i
// ("http://x.org/%d/a%%zz ": the paths differ).
func DistinctBadURLs(n int, format string) []byte {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, format, i)
	}
	b.WriteString("\n")
	return []byte(b.String())
}
