package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/owenrumney/go-sarif/v2/sarif"

	"github.com/urlls/urlls/analysis/checks"
	"github.com/urlls/urlls/analysis/config"
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

// byteLines finds the line and byte column of the offsets of a document
// (lineCol's first two), for the text and JSON formats, without the
// position.Mapper's index of the whole text where it can: a document with
// a few findings near its start was indexed to its end, a tenth of the
// time of checking a tree of small documents. Offsets asked in
// increasing order of each kind (the findings' starts, their ends) in a
// document with no '\r' are found by counting the '\n' since the last
// one asked; otherwise the Mapper answers.
type byteLines struct {
	doc     []byte
	noCR    bool
	cursors [2]lineCursor // by the kind of offset
	m       *position.Mapper
}

// lineCursor is where a byteLines has got to for one kind of offset: the
// last offset asked, its 0-based line and the start of the line.
type lineCursor struct{ off, line, start int }

func newByteLines(doc []byte) *byteLines {
	return &byteLines{doc: doc, noCR: bytes.IndexByte(doc, '\r') < 0}
}

// lineCol returns the 1-based line and byte column of off, an offset of
// the kind kind (0 or 1).
func (bl *byteLines) lineCol(kind, off int) (line, byteCol int) {
	c := &bl.cursors[kind]
	// An offset inside a multi-byte character is at the start of the
	// character for the Mapper: the Mapper answers for it.
	if bl.m == nil && bl.noCR && off >= c.off && off <= len(bl.doc) && (off == len(bl.doc) || utf8.RuneStart(bl.doc[off])) {
		skipped := bl.doc[c.off:off]
		if n := bytes.Count(skipped, []byte{'\n'}); n > 0 {
			c.line += n
			c.start = c.off + bytes.LastIndexByte(skipped, '\n') + 1
		}
		c.off = off
		return c.line + 1, off - c.start + 1
	}
	if bl.m == nil {
		bl.m = position.New(bl.doc)
	}
	line, byteCol, _ = lineCol(bl.m, off)
	return line, byteCol
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
	return position.CutAt(url, maxJSONURL) + "…", true
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
// p colours the text format; nil prints it plain. "urlls check" prints the
// same bytes file by file as the files are checked (findingsWriter).
func writeFindings(w io.Writer, format string, results []fileResult, p *palette) error {
	fw, err := newFindingsWriter(w, format)
	if err != nil {
		return err
	}
	rd := newRenderer(format, p)
	for i := range results {
		if err := fw.file(&results[i], rd.render(&results[i], results[i].cfg.Limit(results[i].findings))); err != nil {
			fw.abort()
			return err
		}
	}
	return fw.close()
}

// fileOutput is one file's part of the output of "urlls check", rendered
// in the worker that checked the file (renderer), printed in order
// (findingsWriter).
type fileOutput struct {
	// findings: in the text and github formats, the file's lines; in json
	// and sarif, its array elements (findings, results), indented for their
	// place in the whole and separated by ",\n".
	findings []byte
	// artifact is the file's element of a SARIF log's artifacts.
	artifact []byte
}

// renderer renders the findings of a file in one format; one serves every
// worker at once.
type renderer struct {
	format    string
	p         *palette
	ruleIndex map[string]int // sarif: the index of each code's rule
}

func newRenderer(format string, p *palette) *renderer {
	rd := &renderer{format: format, p: p}
	if format == "sarif" {
		rd.ruleIndex = map[string]int{}
		for i, c := range checks.Catalog {
			rd.ruleIndex[c.Name] = i
		}
	}
	return rd
}

// The indentation of an element of the JSON array, and of a SARIF log's
// artifacts and results (report → runs → run → array), as
// json.MarshalIndent writes the whole with an indent of two spaces.
const (
	jsonElementIndent  = "  "
	sarifElementIndent = "        "
)

// render returns the part of the output of r that shows its findings
// shown, which r.cfg's limit has cut (config.Config.Limit). The text's line
// table is built only for a file with something to show.
func (rd *renderer) render(r *fileResult, shown []config.Finding) fileOutput {
	var out fileOutput
	var m *position.Mapper
	var bl *byteLines
	if len(shown) > 0 {
		if rd.format == "text" || rd.format == "json" {
			bl = newByteLines(r.doc)
		} else {
			m = position.New(r.doc)
		}
	}
	var b bytes.Buffer
	switch rd.format {
	case "text":
		path := message(r.path) // a newline in a file name must not start a line
		for _, f := range shown {
			line, col := bl.lineCol(0, f.Start)
			writeFindingLine(&b, rd.p, path, line, col, f)
		}
	case "json":
		enc := json.NewEncoder(&b)
		enc.SetIndent(jsonElementIndent, "  ")
		enc.SetEscapeHTML(false)
		for i, f := range shown {
			jf := jsonFinding{Path: r.path, Offset: f.Start, EndOffset: f.End, Severity: f.Severity.String(),
				Code: f.Code, Message: f.Message, Fixes: []jsonFix{}}
			jf.URL, jf.URLTruncated = jsonURL(f.URL)
			jf.Line, jf.Column = bl.lineCol(0, f.Start)
			jf.EndLine, jf.EndColumn = bl.lineCol(1, f.End)
			for _, fix := range f.SuggestedFixes {
				jx := jsonFix{Message: fix.Message, Edits: []jsonEdit{}}
				for _, ed := range fix.Edits {
					jx.Edits = append(jx.Edits, jsonEdit{Offset: ed.Start, EndOffset: ed.End, NewText: ed.NewText})
				}
				jf.Fixes = append(jf.Fixes, jx)
			}
			if i > 0 {
				b.WriteString(",\n")
			}
			b.WriteString(jsonElementIndent)
			enc.Encode(jf)          // cannot fail: strings, numbers and slices of them
			b.Truncate(b.Len() - 1) // Encode's newline
		}
	case "sarif":
		uri := artifactURI(r.path)
		for i, f := range shown {
			if i > 0 {
				b.WriteString(",\n")
			}
			b.WriteString(sarifElementIndent)
			data, _ := json.MarshalIndent(rd.sarifResult(uri, m, f), sarifElementIndent, "  ")
			b.Write(data)
		}
		art, _ := json.MarshalIndent(&sarif.Artifact{Length: -1, Location: sarif.NewSimpleArtifactLocation(uri)}, sarifElementIndent, "  ")
		out.artifact = append([]byte(sarifElementIndent), art...)
	case "github":
		for _, f := range shown {
			line, _, col := lineCol(m, f.Start)
			endLine, _, endCol := lineCol(m, f.End)
			level := map[checks.Severity]string{checks.Error: "error", checks.Warning: "warning"}[f.Severity]
			if level == "" {
				level = "notice"
			}
			fmt.Fprintf(&b, "::%s file=%s,line=%d,col=%d,endLine=%d,endColumn=%d,title=%s::%s\n", level,
				githubProperty(r.path), line, col, endLine, endCol, githubProperty("urlls "+f.Code), githubData(f.Message))
		}
	}
	if b.Len() > 0 {
		out.findings = b.Bytes()
	}
	return out
}

// findingsWriter prints the output of "urlls check" file by file, in
// order, as the files are checked: the lines of the text and github
// formats at once; the elements of the JSON array inside its brackets; a
// SARIF log's head (the tool and its rules), then its artifacts, one a
// file, while its results, which follow the artifacts in the log, wait in
// a spool (in memory up to a megabyte, then in a temporary file).
// The bytes are those of the whole output built at once, as it was built
// before the output streamed (json.MarshalIndent of one log).
type findingsWriter struct {
	w        *bufio.Writer
	format   string
	elements int // json: the elements written; sarif: the artifacts

	// sarif
	head, tail []byte // the log with no artifact and no result, cut where they go
	results    *spool
	resultsN   int  // the results spooled
	stdinDone  bool // standard input's artifact, "stdin", is written
}

// sarifResultsKey is where a log with no results has its results: head
// ends before it, tail starts after it.
const sarifResultsKey = `"results": []`

func newFindingsWriter(w io.Writer, format string) (*findingsWriter, error) {
	fw := &findingsWriter{w: bufio.NewWriter(w), format: format}
	if format == "sarif" {
		report, err := newSARIFReport()
		if err != nil {
			return nil, err
		}
		var buf bytes.Buffer
		if err := report.PrettyWrite(&buf); err != nil {
			return nil, err
		}
		whole := buf.Bytes()
		i := bytes.LastIndex(whole, []byte(sarifResultsKey))
		if i < 0 {
			return nil, fmt.Errorf("no %s in an empty SARIF log", sarifResultsKey)
		}
		fw.head, fw.tail = whole[:i], whole[i+len(sarifResultsKey):]
		fw.results = &spool{}
		if _, err := fw.w.Write(fw.head); err != nil {
			return nil, err
		}
	}
	return fw, nil
}

// file prints the output of one file, r, rendered as out.
func (fw *findingsWriter) file(r *fileResult, out fileOutput) error {
	switch fw.format {
	case "json":
		if len(out.findings) == 0 {
			return nil
		}
		if fw.elements == 0 {
			fw.w.WriteString("[\n")
		} else {
			fw.w.WriteString(",\n")
		}
		fw.elements++
		_, err := fw.w.Write(out.findings)
		return err
	case "sarif":
		// A log names each artifact once; only standard input's URI,
		// "stdin", can be that of another file (one named stdin).
		if uri := artifactURI(r.path); uri != "stdin" || !fw.stdinDone {
			fw.stdinDone = fw.stdinDone || uri == "stdin"
			if fw.elements == 0 {
				fw.w.WriteString(`"artifacts": [` + "\n")
			} else {
				fw.w.WriteString(",\n")
			}
			fw.elements++
			if _, err := fw.w.Write(out.artifact); err != nil {
				return err
			}
		}
		if len(out.findings) > 0 {
			if fw.resultsN > 0 {
				fw.results.Write([]byte(",\n"))
			}
			fw.resultsN++
			if _, err := fw.results.Write(out.findings); err != nil {
				return err
			}
		}
		return nil
	}
	_, err := fw.w.Write(out.findings)
	return err
}

// flush writes out what is buffered.
func (fw *findingsWriter) flush() error { return fw.w.Flush() }

// close ends the output (the closing bracket, the SARIF results and the
// end of the log) and flushes it.
func (fw *findingsWriter) close() error {
	switch fw.format {
	case "json":
		if fw.elements == 0 {
			fw.w.WriteString("[]\n")
		} else {
			fw.w.WriteString("\n]\n")
		}
	case "sarif":
		defer fw.results.Close()
		if fw.elements > 0 {
			fw.w.WriteString("\n      ],\n      ")
		}
		if fw.resultsN == 0 {
			fw.w.WriteString(sarifResultsKey)
		} else {
			fw.w.WriteString(`"results": [` + "\n")
			if _, err := fw.results.WriteTo(fw.w); err != nil {
				return err
			}
			fw.w.WriteString("\n      ]")
		}
		fw.w.Write(fw.tail)
	}
	return fw.w.Flush()
}

// abort lets go of what the writer holds (a spool's temporary file).
func (fw *findingsWriter) abort() {
	if fw.results != nil {
		fw.results.Close()
	}
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

// newSARIFReport returns a SARIF 2.1.0 log with one rule per catalog code,
// and no artifact or result yet.
func newSARIFReport() (*sarif.Report, error) {
	report, err := sarif.New(sarif.Version210)
	if err != nil {
		return nil, err
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
	for _, c := range checks.Catalog {
		run.AddRule(c.Name).
			WithName(ruleName(c.Name)).
			WithShortDescription(sarif.NewMultiformatMessageString(c.Summary)).
			WithFullDescription(sarif.NewMultiformatMessageString(c.Doc)).
			WithHelp(sarif.NewMultiformatMessageString(c.Doc + " See " + readmeURL + "#" + c.Name + ".")).
			WithHelpURI(readmeURL + "#" + c.Name).
			WithDefaultConfiguration(sarif.NewReportingConfiguration().WithLevel(sarifLevel(c.Severity)))
	}
	report.AddRun(run)
	return report, nil
}

// sarifResult is the SARIF result of finding f in the artifact at uri,
// whose line table is m.
func (rd *renderer) sarifResult(uri string, m *position.Mapper, f config.Finding) *sarif.Result {
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
	// As sarif.Run.AddResult does: the rule's index, or -1 (as an
	// unsigned number) for a code that has no rule.
	i, ok := rd.ruleIndex[f.Code]
	if !ok {
		i = -1
	}
	return res.WithRuleIndex(i)
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
