package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/owenrumney/go-sarif/v2/sarif"

	"github.com/urlls/urlls/analysis/checks"
)

// lineIndex converts byte offsets of one document to lines and columns.
type lineIndex struct {
	doc    []byte
	starts []int // byte offset of each line's first byte
}

func newLineIndex(doc []byte) *lineIndex {
	li := &lineIndex{doc: doc, starts: []int{0}}
	for i, b := range doc {
		if b == '\n' {
			li.starts = append(li.starts, i+1)
		}
	}
	return li
}

// position returns the 1-based line, the 1-based byte column and the 1-based
// character (Unicode code point) column of offset off.
func (li *lineIndex) position(off int) (line, byteCol, charCol int) {
	off = max(0, min(off, len(li.doc)))
	lo, hi := 0, len(li.starts)-1
	for lo < hi { // the last line start <= off
		mid := (lo + hi + 1) / 2
		if li.starts[mid] <= off {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	start := li.starts[lo]
	return lo + 1, off - start + 1, utf8.RuneCount(li.doc[start:off]) + 1
}

// jsonFinding is one element of --format json.
type jsonFinding struct {
	Path      string    `json:"path"`
	Line      int       `json:"line"`
	Column    int       `json:"column"`
	EndLine   int       `json:"endLine"`
	EndColumn int       `json:"endColumn"`
	Offset    int       `json:"offset"`
	EndOffset int       `json:"endOffset"`
	Severity  string    `json:"severity"`
	Code      string    `json:"code"`
	Message   string    `json:"message"`
	URL       string    `json:"url"`
	Fixes     []jsonFix `json:"fixes"`
}

type jsonFix struct {
	Message string     `json:"message"`
	Edits   []jsonEdit `json:"edits"`
}

type jsonEdit struct {
	Offset    int    `json:"offset"`
	EndOffset int    `json:"endOffset"`
	NewText   string `json:"newText"`
}

// writeFindings prints the findings of every file in format. Text and JSON
// columns count bytes, as vim's errorformat and efm-langserver expect;
// SARIF's and GitHub's count characters.
func writeFindings(w io.Writer, format string, results []fileResult) error {
	bw := bufio.NewWriter(w)
	switch format {
	case "text":
		for _, r := range results {
			li := newLineIndex(r.doc)
			for _, f := range r.findings {
				line, col, _ := li.position(f.Start)
				fmt.Fprintf(bw, "%s:%d:%d: %s: %s [%s]\n", r.path, line, col, f.Severity, message(f.Message), f.Code)
			}
		}
	case "json":
		out := []jsonFinding{}
		for _, r := range results {
			li := newLineIndex(r.doc)
			for _, f := range r.findings {
				jf := jsonFinding{Path: r.path, Offset: f.Start, EndOffset: f.End, Severity: f.Severity.String(),
					Code: f.Code, Message: f.Message, URL: f.URL, Fixes: []jsonFix{}}
				jf.Line, jf.Column, _ = li.position(f.Start)
				jf.EndLine, jf.EndColumn, _ = li.position(f.End)
				for _, fix := range f.SuggestedFixes {
					jx := jsonFix{Message: fix.Message, Edits: []jsonEdit{}}
					for _, ed := range fix.Edits {
						jx.Edits = append(jx.Edits, jsonEdit{Offset: ed.Start, EndOffset: ed.End, NewText: ed.NewText})
					}
					jf.Fixes = append(jf.Fixes, jx)
				}
				out = append(out, jf)
			}
		}
		enc := json.NewEncoder(bw)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(out); err != nil {
			return err
		}
	case "sarif":
		if err := writeSARIF(bw, results); err != nil {
			return err
		}
	case "github":
		for _, r := range results {
			li := newLineIndex(r.doc)
			for _, f := range r.findings {
				line, _, col := li.position(f.Start)
				endLine, _, endCol := li.position(f.End)
				level := map[checks.Severity]string{checks.Error: "error", checks.Warning: "warning"}[f.Severity]
				if level == "" {
					level = "notice"
				}
				fmt.Fprintf(bw, "::%s file=%s,line=%d,col=%d,endLine=%d,endColumn=%d,title=%s::%s\n", level,
					githubProperty(r.path), line, col, endLine, endCol, githubProperty("urlls "+f.Code), githubData(f.Message))
			}
		}
	}
	return bw.Flush()
}

// githubData escapes a workflow command's message.
func githubData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// githubProperty escapes a workflow command's property value.
func githubProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}

// readmeURL is where the catalog documents each code; a code's section is
// its anchor.
const readmeURL = "https://github.com/urlls/urlls/blob/main/README.md"

// writeSARIF prints a SARIF 2.1.0 log with one rule per catalog code.
func writeSARIF(w io.Writer, results []fileResult) error {
	report, err := sarif.New(sarif.Version210)
	if err != nil {
		return err
	}
	v, _ := version()
	if strings.HasPrefix(v, "v") {
		v = v[1:]
	} else {
		v = "0.0.0-devel" // SARIF wants a version that starts with a number (SARIF2005)
	}
	run := sarif.NewRunWithInformationURI("urlls", "https://github.com/urlls/urlls")
	run.Tool.Driver.WithVersion(v)
	run.ColumnKind = "unicodeCodePoints"
	index := map[string]int{}
	for i, c := range checks.Catalog {
		index[c.Name] = i
		run.AddRule(c.Name).
			WithName(ruleName(c.Name)).
			WithShortDescription(sarif.NewMultiformatMessageString(c.Summary)).
			WithFullDescription(sarif.NewMultiformatMessageString(c.Doc)).
			WithHelp(sarif.NewMultiformatMessageString(c.Doc + " See " + readmeURL + "#" + c.Name + ".")).
			WithHelpURI(readmeURL + "#" + c.Name).
			WithDefaultConfiguration(sarif.NewReportingConfiguration().WithLevel(sarifLevel(c.Severity)))
	}
	for _, r := range results {
		li := newLineIndex(r.doc)
		uri := artifactURI(r.path)
		run.AddDistinctArtifact(uri)
		for _, f := range r.findings {
			line, _, col := li.position(f.Start)
			endLine, _, endCol := li.position(f.End)
			region := sarif.NewRegion().
				WithStartLine(line).WithStartColumn(col).
				WithEndLine(endLine).WithEndColumn(endCol).
				WithByteOffset(f.Start).WithByteLength(f.End - f.Start)
			res := sarif.NewRuleResult(f.Code).
				WithLevel(sarifLevel(f.Severity)).
				WithMessage(sarif.NewTextMessage(f.Message)).
				WithLocations([]*sarif.Location{sarif.NewLocationWithPhysicalLocation(
					sarif.NewPhysicalLocation().
						WithArtifactLocation(sarif.NewSimpleArtifactLocation(uri)).
						WithRegion(region))})
			if i, ok := index[f.Code]; ok {
				res.WithRuleIndex(i)
			}
			for _, fix := range f.SuggestedFixes {
				change := sarif.NewArtifactChange(sarif.NewSimpleArtifactLocation(uri))
				for _, ed := range fix.Edits {
					change.Replacements = append(change.Replacements, sarif.NewReplacement(
						sarif.NewRegion().WithByteOffset(ed.Start).WithByteLength(ed.End-ed.Start)).
						WithInsertedContent(sarif.NewArtifactContent().WithText(ed.NewText)))
				}
				res.AddFix(sarif.NewFix().
					WithDescription(sarif.NewTextMessage(fix.Message)).
					WithArtifactChanges([]*sarif.ArtifactChange{change}))
			}
			run.AddResult(res)
		}
	}
	report.AddRun(run)
	return report.PrettyWrite(w)
}

// artifactURI turns a file path into the URI reference SARIF wants (§3.4.3):
// slashes, each segment percent-encoded; standard input is "stdin".
func artifactURI(path string) string {
	if path == stdinName {
		return "stdin"
	}
	segs := strings.Split(filepath.ToSlash(path), "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return strings.Join(segs, "/")
}

// ruleName makes a SARIF rule name of a code: bad-escape -> URLBadEscape. The
// name must differ from the id (SARIF1001), even for one-word codes.
func ruleName(code string) string {
	var b strings.Builder
	b.WriteString("URL")
	for _, part := range strings.FieldsFunc(code, func(r rune) bool { return r == '-' }) {
		b.WriteString(strings.ToUpper(part[:1]) + part[1:])
	}
	return b.String()
}

func sarifLevel(s checks.Severity) string {
	switch s {
	case checks.Error:
		return "error"
	case checks.Warning:
		return "warning"
	}
	return "note"
}
