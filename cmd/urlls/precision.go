package main

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/urlls/urlls/analysis/checks"
	"github.com/urlls/urlls/analysis/config"
	"github.com/urlls/urlls/analysis/position"
)

// "urlls report" is for judging the precision of the checks on a corpus: a
// person reads, for each code, a few findings with the line they stand on,
// and tells whether each is a problem the writer would want fixed. The
// counts say where to look; the samples are chosen deterministically, so
// that two runs over the same corpus show the same findings, and spread
// over the files, so that one file with a hundred copies of one mistake
// does not fill a code's sample.

// sourceBefore and sourceAfter bound, in columns, how much of a long source
// line a sample shows around the finding: about 160 columns in all.
const (
	sourceBefore = 96
	sourceAfter  = 64
)

func runReport(e *env, cmd *command, args []string) int {
	fs := newFlagSet(cmd)
	var f selectFlags
	sample := fs.Int("sample", 10, "show up to `N` findings of each code")
	severities := fs.String("severity", "error,warning,information,hint", "count and show only findings of these `severities` (comma-separated)")
	f.register(fs)
	var out outputFlags
	out.register(fs, false)
	paths, code, done := e.parse(cmd, fs, args)
	if done {
		return code
	}
	if len(paths) == 0 {
		return e.usageError(cmd, fs, "no files given (use - for standard input)")
	}
	if *sample < 0 {
		return e.usageError(cmd, fs, "--sample must not be negative, got %d", *sample)
	}
	if err := out.check(); err != nil {
		return e.checkerError(cmd, fs, err)
	}
	wanted := map[checks.Severity]bool{}
	for _, s := range strings.Split(*severities, ",") {
		l, ok := config.ParseLevel(strings.TrimSpace(s))
		if !ok || l.Off {
			return e.usageError(cmd, fs, "unknown severity %s (want error, warning, information or hint)", oneLine(s))
		}
		wanted[l.Severity] = true
	}
	c, err := newChecker(f)
	if err != nil {
		return e.checkerError(cmd, fs, err)
	}
	c.progress = startProgress(e.stderr, out.quiet, paths)
	var results []fileResult
	ioErrors := c.run(e, cmd, paths, nil, func(r *fileResult) { results = append(results, *r) })
	stdout, pal := e.stdout, (*palette)(nil)
	if colorWanted(out.color, e.stdout) {
		stdout, pal = colorWriter(e.stdout), newPalette(true)
	}
	w := bufio.NewWriter(stdout)
	writePrecisionReport(w, results, wanted, *sample, pal)
	if err := w.Flush(); err != nil {
		fmt.Fprintf(e.stderr, "urlls: report: %s\n", message(err.Error()))
		return exitUsage
	}
	if ioErrors > 0 {
		return exitUsage
	}
	return exitOK
}

// codeGroup is the findings of one code at one severity.
type codeGroup struct {
	severity checks.Severity
	code     string
	hits     []hit // in file order, then document order
	files    int
}

// hit is one finding: results[file].findings[index].
type hit struct{ file, index int }

// writePrecisionReport prints the summary, the table of counts by severity
// and code, and each code's samples; p colours them (nil: plain).
func writePrecisionReport(w io.Writer, results []fileResult, wanted map[checks.Severity]bool, sample int, p *palette) {
	urls, total := 0, 0
	groups := map[string]*codeGroup{}
	for i, r := range results {
		urls += r.urls
		for j, f := range r.findings {
			if !wanted[f.Severity] {
				continue
			}
			total++
			key := f.Severity.String() + " " + f.Code
			g := groups[key]
			if g == nil {
				g = &codeGroup{severity: f.Severity, code: f.Code}
				groups[key] = g
			}
			if len(g.hits) == 0 || g.hits[len(g.hits)-1].file != i {
				g.files++
			}
			g.hits = append(g.hits, hit{i, j})
		}
	}
	var order []*codeGroup
	for _, g := range groups {
		order = append(order, g)
	}
	// Errors and warnings first, and within a severity the most frequent
	// code first: where a false positive costs most.
	slices.SortFunc(order, func(a, b *codeGroup) int {
		if a.severity != b.severity {
			return int(a.severity) - int(b.severity)
		}
		if len(a.hits) != len(b.hits) {
			return len(b.hits) - len(a.hits)
		}
		return strings.Compare(a.code, b.code)
	})

	fmt.Fprintf(w, "%s checked, %s, %s\n", plural(len(results), "file"), plural(urls, "URL"), plural(total, "finding"))
	if len(order) == 0 {
		return
	}
	fmt.Fprintln(w)
	codeWidth := len("CODE")
	for _, g := range order {
		codeWidth = max(codeWidth, len(g.code))
	}
	fmt.Fprintf(w, "%-11s  %-*s  %8s  %5s\n", "SEVERITY", codeWidth, "CODE", "FINDINGS", "FILES")
	for _, g := range order {
		fmt.Fprintf(w, "%s  %-*s  %8d  %5d\n", p.paintSeverity(g.severity, fmt.Sprintf("%-11s", g.severity)), codeWidth, g.code, len(g.hits), g.files)
	}
	if sample == 0 {
		return
	}
	mappers := map[int]*position.Mapper{} // of the files sampled, built once each
	for _, g := range order {
		picked := pickSamples(g.hits, sample)
		fmt.Fprintf(w, "\n%s\n", p.paintHeading(fmt.Sprintf("== %s %s: %s in %s, %d shown ==", g.severity, g.code,
			plural(len(g.hits), "finding"), plural(g.files, "file"), len(picked))))
		for _, h := range picked {
			r := results[h.file]
			m := mappers[h.file]
			if m == nil {
				m = position.New(r.doc)
				mappers[h.file] = m
			}
			writeSample(w, p, r.path, m, r.doc, r.findings[h.index])
		}
	}
}

// pickSamples chooses up to n hits, spread over the files: when there are
// more files than n, the first hit of every k-th file; otherwise a share of
// n for each file (as even as the files' own counts allow), spread evenly
// over each file's hits. The result is in file and document order.
func pickSamples(hits []hit, n int) []hit {
	if len(hits) <= n {
		return hits
	}
	// The hits of each file, in order.
	var byFile [][]hit
	for i, h := range hits {
		if i == 0 || h.file != hits[i-1].file {
			byFile = append(byFile, nil)
		}
		byFile[len(byFile)-1] = append(byFile[len(byFile)-1], h)
	}
	var out []hit
	if len(byFile) >= n {
		for i := range n {
			out = append(out, byFile[i*len(byFile)/n][0])
		}
		return out
	}
	// Deal n places round the files, skipping those that have no hit left.
	share := make([]int, len(byFile))
	for left := n; left > 0; {
		for i := range byFile {
			if left > 0 && share[i] < len(byFile[i]) {
				share[i]++
				left--
			}
		}
	}
	for i, fh := range byFile {
		for j := range share[i] {
			out = append(out, fh[j*len(fh)/share[i]])
		}
	}
	return out
}

// writeSample prints a finding as "urlls check" does, then its source line
// with a caret under the finding's first byte. Only a window of a long line
// around the finding is read, so that the samples of a 50 MB line cost
// what those of a short one do.
func writeSample(w io.Writer, p *palette, path string, m *position.Mapper, doc []byte, f config.Finding) {
	line, col, _ := lineCol(m, f.Start)
	writeFindingLine(w, p, message(path), line, col, f)
	start, end := m.LineStart(line-1), m.LineEnd(line-1)
	at := max(start, min(f.Start, end))
	// Enough bytes either side for the columns shown (a column is at most
	// utf8.UTFMax bytes, or one byte escaped as 4 columns).
	lo, hi := max(start, at-8*sourceBefore), min(end, at+8*sourceAfter)
	for lo > start && !utf8.RuneStart(doc[lo]) {
		lo--
	}
	shown, caret := caretWindow(string(doc[lo:hi]), at-lo, sourceBefore, sourceAfter)
	if lo > start && !strings.HasPrefix(shown, "…") {
		shown, caret = "…"+shown, " "+caret
	}
	if hi < end && !strings.HasSuffix(shown, "…") {
		shown += "…"
	}
	fmt.Fprintf(w, "    %s\n    %s\n", shown, p.paintCaret(caret))
}

// plural says "1 file", "2 files".
func plural(n int, noun string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, noun)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
