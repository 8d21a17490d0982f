package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/urlls/urlls/analysis/samples"
	"go.lsp.dev/protocol"
	"go.uber.org/zap"
)

// The benchmarks of issue 12: what a keystroke costs the server on a big
// document, measured through its Go API as a client would see it (the
// publication encoded as JSON, as the wire would). Run them side by side,
// in one run, and compare the ratios (absolute times vary with the load):
//
//	go test ./lsp -run '^$' -bench 'EditToDiagnostics|FullAnalysis|Hover|Pathological|MemoryPerDocument' -benchtime 200x

// publishWaiter is a client that encodes each publication and lets a
// benchmark wait for the one of a version (and a test for a number of
// diagnostics, waitFor).
type publishWaiter struct {
	protocol.Client
	mu      sync.Mutex
	cond    *sync.Cond
	version map[protocol.DocumentURI]int32
	n       map[protocol.DocumentURI]int // how many diagnostics the last publication had
}

func newPublishWaiter() *publishWaiter {
	w := &publishWaiter{version: map[protocol.DocumentURI]int32{}, n: map[protocol.DocumentURI]int{}}
	w.cond = sync.NewCond(&w.mu)
	return w
}

func (w *publishWaiter) PublishDiagnostics(_ context.Context, p *protocol.PublishDiagnosticsParams) error {
	_ = json.NewEncoder(io.Discard).Encode(p)
	w.mu.Lock()
	w.version[p.URI] = int32(p.Version)
	w.n[p.URI] = len(p.Diagnostics)
	w.mu.Unlock()
	w.cond.Broadcast()
	return nil
}

// waitFor waits, up to 10 seconds, until the number of diagnostics of u's
// last publication satisfies ok.
func (w *publishWaiter) waitFor(t testing.TB, u protocol.DocumentURI, ok func(int) bool) {
	t.Helper()
	timeout := time.AfterFunc(10*time.Second, w.cond.Broadcast)
	defer timeout.Stop()
	deadline := time.Now().Add(10 * time.Second)
	w.mu.Lock()
	defer w.mu.Unlock()
	for {
		if n, seen := w.n[u]; seen && ok(n) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: last published %d diagnostics", u, w.n[u])
		}
		w.cond.Wait()
	}
}

func (w *publishWaiter) ShowMessage(context.Context, *protocol.ShowMessageParams) error { return nil }

// wait returns when version v of u (or a newer one) has been published.
func (w *publishWaiter) wait(u protocol.DocumentURI, v int32) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for w.version[u] < v {
		w.cond.Wait()
	}
}

// benchDocument is one open document of a benchmark server.
type benchDocument struct {
	s       *Server
	w       *publishWaiter
	uri     protocol.DocumentURI
	version int32
	text    []byte
}

// openBench opens text in a new server (no debounce) and waits for its
// diagnostics.
func openBench(b testing.TB, uri, lang string, text []byte) *benchDocument {
	w := newPublishWaiter()
	s := newServer(w, Options{Logger: zap.NewNop()})
	d := &benchDocument{s: s, w: w, uri: protocol.DocumentURI(uri), version: 1, text: text}
	if err := s.DidOpen(context.Background(), &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
		URI: d.uri, LanguageID: protocol.LanguageIdentifier(lang), Version: 1, Text: string(text)}}); err != nil {
		b.Fatal(err)
	}
	w.wait(d.uri, 1)
	return d
}

// edit types one character at line, or deletes the one typed last, so
// that the document stays the same size.
func (d *benchDocument) edit(b testing.TB, line uint32) {
	d.version++
	ch := changeEvent{Range: &protocol.Range{Start: protocol.Position{Line: line}, End: protocol.Position{Line: line}}, Text: "x"}
	if d.version%2 == 1 {
		ch = changeEvent{Range: &protocol.Range{Start: protocol.Position{Line: line}, End: protocol.Position{Line: line, Character: 1}}}
	}
	err := d.s.didChange(didChangeParams{TextDocument: protocol.VersionedTextDocumentIdentifier{
		TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: d.uri}, Version: d.version}, ContentChanges: []changeEvent{ch}})
	if err != nil {
		b.Fatal(err)
	}
}

// reportPercentiles reports the median and the 99th percentile of took.
func reportPercentiles(b *testing.B, took []time.Duration) {
	if len(took) == 0 {
		return
	}
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(took[min(len(took)-1, len(took)*99/100)].Microseconds())/1000, "p99-ms")
}

var benchLanguages = []struct{ name, uri, lang string }{
	{"plaintext", "file:///bench/doc.txt", "plaintext"},
	{"markdown", "file:///bench/doc.md", "markdown"},
}

// BenchmarkEditToDiagnostics: a one-character edit in the middle of a
// 1.14 MB document with 10k URLs, to the publication of its version.
func BenchmarkEditToDiagnostics(b *testing.B) {
	for _, l := range benchLanguages {
		b.Run(l.name, func(b *testing.B) {
			benchEdits(b, l.uri, l.lang, samples.Prose(1_140_000), 5000)
		})
	}
}

// benchEdits opens text and times, each loop, a one-character edit at
// byte off to the publication of its version.
func benchEdits(b *testing.B, uri, lang string, text []byte, off uint32) {
	d := openBench(b, uri, lang, text)
	defer d.s.stop()
	var took []time.Duration
	for b.Loop() {
		began := time.Now()
		d.edit(b, off)
		d.w.wait(d.uri, d.version)
		took = append(took, time.Since(began))
	}
	reportPercentiles(b, took)
}

// BenchmarkFullAnalysis: the analysis of the same document from scratch and
// the diagnostics of its publication, what every edit cost before.
func BenchmarkFullAnalysis(b *testing.B) {
	text := samples.Prose(1_140_000)
	for _, l := range benchLanguages {
		b.Run(l.name, func(b *testing.B) {
			s := newServer(nopClient{}, Options{Logger: zap.NewNop(), Debounce: time.Hour})
			var took []time.Duration
			for b.Loop() {
				began := time.Now()
				snap := newSnapshot(protocol.DocumentURI(l.uri), l.lang, 1, 1, text, nil)
				a, err := s.analyze(snap.ctx, snap, nil)
				if err != nil {
					b.Fatal(err)
				}
				_ = json.NewEncoder(io.Discard).Encode(s.diagnostics(a, settings{codeDescription: true}))
				took = append(took, time.Since(began))
			}
			reportPercentiles(b, took)
		})
	}
}

// hoverAt hovers over the URL of line 7000 (far from the edits).
func (d *benchDocument) hover(b testing.TB) {
	h, err := d.s.Hover(context.Background(), &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: d.uri}, Position: protocol.Position{Line: 7000, Character: 70}}})
	if err != nil || h == nil {
		b.Fatal("no hover", err)
	}
}

// BenchmarkHoverAfterEdit: a hover sent right after a one-character edit,
// before that version's diagnostics.
func BenchmarkHoverAfterEdit(b *testing.B) {
	for _, l := range benchLanguages {
		b.Run(l.name, func(b *testing.B) {
			d := openBench(b, l.uri, l.lang, samples.Prose(1_140_000))
			defer d.s.stop()
			var took []time.Duration
			for b.Loop() {
				d.edit(b, 5000)
				began := time.Now()
				d.hover(b)
				took = append(took, time.Since(began))
				b.StopTimer()
				d.w.wait(d.uri, d.version)
				b.StartTimer()
			}
			reportPercentiles(b, took)
		})
	}
}

// BenchmarkHoverIdle: the same hover on a document whose analysis is done.
func BenchmarkHoverIdle(b *testing.B) {
	for _, l := range benchLanguages {
		b.Run(l.name, func(b *testing.B) {
			d := openBench(b, l.uri, l.lang, samples.Prose(1_140_000))
			defer d.s.stop()
			var took []time.Duration
			for b.Loop() {
				began := time.Now()
				d.hover(b)
				took = append(took, time.Since(began))
			}
			reportPercentiles(b, took)
		})
	}
}

// pathologicalDocument is a document that once cost the server more than
// linear time.
type pathologicalDocument struct {
	name string
	lang string // its language, and the extension of its URI (uriExt)
	text []byte
}

// pathologicalDocuments are a line of 100k "%" after a URL's start, 40k
// URLs with a bad escape on one line (plain text, and Markdown), and 20k
// such URLs each followed by a comment that silences it, on one line of
// Markdown.
func pathologicalDocuments() []pathologicalDocument {
	return []pathologicalDocument{
		{"percents", "plaintext", []byte("http://x.org/" + strings.Repeat("%", 100_000) + "\n")},
		{"urls-one-line", "plaintext", []byte(strings.Repeat("http://x.org/a%zz ", 40_000) + "\n")},
		{"urls-one-line-md", "markdown", []byte(strings.Repeat("http://x.org/a%zz ", 40_000) + "\n")},
		{"distinct-urls-one-line", "plaintext", samples.DistinctBadURLs(40_000, "http://x%d.org/a%%zz ")},
		// URLs only RFC 1738 rejects, each parsed again by RFC 3986: an IP
		// literal, a query right after the host, a userinfo.
		{"ip-literals-one-line", "plaintext", samples.DistinctBadURLs(40_000, "http://[::%x]/a%%zz ")},
		{"queries-after-host-one-line", "markdown", samples.DistinctBadURLs(40_000, "https://example%d.com?q=1 ")},
		{"userinfo-one-line", "markdown", samples.DistinctBadURLs(40_000, "https://user%d:pw@example.com/ ")},
		{"suppressed-one-line", "markdown", []byte(strings.Repeat("http://x.org/%zz <!-- urlls-disable-line bad-escape --> ", 20_000) + "\n")},
		// One URL of 500k unsafe characters apart.
		{"unsafe-chars", "plaintext", []byte("http://x.org/" + strings.Repeat("|a", 500_000) + "\n")},
	}
}

// uriExt is the extension of a document's URI in language lang.
func uriExt(lang string) string {
	if lang == "markdown" {
		return ".md"
	}
	return ".txt"
}

// BenchmarkPathological: documents that once cost the server more than
// linear time (a line of 100k "%", 40k URLs on one line, 20k silenced ones) beside ordinary
// text of the same size: opening each (to its diagnostics), what the
// server adds to the checks (line table, diagnostics, JSON) and a
// one-character edit at its start (to its diagnostics).
func BenchmarkPathological(b *testing.B) {
	for _, doc := range pathologicalDocuments() {
		for _, kind := range []string{doc.name, "ordinary-" + doc.name} {
			text, uri := doc.text, "file:///bench/doc"+uriExt(doc.lang)
			if kind != doc.name {
				text = samples.Prose(len(doc.text))
			}
			b.Run("open/"+kind, func(b *testing.B) {
				b.SetBytes(int64(len(text)))
				var took []time.Duration
				for b.Loop() {
					began := time.Now()
					d := openBench(b, uri, doc.lang, text)
					took = append(took, time.Since(began))
					b.StopTimer()
					d.s.stop()
					b.StartTimer()
				}
				reportPercentiles(b, took)
			})
			b.Run("server/"+kind, func(b *testing.B) {
				// What the server adds to the analysis of the version: its
				// line table, the diagnostics and their JSON.
				s := newServer(nopClient{}, Options{Logger: zap.NewNop(), Debounce: time.Hour})
				snap := newSnapshot(protocol.DocumentURI(uri), doc.lang, 1, 1, text, nil)
				a, err := s.analyze(snap.ctx, snap, nil)
				if err != nil {
					b.Fatal(err)
				}
				var took []time.Duration
				for b.Loop() {
					began := time.Now()
					a.mapper = NewMapper(text)
					_ = json.NewEncoder(io.Discard).Encode(s.diagnostics(a, settings{codeDescription: true}))
					took = append(took, time.Since(began))
				}
				reportPercentiles(b, took)
			})
			b.Run("edit/"+kind, func(b *testing.B) {
				benchEdits(b, uri, doc.lang, text, 0)
			})
		}
	}
}

// BenchmarkMemoryPerDocument reports the heap in use per open 1.14 MB
// document (10k URLs) after an edit of each: the heap after opening n of
// them, less the heap before, over n.
func BenchmarkMemoryPerDocument(b *testing.B) {
	const n = 8
	text := samples.Prose(1_140_000)
	for _, l := range benchLanguages {
		b.Run(l.name, func(b *testing.B) {
			for b.Loop() {
				var before, after runtime.MemStats
				runtime.GC()
				runtime.ReadMemStats(&before)
				w := newPublishWaiter()
				s := newServer(w, Options{Logger: zap.NewNop()})
				var docs []*benchDocument
				for i := range n {
					d := &benchDocument{s: s, w: w, uri: protocol.DocumentURI(fmt.Sprintf("file:///bench/%d/%s", i, l.uri[len("file:///bench/"):])), version: 1}
					if err := s.DidOpen(context.Background(), &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
						URI: d.uri, LanguageID: protocol.LanguageIdentifier(l.lang), Version: 1, Text: string(text)}}); err != nil {
						b.Fatal(err)
					}
					w.wait(d.uri, 1)
					d.edit(b, 5000)
					w.wait(d.uri, d.version)
					docs = append(docs, d)
				}
				runtime.GC()
				runtime.ReadMemStats(&after)
				b.ReportMetric(float64(after.HeapInuse-before.HeapInuse)/n/(1<<20), "MB/doc")
				runtime.KeepAlive(docs)
				s.stop()
			}
		})
	}
}
