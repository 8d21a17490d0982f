package grammar

import (
	"fmt"
	"strconv"
	"strings"
)

// LoadError is a located error in a grammar file.
type LoadError struct {
	File      string
	Line, Col int // 1-based; Col counts bytes
	Msg       string
}

func (e *LoadError) Error() string {
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg)
}

// Load parses an ABNF grammar file. name is the grammar's short name and file
// the name used in error messages. Every rule referred to must be defined, no
// rule may be defined twice (except by "=/", RFC 5234 §3.3), and no rule may be
// left-recursive, since the matcher is top-down.
func Load(name, file string, src []byte) (*Grammar, error) {
	return load(name, file, src, loadOptions{})
}

// loadOptions are what LoadUser relaxes.
type loadOptions struct {
	// defaultSource is cited for the rules before any ;@source directive;
	// "" makes such a rule an error.
	defaultSource string
	// predefined returns a rule that the file may use without defining
	// it, or nil; the grammar gets a copy of it (predefine).
	predefined func(name string) *Rule
}

// refPos is where a rule reference is written: 1-based line and byte column.
type refPos struct{ line, col int }

func load(name, file string, src []byte, opts loadOptions) (*Grammar, error) {
	g := &Grammar{Name: name, byName: map[string]*Rule{}}
	refs := map[*Expr]refPos{}
	text := strings.ReplaceAll(string(src), "\r\n", "\n")
	lines := strings.Split(text, "\n")
	source := ""
	var transparent, present []string
	transparentLine := map[string]int{}
	presentLine := map[string]int{}
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		trimmed := strings.TrimSpace(line)
		switch {
		case trimmed == "":
			continue
		case strings.HasPrefix(trimmed, ";@"):
			directive, arg, _ := strings.Cut(trimmed[2:], " ")
			arg = strings.TrimSpace(arg)
			switch directive {
			case "source":
				source = arg
			case "title":
				g.Title = arg
			case "transparent":
				for _, n := range strings.Fields(arg) {
					transparent = append(transparent, n)
					transparentLine[strings.ToLower(n)] = i + 1
				}
			case "present":
				for _, n := range strings.Fields(arg) {
					present = append(present, n)
					presentLine[strings.ToLower(n)] = i + 1
				}
			default:
				return nil, &LoadError{file, i + 1, 1, fmt.Sprintf("unknown directive %q", ";@"+directive)}
			}
			continue
		case trimmed[0] == ';':
			continue
		case line[0] == ' ' || line[0] == '\t':
			// RFC 5234 §2.2 starts a rule at the start of a line; ABNF
			// copied from an RFC comes indented by three spaces.
			return nil, &LoadError{file, i + 1, 1, "indented line outside a rule (a rule starts at the start of its line, RFC 5234 §2.2; ABNF copied from an RFC keeps its indentation)"}
		}
		// A rule: this line and the indented lines that follow (RFC 5234 §2.2
		// continues a rule on a line that starts with white space).
		first := i
		for i+1 < len(lines) && len(lines[i+1]) > 0 && (lines[i+1][0] == ' ' || lines[i+1][0] == '\t') && strings.TrimSpace(lines[i+1]) != "" {
			i++
		}
		if source == "" {
			if opts.defaultSource == "" {
				return nil, &LoadError{file, first + 1, 1, "rule before any ;@source directive"}
			}
			source = opts.defaultSource
		}
		p := &ruleParser{file: file, lines: lines[first : i+1], firstLine: first + 1, refs: refs}
		rname, incremental, expr, err := p.parseRule()
		if err != nil {
			return nil, err
		}
		def := strings.TrimRight(strings.Join(lines[first:i+1], "\n"), " \t")
		key := strings.ToLower(rname)
		if old, ok := g.byName[key]; ok {
			if !incremental {
				return nil, &LoadError{file, first + 1, 1, fmt.Sprintf("rule %q already defined at line %d", rname, old.Line)}
			}
			if old.Expr.Kind != Alt {
				old.Expr = &Expr{Kind: Alt, Items: []*Expr{old.Expr}}
			}
			if expr.Kind == Alt {
				old.Expr.Items = append(old.Expr.Items, expr.Items...)
			} else {
				old.Expr.Items = append(old.Expr.Items, expr)
			}
			old.Definition += "\n" + def
			continue
		} else if incremental {
			if opts.predefined != nil {
				if pre := opts.predefined(rname); pre != nil {
					return nil, &LoadError{file, first + 1, 1, fmt.Sprintf("incremental alternative for rule %q, which this file does not define: \"=/\" extends a rule of the file, not the predefined one (%s); define %s whole with \"=\"", rname, pre.Source, rname)}
				}
			}
			return nil, &LoadError{file, first + 1, 1, fmt.Sprintf("incremental alternative for undefined rule %q", rname)}
		}
		r := &Rule{Name: rname, Definition: def, Source: source, Line: first + 1, Expr: expr, grammar: g, index: len(g.Rules)}
		g.Rules = append(g.Rules, r)
		g.byName[key] = r
	}
	if len(g.Rules) == 0 {
		return nil, &LoadError{file, 1, 1, "no rules"}
	}
	if opts.predefined != nil {
		g.predefine(opts.predefined, transparent)
	}
	for _, n := range transparent {
		r := g.Rule(n)
		if r == nil {
			return nil, &LoadError{file, transparentLine[strings.ToLower(n)], 1, fmt.Sprintf(";@transparent names undefined rule %q", n)}
		}
		r.Transparent = true
	}
	for _, n := range present {
		r := g.Rule(n)
		line := presentLine[strings.ToLower(n)]
		if r == nil {
			return nil, &LoadError{file, line, 1, fmt.Sprintf(";@present names undefined rule %q", n)}
		}
		if _, _, ok := finalOptional(r.Expr); !ok {
			return nil, &LoadError{file, line, 1, fmt.Sprintf(";@present names rule %q, whose definition does not end in an optional part after another part", n)}
		}
		r.PreferPresent = true
	}
	if err := g.check(file, refs); err != nil {
		return nil, err
	}
	g.prog = compile(g)
	register(g)
	for i, r := range g.Rules {
		g.prog.ids[i] = r.ID
	}
	return g, nil
}

// finalOptional splits a definition "… p [ x ]" into its items before the
// optional part and the optional part's content.
func finalOptional(e *Expr) (before []*Expr, opt *Expr, ok bool) {
	if e.Kind != Seq || len(e.Items) < 2 {
		return nil, nil, false
	}
	last := e.Items[len(e.Items)-1]
	if last.Kind != Rep || last.Min != 0 || last.Max != 1 {
		return nil, nil, false
	}
	return e.Items[:len(e.Items)-1], last.Items[0], true
}

// check resolves references and rejects left recursion. refs locates the
// references of the file's rules.
func (g *Grammar) check(file string, refs map[*Expr]refPos) error {
	var undefined func(e *Expr) *Expr
	undefined = func(e *Expr) *Expr {
		if e.Kind == Ref {
			if g.Rule(e.Name) == nil {
				return e
			}
			return nil
		}
		for _, it := range e.Items {
			if u := undefined(it); u != nil {
				return u
			}
		}
		return nil
	}
	for _, r := range g.Rules {
		if u := undefined(r.Expr); u != nil {
			line, col := r.Line, 1
			if at, ok := refs[u]; ok {
				line, col = at.line, at.col
			}
			return &LoadError{file, line, col, fmt.Sprintf("rule %q refers to undefined rule %q", r.Name, u.Name)}
		}
	}
	nullable := g.nullable()
	// Left recursion: a rule that can reach itself without consuming input.
	for _, r := range g.Rules {
		seen := map[*Rule]bool{}
		var reach func(e *Expr) bool
		reach = func(e *Expr) bool {
			switch e.Kind {
			case Ref:
				t := g.Rule(e.Name)
				if t == r {
					return true
				}
				if seen[t] {
					return false
				}
				seen[t] = true
				return reach(t.Expr)
			case Alt:
				for _, it := range e.Items {
					if reach(it) {
						return true
					}
				}
			case Seq:
				for _, it := range e.Items {
					if reach(it) {
						return true
					}
					if !nullable.expr(it) {
						break
					}
				}
			case Rep:
				return reach(e.Items[0])
			}
			return false
		}
		if reach(r.Expr) {
			return &LoadError{file, r.Line, 1, fmt.Sprintf("rule %q is left-recursive, which the matcher does not support", r.Name)}
		}
	}
	for _, r := range g.Rules {
		r.CharClass = g.singleByte(r.Expr, map[*Rule]bool{})
	}
	return nil
}

// singleByte reports whether every string e matches is exactly one byte.
func (g *Grammar) singleByte(e *Expr, visiting map[*Rule]bool) bool {
	switch e.Kind {
	case Range:
		return true
	case Lit:
		return len(e.Text) == 1
	case Alt:
		for _, it := range e.Items {
			if !g.singleByte(it, visiting) {
				return false
			}
		}
		return len(e.Items) > 0
	case Seq:
		return len(e.Items) == 1 && g.singleByte(e.Items[0], visiting)
	case Rep:
		return e.Min == 1 && e.Max == 1 && g.singleByte(e.Items[0], visiting)
	case Ref:
		t := g.Rule(e.Name)
		if visiting[t] {
			return false
		}
		visiting[t] = true
		defer delete(visiting, t)
		return g.singleByte(t.Expr, visiting)
	}
	return false
}

// nullableSet answers which expressions can match the empty string.
type nullableSet struct {
	g     *Grammar
	rules map[*Rule]bool
}

func (g *Grammar) nullable() *nullableSet {
	n := &nullableSet{g: g, rules: map[*Rule]bool{}}
	// Fixed point: a rule is nullable once its body is, given what is known.
	for changed := true; changed; {
		changed = false
		for _, r := range g.Rules {
			if !n.rules[r] && n.expr(r.Expr) {
				n.rules[r] = true
				changed = true
			}
		}
	}
	return n
}

func (n *nullableSet) expr(e *Expr) bool {
	switch e.Kind {
	case Lit:
		return e.Text == ""
	case Range:
		return false
	case Ref:
		return n.rules[n.g.Rule(e.Name)]
	case Alt:
		for _, it := range e.Items {
			if n.expr(it) {
				return true
			}
		}
		return false
	case Seq:
		for _, it := range e.Items {
			if !n.expr(it) {
				return false
			}
		}
		return true
	case Rep:
		return e.Min == 0 || n.expr(e.Items[0])
	}
	return false
}

// ruleParser parses one rule's text (RFC 5234 §4).
type ruleParser struct {
	file      string
	lines     []string
	firstLine int
	line, col int // current position within lines (0-based)
	// refs records where each rule reference is written, for the error
	// of a reference to an undefined rule.
	refs map[*Expr]refPos
}

func (p *ruleParser) errorf(format string, args ...any) error {
	line, col := p.line, p.col
	if line >= len(p.lines) { // at the end of the rule: point after its last byte
		line = len(p.lines) - 1
		col = len(p.lines[line])
	}
	return &LoadError{p.file, p.firstLine + line, col + 1, fmt.Sprintf(format, args...)}
}

// peek returns the current byte, 0 at the end of a line ('\n' between lines)
// and -1 at the end of the rule.
func (p *ruleParser) peek() int {
	if p.line >= len(p.lines) {
		return -1
	}
	if p.col >= len(p.lines[p.line]) {
		return '\n'
	}
	return int(p.lines[p.line][p.col])
}

func (p *ruleParser) next() {
	if p.line >= len(p.lines) {
		return
	}
	if p.col >= len(p.lines[p.line]) {
		p.line++
		p.col = 0
		return
	}
	p.col++
}

// skipSpace skips white space, line breaks and comments.
func (p *ruleParser) skipSpace() {
	for {
		switch c := p.peek(); c {
		case ' ', '\t', '\n', '\r':
			p.next()
		case ';':
			p.col = len(p.lines[p.line])
		default:
			return
		}
	}
}

func isNameByte(c int, first bool) bool {
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z':
		return true
	case first:
		return false
	case c >= '0' && c <= '9', c == '-', c == '_', c == '+':
		return true
	}
	return false
}

func (p *ruleParser) name() string {
	start := p.col
	if !isNameByte(p.peek(), true) {
		return ""
	}
	for isNameByte(p.peek(), false) && p.line < len(p.lines) && p.col < len(p.lines[p.line]) {
		p.next()
	}
	return p.lines[p.line][start:p.col]
}

func (p *ruleParser) parseRule() (name string, incremental bool, e *Expr, err error) {
	name = p.name()
	if name == "" {
		return "", false, nil, p.errorf("expected a rule name")
	}
	p.skipSpace()
	if p.peek() != '=' {
		return "", false, nil, p.errorf("expected \"=\" after rule name %q", name)
	}
	p.next()
	if p.peek() == '/' {
		incremental = true
		p.next()
	}
	e, err = p.alternation()
	if err != nil {
		return "", false, nil, err
	}
	p.skipSpace()
	if c := p.peek(); c != -1 {
		return "", false, nil, p.errorf("unexpected %q", rune(c))
	}
	return name, incremental, e, nil
}

func (p *ruleParser) alternation() (*Expr, error) {
	var items []*Expr
	for {
		e, err := p.concatenation()
		if err != nil {
			return nil, err
		}
		items = append(items, e)
		p.skipSpace()
		if p.peek() != '/' {
			break
		}
		p.next()
	}
	if len(items) == 1 {
		return items[0], nil
	}
	return &Expr{Kind: Alt, Items: items}, nil
}

func (p *ruleParser) concatenation() (*Expr, error) {
	var items []*Expr
	for {
		p.skipSpace()
		c := p.peek()
		if c == -1 || c == '/' || c == ')' || c == ']' {
			break
		}
		e, err := p.repetition()
		if err != nil {
			return nil, err
		}
		items = append(items, e)
	}
	switch len(items) {
	case 0:
		return nil, p.errorf("expected an element")
	case 1:
		return items[0], nil
	}
	return &Expr{Kind: Seq, Items: items}, nil
}

func (p *ruleParser) number() (int, bool) {
	start := p.col
	for c := p.peek(); c >= '0' && c <= '9'; c = p.peek() {
		p.next()
	}
	if p.col == start {
		return 0, false
	}
	n, err := strconv.Atoi(p.lines[p.line][start:p.col])
	return n, err == nil
}

func (p *ruleParser) repetition() (*Expr, error) {
	min, hasMin := p.number()
	max := min
	if p.peek() == '*' {
		p.next()
		if !hasMin {
			min = 0
		}
		var hasMax bool
		if max, hasMax = p.number(); !hasMax {
			max = -1
		}
		if max >= 0 && max < min {
			return nil, p.errorf("repetition %d*%d has its maximum below its minimum", min, max)
		}
	} else if hasMin && min == 0 {
		return nil, p.errorf("repetition of exactly 0")
	}
	e, err := p.element()
	if err != nil {
		return nil, err
	}
	if !hasMin && max == min { // no repeat prefix
		return e, nil
	}
	return &Expr{Kind: Rep, Min: min, Max: max, Items: []*Expr{e}}, nil
}

func (p *ruleParser) element() (*Expr, error) {
	switch c := p.peek(); {
	case isNameByte(c, true):
		at := refPos{p.firstLine + p.line, p.col + 1}
		e := &Expr{Kind: Ref, Name: p.name()}
		if p.refs != nil {
			p.refs[e] = at
		}
		return e, nil
	case c == '(' || c == '[':
		p.next()
		e, err := p.alternation()
		if err != nil {
			return nil, err
		}
		p.skipSpace()
		want := int(')')
		if c == '[' {
			want = ']'
		}
		if p.peek() != want {
			return nil, p.errorf("expected %q", rune(want))
		}
		p.next()
		if c == '[' {
			return &Expr{Kind: Rep, Min: 0, Max: 1, Items: []*Expr{e}}, nil
		}
		return e, nil
	case c == '"':
		return p.charVal(false)
	case c == '%':
		p.next()
		switch b := p.peek(); b {
		case 's', 'S', 'i', 'I':
			p.next()
			if p.peek() != '"' {
				return nil, p.errorf("expected a quoted string after %%%c", rune(b))
			}
			return p.charVal(b == 's' || b == 'S')
		case 'x', 'X', 'd', 'D', 'b', 'B':
			p.next()
			return p.numVal(b)
		}
		return nil, p.errorf("expected x, d, b, s or i after %%")
	case c == '<':
		return nil, p.errorf("prose values <...> cannot be matched; define the rule in ABNF")
	case c == -1 || c == '\n':
		return nil, p.errorf("unexpected end of rule")
	default:
		return nil, p.errorf("unexpected %q", rune(c))
	}
}

func (p *ruleParser) charVal(caseSensitive bool) (*Expr, error) {
	p.next() // opening quote
	start := p.col
	for {
		c := p.peek()
		if c == '"' {
			break
		}
		if c == -1 || c == '\n' {
			return nil, p.errorf("unterminated string")
		}
		if c < 0x20 || c > 0x7e {
			return nil, p.errorf("strings hold printable ASCII only (RFC 5234 §4); use %%x for %q", rune(c))
		}
		p.next()
	}
	text := p.lines[p.line][start:p.col]
	p.next()
	if text == "" {
		return &Expr{Kind: Lit, Text: ""}, nil
	}
	// Case-insensitive strings without letters are case-sensitive in effect.
	if !caseSensitive && strings.ToLower(text) == strings.ToUpper(text) {
		caseSensitive = true
	}
	return &Expr{Kind: Lit, Text: text, CaseSensitive: caseSensitive}, nil
}

func (p *ruleParser) numVal(base int) (*Expr, error) {
	radix := map[int]int{'x': 16, 'X': 16, 'd': 10, 'D': 10, 'b': 2, 'B': 2}[base]
	digit := func() (int, bool) {
		start := p.col
		for {
			c := p.peek()
			if c < 0 {
				break
			}
			if _, err := strconv.ParseUint(string(rune(c)), radix, 8); err != nil {
				break
			}
			p.next()
		}
		if p.col == start {
			return 0, false
		}
		v, err := strconv.ParseUint(p.lines[p.line][start:p.col], radix, 32)
		if err != nil || v > 0xFF {
			return 0, false
		}
		return int(v), true
	}
	lo, ok := digit()
	if !ok {
		return nil, p.errorf("expected a byte value (0 to 255) in base %d", radix)
	}
	switch p.peek() {
	case '-':
		p.next()
		line, col := p.line, p.col
		hi, ok := digit()
		if !ok || hi < lo {
			p.line, p.col = line, col
			return nil, p.errorf("expected the upper end of a byte range, at least %%x%02X", lo)
		}
		return &Expr{Kind: Range, Lo: byte(lo), Hi: byte(hi)}, nil
	case '.':
		text := []byte{byte(lo)}
		for p.peek() == '.' {
			p.next()
			v, ok := digit()
			if !ok {
				return nil, p.errorf("expected a byte value after \".\"")
			}
			text = append(text, byte(v))
		}
		return &Expr{Kind: Lit, Text: string(text), CaseSensitive: true}, nil
	}
	return &Expr{Kind: Range, Lo: byte(lo), Hi: byte(lo)}, nil
}

// recursiveRules returns the rules that can reach themselves through references.
func (g *Grammar) recursiveRules() map[*Rule]bool {
	refs := func(e *Expr) []*Rule {
		var out []*Rule
		var walk func(e *Expr)
		walk = func(e *Expr) {
			if e.Kind == Ref {
				out = append(out, g.Rule(e.Name))
			}
			for _, it := range e.Items {
				walk(it)
			}
		}
		walk(e)
		return out
	}
	rec := map[*Rule]bool{}
	for _, r := range g.Rules {
		seen := map[*Rule]bool{}
		stack := refs(r.Expr)
		for len(stack) > 0 {
			t := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if t == r {
				rec[r] = true
				break
			}
			if !seen[t] {
				seen[t] = true
				stack = append(stack, refs(t.Expr)...)
			}
		}
	}
	return rec
}
