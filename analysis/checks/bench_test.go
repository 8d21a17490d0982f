package checks

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/urlls/urlls/analysis/parser"
	"github.com/urlls/urlls/analysis/samples"
)

func benchmarkURL(b *testing.B, url string) {
	doc, c := candidateIn(url, false)
	b.SetBytes(int64(len(url)))
	for b.Loop() {
		CheckURL(doc, c)
	}
}

func BenchmarkCheckURLClean(b *testing.B) {
	benchmarkURL(b, "http://www.example.com:8080/path/to/file.html?query=1&b=2#frag")
}

func BenchmarkCheckURLDefects(b *testing.B) {
	benchmarkURL(b, "HTTP://u:p@www.exa%2dmple.com:99999/a b/%zz/~u/café?q=a/b|c#f")
}

func BenchmarkCheckDocument(b *testing.B) {
	var sb strings.Builder
	for i := range 200 {
		sb.WriteString("A paragraph with [a link](http://example.com/a/b?c=d) and a bare http://www.example.org/x.\n")
		if i%10 == 0 {
			sb.WriteString("A bad one: <http://x.com/a%zz|b~c> and [rel](../a%41/b).\n")
		}
	}
	doc := []byte(sb.String())
	b.SetBytes(int64(len(doc)))
	for b.Loop() {
		CheckDocument(doc, "markdown")
	}
}

// BenchmarkCheckDocumentGrammar is BenchmarkCheckDocument under each
// grammar profile: under rfc3986 and xbnf every URL is parsed by the
// general matcher, under rfc1738 by the fast path (and by RFC 3986 only
// when RFC 1738 rejects it).
func BenchmarkCheckDocumentGrammar(b *testing.B) {
	var sb strings.Builder
	for i := range 200 {
		sb.WriteString("A paragraph with [a link](http://example.com/a/b?c=d) and a bare http://www.example.org/x.\n")
		if i%10 == 0 {
			sb.WriteString("A bad one: <http://x.com/a%zz|b~c> and [rel](../a%41/b).\n")
		}
	}
	doc := []byte(sb.String())
	for _, p := range parser.ProfileNames() {
		profile, _ := parser.ProfileNamed(p)
		b.Run(p, func(b *testing.B) {
			b.SetBytes(int64(len(doc)))
			for b.Loop() {
				Options{Grammar: profile}.CheckDocument(doc, "markdown")
			}
		})
	}
}

// pathological are the documents of the issue, each at a scale n (1 or 4):
// the time to check them must grow with n, not n², so the 4x ns/op of a
// case is about four times its 1x (compare them side by side).
var pathological = []struct {
	name string
	doc  func(n int) []byte
}{
	// 100k "%" in one URL on one line: one bad-escape finding, whose fix
	// encodes them all.
	{"percents", func(n int) []byte { return []byte("http://x.org/" + strings.Repeat("%", 100_000*n) + "\n") }},
	// 40k URLs on one line, each with a bad escape.
	{"urls", func(n int) []byte { return []byte(strings.Repeat("http://x.org/a%zz ", 40_000*n) + "\n") }},
	// 250k findings (1M at 4x) on short lines: two per URL.
	{"findings", func(n int) []byte {
		return []byte(strings.Repeat("http://x.org/~a%zz\n", 125_000*n))
	}},
	// One 32 KB line (128 KB at 4x) of bad characters in a <URL:…> wrapper.
	{"badchars", func(n int) []byte {
		return []byte("<URL:http://x.org/" + strings.Repeat("|^a\"{b}`c%zz~é ", 2000*n) + ">\n")
	}},
}

func BenchmarkCheckDocumentScaling(b *testing.B) {
	for _, tc := range pathological {
		for _, n := range []int{1, 4} {
			doc := tc.doc(n)
			b.Run(fmt.Sprintf("%s/%dx", tc.name, n), func(b *testing.B) {
				b.SetBytes(int64(len(doc)))
				for b.Loop() {
					CheckDocument(doc, "plaintext")
				}
			})
		}
	}
}

// BenchmarkFixAllScaling: the fix-all of the pathological documents, from
// their findings to the fixed text.
func BenchmarkFixAllScaling(b *testing.B) {
	for _, tc := range pathological {
		for _, n := range []int{1, 4} {
			doc := tc.doc(n)
			diags := CheckDocument(doc, "plaintext")
			b.Run(fmt.Sprintf("%s/%dx", tc.name, n), func(b *testing.B) {
				b.SetBytes(int64(len(doc)))
				for b.Loop() {
					edits, _ := PreferredEdits(diags)
					ApplyEdits(doc, edits)
				}
			})
		}
	}
}

// ordinaryDoc is plain prose with a few URLs a line, none of them wrong,
// cut to size bytes: what a document of that size ordinarily costs.
func ordinaryDoc(size int) []byte {
	const line = "See http://www.example.org/docs/a/b?c=d for details, or https://example.com/x and ftp://ftp.funet.fi/pub/.\n"
	doc := []byte(strings.Repeat(line, size/len(line)+1))
	return doc[:size]
}

// ordinaryDistinctDoc is ordinaryDoc whose URLs are all different
// (numbered), as in a document that does not repeat its links: the
// findings of a repeated URL are remembered (urlMemo), so a document that
// repeats three URLs costs less than one whose URLs are all new.
func ordinaryDistinctDoc(size int) []byte {
	var b strings.Builder
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "See http://www.example.org/docs/%d/b?c=d for details, or https://example.com/x%d and ftp://ftp.funet.fi/pub/%d/.\n", i, i, i)
	}
	return []byte(b.String()[:size])
}

// The pathological lines of issue 12, each beside an ordinary document of
// the same size in one run: a pathological line must cost at most three
// times its ordinary peer (compare BenchmarkPathological/X with
// BenchmarkOrdinary/X; benchstat shows the ratio).
var pathologicalLines = []struct {
	name string
	doc  []byte
}{
	// One line of 100k "%" in one URL: a bad-escape finding whose fix
	// encodes each of them.
	{"percents", []byte("http://x.org/" + strings.Repeat("%", 100_000) + "\n")},
	// 40k URLs on one line, each with a bad escape.
	{"urls", []byte(strings.Repeat("http://x.org/a%zz ", 40_000) + "\n")},
	// The same 40k URLs, one a line: what the findings cost without the line.
	{"urls-lines", []byte(strings.Repeat("http://x.org/a%zz\n", 40_000))},
	// 40k different URLs on one line, each with a bad escape: what the
	// findings cost when no URL repeats (urlMemo cannot help).
	{"urls-distinct", samples.DistinctBadURLs(40_000, "http://x.org/%d/a%%zz ")},
}

func BenchmarkPathological(b *testing.B) {
	benchmarkLines(b, func(doc []byte) []byte { return doc })
}

func BenchmarkOrdinary(b *testing.B) {
	benchmarkLines(b, func(doc []byte) []byte { return ordinaryDoc(len(doc)) })
}

// BenchmarkOrdinaryDistinct is BenchmarkOrdinary with URLs that do not
// repeat (ordinaryDistinctDoc).
func BenchmarkOrdinaryDistinct(b *testing.B) {
	benchmarkLines(b, func(doc []byte) []byte { return ordinaryDistinctDoc(len(doc)) })
}

// benchmarkLines checks, for each pathological line, the document docOf
// makes of it.
func benchmarkLines(b *testing.B, docOf func([]byte) []byte) {
	for _, tc := range pathologicalLines {
		doc := docOf(tc.doc)
		b.Run(tc.name, func(b *testing.B) {
			b.SetBytes(int64(len(doc)))
			b.ReportAllocs()
			for b.Loop() {
				CheckDocument(doc, "plaintext")
			}
		})
	}
}

// BenchmarkPathologicalRatio checks each pathological line and its peers of
// the same size in turn, so that all see the same load on a busy machine,
// and reports the ratios of their times. The headline,
// pathological/ordinary, is against samples.Prose, an ordinary document (at most
// 3 is the goal); the others are against denser peers, three URLs a line:
// ordinaryDoc, which repeats three URLs, none wrong (a repeated URL's
// findings are remembered, urlMemo), and ordinaryDistinctDoc, whose URLs
// are all different. One op is one check of each.
func BenchmarkPathologicalRatio(b *testing.B) {
	for _, tc := range pathologicalLines {
		prose := samples.Prose(len(tc.doc))
		dense := ordinaryDoc(len(tc.doc))
		distinct := ordinaryDistinctDoc(len(tc.doc))
		b.Run(tc.name, func(b *testing.B) {
			var patho, ord, den, dist time.Duration
			timed := func(doc []byte) time.Duration {
				// Each starts on a clean heap, so that none pays for
				// collecting another's garbage (untimed).
				runtime.GC()
				t0 := time.Now()
				CheckDocument(doc, "plaintext")
				return time.Since(t0)
			}
			for i := 0; i < b.N; i++ {
				patho += timed(tc.doc)
				ord += timed(prose)
				den += timed(dense)
				dist += timed(distinct)
			}
			b.ReportMetric(float64(patho.Nanoseconds())/float64(b.N), "pathological-ns")
			b.ReportMetric(float64(ord.Nanoseconds())/float64(b.N), "ordinary-ns")
			b.ReportMetric(float64(patho)/float64(ord), "pathological/ordinary")
			b.ReportMetric(float64(patho)/float64(den), "pathological/dense-repeated")
			b.ReportMetric(float64(patho)/float64(dist), "pathological/dense-distinct")
		})
	}
}
