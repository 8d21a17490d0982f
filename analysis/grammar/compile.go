package grammar

import (
	"fmt"
	"strings"
)

// The matcher runs a small backtracking machine compiled from the rules. Its
// semantics define "the" derivation tree of an input: the first derivation
// found when alternatives are tried in the order written and repetitions take
// as many iterations as they can before they take fewer (greedy), with every
// choice open to backtracking until the whole input has matched. Acceptance is
// exactly the context-free language of the rule; the order only picks one tree
// among several for an ambiguous input. An iteration of a repetition beyond its
// minimum must consume input, so that nullable elements cannot loop.

type opcode uint8

const (
	opSet      opcode = iota // consume one byte of sets[arg]
	opSetStar                // consume the longest run of sets[arg] (at least arg2 bytes), giving bytes back one by one on backtracking
	opLit                    // consume lits[arg]
	opSplit                  // try arg, and on failure arg2
	opJmp                    // go to arg
	opCall                   // call rule arg
	opCallRoot               // call rule arg and always record it as a node
	opRet                    // return from a rule
	opMark                   // remember the position (before a nullable loop body)
	opProgress               // fail unless the loop body consumed input since opMark
	opEnd                    // succeed if all input is consumed
)

type inst struct {
	op     opcode
	arg    int32
	arg2   int32
	expect int32 // index into program.expect, for the failure report; -1 if none
	// The guards of an opSplit, which let a run that records no failures
	// skip a branch that cannot match (see machine.run). Each is 0 for
	// none, else an index into program.guards (guard, guard2) or
	// program.scans (scan) plus one.
	guard  int32 // what the first branch (arg) can start with
	guard2 int32 // what the second branch (arg2) can start with
	scan   int32 // the first branch needs the first byte after a run of scans[scan-1].run in scans[scan-1].next
	run    int32 // a loop's split: first consume the run of bytes of sets[run-1] (splitGuards)
}

// guardSet is what the machine can consume first from an instruction on:
// a byte of set, or nothing at the end of the input when eof is set
// (continuations).
type guardSet struct {
	set byteSet
	eof bool
}

func (g guardSet) allows(input string, pos int32) bool {
	if pos >= int32(len(input)) {
		return g.eof
	}
	return g.set.has(input[pos])
}

// scanGuard is the guard of a branch x y whose x matches only strings of
// run's bytes and whose y starts with a byte of next, a set disjoint from
// run: y must start where the longest run of run's bytes ends, at a byte of
// next ("[ userinfo "@" ] host" tries a userinfo only before an "@").
type scanGuard struct {
	run, next int32 // indexes into program.sets
}

type byteSet [4]uint64

func (s *byteSet) add(c byte)      { s[c>>6] |= 1 << (c & 63) }
func (s *byteSet) has(c byte) bool { return s[c>>6]&(1<<(c&63)) != 0 }
func (s *byteSet) union(t byteSet) { s[0] |= t[0]; s[1] |= t[1]; s[2] |= t[2]; s[3] |= t[3] }
func (s byteSet) disjoint(t byteSet) bool {
	return s[0]&t[0] == 0 && s[1]&t[1] == 0 && s[2]&t[2] == 0 && s[3]&t[3] == 0
}

type literal struct {
	text string // lower-cased unless caseSensitive
	fold bool   // compare ASCII letters case-insensitively
}

type program struct {
	insts  []inst
	sets   []byteSet
	scans  []scanGuard
	guards []guardSet
	lits   []literal
	expect [][]string
	entry  []int32  // per rule index: first instruction of its body
	root   []int32  // per rule index: a two-instruction stub CALLROOT r; END
	inTree []bool   // per rule index: Rule.InTree
	names  []string // per rule index: Rule.Name
	ids    []RuleID // per rule index: Rule.ID (set by Load once registered)
}

type compiler struct {
	g        *Grammar
	p        *program
	nullable *nullableSet
	// recursive rules can reach themselves; they are called, never inlined
	recursive map[*Rule]bool
}

func compile(g *Grammar) *program {
	c := &compiler{g: g, p: &program{}, nullable: g.nullable(), recursive: g.recursiveRules()}
	p := c.p
	p.entry = make([]int32, len(g.Rules))
	p.root = make([]int32, len(g.Rules))
	p.inTree = make([]bool, len(g.Rules))
	p.ids = make([]RuleID, len(g.Rules))
	for i, r := range g.Rules {
		p.inTree[i] = r.InTree()
		p.names = append(p.names, r.Name)
	}
	for i := range g.Rules {
		p.root[i] = int32(len(p.insts))
		c.emit(inst{op: opCallRoot, arg: int32(i), expect: -1})
		c.emit(inst{op: opEnd, expect: c.expectation([]string{"end of input"})})
	}
	for i, r := range g.Rules {
		p.entry[i] = int32(len(p.insts))
		c.expr(c.body(r))
		c.emit(inst{op: opRet, expect: -1})
		c.tailCalls(int32(i))
	}
	c.splitGuards()
	return p
}

// body returns the expression rule r's body is compiled from: its
// definition, with "… p [ x ]" read as "… ( p x / p )" when r prefers its
// final optional part present (Rule.PreferPresent).
func (c *compiler) body(r *Rule) *Expr {
	if !r.PreferPresent {
		return r.Expr
	}
	before, opt, _ := finalOptional(r.Expr)
	p := before[len(before)-1]
	with := &Expr{Kind: Seq, Items: []*Expr{p, opt}}
	items := append(append([]*Expr(nil), before[:len(before)-1]...), &Expr{Kind: Alt, Items: []*Expr{with, p}})
	return &Expr{Kind: Seq, Items: items}
}

// tailCalls turns the calls rule i makes to itself in tail position (the
// rule returns as soon as the call does) into jumps to its own body. A
// right-recursive rule is a list written as recursion, the XBNF's "user ::=
// alphanum2 [ user ]" or "path ::= void | segment [ / path ]": one
// production instance, not one per item. As a jump, the recursion leaves one
// node (no user › user "ser" › user "er") and one frame, so the failure
// chains name the rule once and backtracking out of the list costs one step
// an item instead of a return through every frame above it, which made a
// long valid input (telnet://aaaa…, 1 KiB of user) run out of steps. The
// choices, and so the language and the order of derivations, are unchanged:
// what follows the call is the rule's return, wherever the call is made from.
func (c *compiler) tailCalls(rule int32) {
	insts := c.p.insts
	for pc := c.p.entry[rule]; pc < int32(len(insts)); pc++ {
		if in := insts[pc]; in.op != opCall || in.arg != rule {
			continue
		}
		next := pc + 1
		for insts[next].op == opJmp {
			next = insts[next].arg
		}
		if insts[next].op == opRet {
			insts[pc] = inst{op: opJmp, arg: c.p.entry[rule], expect: -1}
		}
	}
}

// splitGuards gives every opSplit the guards of its two branches: what the
// machine can consume first from each (continuations), by a fixed point
// over the program. A branch continues past the end of its rule into every
// place the rule is called from, so the sets are unions over the callers:
// an over-approximation, which is all a guard needs (a byte outside the set
// proves the branch fails at once).
func (c *compiler) splitGuards() {
	p := c.p
	n := len(p.insts)
	// ruleOf[pc]: the rule whose body holds pc (-1 in the root stubs).
	ruleOf := make([]int32, n)
	for i := range ruleOf {
		ruleOf[i] = -1
	}
	for r := range p.entry {
		end := int32(n)
		if r+1 < len(p.entry) {
			end = p.entry[r+1]
		}
		for pc := p.entry[r]; pc < end; pc++ {
			ruleOf[pc] = int32(r)
		}
	}
	returns := make([][]int32, len(p.entry)) // per rule: the pcs its calls return to
	for pc, in := range p.insts {
		if in.op == opCall || in.op == opCallRoot {
			returns[in.arg] = append(returns[in.arg], int32(pc+1))
		}
	}
	cont := make([]guardSet, n)
	for changed := true; changed; {
		changed = false
		for pc := n - 1; pc >= 0; pc-- {
			in := p.insts[pc]
			var g guardSet
			switch in.op {
			case opSet:
				g.set = p.sets[in.arg]
			case opSetStar:
				g.set = p.sets[in.arg]
				if in.arg2 == 0 {
					g = unionGuard(g, cont[pc+1])
				}
			case opLit:
				l := p.lits[in.arg]
				g.set.add(l.text[0])
				if l.fold {
					g.set.add(upper(l.text[0]))
				}
			case opSplit:
				g = unionGuard(cont[in.arg], cont[in.arg2])
			case opJmp:
				g = cont[in.arg]
			case opCall, opCallRoot:
				g = cont[p.entry[in.arg]]
			case opRet:
				if r := ruleOf[pc]; r >= 0 {
					for _, ret := range returns[r] {
						g = unionGuard(g, cont[ret])
					}
				}
			case opMark, opProgress:
				g = cont[pc+1]
			case opEnd:
				g.eof = true
			}
			if g != cont[pc] {
				cont[pc] = g
				changed = true
			}
		}
	}
	index := map[guardSet]int32{}
	guard := func(g guardSet) int32 {
		if i, ok := index[g]; ok {
			return i
		}
		p.guards = append(p.guards, g)
		index[g] = int32(len(p.guards))
		return index[g]
	}
	for pc := range p.insts {
		if in := &p.insts[pc]; in.op == opSplit {
			in.guard = guard(cont[in.arg])
			in.guard2 = guard(cont[in.arg2])
		}
	}
	// Runs: a loop whose body starts with a choice between a byte of a set
	// and something else, "*( set / x )" (segment = *pchar, pchar =
	// unreserved / pct-encoded / …):
	//
	//	L:   split L+1, exit
	//	L+1: split L+2, y
	//	L+2: set S
	//	L+3: jmp … L
	//
	// When neither the exit nor y can start with a byte of S, the guards
	// make every iteration at a byte of S take the set without a choice:
	// the run of S's bytes is consumed at once (inst.run).
	for pc := range p.insts {
		in := &p.insts[pc]
		if in.op != opSplit || pc+3 >= len(p.insts) || in.arg != int32(pc+1) {
			continue
		}
		alt, set, back := p.insts[pc+1], p.insts[pc+2], p.insts[pc+3]
		if alt.op != opSplit || alt.arg != int32(pc+2) || set.op != opSet || back.op != opJmp || c.jumpTarget(back.arg) != int32(pc) {
			continue
		}
		s := p.sets[set.arg]
		if s.disjoint(cont[in.arg2].set) && s.disjoint(cont[alt.arg2].set) {
			in.run = set.arg + 1
		}
	}
}

// jumpTarget follows a chain of opJmp from pc to the first other instruction.
func (c *compiler) jumpTarget(pc int32) int32 {
	for i := 0; i < len(c.p.insts) && c.p.insts[pc].op == opJmp; i++ {
		pc = c.p.insts[pc].arg
	}
	return pc
}

func unionGuard(a, b guardSet) guardSet {
	a.set.union(b.set)
	a.eof = a.eof || b.eof
	return a
}

func (c *compiler) emit(in inst) int {
	c.p.insts = append(c.p.insts, in)
	return len(c.p.insts) - 1
}

func (c *compiler) expectation(labels []string) int32 {
	c.p.expect = append(c.p.expect, labels)
	return int32(len(c.p.expect) - 1)
}

// charSet returns the bytes e matches when e always matches exactly one byte,
// with the labels that name it in failure reports.
func (c *compiler) charSet(e *Expr) (byteSet, []string, bool) {
	var s byteSet
	switch e.Kind {
	case Range:
		for b := int(e.Lo); b <= int(e.Hi); b++ {
			s.add(byte(b))
		}
		return s, []string{e.String()}, true
	case Lit:
		if len(e.Text) != 1 {
			return s, nil, false
		}
		b := e.Text[0]
		s.add(b)
		if !e.CaseSensitive {
			s.add(lower(b))
			s.add(upper(b))
		}
		return s, []string{fmt.Sprintf("%q", e.Text)}, true
	case Ref:
		r := c.g.Rule(e.Name)
		if !r.CharClass || !r.Transparent {
			return s, nil, false
		}
		set, _, ok := c.charSet(r.Expr)
		return set, []string{r.Name}, ok
	case Alt:
		var labels []string
		for _, it := range e.Items {
			t, l, ok := c.charSet(it)
			if !ok {
				return s, nil, false
			}
			s.union(t)
			labels = append(labels, l...)
		}
		return s, labels, true
	case Seq, Rep:
		if (e.Kind == Seq && len(e.Items) == 1) || (e.Kind == Rep && e.Min == 1 && e.Max == 1) {
			return c.charSet(e.Items[0])
		}
	}
	return s, nil, false
}

// first returns the bytes an input matched by e can start with; ok is false
// when that is not known cheaply, in particular when e is nullable.
func (c *compiler) first(e *Expr) (byteSet, bool) {
	var s byteSet
	if c.nullable.expr(e) {
		return s, false
	}
	if set, _, ok := c.charSet(e); ok {
		return set, true
	}
	switch e.Kind {
	case Lit:
		b := e.Text[0]
		s.add(b)
		if !e.CaseSensitive {
			s.add(lower(b))
			s.add(upper(b))
		}
		return s, true
	case Ref:
		r := c.g.Rule(e.Name)
		if c.recursive[r] {
			return s, false
		}
		return c.first(r.Expr)
	case Alt:
		for _, it := range e.Items {
			t, ok := c.first(it)
			if !ok {
				return s, false
			}
			s.union(t)
		}
		return s, true
	case Seq, Rep:
		return c.first(e.Items[0])
	}
	return s, false
}

// alternatives flattens nested alternations and inlines transparent and
// character-class rules, which are never nodes, so the machine sees the
// alternatives in the order a derivation tries them.
func (c *compiler) alternatives(e *Expr, out []*Expr) []*Expr {
	switch e.Kind {
	case Alt:
		for _, it := range e.Items {
			out = c.alternatives(it, out)
		}
		return out
	case Ref:
		r := c.g.Rule(e.Name)
		if r.Transparent && !r.CharClass && !c.recursive[r] {
			if r.Expr.Kind == Alt {
				return c.alternatives(r.Expr, out)
			}
		}
	}
	return append(out, e)
}

func (c *compiler) expr(e *Expr) {
	if set, labels, ok := c.charSet(e); ok {
		c.p.sets = append(c.p.sets, set)
		c.emit(inst{op: opSet, arg: int32(len(c.p.sets) - 1), expect: c.expectation(labels)})
		return
	}
	switch e.Kind {
	case Lit:
		if e.Text == "" {
			return
		}
		l := literal{text: e.Text, fold: !e.CaseSensitive}
		if l.fold {
			l.text = strings.ToLower(l.text)
		}
		c.p.lits = append(c.p.lits, l)
		c.emit(inst{op: opLit, arg: int32(len(c.p.lits) - 1), expect: c.expectation([]string{fmt.Sprintf("%q", e.Text)})})
	case Seq:
		for _, it := range e.Items {
			c.expr(it)
		}
	case Alt:
		c.alt(c.alternatives(e, nil))
	case Rep:
		c.rep(e)
	case Ref:
		r := c.g.Rule(e.Name)
		if r.Transparent && !c.recursive[r] {
			// Inline the helper: it leaves no node, so a call would only cost time.
			c.expr(r.Expr)
			return
		}
		c.emit(inst{op: opCall, arg: int32(r.index), expect: -1})
	}
}

// alt emits an ordered choice. Single-byte alternatives are merged into one
// set test when no alternative between them could match where they do, which
// leaves the choice, and so the tree, unchanged.
func (c *compiler) alt(items []*Expr) {
	type part struct {
		e      *Expr
		set    byteSet
		labels []string
		isSet  bool
	}
	var parts []*part
	for _, it := range items {
		set, labels, ok := c.charSet(it)
		if ok {
			// Merge into the latest set part if every part since it is disjoint.
			merged := false
			for j := len(parts) - 1; j >= 0; j-- {
				if parts[j].isSet {
					parts[j].set.union(set)
					parts[j].labels = append(parts[j].labels, labels...)
					merged = true
					break
				}
				f, ok := c.first(parts[j].e)
				if !ok || !f.disjoint(set) {
					break
				}
			}
			if merged {
				continue
			}
			parts = append(parts, &part{set: set, labels: labels, isSet: true})
			continue
		}
		parts = append(parts, &part{e: it})
	}
	var exits []int
	for i, pt := range parts {
		split := -1
		if i < len(parts)-1 {
			split = c.emit(inst{op: opSplit, expect: -1})
			c.p.insts[split].arg = int32(len(c.p.insts))
			if !pt.isSet {
				c.p.insts[split].scan = c.scanGuard(pt.e)
			}
		}
		if pt.isSet {
			c.p.sets = append(c.p.sets, pt.set)
			c.emit(inst{op: opSet, arg: int32(len(c.p.sets) - 1), expect: c.expectation(pt.labels)})
		} else {
			c.expr(pt.e)
		}
		if split >= 0 {
			exits = append(exits, c.emit(inst{op: opJmp, expect: -1}))
			c.p.insts[split].arg2 = int32(len(c.p.insts))
		}
	}
	for _, x := range exits {
		c.p.insts[x].arg = int32(len(c.p.insts))
	}
}

func (c *compiler) rep(e *Expr) {
	x := e.Items[0]
	if e.Min > 0 && e.Max < 0 && c.nullable.expr(x) && c.emptyLeavesNoNode(x, map[*Rule]bool{}) {
		// n*x of an x that can match the empty string leaving no node (the
		// XBNF's segment = 1*xpalpha, xpalpha = xalpha / void) is *x: the
		// same strings and the same trees, but *x has one derivation a
		// string where n*x has one more for every way of spending its first
		// n iterations on nothing. Those duplicates make a search that has
		// to go through the derivations (a path before an optional part it
		// might leave room for) exponential in the number of segments.
		e = &Expr{Kind: Rep, Min: 0, Max: -1, Items: e.Items}
	}
	if set, labels, ok := c.charSet(x); ok && e.Max < 0 {
		c.p.sets = append(c.p.sets, set)
		c.emit(inst{op: opSetStar, arg: int32(len(c.p.sets) - 1), arg2: int32(e.Min), expect: c.expectation(labels)})
		return
	}
	for i := 0; i < e.Min; i++ {
		c.expr(x)
	}
	if e.Max < 0 {
		nullable := c.nullable.expr(x)
		loop := c.emit(inst{op: opSplit, expect: -1})
		c.p.insts[loop].arg = int32(len(c.p.insts))
		c.p.insts[loop].scan = c.scanGuard(x)
		if nullable {
			c.emit(inst{op: opMark, expect: -1})
		}
		c.expr(x)
		if nullable {
			c.emit(inst{op: opProgress, expect: -1})
		}
		c.emit(inst{op: opJmp, arg: int32(loop), expect: -1})
		c.p.insts[loop].arg2 = int32(len(c.p.insts))
		return
	}
	var splits []int
	for i := e.Min; i < e.Max; i++ {
		s := c.emit(inst{op: opSplit, expect: -1})
		c.p.insts[s].arg = int32(len(c.p.insts))
		c.p.insts[s].scan = c.scanGuard(x)
		splits = append(splits, s)
		c.expr(x)
	}
	for _, s := range splits {
		c.p.insts[s].arg2 = int32(len(c.p.insts))
	}
}

// emptyLeavesNoNode reports whether every derivation of the empty string by
// e leaves no node in the tree: it goes through transparent rules only.
func (c *compiler) emptyLeavesNoNode(e *Expr, visiting map[*Rule]bool) bool {
	if !c.nullable.expr(e) {
		return true // no empty derivation at all
	}
	switch e.Kind {
	case Lit, Range:
		return true
	case Rep:
		// An iteration beyond the minimum must consume input; the minimum's
		// iterations derive the empty string as e.Items[0] does.
		return e.Min == 0 || c.emptyLeavesNoNode(e.Items[0], visiting)
	case Ref:
		r := c.g.Rule(e.Name)
		if r == nil || !r.Transparent {
			return false
		}
		if visiting[r] {
			return true // a cycle adds no node of its own
		}
		visiting[r] = true
		defer delete(visiting, r)
		return c.emptyLeavesNoNode(r.Expr, visiting)
	case Alt, Seq:
		for _, it := range e.Items {
			if !c.emptyLeavesNoNode(it, visiting) {
				return false
			}
		}
		return true
	}
	return false
}

// setIndex adds set to the program's sets and returns its index plus one.
func (c *compiler) setIndex(set byteSet) int32 {
	for i, t := range c.p.sets {
		if t == set {
			return int32(i + 1)
		}
	}
	c.p.sets = append(c.p.sets, set)
	return int32(len(c.p.sets))
}

// scanGuard returns the scan guard of a branch e (inst.scan), or 0: e is a
// sequence x y … whose x matches only strings of the bytes of a set run and
// whose y must start with a byte of a set disjoint from run.
func (c *compiler) scanGuard(e *Expr) int32 {
	for (e.Kind == Seq || e.Kind == Alt) && len(e.Items) == 1 {
		e = e.Items[0]
	}
	if e.Kind != Seq || len(e.Items) < 2 {
		return 0
	}
	run, ok := c.alphabet(e.Items[0], map[*Rule]bool{})
	if !ok {
		return 0
	}
	next, ok := c.first(e.Items[1])
	if !ok || !next.disjoint(run) {
		return 0
	}
	c.p.scans = append(c.p.scans, scanGuard{run: c.setIndex(run) - 1, next: c.setIndex(next) - 1})
	return int32(len(c.p.scans))
}

// alphabet returns every byte a string e matches can hold; ok is false for
// a recursive rule (not needed so far).
func (c *compiler) alphabet(e *Expr, visiting map[*Rule]bool) (byteSet, bool) {
	var s byteSet
	switch e.Kind {
	case Range:
		for b := int(e.Lo); b <= int(e.Hi); b++ {
			s.add(byte(b))
		}
	case Lit:
		for i := 0; i < len(e.Text); i++ {
			b := e.Text[i]
			s.add(b)
			if !e.CaseSensitive {
				s.add(lower(b))
				s.add(upper(b))
			}
		}
	case Ref:
		r := c.g.Rule(e.Name)
		if visiting[r] {
			return s, false
		}
		visiting[r] = true
		defer delete(visiting, r)
		return c.alphabet(r.Expr, visiting)
	case Alt, Seq, Rep:
		for _, it := range e.Items {
			t, ok := c.alphabet(it, visiting)
			if !ok {
				return s, false
			}
			s.union(t)
		}
	}
	return s, true
}

func lower(b byte) byte {
	if b >= 'A' && b <= 'Z' {
		return b + 'a' - 'A'
	}
	return b
}

func upper(b byte) byte {
	if b >= 'a' && b <= 'z' {
		return b - ('a' - 'A')
	}
	return b
}
