package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/urlls/urlls/analysis/checks"
	"github.com/urlls/urlls/analysis/grammar"
	"github.com/urlls/urlls/analysis/parser"
	"github.com/urlls/urlls/analysis/scan"
	"github.com/urlls/urlls/analysis/standards"
	"github.com/urlls/urlls/lsp/fileio"
)

// defaultStartRules is the rule "explain --grammar G" matches when no --rule
// is given: each grammar's own start production.
var defaultStartRules = map[string]string{
	"rfc1738": "url",           // RFC 1738 §5: url = httpurl / ftpurl / … / otherurl
	"rfc1808": "URL",           // RFC 1808 §2.2: URL = ( absoluteURL / relativeURL ) [ "#" fragment ]
	"rfc3986": "URI-reference", // RFC 3986 §4.1: URI-reference = URI / relative-ref
	"xbnf":    "url",           // W3C XBNF: url ::= httpaddress | ftpaddress | …
}

func runExplain(e *env, cmd *command, args []string) int {
	fs := newFlagSet(cmd)
	grammarName := fs.String("grammar", "", "match against `GRAMMAR`: "+strings.Join(grammar.BuiltinNames(), ", ")+" (default rfc1738 when --rule is given)")
	ruleName := fs.String("rule", "", "match against production `NAME` of the grammar (default: the grammar's start rule)")
	asJSON := fs.Bool("json", false, "print the tree (or the error) as JSON")
	configFile := fs.String("config", "", "parse a URL of a scheme that the \"schemes\" of this configuration `file` give a grammar by that grammar")
	pos, code, done := e.parse(cmd, fs, args)
	if done {
		return code
	}
	switch len(pos) {
	case 0:
		return e.usageError(cmd, fs, "missing URL")
	case 1:
	default:
		return e.usageError(cmd, fs, "want one URL, got %d arguments (quote a URL that holds spaces)", len(pos))
	}
	input := pos[0]
	schemes, ok := e.explainSchemes(*configFile)
	if !ok {
		return exitUsage
	}

	// Without --rule the input is a URL: by default, and with --grammar
	// rfc1738, the scheme picks the production as check does (an http URL is
	// judged by httpurl, not by url, which takes anything through otherurl),
	// and the output ends with what each standard makes of the URL.
	schemeAware := *ruleName == "" && (*grammarName == "" || *grammarName == "rfc1738")
	var parse func(string) (grammar.Tree, error)
	if schemeAware {
		// The scheme-aware parser (or the user's grammar for the scheme);
		// by default, RFC 1808 relativeURL for a reference without a
		// scheme (RFC 1738 has no relative form).
		relative := *grammarName == "" && parser.Scheme(input) == ""
		parse = func(s string) (grammar.Tree, error) { return parser.RFC1738.ParseWith(s, relative, schemes) }
	} else {
		rule, code, ok := e.explainRule(cmd, fs, *grammarName, *ruleName)
		if !ok {
			return code
		}
		parse = func(s string) (grammar.Tree, error) {
			t, err := rule.Match(s)
			if err != nil {
				return grammar.Tree{}, err
			}
			return *t, nil
		}
	}
	var verdicts []standards.Verdict
	if *ruleName == "" {
		verdicts = standards.Judge(input, "")
	}

	tree, err := parse(input)
	var note string
	if err != nil && schemeAware {
		if lower := parser.LowerScheme(input); lower != input {
			// RFC 1738 §2.1: interpreters ignore the scheme's case, and
			// check reports an upper-case scheme as a hint (scheme-case),
			// not as a syntax error; genericurl's scheme is lower case.
			if t, lerr := parse(lower); lerr == nil {
				t.Input = input
				tree, err = t, nil
				note = fmt.Sprintf("urlls: explain: scheme %q is not lower case (urlls check reports it as a hint, scheme-case; RFC 1738 §2.1 has interpreters ignore its case): the tree is that of the lower-case scheme", parser.Scheme(input))
			} else {
				err = lerr
			}
		}
	}
	w := bufio.NewWriter(e.stdout)
	defer w.Flush()
	if err != nil {
		var serr *grammar.SyntaxError
		if !errors.As(err, &serr) {
			fmt.Fprintf(e.stderr, "urlls: explain: %s\n", message(err.Error()))
			return exitFail
		}
		// A literal fails as a whole at its first byte: point where the
		// input stops matching it ("http:foo" at the "f", expecting "//").
		serr = serr.Refined()
		serr.Input = input
		if *grammarName == "" && *ruleName == "" && parser.UserRule(schemes, input) == nil {
			if modern, ok := onlyRFC1738Rejects(input); ok {
				// What check reports as information (rfc1738-unsafe), such
				// as the userinfo of https://user@host/, is no failure:
				// show where RFC 1738 stops, and the tree by RFC 3986.
				ew := bufio.NewWriter(e.stderr)
				fmt.Fprintln(ew, "urlls: explain: RFC 1738 rejects this URL and RFC 3986 accepts it (urlls check reports it as rfc1738-unsafe, information unless --strict); the tree is by RFC 3986")
				writeSyntaxError(ew, serr)
				ew.Flush()
				tree = *modern
				if *asJSON {
					writeTreeJSON(w, &tree, verdicts)
				} else {
					writeTree(w, &tree)
					writeVerdicts(w, verdicts, true)
				}
				return exitOK
			}
		}
		if *asJSON {
			writeErrorJSON(w, serr, verdicts)
		} else {
			ew := bufio.NewWriter(e.stderr)
			writeSyntaxError(ew, serr)
			ew.Flush()
			writeVerdicts(w, verdicts, false)
		}
		return exitFail
	}
	if note != "" {
		fmt.Fprintln(e.stderr, note)
	}
	if *asJSON {
		writeTreeJSON(w, &tree, verdicts)
	} else {
		writeTree(w, &tree)
		writeVerdicts(w, verdicts, true)
	}
	return exitOK
}

// writeVerdicts prints what each standard makes of the URL, one line a
// standard, after a blank line when a tree precedes them.
func writeVerdicts(w io.Writer, verdicts []standards.Verdict, afterTree bool) {
	if len(verdicts) == 0 {
		return
	}
	if afterTree {
		fmt.Fprintln(w)
	}
	width := 0
	for _, v := range verdicts {
		width = max(width, len(v.Standard))
	}
	for _, v := range verdicts {
		fmt.Fprintf(w, "%-*s  %s\n", width, v.Standard, message(v.String()))
	}
}

// onlyRFC1738Rejects reports whether input, which the scheme-aware parser
// rejects, is rejected only by RFC 1738's strictness: the checks find no
// syntax error in it (what RFC 1738 alone forbids they report as
// rfc1738-unsafe) and the modern syntax (RFC 3986 with the current
// definitions of http, https and file) parses it; it returns that tree.
func onlyRFC1738Rejects(input string) (*grammar.Tree, bool) {
	relative := parser.Scheme(input) == ""
	t, err := parser.ParseRFC3986(input, relative)
	if err != nil {
		return nil, false
	}
	c := scan.Candidate{Start: 0, End: len(input), Text: input, Relative: relative}
	for _, d := range checks.CheckURL([]byte(input), c) {
		if def, ok := checks.Lookup(d.Code); d.Code == "syntax" || ok && def.Severity == checks.Error {
			return nil, false
		}
	}
	return t, true
}

// explainSchemes reads the configuration file of --config, if any, and
// returns the start rules of its user grammars; a broken file (or grammar)
// is reported as by urlls check.
func (e *env) explainSchemes(file string) (map[string]*grammar.Rule, bool) {
	if file == "" {
		return nil, true
	}
	cfg, err := fileio.ReadConfigFile(file)
	if err != nil {
		fmt.Fprintf(e.stderr, "urlls: explain: %s\n", message(pathError(file, err).Error()))
		return nil, false
	}
	return cfg.CheckOptions().Schemes, true
}

// explainRule resolves --grammar and --rule to the rule to match.
func (e *env) explainRule(cmd *command, fs *flag.FlagSet, gname, rname string) (*grammar.Rule, int, bool) {
	if gname == "" {
		gname = "rfc1738"
	}
	if _, ok := grammar.BuiltinSource(gname); !ok {
		return nil, e.usageError(cmd, fs, "unknown grammar %s (choose %s)", oneLine(gname), strings.Join(grammar.BuiltinNames(), ", ")), false
	}
	g := grammar.Builtin(gname)
	if g == nil {
		fmt.Fprintf(e.stderr, "urlls: explain: grammar %s does not load: %s\n", gname, message(fmt.Sprint(grammar.BuiltinError())))
		return nil, exitFail, false
	}
	if rname == "" {
		rname = defaultStartRules[gname]
		if g.Rule(rname) == nil {
			rname = g.Rules[0].Name // a grammar being written may lack it yet
		}
	}
	r := g.Rule(rname)
	if r == nil {
		fmt.Fprintf(e.stderr, "urlls: explain: grammar %s has no rule %s\n", gname, oneLine(rname))
		fmt.Fprintf(e.stderr, "Rules of %s:\n", gname)
		writeWrapped(e.stderr, g.RuleNames(), "  ", 80)
		printCommandUsage(e.stderr, cmd, fs)
		return nil, exitUsage, false
	}
	return r, 0, true
}

// writeWrapped writes words separated by ", " in lines of at most width
// columns, each starting with indent.
func writeWrapped(w io.Writer, words []string, indent string, width int) {
	line := indent
	for i, word := range words {
		if i < len(words)-1 {
			word += ","
		}
		if line != indent && len(line)+1+len(word) > width {
			fmt.Fprintln(w, line)
			line = indent
		}
		if line != indent {
			line += " "
		}
		line += word
	}
	if line != indent {
		fmt.Fprintln(w, line)
	}
}

// Tree drawing.

const (
	// maxTextColumns caps the width of a node's quoted text in the tree; a
	// longer one is elided in the middle (--json has every byte).
	maxTextColumns = 72
	// alignTextColumns is the widest text column the source column is aligned
	// after; a longer text pushes its own line's source further right.
	alignTextColumns = 48
	// maxDrawnDepth is how many levels of branch glyphs a line draws at most;
	// it keeps the output of a deeply nested tree linear in its size.
	maxDrawnDepth = 24
	// maxJSONIndent is the deepest indentation --json writes, for the same
	// reason; deeper objects are indented no further.
	maxJSONIndent = 64
)

// treeLine is one node of the drawn tree.
type treeLine struct {
	label, span, text, source string
}

// writeTree draws t one node a line: the branch glyphs and rule name, the
// byte span, the quoted text and the rule's source, in aligned columns.
func writeTree(w io.Writer, t *grammar.Tree) {
	lines := make([]treeLine, 0, len(t.Nodes))
	// ends[d] is the index where the subtree of the open ancestor at depth d
	// ends; last[d] says whether that ancestor is its parent's last child.
	var ends []int
	var last []bool
	for i, n := range t.Nodes {
		for len(ends) > 0 && i >= ends[len(ends)-1] {
			ends = ends[:len(ends)-1]
			last = last[:len(last)-1]
		}
		isLast := len(ends) == 0 || i+int(n.Size) >= ends[len(ends)-1]
		var b strings.Builder
		from := 1
		if len(last)-from > maxDrawnDepth {
			// Deeper than a reader can follow (a rule nested in itself, as
			// a grammar's parentheses would be; a right-recursive list is
			// one node): draw only the innermost levels.
			b.WriteString("… ")
			from = len(last) - maxDrawnDepth
		}
		for d := from; d < len(last); d++ {
			if last[d] {
				b.WriteString("   ")
			} else {
				b.WriteString("│  ")
			}
		}
		if len(ends) > 0 {
			if isLast {
				b.WriteString("└─ ")
			} else {
				b.WriteString("├─ ")
			}
		}
		b.WriteString(n.Rule().Name)
		lines = append(lines, treeLine{
			label:  b.String(),
			span:   fmt.Sprintf("%d-%d", n.Start, n.End),
			text:   quoteText(t.Input[n.Start:n.End]),
			source: n.Rule().Source,
		})
		ends = append(ends, i+int(n.Size))
		last = append(last, isLast)
	}
	var labelW, spanW, textW int
	for _, l := range lines {
		labelW = max(labelW, columns(l.label))
		spanW = max(spanW, len(l.span))
		textW = max(textW, min(columns(l.text), alignTextColumns))
	}
	for _, l := range lines {
		fmt.Fprintf(w, "%s%s  %*s  %s", l.label, pad(labelW-columns(l.label)), spanW, l.span, l.text)
		if l.source != "" {
			fmt.Fprintf(w, "%s  %s", pad(textW-columns(l.text)), l.source)
		}
		fmt.Fprintln(w)
	}
}

func pad(n int) string {
	if n <= 0 {
		return ""
	}
	return strings.Repeat(" ", n)
}

// columns is the display width of s, counting one column a rune.
func columns(s string) int { return utf8.RuneCountInString(s) }

// quoteText quotes s as a Go string (control characters and invalid UTF-8
// escaped, so the tree is safe to print on a terminal), eliding the middle of
// a long one.
func quoteText(s string) string {
	q := strconv.Quote(s)
	if columns(q) <= maxTextColumns {
		return q
	}
	r := []rune(q)
	tail := 16
	head := maxTextColumns - tail - 1
	return string(r[:head]) + "…" + string(r[len(r)-tail:])
}

// Syntax errors.

const (
	// contextBefore and contextAfter bound, in columns, how much of a long
	// input the error shows around the offending byte.
	contextBefore = 56
	contextAfter  = 24
)

// writeSyntaxError prints a located syntax error: the message, the input
// with a caret under the offending byte, the production and its chain, and
// what was expected there.
func writeSyntaxError(w io.Writer, err *grammar.SyntaxError) {
	fmt.Fprintf(w, "urlls: %s\n", message(err.Error()))
	shown, caret := caretLines(err.Input, err.Offset)
	fmt.Fprintf(w, "  %s\n  %s\n", shown, caret)
	if err.Rule != nil {
		fmt.Fprintf(w, "  production: %s", err.Rule.Name)
		if err.Rule.Source != "" {
			fmt.Fprintf(w, ", from %s", err.Rule.Source)
		}
		fmt.Fprintln(w)
		for i, line := range strings.Split(err.Rule.Definition, "\n") {
			label := "definition:"
			if i > 0 {
				label = ""
			}
			fmt.Fprintf(w, "  %-11s %s\n", label, line)
		}
	}
	if len(err.Chain) > 0 {
		fmt.Fprintf(w, "  chain:      %s\n", chainString(err.Chain))
	}
	if err.GaveUp {
		fmt.Fprintln(w, "  the matcher gave up: the input splits in too many ways")
	} else {
		fmt.Fprintf(w, "  expected:   %s\n", grammar.JoinExpected(err.Expected))
	}
}

// chainString renders a chain of productions "httpurl › hostport › port",
// a run of three or more of the same recursive rule as "path ×N".
func chainString(chain []*grammar.Rule) string {
	names := ruleNames(chain)
	var parts []string
	for i := 0; i < len(names); {
		j := i + 1
		for j < len(names) && names[j] == names[i] {
			j++
		}
		if j-i >= 3 {
			parts = append(parts, fmt.Sprintf("%s ×%d", names[i], j-i))
		} else {
			parts = append(parts, names[i:j]...)
		}
		i = j
	}
	return strings.Join(parts, " › ")
}

func ruleNames(rules []*grammar.Rule) []string {
	names := make([]string, 0, len(rules))
	for _, r := range rules {
		if r != nil {
			names = append(names, r.Name)
		}
	}
	return names
}

// cell is one displayed character of the input: a rune as it is, a tab, or
// an escape for a control character or a byte of invalid UTF-8.
type cell struct {
	start int    // byte offset in the input
	text  string // what is printed
	caret string // what the caret line prints under it before the caret
}

// caretLines renders input for display, and a line with a caret "^" in the
// display column of the byte at offset (just past the input when offset is
// its length). A multi-byte UTF-8 character takes one column; a tab is
// copied to the caret line so that the caret lines up whatever the tab
// width; control characters and invalid bytes are shown escaped (\x00). A
// long input is cut to a window around the offset, marked with "…".
func caretLines(input string, offset int) (shown, caret string) {
	return caretWindow(input, offset, contextBefore, contextAfter)
}

// caretWindow is caretLines with a window of at most before columns before
// the caret and after columns after it.
func caretWindow(input string, offset, before, after int) (shown, caret string) {
	offset = max(0, min(offset, len(input)))
	var cells []cell
	at := -1 // index of the cell holding offset
	for i := 0; i < len(input); {
		r, size := utf8.DecodeRuneInString(input[i:])
		c := cell{start: i}
		switch {
		case r == utf8.RuneError && size == 1:
			c.text = fmt.Sprintf(`\x%02x`, input[i])
		case r == '\t':
			c.text = "\t"
		case !unicode.IsPrint(r):
			q := strconv.QuoteRune(r)
			c.text = q[1 : len(q)-1]
		default:
			c.text = input[i : i+size]
		}
		if c.text == "\t" {
			c.caret = "\t"
		} else {
			c.caret = pad(columns(c.text))
		}
		if at < 0 && offset < i+size {
			at = len(cells)
		}
		cells = append(cells, c)
		i += size
	}
	if at < 0 {
		at = len(cells) // end of input: the caret goes past the last cell
		cells = append(cells, cell{start: len(input)})
	}
	// The window: whole cells within the column budgets around the caret.
	lo, width := at, 0
	for lo > 0 && width+columns(cells[lo-1].text) <= before {
		lo--
		width += columns(cells[lo].text)
	}
	hi, width := at+1, 0
	for hi < len(cells) && width+columns(cells[hi].text) <= after {
		width += columns(cells[hi].text)
		hi++
	}
	var s, c strings.Builder
	if lo > 0 {
		s.WriteString("…")
		c.WriteString(" ")
	}
	for i := lo; i < hi; i++ {
		s.WriteString(cells[i].text)
		if i < at {
			c.WriteString(cells[i].caret)
		}
	}
	if hi < len(cells) && cells[hi].text != "" {
		s.WriteString("…")
	}
	c.WriteString("^")
	return s.String(), c.String()
}

// JSON.

// jsonString renders s as a JSON string, without HTML escaping (URLs are
// full of "&"). Invalid UTF-8 becomes U+FFFD, as encoding/json does.
func jsonString(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s) // a string always encodes
	return strings.TrimSuffix(b.String(), "\n")
}

// writeTreeJSON prints t as nested objects {"rule", "start", "end", "text",
// "children"}, offsets in bytes, children always an array, and the root
// with a "standards" array of verdicts when there are any. It walks the
// preorder node list with an explicit stack, so no input can make it recurse
// deeply.
func writeTreeJSON(w io.Writer, t *grammar.Tree, verdicts []standards.Verdict) {
	type open struct {
		end      int  // index where the node's subtree ends
		children bool // a child has been written
	}
	var stack []open
	indent := func(level int) string { return strings.Repeat("  ", min(level, maxJSONIndent)) }
	// A node at stack depth d is an object indented 2d levels, its fields and
	// the end of its children array 2d+1.
	closeNode := func() {
		d := len(stack) - 1
		if stack[d].children {
			fmt.Fprintf(w, "\n%s]", indent(2*d+1))
		} else {
			fmt.Fprint(w, "[]")
		}
		if d == 0 && len(verdicts) > 0 {
			fmt.Fprintf(w, ",\n%s\"standards\": %s", indent(1), verdictsJSON(verdicts, indent(1)))
		}
		fmt.Fprintf(w, "\n%s}", indent(2*d))
		stack = stack[:d]
	}
	for i, n := range t.Nodes {
		for len(stack) > 0 && i >= stack[len(stack)-1].end {
			closeNode()
		}
		if d := len(stack) - 1; d >= 0 {
			if stack[d].children {
				fmt.Fprint(w, ",\n")
			} else {
				fmt.Fprint(w, "[\n")
				stack[d].children = true
			}
		}
		d := len(stack)
		fmt.Fprintf(w, "%s{\n", indent(2*d))
		fmt.Fprintf(w, "%s\"rule\": %s,\n", indent(2*d+1), jsonString(n.Rule().Name))
		fmt.Fprintf(w, "%s\"start\": %d,\n", indent(2*d+1), n.Start)
		fmt.Fprintf(w, "%s\"end\": %d,\n", indent(2*d+1), n.End)
		fmt.Fprintf(w, "%s\"text\": %s,\n", indent(2*d+1), jsonString(t.Input[n.Start:n.End]))
		fmt.Fprintf(w, "%s\"children\": ", indent(2*d+1))
		stack = append(stack, open{end: i + int(max(n.Size, 1))})
	}
	for len(stack) > 0 {
		closeNode()
	}
	fmt.Fprintln(w)
}

// verdictsJSON renders the verdicts as an indented JSON array whose lines
// after the first start with prefix.
func verdictsJSON(verdicts []standards.Verdict, prefix string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent(prefix, "  ")
	enc.Encode(verdicts) // plain data always encodes
	return strings.TrimSuffix(b.String(), "\n")
}

// syntaxErrorJSON is the --json form of a syntax error.
type syntaxErrorJSON struct {
	Error     string              `json:"error"`
	Input     string              `json:"input"`
	Offset    int                 `json:"offset"`
	Rule      string              `json:"rule"`
	Source    string              `json:"source"`
	Chain     []string            `json:"chain"`
	Expected  []string            `json:"expected"`
	GaveUp    bool                `json:"gaveUp"`
	Standards []standards.Verdict `json:"standards,omitempty"`
}

func writeErrorJSON(w io.Writer, err *grammar.SyntaxError, verdicts []standards.Verdict) {
	v := syntaxErrorJSON{
		Error:     err.Error(),
		Input:     err.Input,
		Offset:    err.Offset,
		Chain:     ruleNames(err.Chain),
		Expected:  append([]string{}, err.Expected...),
		GaveUp:    err.GaveUp,
		Standards: verdicts,
	}
	if err.Rule != nil {
		v.Rule, v.Source = err.Rule.Name, err.Rule.Source
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	enc.Encode(v)
}
