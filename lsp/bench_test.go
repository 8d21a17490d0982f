package lsp

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/urlls/urlls/analysis/config"
)

// BenchmarkServerScaling measures, for documents of the issue at 1x and
// 4x, what the server does per version: the analysis (scan, checks,
// configuration, the cut to maxFindings), the publication's diagnostics,
// and the edits of source.fixAll.urlls (every error fixed, all mapped to
// UTF-16 positions). Each must grow about four times, not sixteen.
func BenchmarkServerScaling(b *testing.B) {
	docs := []struct {
		name string
		doc  func(n int) string
	}{
		{"percents", func(n int) string { return "http://x.org/" + strings.Repeat("%", 100_000*n) + "\n" }},
		{"urls", func(n int) string { return strings.Repeat("http://x.org/a%zz ", 40_000*n) + "\n" }},
		{"findings", func(n int) string { return strings.Repeat("http://x.org/~a%zz\n", 125_000*n) }},
	}
	s := newServer(nopClient{}, Options{Logger: zap.NewNop(), Debounce: time.Hour})
	u := protocol.DocumentURI("file:///bench/doc.txt")
	for _, tc := range docs {
		for _, n := range []int{1, 4} {
			text := []byte(tc.doc(n))
			snap := func() *snapshot { return newSnapshot(u, "plaintext", 1, 1, text, nil) }
			b.Run(fmt.Sprintf("analysis/%s/%dx", tc.name, n), func(b *testing.B) {
				b.SetBytes(int64(len(text)))
				for b.Loop() {
					if _, err := s.analyze(snap().ctx, snap(), nil); err != nil {
						b.Fatal(err)
					}
				}
			})
			a, err := s.analyze(snap().ctx, snap(), nil)
			if err != nil {
				b.Fatal(err)
			}
			b.Run(fmt.Sprintf("publish/%s/%dx", tc.name, n), func(b *testing.B) {
				for b.Loop() {
					s.diagnostics(a, settings{codeDescription: true})
				}
			})
			b.Run(fmt.Sprintf("fixall/%s/%dx", tc.name, n), func(b *testing.B) {
				for b.Loop() {
					edits, _ := config.FixAll(a.findings)
					lspEdits(a.mapper, edits)
				}
			})
		}
	}
}
