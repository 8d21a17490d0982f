package parser

import (
	"net/url"
	"testing"
)

// The three benchmarks run over the same URL set (benchURLs: 3000 generated
// URLs of every scheme plus the valid URLs of the corpus), one op being one
// URL, so ns/op and allocs/op read as ns/URL and allocs/URL. Compare them in
// one run: go test -run XXX -bench . -benchmem ./analysis/parser/

// BenchmarkParse is the fast scheme-aware parser, building the full tree.
func BenchmarkParse(b *testing.B) {
	urls := benchURLs(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := ParseReference(urls[i%len(urls)]); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkNetURLParse is Go's net/url.Parse on the same URLs: the peer the
// fast parser must keep up with. It builds a URL struct, not a tree.
func BenchmarkNetURLParse(b *testing.B) {
	urls := benchURLs(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_, _ = url.Parse(urls[i%len(urls)])
	}
}

// BenchmarkMatcher is the general matcher on the same URLs, with the same
// scheme dispatch (ReferenceRelative): the slow path Parse falls back to.
func BenchmarkMatcher(b *testing.B) {
	urls := benchURLs(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := ReferenceRelative(urls[i%len(urls)]); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRFC3986 is the RFC 3986 profile (ProfileRFC3986.Parse: the
// general matcher over RFC 3986 Appendix A) on the same URLs: what every URL
// costs under --grammar rfc3986, to compare with BenchmarkParse.
func BenchmarkRFC3986(b *testing.B) {
	urls := benchURLs(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_, _ = RFC3986.Parse(urls[i%len(urls)], true)
	}
}
