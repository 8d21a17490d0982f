package grammar

// Readers for the three notations of the seed grammars in testdata/seeds, and
// a normaliser under which two notations of the same rule compare equal. The
// seeds_test.go tests use them to hold the embedded ABNF files to the seeds.
//
// Each reader turns a seed into rules, each a name and an *Expr built by the
// package's own ABNF rule parser where the notation allows (RFC 822-style BNF
// is rewritten into ABNF text first) or by a small parser of the same Expr
// shape (the XBNF). A rule whose text does not read in its seed's notation
// keeps the error, so that a garbled seed rule is reported, never guessed at:
// the evident readings of garbled rules live in seeds_test.go's exception
// table, each with its reason.

import (
	"fmt"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// seedRule is one rule read from a seed.
type seedRule struct {
	Name string
	Text string // the right-hand side as read, for messages
	Line int    // 1-based line in the seed file
	Expr *Expr  // nil when Err is set
	Err  error  // the text does not read in the seed's notation
}

// seedDoc is one seed file and the rules read from it.
type seedDoc struct {
	ID      string // the file's number, "000"
	File    string // name under testdata/seeds
	Grammar string // the builtin grammar transcribed from it
	About   string
	// Source is how the transcription cites this seed: every rule taken from
	// it has a Source starting with this text.
	Source string
	// First and Last are the first and last rule names the seed defines, so
	// that a reader that loses rules at either end is caught.
	First, Last string
	read        func(text string) []*seedRule
	parse       func(rhs string) (*Expr, error) // the notation's right-hand sides
	Rules       []*seedRule
}

// Rule returns the seed's rule called name (case-insensitive), or nil.
func (d *seedDoc) Rule(name string) *seedRule {
	for _, r := range d.Rules {
		if strings.EqualFold(r.Name, name) {
			return r
		}
	}
	return nil
}

// Names returns the seed's rule names in the order of the seed.
func (d *seedDoc) Names() []string {
	var out []string
	for _, r := range d.Rules {
		out = append(out, r.Name)
	}
	return out
}

const seedDir = "testdata/seeds"

// seedSpecs describes the seed files; see testdata/seeds/SOURCE.md.
var seedSpecs = []seedDoc{
	{ID: "000", File: "000_e24533656f925e4b.txt", Grammar: "rfc1738", Source: "RFC 1738",
		About: "RFC 1738 §5 in RFC 822-style BNF, from a web page", First: "genericurl", Last: "digits",
		read: readBNF822, parse: parseBNF822},
	{ID: "001", File: "001_7a4af3103862be21.txt", Grammar: "rfc1738", Source: "RFC 1738",
		About: "RFC 1738 §5 rendered as ABNF, HTML-escaped", First: "genericurl", Last: "digits",
		read: readHTMLABNF, parse: parseHTMLABNF},
	{ID: "002", File: "002_5835b69d2d0125fd.txt", Grammar: "xbnf", Source: "W3C XBNF",
		About: "the W3C 1993/94 XBNF for URLs, on one line", First: "prefixedurl", Last: "void",
		read: readXBNF, parse: parseXBNF},
	{ID: "003", File: "003_132503b18e5eaf1b.txt", Grammar: "rfc1808", Source: "RFC 1808",
		About: "RFC 1808 §2.2 in RFC 822-style BNF, from a web page", First: "URL", Last: "punctuation",
		read: readBNF822, parse: parseBNF822},
	{ID: "004", File: "004_4af3ae8522ae3838.txt", Grammar: "rfc1738", Source: "RFC 1738",
		About: "RFC 1738 §4-§5 plain text, cut off after \"; GOPHER\"", First: "genericurl", Last: "search",
		read: readBNF822, parse: parseBNF822},
}

// loadSeeds reads every seed file.
func loadSeeds() ([]*seedDoc, error) {
	var out []*seedDoc
	for _, spec := range seedSpecs {
		src, err := os.ReadFile(filepath.Join(seedDir, spec.File))
		if err != nil {
			return nil, err
		}
		d := spec
		d.Rules = d.read(string(src))
		out = append(out, &d)
	}
	return out, nil
}

// --- RFC 822-style BNF (seeds 000, 003, 004) and ABNF (seed 001) ---

// ruleStart matches the first line of a rule, "name = ...".
var ruleStart = regexp.MustCompile(`^\s*([A-Za-z][A-Za-z0-9_+-]*)\s*=(?:\s+(.*))?$`)

// scanLine strips a comment (";" outside quotes) from line and reports the
// bracket depth change of what is left. RFC 822's <"> (a double quote) is
// skipped as a unit, since its quote mark opens no string.
func scanLine(line string) (code string, depth int) {
	for i := 0; i < len(line); i++ {
		switch c := line[i]; {
		case strings.HasPrefix(line[i:], `<">`):
			i += 2
		case c == '"':
			j := strings.IndexByte(line[i+1:], '"')
			if j < 0 {
				return line, depth
			}
			i += j + 1
		case c == ';':
			return strings.TrimRight(line[:i], " \t"), depth
		case c == '[' || c == '(':
			depth++
		case c == ']' || c == ')':
			depth--
		}
	}
	return strings.TrimRight(line, " \t"), depth
}

// splitRules finds the rules in a page of text: a rule starts at a line
// "name = ..." and continues on the following lines while it is evidently
// incomplete, that is, while a bracket is open or its last line ends with the
// alternation operator alt. Any other line (page chrome, prose, a page
// footer between rules) is not part of a rule.
func splitRules(text string, alt string) []*seedRule {
	var rules []*seedRule
	var cur *seedRule
	depth := 0
	open := false
	for i, line := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		code, d := scanLine(line)
		if open {
			if strings.TrimSpace(code) == "" {
				continue
			}
			cur.Text += " " + strings.TrimSpace(code)
			depth += d
			open = depth > 0 || strings.HasSuffix(cur.Text, alt)
			continue
		}
		m := ruleStart.FindStringSubmatch(code)
		if m == nil {
			continue
		}
		cur = &seedRule{Name: m[1], Text: strings.TrimSpace(m[2]), Line: i + 1}
		rules = append(rules, cur)
		_, depth = scanLine(cur.Text)
		open = depth > 0 || strings.HasSuffix(cur.Text, alt)
	}
	return rules
}

// readBNF822 reads the RFC 822-style BNF of RFC 1738 §5 and RFC 1808 §2.2.
func readBNF822(text string) []*seedRule {
	rules := splitRules(text, "|")
	for _, r := range rules {
		r.Expr, r.Err = parseBNF822(r.Text)
	}
	return rules
}

// parseBNF822 parses a right-hand side in the RFC 822-style BNF of the RFCs
// (RFC 822 §2, with "|" for alternatives as RFC 1738 §5 and RFC 1808 §2.2
// say) by rewriting it into ABNF: "|" is "/", <"> is %x22. Brackets stay
// brackets, so RFC 1738's "*[ x ]" parses as a repetition of an optional x,
// which normalisation equates with "*( x )". Anything else outside a string,
// such as an unquoted "/", is an error.
func parseBNF822(rhs string) (*Expr, error) {
	var b strings.Builder
	for i := 0; i < len(rhs); {
		c := rhs[i]
		switch {
		case c == ' ' || c == '\t':
			b.WriteByte(' ')
			i++
		case strings.HasPrefix(rhs[i:], `<">`):
			b.WriteString("%x22")
			i += 3
		case c == '"':
			j := strings.IndexByte(rhs[i+1:], '"')
			if j < 0 {
				return nil, fmt.Errorf("unterminated string at byte %d", i)
			}
			b.WriteString(rhs[i : i+j+2])
			i += j + 2
		case c == '|':
			b.WriteByte('/')
			i++
		case c == '[' || c == ']' || c == '(' || c == ')' || c == '*' || isNameByte(int(c), false):
			b.WriteByte(c)
			i++
		default:
			return nil, fmt.Errorf("unexpected %q at byte %d", c, i)
		}
	}
	return parseABNFExpr(b.String())
}

// parseABNFExpr parses an ABNF right-hand side with the loader's rule parser.
func parseABNFExpr(rhs string) (*Expr, error) {
	p := &ruleParser{file: "seed", lines: []string{rhs}, firstLine: 1}
	e, err := p.alternation()
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	if c := p.peek(); c != -1 && c != '\n' {
		return nil, p.errorf("unexpected %q", rune(c))
	}
	return e, nil
}

// htmlTag matches the <a href=...> and </a> tags seed 001 has in comments.
var htmlTag = regexp.MustCompile(`</?a\b[^>]*>`)

// readHTMLABNF reads seed 001: ABNF in an HTML page, with its tags and
// character references (&amp; &lt; &gt;) still in.
func readHTMLABNF(text string) []*seedRule {
	text = html.UnescapeString(htmlTag.ReplaceAllString(text, ""))
	rules := splitRules(text, "/")
	for _, r := range rules {
		r.Expr, r.Err = parseHTMLABNF(r.Text)
	}
	return rules
}

// parseHTMLABNF parses a right-hand side of seed 001 once unescaped: ABNF,
// except that punctuation keeps RFC 822's <"> for the double quote, which
// ABNF would read as prose; it is %x22.
func parseHTMLABNF(rhs string) (*Expr, error) {
	return parseABNFExpr(strings.ReplaceAll(html.UnescapeString(rhs), `<">`, "%x22"))
}

// --- XBNF (seed 002) ---

// xbnfDef matches the start of an XBNF definition, "name ::=".
var xbnfDef = regexp.MustCompile(`([A-Za-z][A-Za-z0-9_+]*)\s*::=`)

// readXBNF reads seed 002, the whole XBNF on one line: prose, then
// definitions "name ::= expression ." up to "(end of URL BNF)". Each
// definition runs to the start of the next, and must be one expression and
// its closing ".".
func readXBNF(text string) []*seedRule {
	text, _, _ = strings.Cut(text, "(end of URL BNF)")
	locs := xbnfDef.FindAllStringSubmatchIndex(text, -1)
	var rules []*seedRule
	for i, m := range locs {
		end := len(text)
		if i+1 < len(locs) {
			end = locs[i+1][0]
		}
		r := &seedRule{Name: text[m[2]:m[3]], Text: strings.TrimSpace(text[m[1]:end]), Line: 1 + strings.Count(text[:m[0]], "\n")}
		r.Expr, r.Err = parseXBNF(r.Text)
		rules = append(rules, r)
	}
	return rules
}

// parseXBNF parses the right-hand side of an XBNF definition, its closing
// "." included, into the Expr shape the ABNF loader builds. The notation (as
// the seed's preamble describes it): "|" separates alternatives, O( ) is
// optional, N( ) one or more, #( ) zero or more, strings are in double
// quotes with C escapes, "a".."f" is a range, $name refers to a rule, as
// does any bare word of more than one letter, except space, vline and quotes,
// which are the characters " ", "|" and `"`; a single letter is itself.
func parseXBNF(rhs string) (*Expr, error) {
	p := &xbnfParser{s: rhs}
	e, err := p.alternation()
	if err != nil {
		return nil, err
	}
	p.space()
	if !p.eat('.') {
		return nil, p.errorf("expected the closing \".\"")
	}
	p.space()
	if p.i < len(p.s) {
		return nil, p.errorf("text after the closing \".\"")
	}
	return e, nil
}

type xbnfParser struct {
	s string
	i int
}

func (p *xbnfParser) errorf(format string, args ...any) error {
	return fmt.Errorf("byte %d: %s", p.i, fmt.Sprintf(format, args...))
}

func (p *xbnfParser) space() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t' || p.s[p.i] == '\n' || p.s[p.i] == '\r') {
		p.i++
	}
}

func (p *xbnfParser) eat(c byte) bool {
	if p.i < len(p.s) && p.s[p.i] == c {
		p.i++
		return true
	}
	return false
}

func (p *xbnfParser) alternation() (*Expr, error) {
	var items []*Expr
	for {
		e, err := p.concatenation()
		if err != nil {
			return nil, err
		}
		items = append(items, e)
		p.space()
		if !p.eat('|') {
			break
		}
	}
	if len(items) == 1 {
		return items[0], nil
	}
	return &Expr{Kind: Alt, Items: items}, nil
}

func (p *xbnfParser) concatenation() (*Expr, error) {
	var items []*Expr
	for {
		p.space()
		if p.i >= len(p.s) || strings.IndexByte("|).", p.s[p.i]) >= 0 {
			break
		}
		e, err := p.element()
		if err != nil {
			return nil, err
		}
		items = append(items, e)
	}
	switch len(items) {
	case 0:
		return nil, p.errorf("empty alternative")
	case 1:
		return items[0], nil
	}
	return &Expr{Kind: Seq, Items: items}, nil
}

func isXBNFWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '+'
}

func (p *xbnfParser) word() string {
	start := p.i
	for p.i < len(p.s) && isXBNFWordByte(p.s[p.i]) {
		p.i++
	}
	return p.s[start:p.i]
}

func (p *xbnfParser) element() (*Expr, error) {
	c := p.s[p.i]
	switch {
	case c == '"':
		lo, err := p.str()
		if err != nil {
			return nil, err
		}
		if !strings.HasPrefix(p.s[p.i:], "..") {
			return seedLit(lo), nil
		}
		p.i += 2
		if p.i >= len(p.s) || p.s[p.i] != '"' {
			return nil, p.errorf("expected a string after \"..\"")
		}
		hi, err := p.str()
		if err != nil {
			return nil, err
		}
		if len(lo) != 1 || len(hi) != 1 || hi[0] < lo[0] {
			return nil, p.errorf("bad range %q..%q", lo, hi)
		}
		return &Expr{Kind: Range, Lo: lo[0], Hi: hi[0]}, nil
	case c == '$':
		p.i++
		name := p.word()
		if name == "" {
			return nil, p.errorf("expected a rule name after \"$\"")
		}
		return &Expr{Kind: Ref, Name: name}, nil
	case c == '(':
		p.i++
		return p.group(1, 1)
	case isXBNFWordByte(c):
		w := p.word()
		if p.i < len(p.s) && p.s[p.i] == '(' && (w == "O" || w == "N") {
			p.i++
			if w == "O" {
				return p.group(0, 1)
			}
			return p.group(1, -1)
		}
		switch w {
		case "space":
			return seedLit(" "), nil
		case "vline":
			return seedLit("|"), nil
		case "quotes":
			return seedLit(`"`), nil
		}
		if len(w) == 1 {
			return seedLit(w), nil
		}
		return &Expr{Kind: Ref, Name: w}, nil
	case c == '#' && strings.HasPrefix(p.s[p.i:], "#("):
		p.i += 2
		return p.group(0, -1)
	}
	return nil, p.errorf("unexpected %q", c)
}

// group parses the inside of a bracket whose "(" has been read, and the
// closing ")", as a repetition from min to max (1, 1 for plain parentheses).
func (p *xbnfParser) group(min, max int) (*Expr, error) {
	e, err := p.alternation()
	if err != nil {
		return nil, err
	}
	p.space()
	if !p.eat(')') {
		return nil, p.errorf("expected \")\"")
	}
	if min == 1 && max == 1 {
		return e, nil
	}
	return &Expr{Kind: Rep, Min: min, Max: max, Items: []*Expr{e}}, nil
}

// str reads a double-quoted string with C escapes.
func (p *xbnfParser) str() (string, error) {
	p.i++ // opening quote
	var b strings.Builder
	for {
		if p.i >= len(p.s) {
			return "", p.errorf("unterminated string")
		}
		c := p.s[p.i]
		p.i++
		switch c {
		case '"':
			return b.String(), nil
		case '\\':
			if p.i >= len(p.s) {
				return "", p.errorf("unterminated string")
			}
			b.WriteByte(p.s[p.i])
			p.i++
		default:
			b.WriteByte(c)
		}
	}
}

// seedLit builds a literal the way the loader does: case-insensitive unless
// it has no letters.
func seedLit(text string) *Expr {
	return &Expr{Kind: Lit, Text: text, CaseSensitive: strings.ToLower(text) == strings.ToUpper(text)}
}

// --- normalisation ---

// normal renders e in a canonical form: two rules whose forms are equal say
// the same thing in (possibly) different notations. It
//   - flattens nested alternations and concatenations and drops one-item ones;
//   - treats a one-character literal as exactly that character (the seeds
//     spell both cases where they mean both: hex, ftptype, lowalpha and
//     hialpha), and merges runs of one-character alternatives and ranges into
//     one character set, so %x61-7A equals "a" | "b" | ... | "z";
//   - compares longer case-insensitive literals in lower case, and joins
//     adjacent literals of a concatenation ("http:" "//" equals "http://");
//   - reads a repetition of an optional element as a repetition of the
//     element: RFC 1738 §5 says "brackets [] are used around optional or
//     repeated elements", so its "*[ x ]" and "1*[ x ]" are ABNF's "*( x )"
//     and "1*( x )";
//   - compares rule names case-insensitively (RFC 5234 §2.1).
//
// The order of alternatives other than single characters, the order of a
// concatenation's items and repetition bounds are kept: they are meaning.
func normal(e *Expr) string {
	var b strings.Builder
	canon(e).write(&b)
	return b.String()
}

// cnode is a canonical expression: an Expr whose Range kind stands for a
// character set.
type cnode struct {
	kind     ExprKind
	items    []*cnode
	min, max int
	name     string
	text     string
	cs       bool
	set      byteSet
}

func canon(e *Expr) *cnode {
	switch e.Kind {
	case Ref:
		return &cnode{kind: Ref, name: strings.ToLower(e.Name)}
	case Range:
		n := &cnode{kind: Range}
		for c := int(e.Lo); c <= int(e.Hi); c++ {
			n.set.add(byte(c))
		}
		return n
	case Lit:
		return canonLit(e.Text, e.CaseSensitive || !hasLetter(e.Text))
	case Rep:
		inner := canon(e.Items[0])
		min, max := e.Min, e.Max
		if inner.kind == Rep && inner.min == 0 && inner.max == 1 && !(min == 1 && max == 1) {
			// *[x] is *(x); [[x]] is [x].
			inner = inner.items[0]
		}
		if min == 1 && max == 1 {
			return inner
		}
		return &cnode{kind: Rep, min: min, max: max, items: []*cnode{inner}}
	case Seq:
		var items []*cnode
		for _, it := range e.Items {
			c := canon(it)
			if c.kind == Seq {
				items = append(items, c.items...)
			} else if !(c.kind == Lit && c.text == "") {
				items = append(items, c)
			}
		}
		items = joinLits(items)
		switch len(items) {
		case 0:
			return &cnode{kind: Lit, cs: true}
		case 1:
			return items[0]
		}
		return &cnode{kind: Seq, items: items}
	case Alt:
		var items []*cnode
		add := func(c *cnode) {
			if n := len(items); c.kind == Range && n > 0 && items[n-1].kind == Range {
				items[n-1].set.union(c.set)
				return
			}
			items = append(items, c)
		}
		for _, it := range e.Items {
			c := canon(it)
			if c.kind == Alt {
				for _, x := range c.items {
					add(x)
				}
			} else {
				add(c)
			}
		}
		if len(items) == 1 {
			return items[0]
		}
		return &cnode{kind: Alt, items: items}
	}
	panic("canon: unknown expression kind")
}

func hasLetter(s string) bool { return strings.ToLower(s) != strings.ToUpper(s) }

func canonLit(text string, cs bool) *cnode {
	if len(text) == 1 {
		n := &cnode{kind: Range}
		n.set.add(text[0])
		return n
	}
	if !cs {
		text = strings.ToLower(text)
	}
	return &cnode{kind: Lit, text: text, cs: cs || !hasLetter(text)}
}

// single returns the character a one-character set stands for.
func (n *cnode) single() (byte, bool) {
	if n.kind != Range {
		return 0, false
	}
	var c byte
	count := 0
	for i := 0; i < 256; i++ {
		if n.set.has(byte(i)) {
			c = byte(i)
			count++
		}
	}
	return c, count == 1
}

// joinLits joins adjacent literals of a concatenation where the result means
// the same: both compare case the same way, or one has no letters.
func joinLits(items []*cnode) []*cnode {
	asLit := func(n *cnode) (string, bool, bool) {
		if n.kind == Lit {
			return n.text, n.cs, true
		}
		if c, ok := n.single(); ok {
			return string(c), true, true
		}
		return "", false, false
	}
	var out []*cnode
	for _, it := range items {
		if len(out) > 0 {
			a, acs, aok := asLit(out[len(out)-1])
			b, bcs, bok := asLit(it)
			if aok && bok && (acs == bcs || !hasLetter(a) || !hasLetter(b)) {
				cs := acs && bcs
				if !hasLetter(a) {
					cs = bcs
				} else if !hasLetter(b) {
					cs = acs
				}
				out[len(out)-1] = canonLit(a+b, cs)
				continue
			}
		}
		out = append(out, it)
	}
	return out
}

func (n *cnode) write(b *strings.Builder) {
	switch n.kind {
	case Ref:
		b.WriteString(n.name)
	case Lit:
		if n.cs && hasLetter(n.text) {
			b.WriteByte('s')
		}
		fmt.Fprintf(b, "%q", n.text)
	case Range:
		b.WriteByte('[')
		var parts []string
		for lo := 0; lo < 256; lo++ {
			if !n.set.has(byte(lo)) {
				continue
			}
			hi := lo
			for hi+1 < 256 && n.set.has(byte(hi+1)) {
				hi++
			}
			if lo == hi {
				parts = append(parts, fmt.Sprintf("%%x%02X", lo))
			} else {
				parts = append(parts, fmt.Sprintf("%%x%02X-%02X", lo, hi))
			}
			lo = hi
		}
		b.WriteString(strings.Join(parts, ","))
		b.WriteByte(']')
	case Rep:
		if n.max < 0 {
			fmt.Fprintf(b, "{%d,}", n.min)
		} else {
			fmt.Fprintf(b, "{%d,%d}", n.min, n.max)
		}
		n.items[0].write(b)
	case Seq, Alt:
		sep := " "
		if n.kind == Alt {
			sep = " | "
		}
		b.WriteByte('(')
		for i, it := range n.items {
			if i > 0 {
				b.WriteString(sep)
			}
			it.write(b)
		}
		b.WriteByte(')')
	}
}
