package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/owenrumney/go-sarif/v2/sarif"

	"github.com/urlls/urlls/analysis/config"
)

// wholeJSON is --format json as it was printed before the output streamed:
// one array encoded at once. The streamed output must be its bytes.
func wholeJSON(t *testing.T, results []fileResult) []byte {
	t.Helper()
	out := []jsonFinding{}
	rd := newRenderer("json", nil)
	for i := range results {
		r := &results[i]
		// The elements as the renderer builds them, decoded: the test is
		// about the framing of the array.
		part := rd.render(r, r.cfg.Limit(r.findings)).findings
		if len(part) == 0 {
			continue
		}
		var elems []jsonFinding
		if err := json.Unmarshal([]byte("["+string(part)+"]"), &elems); err != nil {
			t.Fatal(err)
		}
		out = append(out, elems...)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// wholeSARIF is --format sarif as it was printed before the output
// streamed: one log built by go-sarif, its artifacts added with
// AddDistinctArtifact and its results with AddResult, written by
// PrettyWrite. The streamed output must be its bytes.
func wholeSARIF(t *testing.T, results []fileResult) []byte {
	t.Helper()
	report, err := newSARIFReport()
	if err != nil {
		t.Fatal(err)
	}
	run := report.Runs[0]
	rd := newRenderer("sarif", nil)
	for i := range results {
		r := &results[i]
		uri := artifactURI(r.path)
		run.AddDistinctArtifact(uri)
		if len(r.findings) == 0 {
			continue
		}
		// The results as the renderer builds them, decoded, and added as a
		// whole log adds them.
		var res []*sarif.Result
		if err := json.Unmarshal([]byte("["+string(rd.render(r, r.cfg.Limit(r.findings)).findings)+"]"), &res); err != nil {
			t.Fatal(err)
		}
		for _, x := range res {
			x.RuleIndex = nil
			run.AddResult(x)
		}
	}
	var b bytes.Buffer
	if err := report.PrettyWrite(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestStreamedOutputIsWhole: the json and sarif formats, written file by
// file, are byte for byte the documents built whole: with no file, with
// files without findings, with findings whose text JSON escapes (HTML
// characters, which SARIF escapes and json does not), with standard input
// and a file named stdin (one artifact), and with a code that has no rule.
func TestStreamedOutputIsWhole(t *testing.T) {
	doc := func(s string) fileResult {
		d := []byte(s)
		return fileResult{path: "doc.md", doc: d, findings: checkApply(config.Config{}, d, "markdown")}
	}
	bad := doc("see <http://x.org/a%zz&b> and http://y.org/<a>%zz\n")
	clean := doc("see http://x.org/\n")
	norule := bad
	norule.path = "norule.md"
	norule.findings = append([]config.Finding(nil), bad.findings...)
	norule.findings[0].Code = "no-such-code"
	named := func(r fileResult, path string) fileResult { r.path = path; return r }
	cases := map[string][]fileResult{
		"none":           nil,
		"clean":          {clean, named(clean, "b.md")},
		"findings":       {named(clean, "a.md"), bad, named(bad, "dir/c d.md"), named(clean, "z.md")},
		"stdin and file": {named(bad, stdinName), named(bad, "stdin"), named(clean, "co:lon.md")},
		"no rule":        {norule},
	}
	for name, results := range cases {
		t.Run(name, func(t *testing.T) {
			for _, format := range []string{"json", "sarif"} {
				var got bytes.Buffer
				if err := writeFindings(&got, format, results, nil); err != nil {
					t.Fatal(err)
				}
				want := wholeJSON(t, results)
				if format == "sarif" {
					want = wholeSARIF(t, results)
				}
				if !bytes.Equal(got.Bytes(), want) {
					t.Errorf("%s streamed:\n%s\nwhole:\n%s", format, got.Bytes(), want)
				}
			}
		})
	}
}

// TestSpool: what a spool holds comes back whole, from memory or, past
// spoolMemory, from its temporary file, which is gone once it is closed.
func TestSpool(t *testing.T) {
	for _, n := range []int{0, 10, spoolMemory/100 + 7} {
		var s spool
		var want bytes.Buffer
		for i := range n {
			line := fmt.Sprintf("line %d %s\n", i, strings.Repeat("x", 90))
			s.Write([]byte(line))
			want.WriteString(line)
		}
		if (s.file != nil) != (want.Len() > spoolMemory) {
			t.Errorf("%d bytes: in a file = %v", want.Len(), s.file != nil)
		}
		name := s.name
		var got bytes.Buffer
		if _, err := s.WriteTo(&got); err != nil {
			t.Fatal(err)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Errorf("%d bytes spooled, %d back", want.Len(), got.Len())
		}
		if name != "" {
			if _, err := os.Stat(name); !os.IsNotExist(err) {
				t.Errorf("the spool's file %s is left: %v", name, err)
			}
		}
	}
}

// TestCheckStreamsInOrder: a tree of many files, checked by a pool of
// workers that run ahead of the output, prints its findings in the walk's
// order, the same in every format as when each file is checked alone, and
// a file named on the command line after the directory that holds it is
// checked once, as named.
func TestCheckStreamsInOrder(t *testing.T) {
	files := map[string]string{}
	for i := range 300 {
		files[fmt.Sprintf("d%02d/doc%03d.md", i%7, i)] = strings.Repeat("text\n", i%13) + fmt.Sprintf("See http://example.org/%d%%zz here.\n", i)
	}
	files["d00/nul.md"] = "http://example.org/%zz\x00\n"
	dir := writeFiles(t, files)
	for _, format := range []string{"text", "json", "sarif", "github"} {
		out, _, code := urlls(t, "check", "--format", format, dir)
		if code != 1 {
			t.Fatalf("%s: exit %d", format, code)
		}
		var want strings.Builder
		var paths []string
		for d := range 7 {
			entries, _ := os.ReadDir(filepath.Join(dir, fmt.Sprintf("d%02d", d)))
			for _, e := range entries {
				if e.Name() != "nul.md" {
					paths = append(paths, filepath.Join(dir, fmt.Sprintf("d%02d", d), e.Name()))
				}
			}
		}
		if format == "text" || format == "github" {
			for _, p := range paths {
				one, _, _ := urlls(t, "check", "--format", format, p)
				want.WriteString(one)
			}
			if out != want.String() {
				t.Errorf("%s: the tree's output is not its files' in order", format)
			}
		} else if n := strings.Count(out, `"code": "bad-escape"`) + strings.Count(out, `"ruleId": "bad-escape"`); n != 300 {
			t.Errorf("%s: %d bad-escape findings, want 300", format, n)
		}
	}
	// Named after the walk that found it: checked once, as named (its NUL
	// does not make it skipped).
	nul := filepath.Join(dir, "d00", "nul.md")
	out, _, _ := urlls(t, "check", dir, nul)
	if n := strings.Count(out, "nul.md:"); n != 1 {
		t.Errorf("nul.md named after its directory: %d findings, want 1:\n%s", n, out)
	}
	out, _, _ = urlls(t, "check", dir)
	if strings.Contains(out, "nul.md:") {
		t.Errorf("nul.md found by the walk alone was checked")
	}
}

// TestProgressBesideFindings: with stdout and stderr on terminals, the
// findings stream while the progress is shown: they are printed whole, in
// order, never cut by the display, which is cleared before the summary.
func TestProgressBesideFindings(t *testing.T) {
	files := map[string]string{}
	for i := range 200 {
		files[fmt.Sprintf("d%d/doc%03d.md", i%10, i)] = "See http://example.org/a%zz here.\n"
	}
	dir := writeFiles(t, files)
	t.Setenv("PRE_COMMIT", "")
	t.Setenv("TERM", "xterm")
	t.Setenv("NO_COLOR", "")
	delay, tick := progressDelay, progressTick
	t.Cleanup(func() { progressDelay, progressTick = delay, tick })
	progressDelay, progressTick = 0, time.Millisecond
	plain, _, _ := urlls(t, "check", "--color", "never", dir)
	for _, format := range []string{"text", "json"} {
		out, errOut, code := terminalRun(t, true, true, "check", "--color", "never", "--format", format, dir)
		if format == "text" && out != plain {
			t.Errorf("text on a terminal beside the progress:\n%s\nwant\n%s", out, plain)
		}
		if format == "json" && !json.Valid([]byte(out)) {
			t.Errorf("json on a terminal beside the progress is not JSON:\n%s", out)
		}
		errOut = ansi.ReplaceAllString(errOut, "")
		// (JSON's lines end only after the next file's comma: the display
		// waits for them, and may never be drawn.)
		if format == "text" && !strings.Contains(errOut, "checking files") && !strings.Contains(errOut, "finding files") {
			t.Errorf("%s: no progress shown: %q", format, errOut)
		}
		last := strings.LastIndex(errOut, "\r")
		if code != 1 || !strings.HasSuffix(errOut, "200 errors in 200 files; 200 URLs in 200 files checked\n") ||
			(last >= 0 && strings.TrimSpace(errOut[last+1:]) != "200 errors in 200 files; 200 URLs in 200 files checked") {
			t.Errorf("%s: exit %d, stderr %q", format, code, errOut)
		}
	}
}
