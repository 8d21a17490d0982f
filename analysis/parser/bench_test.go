package parser

import (
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/urlls/urlls/analysis/grammar"
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

// realURLs returns the URLs of testdata/real-valid.txt or
// testdata/real-invalid.txt (see testdata/README.md): URLs real documents
// hold, found by the scanner, one a line.
func realURLs(t testing.TB, name string) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
}

// realSets are the benchmark sets of real URLs: the valid ones, the invalid
// ones, and all of them in the proportion the documents have them (the
// valid file holds every seventh valid URL found, the invalid file every
// invalid one, so all takes every seventh invalid URL).
func realSets(tb testing.TB) map[string][]string {
	valid, invalid := realURLs(tb, "real-valid.txt"), realURLs(tb, "real-invalid.txt")
	all := slices.Clone(valid)
	for i := 0; i < len(invalid); i += 7 {
		all = append(all, invalid[i])
	}
	return map[string][]string{"Valid": valid, "Invalid": invalid, "All": all}
}

// benchmarkParseReal is Parser.ParseReference into one reused tree, the
// full production tree of each URL or its syntax error; one op is one URL.
// It is how the checks parse (package checks: one Parser and tree for the
// URLs of a document, parse1738).
func benchmarkParseReal(b *testing.B, set string) {
	urls := realSets(b)[set]
	var p Parser
	var t grammar.Tree
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = p.ParseReference(urls[i%len(urls)], &t)
	}
}

// benchmarkNetURLParseReal is net/url.Parse on the same URLs.
func benchmarkNetURLParseReal(b *testing.B, set string) {
	urls := realSets(b)[set]
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_, _ = url.Parse(urls[i%len(urls)])
	}
}

func BenchmarkParseRealValid(b *testing.B)         { benchmarkParseReal(b, "Valid") }
func BenchmarkParseRealInvalid(b *testing.B)       { benchmarkParseReal(b, "Invalid") }
func BenchmarkParseRealAll(b *testing.B)           { benchmarkParseReal(b, "All") }
func BenchmarkNetURLParseRealValid(b *testing.B)   { benchmarkNetURLParseReal(b, "Valid") }
func BenchmarkNetURLParseRealInvalid(b *testing.B) { benchmarkNetURLParseReal(b, "Invalid") }
func BenchmarkNetURLParseRealAll(b *testing.B)     { benchmarkNetURLParseReal(b, "All") }

// BenchmarkRealRatio runs Parser.ParseReference and net/url.Parse over the
// same real URLs in alternating batches of 64, so that both see the same
// load on a busy machine, each going first in turn (whichever reads a batch
// first pays for bringing its bytes into the cache), and reports their
// times a URL and two ratios (urlls/net-url: below 1 is faster than
// net/url): of the totals, and the median of the batches' ratios, which a
// batch that another process preempted (milliseconds, against the
// microseconds of a batch) does not move. The median leaves out the
// batches in which net/url's garbage collection ran too, so it is the
// ratio net/url is favoured by. One op is the whole set by each.
func BenchmarkRealRatio(b *testing.B) {
	sets := realSets(b)
	for _, name := range []string{"Valid", "Invalid", "All"} {
		urls := sets[name]
		b.Run(name, func(b *testing.B) {
			var p Parser
			var t grammar.Tree
			var ours, theirs time.Duration
			var ratios []float64
			parseOurs := func(batch []string) time.Duration {
				t0 := time.Now()
				for _, u := range batch {
					_ = p.ParseReference(u, &t)
				}
				return time.Since(t0)
			}
			parseTheirs := func(batch []string) time.Duration {
				t0 := time.Now()
				for _, u := range batch {
					_, _ = url.Parse(u)
				}
				return time.Since(t0)
			}
			for i := 0; i < b.N; i++ {
				for lo := 0; lo < len(urls); lo += 64 {
					batch := urls[lo:min(lo+64, len(urls))]
					var o, n time.Duration
					if lo/64%2 == 0 {
						o = parseOurs(batch)
						n = parseTheirs(batch)
					} else {
						n = parseTheirs(batch)
						o = parseOurs(batch)
					}
					ours += o
					theirs += n
					ratios = append(ratios, float64(o)/float64(max(n, 1)))
				}
			}
			slices.Sort(ratios)
			n := float64(b.N) * float64(len(urls))
			b.ReportMetric(0, "ns/op")
			b.ReportMetric(float64(ours.Nanoseconds())/n, "urlls-ns/URL")
			b.ReportMetric(float64(theirs.Nanoseconds())/n, "net-url-ns/URL")
			b.ReportMetric(float64(ours)/float64(theirs), "urlls/net-url")
			b.ReportMetric(ratios[len(ratios)/2], "median-batch-urlls/net-url")
		})
	}
}
