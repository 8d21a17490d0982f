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
	"github.com/urlls/urlls/analysis/position"
)

// lineCol returns the 1-based line, byte column and code point column of
// offset off: one position.Mapper per document, the one the language server
// uses, so that every format counts lines alike ("\n", "\r\n" and a lone
// "\r" end a line) and a finding costs O(log n) however long its line.
func lineCol(m *position.Mapper, off int) (line, byteCol, charCol int) {
	p := m.Position(off)
	return p.Line + 1, p.Byte + 1, p.Rune + 1
}

// maxJSONURL bounds the bytes of the URL a JSON finding repeats: each
// finding of a URL carries it, and a 256 KB URL with a dozen findings
// would print it a dozen times.
const maxJSONURL = 256

// jsonURL is url as a JSON finding gives it: cut after maxJSONURL bytes
// (never inside a character) and ended by "…", and whether it was cut.
func jsonURL(url string) (string, bool) {
	if len(url) <= maxJSONURL {
		return url, false
	}
	n := maxJSONURL
	for n > 0 && !utf8.RuneStart(url[n]) {
		n--
	}
	return url[:n] + "…", true
}

// jsonFinding is one element of --format json.
type jsonFinding struct {
	Path      string `json:"path"`
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	EndLine   int    `json:"endLine"`
	EndColumn int    `json:"endColumn"`
	Offset    int    `json:"offset"`
	EndOffset int    `json:"endOffset"`
	Severity  string `json:"severity"`
	Code      string `json:"code"`
	Message   string `json:"message"`
	URL       string `json:"url"`
	// URLTruncated says that URL is the start of a longer URL (jsonURL).
	URLTruncated bool      `json:"urlTruncated,omitempty"`
	Fixes        []jsonFix `json:"fixes"`
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

// writeFindings prints the findings of every file in format: those each
// file's configuration shows (config.Config.Limit). Text and JSON columns
// count bytes, as vim's errorformat and efm-langserver expect; SARIF's and
// GitHub's count characters. What the output repeats per finding is
// bounded (messages, URLs), so that its size grows with the findings and
// the document, never with their product.
//
// p colours the text format; nil prints it plain.
func writeFindings(w io.Writer, format string, results []fileResult, p *palette) error {
	bw := bufio.NewWriter(w)
	switch format {
	case "text":
		for _, r := range results {
			m := position.New(r.doc)
			path := message(r.path) // a newline in a file name must not start a line
			for _, f := range r.cfg.Limit(r.findings) {
				line, col, _ := lineCol(m, f.Start)
				writeFindingLine(bw, p, path, line, col, f)
			}
		}
	case "json":
		out := []jsonFinding{}
		for _, r := range results {
			m := position.New(r.doc)
			for _, f := range r.cfg.Limit(r.findings) {
				jf := jsonFinding{Path: r.path, Offset: f.Start, EndOffset: f.End, Severity: f.Severity.String(),
					Code: f.Code, Message: f.Message, Fixes: []jsonFix{}}
				jf.URL, jf.URLTruncated = jsonURL(f.URL)
				jf.Line, jf.Column, _ = lineCol(m, f.Start)
				jf.EndLine, jf.EndColumn, _ = lineCol(m, f.End)
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
			m := position.New(r.doc)
			for _, f := range r.cfg.Limit(r.findings) {
				line, _, col := lineCol(m, f.Start)
				endLine, _, endCol := lineCol(m, f.End)
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

// The escapes of workflow commands: a message (data) and a property value.
var (
	githubDataEscaper     = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	githubPropertyEscaper = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
)

// githubData escapes a workflow command's message.
func githubData(s string) string { return githubDataEscaper.Replace(s) }

// githubProperty escapes a workflow command's property value.
func githubProperty(s string) string { return githubPropertyEscaper.Replace(s) }

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
		m := position.New(r.doc)
		uri := artifactURI(r.path)
		run.AddDistinctArtifact(uri)
		for _, f := range r.cfg.Limit(r.findings) {
			line, _, col := lineCol(m, f.Start)
			endLine, _, endCol := lineCol(m, f.End)
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

// artifactURI turns a file path into the URI reference SARIF wants
// (§3.4.3): slashes, each segment percent-encoded, built by net/url, which
// also writes "./" before a first segment with a colon ("a:b.md" would
// otherwise be a URI of scheme "a"); standard input is "stdin".
func artifactURI(path string) string {
	if path == stdinName {
		return "stdin"
	}
	p := filepath.ToSlash(path)
	if strings.HasPrefix(p, "//") {
		// "//host/x" would be an authority; POSIX reads "//x" as "/x".
		p = "/" + strings.TrimLeft(p, "/")
	}
	return (&url.URL{Path: p}).String()
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
