package main

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/urlls/urlls/analysis/config"
)

// BenchmarkWriteFindings: the output of urlls check for the pathological
// documents of the issue at 1x and 4x, without the maxFindings cap (so that
// it is the printing that is measured, every finding of it): time and
// bytes must grow about four times, not sixteen. "outbytes" is the size of
// the output.
func BenchmarkWriteFindings(b *testing.B) {
	docs := []struct {
		name string
		doc  func(n int) []byte
	}{
		{"percents", func(n int) []byte { return []byte("http://x.org/" + strings.Repeat("%", 100_000*n) + "\n") }},
		{"urls", func(n int) []byte { return []byte(strings.Repeat("http://x.org/a%zz ", 40_000*n) + "\n") }},
		{"badchars", func(n int) []byte {
			return []byte("<URL:http://x.org/" + strings.Repeat("|^a\"{b}`c%zz~é ", 2000*n) + ">\n")
		}},
	}
	none := 0
	cfg := config.Config{MaxFindings: &none}
	for _, tc := range docs {
		for _, format := range []string{"text", "json", "sarif", "github"} {
			for _, n := range []int{1, 4} {
				doc := tc.doc(n)
				r := fileResult{path: "doc.txt", doc: doc, cfg: cfg,
					findings: checkApply(cfg, doc, "plaintext")}
				b.Run(fmt.Sprintf("%s/%s/%dx", tc.name, format, n), func(b *testing.B) {
					var size int64
					for b.Loop() {
						w := &countingWriter{}
						if err := writeFindings(w, format, []fileResult{r}, nil); err != nil {
							b.Fatal(err)
						}
						size = w.n
					}
					b.ReportMetric(float64(size), "outbytes")
				})
			}
		}
	}
}

type countingWriter struct{ n int64 }

func (w *countingWriter) Write(p []byte) (int, error) { w.n += int64(len(p)); return len(p), nil }

var _ io.Writer = (*countingWriter)(nil)
