// Package config reads urlls configuration (.urlls.json, initializationOptions,
// the "urlls" section of workspace/configuration) and applies it to findings:
// severity per code or off, strict mode, ignored URL patterns, languages by
// file extension, the files a directory walk checks besides documents, the
// most findings shown per document, and the inline suppression comments of
// a document. It is
// pure: the front ends find and read the files; this package gets bytes.
package config

import (
	"bytes"
	"container/heap"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/urlls/urlls/analysis/checks"
	"github.com/urlls/urlls/analysis/parser"
	"github.com/urlls/urlls/analysis/scan"
)

// FileName is the name of the configuration file, looked for in a checked
// file's directory and then upward.
const FileName = ".urlls.json"

// Config is one configuration. The zero Config is the default one.
type Config struct {
	// Severity overrides a code's default severity; Off silences it.
	Severity map[string]Level
	// Strict makes every RFC 1738 violation an error (checks.Code.Strict).
	Strict bool
	// strictSet records that the source said "strict" at all, so that a
	// client's false can override a file's true in Merge.
	strictSet bool
	// Grammar names the grammar URLs are checked by (the key "grammar"):
	// "rfc1738" (the default), "rfc3986" or "xbnf"; "" when not set. See
	// Options.
	Grammar string
	// Ignore lists URL patterns whose findings are dropped: "*" matches any
	// run of bytes, everything else itself; a pattern matches the whole URL.
	Ignore []string
	// Languages maps a file extension (".mdx") to an LSP language id.
	Languages map[string]string
	// Include lists patterns of files that a directory walk of "urlls
	// check" checks besides documents (code and configuration files, which
	// a walk leaves out by default). The patterns are gitignore patterns
	// relative to the directory of the configuration file ("*.go",
	// "docs/**/*.yaml", "!generated.go"); the command compiles them, since
	// matching paths is its business. The language server has no use for
	// them: an editor checks every document it opens.
	Include []string
	// MaxFindings is the most findings a front end shows per document (the
	// key "maxFindings"): the first ones in document order, then one
	// too-many-findings finding that counts the rest (Limit). 0 means no
	// limit; nil means DefaultMaxFindings. See FindingsLimit.
	MaxFindings *int
	// Schemes are the user's grammars for schemes urlls has none for (the
	// key "schemes"), by lower-case scheme (schemes.go). Only a
	// configuration file has them: their paths are relative to it.
	Schemes map[string]SchemeGrammar
}

// DefaultMaxFindings is how many findings of one document are shown when
// the configuration does not say: enough for any document written by hand,
// few enough that an editor, a terminal or a CI log stays usable when a
// generated document has a million.
const DefaultMaxFindings = 1000

// FindingsLimit returns the most findings shown per document, 0 for no
// limit. A limit past maxFindingsLimit, more findings than any document
// holds, is that: ApplyFirst and CheckFirst count FindingsLimit+1 findings,
// which must not wrap around ("maxFindings": 9223372036854775807 made a
// slice of negative capacity).
func (c Config) FindingsLimit() int {
	if c.MaxFindings == nil {
		return DefaultMaxFindings
	}
	return min(max(0, *c.MaxFindings), maxFindingsLimit)
}

// maxFindingsLimit is the largest limit FindingsLimit returns: a finding
// takes a byte of its document at least, and a document is far smaller.
const maxFindingsLimit = 1 << 30

// Level is a configured severity: a checks.Severity or Off.
type Level struct {
	Severity checks.Severity
	Off      bool
}

// Off silences a code.
var Off = Level{Off: true}

// ParseLevel parses "error", "warning", "information" (or "info"), "hint" or "off".
func ParseLevel(s string) (Level, bool) {
	switch s {
	case "error":
		return Level{Severity: checks.Error}, true
	case "warning":
		return Level{Severity: checks.Warning}, true
	case "information", "info":
		return Level{Severity: checks.Information}, true
	case "hint":
		return Level{Severity: checks.Hint}, true
	case "off":
		return Off, true
	}
	return Level{}, false
}

func (l Level) String() string {
	if l.Off {
		return "off"
	}
	return l.Severity.String()
}

// Error is a located error in a configuration file.
type Error struct {
	File      string
	Line, Col int // 1-based; 0 when unknown
	Msg       string
}

func (e *Error) Error() string {
	if e.Line == 0 {
		return fmt.Sprintf("%s: %s", e.File, e.Msg)
	}
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg)
}

// Parse reads a configuration from JSON:
//
//	{
//	  "strict": false,
//	  "grammar": "rfc1738",
//	  "severity": { "redundant-escape": "off", "non-ascii": "error" },
//	  "ignore": [ "http://localhost*", "https://example.com/*" ],
//	  "languages": { ".mdx": "markdown" },
//	  "include": [ "*.go", "docs/**/*.yaml" ],
//	  "maxFindings": 1000,
//	  "schemes": { "geo": { "grammar": "geo.abnf", "rule": "geo-URI" } }
//	}
//
// Unknown keys, unknown codes, bad levels and wrong types are errors located
// at the offending value; file names them in messages.
func Parse(file string, data []byte) (Config, error) {
	var c Config
	// A byte order mark, which Windows editors write, is not JSON; RFC 8259
	// §8.1 lets a parser ignore it. Positions are counted after it, as an
	// editor shows them.
	data = bytes.TrimPrefix(data, []byte("\xEF\xBB\xBF"))
	if len(bytes.TrimSpace(data)) == 0 {
		return c, nil
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return c, jsonError(file, data, err)
	}
	if err := c.merge(file, data, raw); err != nil {
		return Config{}, err
	}
	return c, nil
}

// ParseValue reads a configuration given as a decoded JSON value, as LSP
// clients send it (initializationOptions, workspace/configuration); where
// names the source in messages. A nil value is the default configuration.
// An empty array stands for an empty object, here and for "severity" and
// "languages": Lua and other clients cannot tell the two apart.
func ParseValue(where string, v any) (Config, error) {
	if v == nil || isEmptyArray(v) {
		return Config{}, nil
	}
	if m, ok := v.(map[string]any); ok {
		for _, k := range []string{"severity", "languages"} {
			if isEmptyArray(m[k]) {
				m[k] = map[string]any{}
			}
		}
	}
	data, err := json.Marshal(v)
	if err != nil {
		return Config{}, &Error{File: where, Msg: err.Error()}
	}
	c, err := Parse(where, data)
	var cerr *Error
	if errors.As(err, &cerr) {
		// A line and column of JSON the client never wrote mean nothing to
		// the user; the message names the setting.
		cerr.Line, cerr.Col = 0, 0
	}
	if err == nil && c.Schemes != nil {
		// A grammar path is relative to the file that names it.
		return Config{}, &Error{File: where, Msg: `"schemes" is a setting of ` + FileName + ` only: its grammar files are named relative to it`}
	}
	return c, err
}

func isEmptyArray(v any) bool {
	a, ok := v.([]any)
	return ok && len(a) == 0
}

// Merge returns c overridden by o: o's severities replace c's code by code,
// o's other settings replace c's when o sets them.
func (c Config) Merge(o Config) Config {
	out := c
	if len(o.Severity) > 0 {
		out.Severity = map[string]Level{}
		for k, v := range c.Severity {
			out.Severity[k] = v
		}
		for k, v := range o.Severity {
			out.Severity[k] = v
		}
	}
	if o.Strict || o.strictSet {
		out.Strict, out.strictSet = o.Strict, true
	}
	if o.Grammar != "" {
		out.Grammar = o.Grammar
	}
	if o.Ignore != nil {
		out.Ignore = o.Ignore
	}
	if o.Include != nil {
		out.Include = o.Include
	}
	if o.MaxFindings != nil {
		out.MaxFindings = o.MaxFindings
	}
	if o.Schemes != nil {
		out.Schemes = o.Schemes
	}
	if len(o.Languages) > 0 {
		out.Languages = map[string]string{}
		for k, v := range c.Languages {
			out.Languages[k] = v
		}
		for k, v := range o.Languages {
			out.Languages[k] = v
		}
	}
	return out
}

func (c *Config) merge(file string, data []byte, raw map[string]json.RawMessage) error {
	keys := make([]string, 0, len(raw))
	for k := range raw {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	// at locates an error at the key (or array element) that path names.
	at := func(path []any, msg string, args ...any) error {
		line, col := lineCol(data, locate(data, path))
		return &Error{File: file, Line: line, Col: col, Msg: fmt.Sprintf(msg, args...)}
	}
	for _, key := range keys {
		v := raw[key]
		switch key {
		case "strict":
			if err := json.Unmarshal(v, &c.Strict); err != nil {
				return at([]any{key}, `"strict" must be true or false`)
			}
			c.strictSet = true
		case "grammar":
			names := `"` + strings.Join(parser.ProfileNames(), `", "`) + `"`
			if err := json.Unmarshal(v, &c.Grammar); err != nil {
				return at([]any{key}, `"grammar" must be one of %s`, names)
			}
			if _, ok := parser.ProfileNamed(c.Grammar); !ok || c.Grammar == "" {
				return at([]any{key}, `unknown grammar %q (known: %s)`, c.Grammar, names)
			}
		case "severity":
			var m map[string]string
			if err := json.Unmarshal(v, &m); err != nil {
				return at([]any{key}, `"severity" must map codes to "error", "warning", "information", "hint" or "off"`)
			}
			c.Severity = map[string]Level{}
			for code, s := range m {
				if _, ok := checks.Lookup(code); !ok {
					return at([]any{key, code}, "unknown code %q (known: %s)", code, strings.Join(codeNames(), ", "))
				}
				l, ok := ParseLevel(s)
				if !ok {
					return at([]any{key, code}, `severity of %q must be "error", "warning", "information", "hint" or "off", not %q`, code, s)
				}
				c.Severity[code] = l
			}
		case "ignore":
			if err := json.Unmarshal(v, &c.Ignore); err != nil {
				return at([]any{key}, `"ignore" must be a list of URL patterns`)
			}
		case "languages":
			if err := json.Unmarshal(v, &c.Languages); err != nil {
				return at([]any{key}, `"languages" must map file extensions to language ids`)
			}
			for ext := range c.Languages {
				if !strings.HasPrefix(ext, ".") {
					return at([]any{key, ext}, "file extension %q must start with \".\"", ext)
				}
			}
		case "include":
			if err := json.Unmarshal(v, &c.Include); err != nil {
				return at([]any{key}, `"include" must be a list of file patterns`)
			}
			for i, p := range c.Include {
				switch {
				case strings.TrimSpace(p) == "":
					return at([]any{key, i}, `"include" has an empty pattern`)
				case strings.HasPrefix(p, "#"):
					// A .gitignore line starting with "#" is a comment: say
					// so rather than match it literally or not at all.
					return at([]any{key, i}, `include pattern %q starts with "#", which makes a comment in gitignore syntax (write \# for a literal #)`, p)
				}
			}
		case "maxFindings":
			var n int
			if err := json.Unmarshal(v, &n); err != nil || n < 0 {
				return at([]any{key}, `"maxFindings" must be a whole number, 0 for no limit`)
			}
			c.MaxFindings = &n
		case "schemes":
			schemes, err := parseSchemes(file, data, v, at)
			if err != nil {
				return err
			}
			c.Schemes = schemes
		default:
			return at([]any{key}, `unknown setting %q (known: "strict", "grammar", "severity", "ignore", "languages", "include", "maxFindings", "schemes")`, key)
		}
	}
	return nil
}

func codeNames() []string {
	var names []string
	for _, c := range checks.Catalog {
		names = append(names, c.Name)
	}
	return names
}

// locate returns the offset in data (a JSON object) of what path names:
// each element is an object key (a string) or an array index (an int), and
// the offset is that of the last key's name, or of the array element. The
// last of duplicate keys counts, as it is the one json.Unmarshal keeps. It
// returns 0 when data holds no such thing.
//
// The JSON is read token by token (keys may be written with escapes), not
// searched for the key's text, which may stand elsewhere too: in a value,
// or as the key of another object.
func locate(data []byte, path []any) int {
	dec := json.NewDecoder(bytes.NewReader(data))
	// next is the offset where the next token starts: after the previous
	// one, past white space and the separators the decoder consumes.
	next := func() int {
		off := int(dec.InputOffset())
		for off < len(data) && strings.IndexByte(" \t\r\n,:", data[off]) >= 0 {
			off++
		}
		return off
	}
	found := 0
	skip := func() bool {
		var v json.RawMessage
		return dec.Decode(&v) == nil
	}
	// value reads the value that comes next, recording the offset of what
	// path names inside it.
	var value func(path []any) bool
	value = func(path []any) bool {
		if len(path) == 0 {
			return skip()
		}
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		switch tok {
		case json.Delim('{'):
			for dec.More() {
				start := next()
				k, err := dec.Token()
				if err != nil {
					return false
				}
				if key, ok := path[0].(string); ok && k == key {
					if len(path) == 1 {
						found = start
					}
					if !value(path[1:]) {
						return false
					}
				} else if !skip() {
					return false
				}
			}
		case json.Delim('['):
			for i := 0; dec.More(); i++ {
				start := next()
				if idx, ok := path[0].(int); ok && idx == i {
					if len(path) == 1 {
						found = start
					}
					if !value(path[1:]) {
						return false
					}
				} else if !skip() {
					return false
				}
			}
		default:
			return true // a scalar holds nothing
		}
		_, err = dec.Token() // the closing delimiter
		return err == nil
	}
	value(path)
	return found
}

// lineCol returns the 1-based line and byte column of offset off in data.
// A line ends at LF, CRLF or a lone CR, as in editors (and LSP).
func lineCol(data []byte, off int) (int, int) {
	line, col := 1, 1
	for i, b := range data[:off] {
		switch {
		case b == '\n', b == '\r' && (i+1 >= len(data) || data[i+1] != '\n'):
			line++
			col = 1
		case b == '\r':
			// the CR of a CRLF: the LF ends the line
		default:
			col++
		}
	}
	return line, col
}

func jsonError(file string, data []byte, err error) error {
	switch e := err.(type) {
	case *json.SyntaxError:
		off := int(e.Offset)
		if off > 0 {
			off-- // the offset is just after the offending byte
		}
		line, col := lineCol(data, min(off, len(data)))
		return &Error{File: file, Line: line, Col: col, Msg: "invalid JSON: " + e.Error()}
	case *json.UnmarshalTypeError:
		// Only the top level can have the wrong type here: point at it.
		start := len(data) - len(bytes.TrimLeft(data, " \t\r\n"))
		line, col := lineCol(data, start)
		return &Error{File: file, Line: line, Col: col, Msg: "the configuration must be a JSON object, not " + e.Value}
	}
	return &Error{File: file, Msg: "invalid JSON: " + err.Error()}
}

// Language returns the language configured for a file extension, or "".
func (c Config) Language(ext string) string {
	return c.Languages[strings.ToLower(ext)]
}

// Finding is a diagnostic with the severity the configuration gives it.
type Finding struct {
	checks.Diagnostic
	Severity checks.Severity
	// FixShift is how many bytes after the offsets of its edits each of
	// SuggestedFixes applies: the language server moves the findings an
	// edit of the document leaves alone, and moves their fixes only when
	// they are asked for (Fixes), not 80k of them at every keystroke. 0
	// for a finding that was not moved.
	FixShift int
}

// Fixes returns the SuggestedFixes of f where they apply, moved by
// FixShift (a copy when it moves them).
func (f *Finding) Fixes() []checks.SuggestedFix {
	return movedFixes(f.SuggestedFixes, f.FixShift)
}

// movedFixes returns fixes with their edits moved by shift bytes: fixes
// itself when shift is 0, else a copy.
func movedFixes(fixes []checks.SuggestedFix, shift int) []checks.SuggestedFix {
	if shift == 0 || fixes == nil {
		return fixes
	}
	moved := make([]checks.SuggestedFix, len(fixes))
	for k, fix := range fixes {
		moved[k].Message = fix.Message
		if fix.Edits == nil {
			continue
		}
		moved[k].Edits = make([]checks.TextEdit, len(fix.Edits))
		for e, te := range fix.Edits {
			moved[k].Edits[e] = checks.TextEdit{Start: te.Start + shift, End: te.End + shift, NewText: te.NewText}
		}
	}
	return moved
}

// FixAll returns the edits of a "fix all" (`urlls check --fix`, the editor's
// source.fixAll.urlls) and how many fixes they come from: the preferred fix
// of every finding that is an error or a warning, which is what makes a check
// fail, and nothing else. Information and hints (an RFC 1738 strictness the
// user did not ask for, a needless escape) keep their quick fixes but are not
// fixed wholesale: a fix-all changes no line that held no problem. Raise a
// code's severity (or set strict) to have it fixed too.
func FixAll(findings []Finding) ([]checks.TextEdit, int) {
	var diags []checks.Diagnostic
	for i := range findings {
		if f := &findings[i]; f.Severity == checks.Error || f.Severity == checks.Warning {
			// The preferred fix alone, moved: PreferredEdits reads no
			// other (an editor asks for the fix-all each time the cursor
			// moves, and a document's findings may be 80k).
			d := f.Diagnostic
			d.SuggestedFixes = movedFixes(f.SuggestedFixes[:min(len(f.SuggestedFixes), 1)], f.FixShift)
			diags = append(diags, d)
		}
	}
	return checks.PreferredEdits(diags)
}

// Level returns the severity of code under c, or Off.
func (c Config) Level(code string) Level {
	if l, ok := c.Severity[code]; ok {
		return l
	}
	def, ok := checks.Lookup(code)
	if !ok {
		return Level{Severity: checks.Error}
	}
	if c.Strict {
		return Level{Severity: def.Strict}
	}
	if p, _ := parser.ProfileNamed(c.Grammar); code == "non-ascii" && p != parser.RFC1738 {
		// RFC 3986 and the XBNF admit no non-ASCII character either: under
		// a grammar the user chose, what it rejects is an error. An IRI is
		// RFC 3987's, not RFC 3986's; "severity" can say information.
		return Level{Severity: checks.Error}
	}
	return Level{Severity: def.Severity}
}

// Apply gives each diagnostic of a document its severity and drops those
// that are off, about an ignored URL, or suppressed by a urlls-disable
// comment: sups are the document's suppressions, which the scan that found
// its URLs found too (scan.Result), so the document is not read again. It
// keeps every finding (a fix-all fixes them all); Limit cuts what a front
// end shows. It runs in time linear in the diagnostics and the
// suppressions, up to a logarithmic factor.
func (c Config) Apply(sups []scan.Suppression, diags []checks.Diagnostic) []Finding {
	out := make([]Finding, 0, len(diags))
	c.Decide(suppressedOf(sups, diags), len(diags), func(i int) *checks.Diagnostic { return &diags[i] }, func(i int, sev checks.Severity) {
		out = append(out, Finding{Diagnostic: diags[i], Severity: sev})
	})
	return out
}

// Decide is what Apply decides of each of n diagnostics, for a front end
// that keeps them its own way (the language server keeps its diagnostics
// with their severities, and copies none): diag returns the i-th,
// suppressed[i] says whether a suppression covers it (Suppressed), and
// kept is called with the index and the severity of each that Apply
// keeps, in order.
func (c Config) Decide(suppressed []bool, n int, diag func(i int) *checks.Diagnostic, kept func(i int, sev checks.Severity)) {
	lastURL, lastIgnored := "", false
	for i := range n {
		d := diag(i)
		l := c.Level(d.Code)
		if l.Off || suppressed[i] {
			continue
		}
		// The findings of one URL come together: match its patterns once.
		if i == 0 || d.URL != lastURL {
			lastURL, lastIgnored = d.URL, c.ignored(d.URL)
		}
		if lastIgnored {
			continue
		}
		kept(i, l.Severity)
	}
}

// Counts counts findings by severity: Counts[checks.Error] is the errors.
// The severities of findings are those Level gives, checks.Error to
// checks.Hint.
type Counts [checks.Hint + 1]int

// CountsOf counts findings by severity.
func CountsOf(findings []Finding) Counts {
	var n Counts
	for _, f := range findings {
		n.add(f.Severity)
	}
	return n
}

// add counts a finding of severity sev; one of no severity Level gives is
// not counted.
func (n *Counts) add(sev checks.Severity) {
	if sev >= checks.Error && sev <= checks.Hint {
		n[sev]++
	}
}

// addAll adds the counts m.
func (n *Counts) addAll(m Counts) {
	for s := range n {
		n[s] += m[s]
	}
}

// ApplyFirst is Apply for a front end that shows the findings of severity
// mildest or above only (checks.Hint: all of them), and of those the first
// FindingsLimit (Limit): it returns those findings in order, no more than
// FindingsLimit+1 of them (all when there is no limit), and the counts by
// severity of every finding that Apply returns. It makes no Finding of the
// others: on a line of 40,000 bad URLs, a copy of every diagnostic as a
// Finding that no one was shown took a sixth of a check's time, most of it
// faults on fresh memory. LimitCounted takes what it returns.
func (c Config) ApplyFirst(sups []scan.Suppression, diags []checks.Diagnostic, mildest checks.Severity) ([]Finding, Counts) {
	suppressed := suppressedOf(sups, diags)
	most := len(diags)
	if limit := c.FindingsLimit(); limit > 0 {
		most = min(most, limit+1)
	}
	out := make([]Finding, 0, most)
	var n Counts
	c.Decide(suppressed, len(diags), func(i int) *checks.Diagnostic { return &diags[i] }, func(i int, sev checks.Severity) {
		n.add(sev)
		if sev <= mildest && len(out) < most {
			out = append(out, Finding{Diagnostic: diags[i], Severity: sev})
		}
	})
	return out, n
}

// CheckFirst checks the candidates of doc under c (CheckOptions) and
// applies c to their diagnostics as ApplyFirst does, returning what
// ApplyFirst would. It checks them a run at a time, each run twice the
// last, and once it holds the FindingsLimit+1 findings ApplyFirst returns,
// checks the rest brief (checks.Options.Brief): they are only counted, so
// their messages are not worded nor their fixes verified. On a line of
// 40,000 different bad URLs that is a fifth of a check. sups are sorted
// in place, as Suppressed does.
func (c Config) CheckFirst(doc []byte, cands []scan.Candidate, sups []scan.Suppression, mildest checks.Severity) ([]Finding, Counts) {
	return c.CheckFirstClean(doc, cands, sups, mildest, nil)
}

// CheckFirstClean is CheckFirst that consults and fills clean
// (checks.Clean: the URLs earlier documents found clean; nil for none).
func (c Config) CheckFirstClean(doc []byte, cands []scan.Candidate, sups []scan.Suppression, mildest checks.Severity, clean *checks.Clean) ([]Finding, Counts) {
	opts := c.CheckOptions()
	limit := c.FindingsLimit()
	if limit <= 0 {
		return c.ApplyFirst(sups, opts.CheckCandidatesClean(doc, cands, clean), mildest)
	}
	shown := []Finding{} // as ApplyFirst's: empty, not nil
	var all Counts
	var diags []checks.Diagnostic // reused from run to run
	checker := opts.NewCheckerClean(len(cands), clean)
	for i, run := 0, firstRun; i < len(cands); i, run = i+run, nextRun(run, i+run, len(shown), limit+1) {
		if len(shown) > limit && !opts.Brief {
			// Every finding shown is in hand: the rest are only counted,
			// a run of the same size at a time, so that their diagnostics
			// take the same memory over and over (see briefRun).
			opts.Brief = true
			checker = opts.NewCheckerClean(len(cands)-i, clean)
		}
		if opts.Brief {
			run = max(briefRun, len(sups))
		} else {
			// A run sorts and sweeps every suppression (suppressedOf):
			// however few candidates the findings so far ask for, it
			// checks as many, or a run of 16 URLs at a time on a document
			// of as many suppressions as lines costs the square of it.
			run = max(run, len(sups))
		}
		diags = checker.AppendCandidates(diags[:0], doc, cands[i:min(i+run, len(cands))])
		if opts.Brief {
			c.Decide(suppressedOf(sups, diags), len(diags), func(i int) *checks.Diagnostic { return &diags[i] }, func(_ int, sev checks.Severity) {
				all.add(sev)
			})
			continue
		}
		first, n := c.ApplyFirst(sups, diags, mildest)
		shown = append(shown, first[:min(len(first), limit+1-len(shown))]...)
		all.addAll(n)
	}
	return shown, all
}

// firstRun is how many candidates CheckFirst checks in its first run: a
// document with fewer is checked in one. It is small because everything
// checked in full after the findings shown are in hand is wasted: on a
// line of 40,000 IP literals with a bad escape each (two findings a URL),
// a first run of 2,048 checked 1,500 URLs in full for nothing.
const firstRun = 256

// nextRun is the size of CheckFirst's next run after one of run
// candidates, with done checked and shown of the want findings to show in
// hand: as many as the findings so far say will give the rest, an eighth
// more and 16 besides (findings thin out as well as thicken), at most
// twice the last run; twice the last run when none was found yet.
func nextRun(run, done, shown, want int) int {
	if shown == 0 || shown >= want {
		return 2 * run
	}
	need := want - shown
	urls := need * done / shown // at the rate so far
	return max(1, min(2*run, urls+urls/8+16))
}

// briefRun is how many candidates CheckFirst checks brief at a time (or
// as many as there are suppressions, so that sorting them for each run
// stays linear in the document). One run of all the rest held the
// diagnostics of every one at once: on a line of 40,000 different bad
// URLs, 3.4 MB of fresh memory, which the collector read before the check
// wrote it (each page then faulted twice) and scanned for pointers.
const briefRun = 4096

// suppressedOf is Suppressed of a list of diagnostics.
func suppressedOf(sups []scan.Suppression, diags []checks.Diagnostic) []bool {
	return Suppressed(sups, len(diags), func(i int) (int, string) { return diags[i].Start, diags[i].Code })
}

// Suppressed reports, for each of n diagnostics, whether a suppression of
// sups covers it (scan.Suppression.Suppresses); at returns the start and
// the code of the i-th. It sweeps the diagnostics by their start and the
// suppressions by theirs (sorting sups in place), keeping the suppressions
// that cover the current offset counted by code (and the ones of every
// code) in a heap by their end: a document with a hundred thousand
// urlls-disable-line comments on one line and as many findings there costs
// n log n, not the n² of matching every pair.
func Suppressed(sups []scan.Suppression, n int, at func(i int) (start int, code string)) []bool {
	out := make([]bool, n)
	if len(sups) == 0 {
		return out
	}
	starts := make([]int, n)
	codes := make([]string, n)
	order := make([]int, n)
	for i := range order {
		order[i] = i
		starts[i], codes[i] = at(i)
	}
	sort.SliceStable(order, func(a, b int) bool { return starts[order[a]] < starts[order[b]] })
	sort.SliceStable(sups, func(a, b int) bool { return sups[a].Start < sups[b].Start })
	var active endHeap
	all, byCode := 0, map[string]int{}
	count := func(s scan.Suppression, n int) {
		if s.Codes == nil {
			all += n
		}
		for _, code := range s.Codes {
			byCode[code] += n
		}
	}
	next := 0
	for _, i := range order {
		off := starts[i]
		for ; next < len(sups) && sups[next].Start <= off; next++ {
			heap.Push(&active, sups[next])
			count(sups[next], 1)
		}
		for active.Len() > 0 && active[0].End <= off {
			count(heap.Pop(&active).(scan.Suppression), -1)
		}
		out[i] = all > 0 || byCode[codes[i]] > 0
	}
	return out
}

// endHeap is a min-heap of suppressions by their end.
type endHeap []scan.Suppression

func (h endHeap) Len() int           { return len(h) }
func (h endHeap) Less(i, j int) bool { return h[i].End < h[j].End }
func (h endHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *endHeap) Push(x any)        { *h = append(*h, x.(scan.Suppression)) }
func (h *endHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// Limit returns the findings of one document that a front end shows: all
// of them when there are no more than FindingsLimit, else the first
// FindingsLimit of them (in the order given, document order) and one
// too-many-findings finding at the first finding left out, which counts
// what is left out by severity. Its severity is that of the most severe
// finding left out, or information if that is milder (a hidden error is
// still an error in the Problems panel), unless the configuration sets
// one for too-many-findings; "off" drops it. It has no URL and no fix: a
// fix-all (FixAll) takes the findings Apply returned, all of them.
func (c Config) Limit(findings []Finding) []Finding {
	return c.LimitCounted(findings, CountsOf(findings), checks.Hint)
}

// LimitCounted is Limit for what ApplyFirst returns: first holds the
// findings of severity mildest or above in order, at least the first
// FindingsLimit+1 of them when there are more than FindingsLimit (all of
// them otherwise), and all counts every finding by severity, those milder
// than mildest too.
func (c Config) LimitCounted(first []Finding, all Counts, mildest checks.Severity) []Finding {
	limit := c.FindingsLimit()
	hiddenCounts := all
	total := 0
	for s := checks.Error; s <= checks.Hint; s++ {
		if s > mildest {
			hiddenCounts[s] = 0
		}
		total += hiddenCounts[s]
	}
	if limit == 0 || total <= limit || len(first) <= limit {
		return first
	}
	out := first[:limit:limit]
	level, set := c.Severity[checks.TooManyFindings]
	if set && level.Off {
		return out
	}
	shownCounts := CountsOf(out)
	sev := checks.Information
	for s := checks.Error; s <= checks.Hint; s++ {
		hiddenCounts[s] -= shownCounts[s]
		if hiddenCounts[s] > 0 {
			sev = min(sev, s)
		}
	}
	if set {
		sev = level.Severity
	}
	var parts []string
	for s := checks.Error; s <= checks.Hint; s++ {
		if n := hiddenCounts[s]; n > 0 {
			name := s.String()
			if n > 1 && s != checks.Information {
				name += "s"
			}
			parts = append(parts, fmt.Sprintf("%d %s", n, name))
		}
	}
	firstHidden := first[limit]
	hidden := total - limit
	noun := "findings"
	if hidden == 1 {
		noun = "finding"
	}
	shown := "findings are"
	if limit == 1 {
		shown = "finding is"
	}
	msg := fmt.Sprintf("%d more %s not shown, from here on (%s): at most %d %s shown per document (maxFindings)",
		hidden, noun, strings.Join(parts, ", "), limit, shown)
	return append(out, Finding{
		Diagnostic: checks.Diagnostic{Start: firstHidden.Start, End: firstHidden.End, Code: checks.TooManyFindings, Message: msg},
		Severity:   sev,
	})
}

func (c Config) ignored(url string) bool {
	for _, p := range c.Ignore {
		if globMatch(p, url) {
			return true
		}
	}
	return false
}

// globMatch reports whether s matches pattern, where "*" matches any run of
// bytes. It runs in O(len(pattern)·len(s)) at worst, never exponentially.
func globMatch(pattern, s string) bool {
	px, sx := 0, 0
	nextPx, nextSx := -1, -1
	for px < len(pattern) || sx < len(s) {
		if px < len(pattern) {
			if pattern[px] == '*' {
				nextPx, nextSx = px, sx+1
				px++
				continue
			}
			if sx < len(s) && pattern[px] == s[sx] {
				px++
				sx++
				continue
			}
		}
		if nextPx >= 0 && nextSx <= len(s) {
			px, sx = nextPx, nextSx
			continue
		}
		return false
	}
	return true
}
