// Package grammar holds the URL grammars as data: the seed grammars of RFC 1738
// §5, RFC 1808 §2.2 and the W3C XBNF transcribed once into ABNF files embedded in
// the binary, a loader for that ABNF dialect, the rule table (name, definition
// text, source and section) and a general matcher that parses any input against
// any rule of any loaded grammar with full context-free semantics.
//
// The ABNF dialect is RFC 5234 with RFC 7405's %s"" and %i"" string prefixes and
// two relaxations that the seeds need: rule names may contain "_" and "+" (RFC
// 1738's gopher+_string, the XBNF's group_art), and a comment line of the form
// ";@source TEXT" sets the source cited for the rules that follow it, while
// ";@transparent NAME..." marks helper rules that derivation trees leave out,
// and ";@present NAME..." rules whose final optional part the derivation tree
// shows whenever some derivation has it (see Rule.PreferPresent).
package grammar

import (
	"fmt"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
)

// ExprKind says what an Expr is.
type ExprKind uint8

const (
	// Alt is an alternation: Items in order of preference (RFC 5234 §3.2).
	Alt ExprKind = iota
	// Seq is a concatenation of Items (RFC 5234 §3.1).
	Seq
	// Rep repeats Items[0] from Min to Max times; Max < 0 means no upper bound
	// (RFC 5234 §3.6); an optional [x] is Rep{Min: 0, Max: 1} (§3.8).
	Rep
	// Ref refers to the rule Name.
	Ref
	// Lit is the literal string Text, case-insensitive unless CaseSensitive
	// (RFC 5234 §2.3, RFC 7405).
	Lit
	// Range is one byte from Lo to Hi inclusive (RFC 5234 §2.3 %x61-7A).
	Range
)

// Expr is one node of a rule definition.
type Expr struct {
	Kind          ExprKind
	Items         []*Expr // Alt, Seq: the parts; Rep: the repeated element
	Min, Max      int     // Rep
	Name          string  // Ref
	Text          string  // Lit
	CaseSensitive bool    // Lit
	Lo, Hi        byte    // Range
}

// String renders e in the ABNF dialect of the embedded files.
func (e *Expr) String() string {
	var b strings.Builder
	e.write(&b, false)
	return b.String()
}

func (e *Expr) write(b *strings.Builder, nested bool) {
	switch e.Kind {
	case Alt:
		if nested {
			b.WriteByte('(')
		}
		for i, it := range e.Items {
			if i > 0 {
				b.WriteString(" / ")
			}
			it.write(b, false)
		}
		if nested {
			b.WriteByte(')')
		}
	case Seq:
		if nested {
			b.WriteByte('(')
		}
		for i, it := range e.Items {
			if i > 0 {
				b.WriteByte(' ')
			}
			it.write(b, true)
		}
		if nested {
			b.WriteByte(')')
		}
	case Rep:
		if e.Min == 0 && e.Max == 1 {
			b.WriteByte('[')
			e.Items[0].write(b, false)
			b.WriteByte(']')
			return
		}
		switch {
		case e.Min == e.Max:
			fmt.Fprintf(b, "%d", e.Min)
		default:
			if e.Min > 0 {
				fmt.Fprintf(b, "%d", e.Min)
			}
			b.WriteByte('*')
			if e.Max >= 0 {
				fmt.Fprintf(b, "%d", e.Max)
			}
		}
		e.Items[0].write(b, true)
	case Ref:
		b.WriteString(e.Name)
	case Lit:
		if e.CaseSensitive && strings.ToLower(e.Text) != strings.ToUpper(e.Text) {
			b.WriteString("%s")
		}
		b.WriteByte('"')
		b.WriteString(e.Text)
		b.WriteByte('"')
	case Range:
		if e.Lo == e.Hi {
			fmt.Fprintf(b, "%%x%02X", e.Lo)
		} else {
			fmt.Fprintf(b, "%%x%02X-%02X", e.Lo, e.Hi)
		}
	}
}

// Rule is one named production of a grammar.
type Rule struct {
	Name string
	// Definition is the rule's text as written in the grammar file, comments
	// and continuation lines included, for quoting in hovers.
	Definition string
	// Source cites where the rule comes from, e.g. "RFC 1738 §5".
	Source string
	// Line is the 1-based line of the definition in the grammar file.
	Line int
	// Expr is the parsed right-hand side.
	Expr *Expr
	// Transparent rules are lexical helpers (uchar, xchar, …) that derivation
	// trees leave out, lifting their children into the parent.
	Transparent bool
	// PreferPresent is set for the rules a grammar file marks ";@present":
	// their definition ends in an optional part, "… p [ x ]", and the
	// derivations in which it is present come first, before those in which p
	// is longer. The language is the same (p [ x ] is p x / p); the tree shows
	// x whenever it can, where a greedy p would take its bytes: the XBNF's
	// "ftp://" login "/" path [ ftptype ], whose path would otherwise absorb
	// every ftptype.
	PreferPresent bool
	// CharClass is set when every string the rule matches is one byte long
	// (alpha, digit, safe, …); the matcher tests a transparent one as a set.
	CharClass bool

	// ID names the rule in tree nodes; it is unique in the process.
	ID RuleID

	grammar *Grammar
	index   int
	// predefined: copied into a user grammar from the predefined rules
	// (LoadUser), not written in its file
	predefined bool
}

// RuleID identifies a rule of any loaded grammar. The zero RuleID is no rule.
type RuleID int32

// Rule returns the rule with this ID, or nil.
func (id RuleID) Rule() *Rule {
	rules := *registry.Load()
	if id <= 0 || int(id) >= len(rules) {
		return nil
	}
	return rules[id]
}

// registry maps RuleIDs to rules: copied on write, read without a lock.
var (
	registry   atomic.Pointer[[]*Rule]
	registryMu sync.Mutex
)

func init() {
	rules := []*Rule{nil} // RuleID 0 is no rule
	registry.Store(&rules)
}

// register gives each rule of g its ID.
func register(g *Grammar) {
	registryMu.Lock()
	defer registryMu.Unlock()
	old := *registry.Load()
	rules := make([]*Rule, len(old), len(old)+len(g.Rules))
	copy(rules, old)
	for _, r := range g.Rules {
		r.ID = RuleID(len(rules))
		rules = append(rules, r)
	}
	registry.Store(&rules)
}

// Grammar returns the grammar the rule belongs to.
func (r *Rule) Grammar() *Grammar { return r.grammar }

// Predefined reports whether r is one of the predefined rules a user
// grammar uses without defining it (LoadUser), not a rule of its file.
func (r *Rule) Predefined() bool { return r.predefined }

// InTree reports whether matches of r appear as nodes of derivation trees.
func (r *Rule) InTree() bool { return !r.Transparent }

// Grammar is a loaded rule set.
type Grammar struct {
	// Name is the short name, e.g. "rfc1738".
	Name string
	// Title describes the grammar in one line.
	Title string
	// Rules in the order of the file.
	Rules  []*Rule
	byName map[string]*Rule

	prog *program // compiled form for the matcher, built by Load
}

// Rule returns the rule called name, or nil. Rule names are case-insensitive
// (RFC 5234 §2.1).
func (g *Grammar) Rule(name string) *Rule {
	return g.byName[strings.ToLower(name)]
}

// RuleNames returns the names of all rules, sorted.
func (g *Grammar) RuleNames() []string {
	names := make([]string, 0, len(g.Rules))
	for _, r := range g.Rules {
		names = append(names, r.Name)
	}
	sort.Strings(names)
	return names
}
