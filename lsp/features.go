package lsp

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"go.lsp.dev/protocol"

	"github.com/urlls/urlls/analysis/checks"
	"github.com/urlls/urlls/analysis/config"
	"github.com/urlls/urlls/analysis/grammar"
	"github.com/urlls/urlls/analysis/parser"
	textpos "github.com/urlls/urlls/analysis/position"
	"github.com/urlls/urlls/analysis/resolve"
	"github.com/urlls/urlls/analysis/scan"
	"github.com/urlls/urlls/analysis/standards"
)

// readmeURL is where each code is documented; the code is the anchor.
const readmeURL = "https://github.com/urlls/urlls/blob/main/README.md"

// Code action kinds: LSP 3.15's "source.fixAll" (protocol v0.12.0 lacks the
// constant) and ours below it, "fix every URL problem of the file".
const (
	sourceFixAll = protocol.CodeActionKind("source.fixAll")
	fixAllKind   = protocol.CodeActionKind("source.fixAll.urlls")
)

// fixData is a fix as a diagnostic's data carries it (LSP 3.16 "data").
type fixData struct {
	Message string              `json:"message"`
	Edits   []protocol.TextEdit `json:"edits"`
}

func severity(s checks.Severity) protocol.DiagnosticSeverity {
	switch s {
	case checks.Error:
		return protocol.DiagnosticSeverityError
	case checks.Warning:
		return protocol.DiagnosticSeverityWarning
	case checks.Information:
		return protocol.DiagnosticSeverityInformation
	}
	return protocol.DiagnosticSeverityHint
}

func lspEdits(m *Mapper, edits []checks.TextEdit) []protocol.TextEdit {
	out := make([]protocol.TextEdit, 0, len(edits))
	for _, e := range edits {
		out = append(out, protocol.TextEdit{Range: m.Range(e.Start, e.End), NewText: e.NewText})
	}
	return out
}

// diagnostic converts one finding.
func diagnostic(a *analysis, f config.Finding, st settings) protocol.Diagnostic {
	return diagnosticFixing(a, f, f.Fixes(), st)
}

// diagnosticFixing is diagnostic with fixes, f's fixes moved (Fixes), for a
// caller that has them already.
func diagnosticFixing(a *analysis, f config.Finding, fixes []checks.SuggestedFix, st settings) protocol.Diagnostic {
	d := protocol.Diagnostic{
		Range:    a.mapper.Range(f.Start, f.End),
		Severity: severity(f.Severity),
		Code:     f.Code,
		Source:   "urlls",
		Message:  f.Message,
	}
	if st.codeDescription {
		d.CodeDescription = &protocol.CodeDescription{Href: protocol.URI(readmeURL + "#" + f.Code)}
	}
	if c, ok := checks.Lookup(f.Code); ok && c.Unnecessary {
		d.Tags = []protocol.DiagnosticTag{protocol.DiagnosticTagUnnecessary}
	}
	if len(fixes) > 0 {
		var data []fixData
		for _, fix := range fixes {
			data = append(data, fixData{Message: fix.Message, Edits: lspEdits(a.mapper, fix.Edits)})
		}
		d.Data = data
	}
	return d
}

// diagnostics converts the findings shown: at most maxFindings, the last
// one a too-many-findings that counts the rest (config.Config.Limit).
func (s *Server) diagnostics(a *analysis, st settings) []protocol.Diagnostic {
	out := make([]protocol.Diagnostic, 0, len(a.shown))
	for _, f := range a.shown {
		out = append(out, diagnostic(a, f, st))
	}
	return out
}

// candidateAt returns the URL whose bytes hold document offset off.
func candidateAt(a *analysis, off int) (scan.Candidate, bool) {
	i := sort.Search(len(a.candidates), func(i int) bool { return a.candidates[i].End > off })
	if i < len(a.candidates) && a.candidates[i].Start <= off {
		return a.candidates[i], true
	}
	return scan.Candidate{}, false
}

// textOffset maps a document offset inside c to an offset of c.Text.
func textOffset(c scan.Candidate, off int) int {
	if c.Offsets == nil {
		return off - c.Start
	}
	i := sort.Search(len(c.Offsets), func(i int) bool { return c.Offsets[i] > off }) - 1
	return max(0, min(i, len(c.Text)))
}

// parseCandidate parses a URL as its context asks (relative references only
// where a link may be one; a user's grammar for its scheme, from schemes,
// as the checks do). A URL whose only faults are characters the
// diagnostics report on their own (a bad escape, an unsafe or non-ASCII
// character, an upper-case scheme) is parsed as if they were fixed, so that
// hovers and tokens still see its structure; offsets are unchanged. The
// grammar is the profile's (the "grammar" setting), so hovers name its
// productions, or the user's for a scheme that has one.
func parseCandidate(c scan.Candidate, opts checks.Options) (grammar.Tree, error) {
	parse := func(s string) (grammar.Tree, error) { return opts.Grammar.ParseWith(s, c.Relative, opts.Schemes) }
	tree, err := parse(c.Text)
	if err == nil {
		return tree, nil
	}
	repaired := repairCharacters(c.Text)
	if repaired == c.Text {
		return tree, err
	}
	rtree, rerr := parse(repaired)
	if rerr != nil {
		return tree, err
	}
	rtree.Input = c.Text
	return rtree, nil
}

// repairCharacters replaces, byte for byte, what the character-level
// diagnostics report: a "%" without two hex digits, unsafe characters (RFC
// 1738 §2.2), "~" and non-ASCII bytes become "a"; the scheme is lower-cased.
func repairCharacters(s string) string {
	b := []byte(s)
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case c == '%':
			if i+2 >= len(b) || !isHex(b[i+1]) || !isHex(b[i+2]) {
				b[i] = 'a'
			}
		case c <= ' ' || c >= 0x7f || strings.IndexByte("\"<>\\^{}|`~", c) >= 0:
			b[i] = 'a'
		}
	}
	if sc := parser.Scheme(s); sc != "" {
		copy(b, strings.ToLower(sc))
	}
	return string(b)
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// Hover names the innermost production under the cursor, the chain from the
// scheme's start rule, the rule's definition with its source, the matched
// text and, for an escape, what it decodes to. Outside URLs it is null.
func (s *Server) Hover(ctx context.Context, p *protocol.HoverParams) (*protocol.Hover, error) {
	a, err := s.hoverAnalysis(ctx, p.TextDocument.URI, p.Position)
	if errors.Is(err, errNotOpen) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return s.hover(a, p), nil
}

// hover answers p from a, the analysis of the text the client sees (or what
// a hover needs of it, see hoverAnalysis).
func (s *Server) hover(a *analysis, p *protocol.HoverParams) *protocol.Hover {
	s.mu.Lock()
	markdown := s.settings.markdownHover
	s.mu.Unlock()
	off := a.mapper.PositionOffset(p.Position)
	c, ok := candidateAt(a, off)
	if !ok {
		return nil
	}
	tree, perr := parseCandidate(c, a.opts)
	if perr != nil {
		return s.errorHover(a, c, perr, markdown, documentBase(a, p.TextDocument.URI))
	}
	path := tree.Path(textOffset(c, off))
	if len(path) > 1 {
		path = path[1:] // the chain starts at the scheme's start rule, below RFC 1808's URL
	}
	if len(path) == 0 {
		return nil
	}
	inner := tree.Nodes[path[len(path)-1]]
	rule := inner.Rule()
	var chain []string
	for _, i := range path {
		chain = append(chain, tree.Nodes[i].Rule().Name)
	}
	matched := tree.Text(path[len(path)-1])
	var decoded string
	if rule.Name == "escape" && len(matched) == 3 {
		if v, err := strconv.ParseUint(matched[1:], 16, 8); err == nil {
			decoded = describeByte(byte(v))
		}
	}
	var b strings.Builder
	if markdown {
		fmt.Fprintf(&b, "**%s** · `%s`\n\n```abnf\n%s\n```\n%s · matched `%s`", rule.Name, strings.Join(chain, " › "),
			rule.Definition, rule.Source, strings.ReplaceAll(matched, "`", "\\`"))
		if decoded != "" {
			fmt.Fprintf(&b, " · decodes to %s", decoded)
		}
	} else {
		fmt.Fprintf(&b, "%s (%s)\n%s\n%s; matched %q", rule.Name, strings.Join(chain, " › "), rule.Definition, rule.Source, matched)
		if decoded != "" {
			fmt.Fprintf(&b, "; decodes to %s", decoded)
		}
	}
	b.WriteString(standardsSection(c, documentBase(a, p.TextDocument.URI), markdown))
	kind := protocol.PlainText
	if markdown {
		kind = protocol.Markdown
	}
	r := a.mapper.Range(c.DocOffset(int(inner.Start)), c.DocOffset(int(inner.End)))
	return &protocol.Hover{Contents: protocol.MarkupContent{Kind: kind, Value: b.String()}, Range: &r}
}

// errorHover explains a URL that does not parse.
func (s *Server) errorHover(a *analysis, c scan.Candidate, err error, markdown bool, base string) *protocol.Hover {
	msg := err.Error()
	if serr, ok := err.(*grammar.SyntaxError); ok {
		found := "the end of the URL"
		if serr.Offset < len(serr.Input) {
			found = fmt.Sprintf("%q", serr.Input[serr.Offset:serr.Offset+1])
		}
		var chain []string
		for _, r := range serr.Chain {
			chain = append(chain, r.Name)
		}
		msg = fmt.Sprintf("does not match %s: %s in %s, expected %s", serr.Chain[0].Name, found,
			strings.Join(chain, " › "), grammar.JoinExpected(serr.Expected))
	}
	kind := protocol.PlainText
	value := "URL " + msg
	if markdown {
		kind = protocol.Markdown
		value = "URL " + strings.ReplaceAll(msg, "`", "\\`")
	}
	value += standardsSection(c, base, markdown)
	r := a.mapper.Range(c.Start, c.End)
	return &protocol.Hover{Contents: protocol.MarkupContent{Kind: kind, Value: value}, Range: &r}
}

// describeByte names a decoded escape: the character and its code.
func describeByte(b byte) string {
	switch {
	case b >= 0x80:
		return fmt.Sprintf("byte 0x%02X (part of a UTF-8 sequence)", b)
	case unicode.IsPrint(rune(b)) && b != ' ':
		return fmt.Sprintf("%q (U+%04X)", rune(b), b)
	}
	names := map[byte]string{' ': "space", '\t': "tab", '\n': "line feed", '\r': "carriage return", 0: "NUL"}
	if n, ok := names[b]; ok {
		return fmt.Sprintf("%s (U+%04X)", n, b)
	}
	return fmt.Sprintf("control character U+%04X", b)
}

// CodeAction offers each fix of the diagnostics in the range as a quickfix
// and the fix-all of the document (config.FixAll: the preferred fixes of
// its errors and warnings, the ones past maxFindings too) as
// source.fixAll.urlls. Both take time linear in what they return (and
// logarithmic in the document).
func (s *Server) CodeAction(ctx context.Context, p *protocol.CodeActionParams) ([]protocol.CodeAction, error) {
	a, err := s.current(ctx, p.TextDocument.URI, true)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	st := s.settings
	s.mu.Unlock()
	wantQuick, wantFixAll := len(p.Context.Only) == 0, len(p.Context.Only) == 0
	for _, k := range p.Context.Only {
		switch {
		case k == protocol.QuickFix:
			wantQuick = true
		case k == protocol.Source || k == sourceFixAll || k == fixAllKind:
			wantFixAll = true
		}
	}
	start, end := a.mapper.PositionOffset(p.Range.Start), a.mapper.PositionOffset(p.Range.End)
	actions := []protocol.CodeAction{}
	if wantQuick {
		// The diagnostics are in document order; none that starts after
		// end touches the range.
		last := sort.Search(len(a.shown), func(i int) bool { return a.shown[i].Start > end })
		for _, f := range a.shown[:last] {
			if len(f.SuggestedFixes) == 0 || f.End < start {
				continue
			}
			fixes := f.Fixes()
			d := diagnosticFixing(a, f, fixes, st)
			for _, fix := range fixes {
				actions = append(actions, protocol.CodeAction{
					Title:       fix.Message,
					Kind:        protocol.QuickFix,
					Diagnostics: []protocol.Diagnostic{d},
					IsPreferred: len(fixes) == 1,
					Edit: &protocol.WorkspaceEdit{Changes: map[protocol.DocumentURI][]protocol.TextEdit{
						p.TextDocument.URI: lspEdits(a.mapper, fix.Edits),
					}},
				})
			}
		}
	}
	if wantFixAll {
		if edits, n := config.FixAll(a.findings); n > 0 {
			actions = append(actions, protocol.CodeAction{
				Title: fmt.Sprintf("Fix all URL problems (%d)", n),
				Kind:  fixAllKind,
				Edit: &protocol.WorkspaceEdit{Changes: map[protocol.DocumentURI][]protocol.TextEdit{
					p.TextDocument.URI: lspEdits(a.mapper, edits),
				}},
			})
		}
	}
	return actions, nil
}

// documentBase is what the document's relative references are relative to:
// its first <base href> (HTML §4.2.3), else its URI.
func documentBase(a *analysis, uri protocol.DocumentURI) string {
	b, ok := "", false
	if a.docBase != nil {
		b, ok = *a.docBase, *a.docBase != ""
	} else if i := indexBase(a.candidates); i >= 0 {
		b, ok = a.candidates[i].Text, true
	}
	if ok {
		return b
	}
	return string(uri)
}

// DocumentLink returns a link for every URL; relative references are
// resolved by RFC 1808 §4 against the document's URI, or an HTML
// document's <base href>. Nothing is fetched.
func (s *Server) DocumentLink(ctx context.Context, p *protocol.DocumentLinkParams) ([]protocol.DocumentLink, error) {
	a, err := s.current(ctx, p.TextDocument.URI, false)
	if err != nil {
		return nil, err
	}
	base := documentBase(a, p.TextDocument.URI)
	links := []protocol.DocumentLink{}
	for _, c := range a.candidates {
		target, tooltip := c.Text, ""
		if scheme := parser.Scheme(c.Text); scheme != "" {
			start := parser.StartRule(scheme)
			if r := parser.UserRule(a.opts.Schemes, c.Text); r != nil {
				start = r
			}
			tooltip = fmt.Sprintf("%s URL (%s)", strings.ToLower(scheme), start.Name)
		} else {
			if !c.Relative {
				continue
			}
			resolved, err := resolve.Resolve(base, c.Text)
			if err != nil || parser.Scheme(resolved) == "" {
				continue
			}
			target = resolved
			tooltip = fmt.Sprintf("relative reference, resolved by RFC 1808 against %s", base)
		}
		links = append(links, protocol.DocumentLink{Range: a.mapper.Range(c.Start, c.End), Target: protocol.DocumentURI(target), Tooltip: tooltip})
	}
	return links, nil
}

// tokenTypes is the semantic tokens legend: the parts of a URL.
var tokenTypes = []protocol.SemanticTokenTypes{"scheme", "host", "port", "path", "query", "fragment", "escape"}

const (
	tokNone = iota - 1
	tokScheme
	tokHost
	tokPort
	tokPath
	tokQuery
	tokFragment
	tokEscape
)

// tokenOfRule maps a production to the URL part it is.
var tokenOfRule = map[string]int{
	"host": tokHost, "hostname": tokHost, "hostnumber": tokHost, "net_loc": tokHost,
	"port":  tokPort,
	"hpath": tokPath, "fpath": tokPath, "ppath": tokPath, "urlpath": tokPath, "path": tokPath, "params": tokPath,
	"selector": tokPath, "gtype": tokPath, "database": tokPath, "wtype": tokPath, "wpath": tokPath,
	"group": tokPath, "article": tokPath, "encoded822addr": tokPath, "schemepart": tokPath,
	"search": tokQuery, "query": tokQuery, "fieldspec": tokQuery, "gopher+_string": tokQuery,
	"digits":   tokPath, // only nntp's article number is a digits node
	"fragment": tokFragment,
	"escape":   tokEscape,
}

// SemanticTokensFull colours the parts of every URL.
func (s *Server) SemanticTokensFull(ctx context.Context, p *protocol.SemanticTokensParams) (*protocol.SemanticTokens, error) {
	a, err := s.current(ctx, p.TextDocument.URI, false)
	if err != nil {
		return nil, err
	}
	var data []uint32
	var prevLine, prevChar uint32
	emit := func(start, end, typ int) {
		// A token never spans lines (a <URL:…> broken over lines).
		for start < end {
			ps := a.mapper.OffsetPosition(start)
			lineEnd := a.mapper.lineEnd(int(ps.Line))
			stop := min(end, lineEnd)
			pe := a.mapper.OffsetPosition(stop)
			if pe.Character > ps.Character {
				dl := ps.Line - prevLine
				dc := ps.Character
				if dl == 0 {
					dc -= prevChar
				}
				data = append(data, dl, dc, pe.Character-ps.Character, uint32(typ), 0)
				prevLine, prevChar = ps.Line, ps.Character
			}
			if stop <= start {
				break
			}
			start = stop
			for start < end && (a.text[start] == '\r' || a.text[start] == '\n' || a.text[start] == ' ' || a.text[start] == '\t') {
				start++
			}
		}
	}
	for _, c := range a.candidates {
		kinds := make([]int, len(c.Text))
		for i := range kinds {
			kinds[i] = tokNone
		}
		if sc := parser.Scheme(c.Text); sc != "" {
			for i := 0; i < len(sc); i++ {
				kinds[i] = tokScheme
			}
		}
		if tree, err := parseCandidate(c, a.opts); err == nil {
			for _, n := range tree.Nodes { // preorder: children paint over parents
				if t, ok := tokenOfRule[n.Rule().Name]; ok {
					for i := n.Start; i < n.End; i++ {
						kinds[i] = t
					}
				}
			}
		}
		// Runs of one kind, contiguous in the document.
		for i := 0; i < len(kinds); {
			j := i + 1
			for j < len(kinds) && kinds[j] == kinds[i] && c.DocOffset(j) == c.DocOffset(j-1)+1 {
				j++
			}
			if kinds[i] != tokNone {
				emit(c.DocOffset(i), c.DocOffset(j-1)+1, kinds[i])
			}
			i = j
		}
	}
	return &protocol.SemanticTokens{Data: data}, nil
}

// maxFollowsBytes caps the URL a hover quotes as the one a browser follows.
const maxFollowsBytes = 200

// standardsSection is the end of a URL's hover: one line per standard, what
// RFC 1738 (RFC 1808 for a relative reference), RFC 3986 and browsers (the
// WHATWG URL Standard) make of the URL: accepted or the first reason it is
// not, and the URL a browser follows. A relative reference is resolved
// against base, as a browser resolves it against the page.
func standardsSection(c scan.Candidate, base string, markdown bool) string {
	if parser.Scheme(c.Text) == "" && !c.Relative {
		base = "" // not a link: no page to resolve it against
	}
	var b strings.Builder
	if markdown {
		b.WriteString("\n\n---\n")
	}
	for _, v := range standards.Judge(c.Text, base) {
		follows := v.Follows
		if len(follows) > maxFollowsBytes {
			follows = textpos.CutAt(follows, maxFollowsBytes) + "…"
		}
		v.Follows = ""
		line := v.String()
		if !markdown {
			if follows != "" {
				line = strings.TrimSuffix(line, "; a browser follows no URL") + "; a browser follows " + follows
			}
			fmt.Fprintf(&b, "\n%s: %s", v.Standard, line)
			continue
		}
		line = markdownText(strings.TrimSuffix(line, "; a browser follows no URL"))
		switch {
		case follows != "":
			line += "; a browser follows " + codeSpan(follows)
		case v.Standard == standards.WHATWG && !v.Relative:
			line += "; a browser follows no URL"
		}
		fmt.Fprintf(&b, "\n- %s: %s", v.Standard, line)
	}
	return b.String()
}

// markdownText escapes the characters that Markdown would read as markup.
func markdownText(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if strings.IndexByte("\\`*_{}[]<>#|~&!", s[i]) >= 0 {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// codeSpan renders s as a Markdown code span, fenced by more backticks than
// any run inside it (CommonMark §6.1).
func codeSpan(s string) string {
	longest, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	if longest > 0 || strings.HasPrefix(s, " ") {
		return fence + " " + s + " " + fence
	}
	return fence + s + fence
}
