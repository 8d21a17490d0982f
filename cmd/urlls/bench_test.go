package main

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/urlls/urlls/analysis/config"
	"github.com/urlls/urlls/analysis/samples"
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

// realworldDir is the corpus of real documents beside the checkout
// (../shared/corpus/realworld, see its README); the tree benchmarks copy
// it, and skip it when it is not there.
const realworldDir = "../../../shared/corpus/realworld"

// treeBytes is about the size of the tree of real documents that the tree
// benchmarks check: the corpus copied until it is this large.
const treeBytes = 64 << 20

// benchTree is a tree of files for BenchmarkCheckTree and BenchmarkGrepTree,
// and the bytes of its files.
type benchTree struct {
	name  string
	dir   string
	bytes int64
}

// benchTrees builds the trees of the tree benchmarks in b's temporary
// directory: "realworld", copies of the real corpus (when it is there) up
// to treeBytes, and "generated", Markdown and code written here, so that
// something always runs.
func benchTrees(b *testing.B) []benchTree {
	b.Helper()
	var trees []benchTree
	if _, err := os.Stat(realworldDir); err == nil {
		dir := filepath.Join(b.TempDir(), "realworld")
		var size int64
		for i := 0; size < treeBytes; i++ {
			n, err := copyTree(realworldDir, filepath.Join(dir, fmt.Sprintf("copy%02d", i)))
			if err != nil {
				b.Fatal(err)
			}
			size += n
		}
		trees = append(trees, benchTree{"realworld", dir, size})
	}
	dir := filepath.Join(b.TempDir(), "generated")
	size, err := generateTree(dir, 40, 50)
	if err != nil {
		b.Fatal(err)
	}
	return append(trees, benchTree{"generated", dir, size})
}

// copyTree copies the regular files under src to dst and returns their
// size.
func copyTree(src, dst string) (int64, error) {
	var size int64
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		size += int64(len(data))
		to := filepath.Join(dst, rel)
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			return err
		}
		return os.WriteFile(to, data, 0o644)
	})
	return size, err
}

// generateTree writes dirs directories of files Markdown documents (and a
// Go file each, which a walk skips) with prose, links, bare URLs, code and
// a few broken URLs, and returns the size of what it wrote.
func generateTree(dir string, dirs, files int) (int64, error) {
	var size int64
	for d := range dirs {
		sub := filepath.Join(dir, fmt.Sprintf("section%02d", d))
		if err := os.MkdirAll(sub, 0o755); err != nil {
			return 0, err
		}
		for f := range files {
			var doc strings.Builder
			fmt.Fprintf(&doc, "# Page %d.%d\n\n", d, f)
			for p := range 12 {
				fmt.Fprintf(&doc, "Some prose about the topic of paragraph %d, with a [link](https://example.org/docs/%d/%d/page.html#part-%d)\n", p, d, f, p)
				fmt.Fprintf(&doc, "and a bare URL http://www.example.com/search?q=term%d&lang=en in the middle of a sentence.\n", p)
				if (d+f+p)%17 == 0 {
					fmt.Fprintf(&doc, "A broken one: http://example.org/a%%zz/%d and <ftp://files.example.org/pub/file%d.txt>.\n", p, p)
				}
				doc.WriteString("\n```sh\ncurl -fsSL https://get.example.org/install.sh | sh\n```\n\n")
			}
			doc.WriteString("[ref]: https://example.net/reference \"Reference\"\n")
			if err := os.WriteFile(filepath.Join(sub, fmt.Sprintf("page%02d.md", f)), []byte(doc.String()), 0o644); err != nil {
				return 0, err
			}
			size += int64(doc.Len())
		}
		code := fmt.Sprintf("package section%d\n\n// See https://example.org/spec for the format.\nconst url = \"https://example.org/api/v%d\"\n", d, d)
		if err := os.WriteFile(filepath.Join(sub, "code.go"), []byte(code), 0o644); err != nil {
			return 0, err
		}
		size += int64(len(code))
	}
	return size, nil
}

// BenchmarkCheckTree: urlls check --format json over a tree of documents,
// as a user runs it (the walk, reading, checking, printing), in MB/s of the
// tree's files. -cpu 1,2 sets the workers (GOMAXPROCS). BenchmarkGrepTree
// is the yardstick, on the same trees in the same run.
func BenchmarkCheckTree(b *testing.B) { benchmarkCheckTree(b, "json") }

// BenchmarkCheckTextTree is BenchmarkCheckTree with the default output, the
// text format.
func BenchmarkCheckTextTree(b *testing.B) { benchmarkCheckTree(b, "text") }

func benchmarkCheckTree(b *testing.B, format string) {
	for _, tree := range benchTrees(b) {
		b.Run(tree.name, func(b *testing.B) {
			b.SetBytes(tree.bytes)
			for b.Loop() {
				code := run([]string{"check", "--quiet", "--format", format, tree.dir}, strings.NewReader(""), io.Discard, io.Discard)
				if code == exitUsage {
					b.Fatalf("exit %d", code)
				}
			}
		})
	}
}

// grepURLs is an extended regular expression for what looks like a URL:
// a scheme, "://", and what follows up to white space, "<", ">" or '"'.
const grepURLs = `[a-zA-Z][a-zA-Z0-9+.-]*://[^[:space:]<>"]+`

// BenchmarkGrepTree: GNU grep pulling the URL-like tokens out of the trees
// of BenchmarkCheckTree (grep -rEoh), its output thrown away: the speed of
// reading the tree and matching a regular expression, the floor urlls is
// measured against. Skipped when there is no grep.
//
// Its output goes to /dev/null, as hyperfine sends it by default, and GNU
// grep, seeing that, stops reading a file at its first match (as -l
// would): it reads the whole of the files without a URL only.
// BenchmarkGrepPipedTree is grep printing every token, into a pipe.
func BenchmarkGrepTree(b *testing.B) { benchmarkGrepTree(b, nil) }

// BenchmarkGrepPipedTree is BenchmarkGrepTree with grep's output read from
// a pipe, so that grep prints every token of every file.
func BenchmarkGrepPipedTree(b *testing.B) { benchmarkGrepTree(b, io.Discard) }

func benchmarkGrepTree(b *testing.B, stdout io.Writer) {
	grep, err := exec.LookPath("grep")
	if err != nil {
		b.Skip("no grep")
	}
	for _, tree := range benchTrees(b) {
		b.Run(tree.name, func(b *testing.B) {
			b.SetBytes(tree.bytes)
			for b.Loop() {
				cmd := exec.Command(grep, "-rEoh", grepURLs, tree.dir)
				// Stdout nil: /dev/null; io.Discard: a pipe. Exit 1 is
				// "nothing matched".
				cmd.Stdout = stdout
				if err := cmd.Run(); err != nil {
					if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

// BenchmarkCheckPathological: urlls check of a file holding one of the
// pathological lines of issue 12 beside an ordinary document of the same
// size (samples.Prose), in turn in one run, as a user runs it: it reports
// the time of each and their ratio (at most 3 is the goal). Past the
// findings it prints, check only counts (config.Config.CheckFirst). In
// process the heap is warm: a process of its own also pays for fresh
// memory, which README's Speed section measures with the binary.
func BenchmarkCheckPathological(b *testing.B) {
	lines := []struct {
		name string
		doc  []byte
	}{
		{"percents", []byte("http://x.org/" + strings.Repeat("%", 100_000) + "\n")},
		{"urls", []byte(strings.Repeat("http://x.org/a%zz ", 40_000) + "\n")},
		{"urls-distinct-paths", samples.DistinctBadURLs(40_000, "http://x.org/%d/a%%zz ")},
		{"urls-distinct-hosts", samples.DistinctBadURLs(40_000, "http://x%d.org/a%%zz ")},
		// URLs only RFC 1738 rejects, each parsed again by RFC 3986.
		{"ip-literals", samples.DistinctBadURLs(40_000, "http://[::%x]/a%%zz ")},
		{"queries-after-host", samples.DistinctBadURLs(40_000, "https://example%d.com?q=1 ")},
		{"userinfo", samples.DistinctBadURLs(40_000, "https://user%d:pw@example.com/ ")},
		// One URL of many findings of characters, apart: unsafe
		// characters, tildes, non-ASCII characters, needless escapes.
		{"unsafe-chars", []byte("http://x.org/" + strings.Repeat("|a", 500_000) + "\n")},
		{"tildes", []byte("http://x.org/" + strings.Repeat("~a", 500_000) + "\n")},
		{"non-ascii", []byte("http://x.org/" + strings.Repeat("éa", 330_000) + "\n")},
		{"needless-escapes", []byte("http://x.org/" + strings.Repeat("%41a", 250_000) + "\n")},
		// Links that never close, one bare URL of 110k brackets.
		{"brackets", []byte(strings.Repeat("[a](http://a.org/(", 55_000) + "\n")},
	}
	dir := b.TempDir()
	for _, tc := range lines {
		patho := filepath.Join(dir, tc.name+".txt")
		prose := filepath.Join(dir, tc.name+"-prose.txt")
		if err := os.WriteFile(patho, tc.doc, 0o644); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(prose, samples.Prose(len(tc.doc)), 0o644); err != nil {
			b.Fatal(err)
		}
		for _, format := range []string{"text", "json"} {
			b.Run(tc.name+"/"+format, func(b *testing.B) {
				var pathoTime, proseTime time.Duration
				timed := func(path string) time.Duration {
					t0 := time.Now()
					if code := run([]string{"check", "--format", format, path}, strings.NewReader(""), io.Discard, io.Discard); code == exitUsage {
						b.Fatalf("exit %d", code)
					}
					return time.Since(t0)
				}
				for b.Loop() {
					pathoTime += timed(patho)
					proseTime += timed(prose)
				}
				b.ReportMetric(float64(pathoTime.Nanoseconds())/float64(b.N), "pathological-ns")
				b.ReportMetric(float64(proseTime.Nanoseconds())/float64(b.N), "ordinary-ns")
				b.ReportMetric(float64(pathoTime)/float64(proseTime), "pathological/ordinary")
			})
		}
	}
}
