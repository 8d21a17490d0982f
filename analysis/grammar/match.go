package grammar

import (
	"fmt"
	"strings"
	"sync"
)

// Tree is a derivation tree: the rules matched and the bytes each covers.
type Tree struct {
	// Input is the text that was parsed; node offsets index into it.
	Input string
	// Nodes in preorder; Nodes[0] is the root. A node's children follow it,
	// and its subtree ends at index i+Size.
	Nodes []Node
}

// Node is one matched rule in a Tree. It holds no pointers, so that a tree
// costs the garbage collector nothing to scan.
type Node struct {
	ID         RuleID
	Start, End int32 // byte offsets into Tree.Input
	Size       int32 // number of nodes in the subtree rooted here, itself included
}

// Rule returns the rule the node matched.
func (n Node) Rule() *Rule { return n.ID.Rule() }

// Text returns the bytes node i matched.
func (t Tree) Text(i int) string { return t.Input[t.Nodes[i].Start:t.Nodes[i].End] }

// Children returns the indexes of node i's children.
func (t Tree) Children(i int) []int {
	var out []int
	end := i + int(t.Nodes[i].Size)
	for c := i + 1; c < end; c += int(t.Nodes[c].Size) {
		out = append(out, c)
	}
	return out
}

// Path returns the indexes of the nodes from the root down to the innermost
// node whose span contains the byte offset off (Start <= off < End). It is
// empty when off is outside the root.
func (t Tree) Path(off int) []int {
	var path []int
	for i := 0; i < len(t.Nodes); {
		n := t.Nodes[i]
		if int(n.Start) <= off && off < int(n.End) {
			path = append(path, i)
			i++ // descend into the first child
			continue
		}
		if len(path) == 0 {
			return nil
		}
		i += int(n.Size) // skip this subtree; try the next sibling
		if parent := path[len(path)-1]; i >= parent+int(t.Nodes[parent].Size) {
			break
		}
	}
	return path
}

// String renders the tree one node per line, indented, for tests and debugging.
func (t Tree) String() string {
	var b strings.Builder
	depth := make([]int, 0, 8) // end index of each open ancestor
	for i, n := range t.Nodes {
		for len(depth) > 0 && i >= depth[len(depth)-1] {
			depth = depth[:len(depth)-1]
		}
		fmt.Fprintf(&b, "%s%s %d-%d %q\n", strings.Repeat("  ", len(depth)), n.Rule().Name, n.Start, n.End, t.Input[n.Start:n.End])
		depth = append(depth, i+int(n.Size))
	}
	return b.String()
}

// SyntaxError locates why an input does not match a rule: the furthest byte
// the matcher reached, the production it was in there and what it expected.
type SyntaxError struct {
	Input  string
	Offset int
	// Rule is the innermost production being matched at Offset, and Chain the
	// productions from the start rule down to it (tree rules only).
	Rule  *Rule
	Chain []*Rule
	// Expected lists what would have been accepted at Offset: quoted literals,
	// rule names of character classes, or "end of input".
	Expected []string
	// GaveUp is set when the input was too long and too ambiguous for an
	// exact answer: the backtracking machine ran out of steps and the input
	// is over memoLimit, so the memoising matcher (memo.go) was not tried.
	// Offset is then the furthest failure the machine found in its budget.
	GaveUp bool
}

func (e *SyntaxError) Error() string {
	found := "end of input"
	if e.Offset < len(e.Input) {
		found = fmt.Sprintf("%q", e.Input[e.Offset:e.Offset+1])
	}
	msg := fmt.Sprintf("offset %d: %s: unexpected %s, expected %s", e.Offset, e.Rule.Name, found, JoinExpected(e.Expected))
	if e.GaveUp {
		msg += " (the furthest failure found before the matcher gave up: the input is too long and too ambiguous for an exact answer)"
	}
	return msg
}

// JoinExpected renders an expected list as "a, b or c".
func JoinExpected(items []string) string {
	switch len(items) {
	case 0:
		return "nothing"
	case 1:
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " or " + items[len(items)-1]
}

// stepBudget bounds the machine's work on an input of n bytes. The seed
// grammars of RFC 1738 and RFC 1808 take a few steps a byte; on a grammar
// where one string splits in exponentially many ways (the XBNF's "search ::=
// N(xalpha) O(search)") Match switches to the polynomial memoising matcher
// once the budget is spent, so the budget only decides how soon.
func stepBudget(n int) int { return 1<<16 + 64*n }

// Match parses input against rule name of g. The whole input must match.
func (g *Grammar) Match(name, input string) (*Tree, error) {
	r := g.Rule(name)
	if r == nil {
		return nil, fmt.Errorf("grammar %s has no rule %q", g.Name, name)
	}
	t, serr := r.Match(input)
	if serr != nil {
		return nil, serr
	}
	return t, nil
}

// Match parses input against r; the whole input must match. On failure it
// returns the furthest failure.
func (r *Rule) Match(input string) (*Tree, *SyntaxError) {
	m := machinePool.Get().(*machine)
	defer machinePool.Put(m)
	m.reset(r.grammar.prog, input, false)
	ok := m.run(r.grammar.prog.root[r.index])
	if ok {
		return m.tree(r.grammar), nil
	}
	// memo fallback: the machine ran out of steps (an input that splits in
	// exponentially many ways); the memoising matcher of memo.go computes the
	// same tree or error in polynomial time. The recording run below takes
	// exactly the steps of the first, so it never runs out on its own.
	gaveUp := m.steps > m.budget
	if gaveUp && len(input) <= memoLimit {
		return matchMemo(r, input)
	}
	// Run again, recording failures: the first run stays fast for the
	// common case of a matching input. When even the memoising matcher would
	// take too long (its cost grows with the cube of the input on the worst
	// grammars), the furthest failure within the budget is the answer: the
	// machine tries the greedy reading first, so it has usually reached the
	// offending byte already.
	m.reset(r.grammar.prog, input, true)
	m.run(r.grammar.prog.root[r.index])
	if !gaveUp && m.steps > m.budget {
		// The first run's guards skipped what this run tries, and the
		// budget ran out here: the memoising matcher gives the same report.
		if len(input) <= memoLimit {
			return matchMemo(r, input)
		}
		gaveUp = true
	}
	return nil, m.syntaxError(r, gaveUp)
}

// memoLimit is the longest input the memoising matcher takes on: at 1 KiB its
// worst case (a gopher selector of %09 escapes, the XBNF's search) costs about
// a tenth of a second, at 4 KiB two seconds.
const memoLimit = 1024

var machinePool = sync.Pool{New: func() any { return new(machine) }}

type cell struct {
	a, b  int32 // frame: return pc, rule index*2 + 1 if recorded; mark: position, -1
	next  int32
	start int32 // frame: the position the rule started at
}

type choice struct {
	pc, pos int32
	sp      int32 // top of the persistent stack
	events  int32 // length of the event log
	low     int32 // opSetStar: the lowest position it may give back to; -1 otherwise
	setStar bool
}

type event struct {
	rule int32 // rule index, or -1 for the close of the latest open node
	pos  int32
}

type machine struct {
	prog    *program
	input   string
	cells   []cell
	choices []choice
	events  []event
	steps   int
	budget  int

	// scanEnds caches, per scan guard, the end of the last run it scanned
	// (scanOK); an entry of an earlier run (gen) is stale.
	scanEnds []scanEnd
	gen      uint32
	// plain runs without guards and runs, as the recording run does: the
	// tests compare it with the guarded machine.
	plain bool

	// failure recording (second run only)
	record   bool
	far      int
	farDepth int
	farChain []int32
	expected []string
}

// scanEnd is a run that a scan guard found: from start it ends at end.
type scanEnd struct {
	gen        uint32
	start, end int32
}

func (m *machine) reset(p *program, input string, record bool) {
	m.gen++
	if len(m.scanEnds) < len(p.scans) {
		m.scanEnds = make([]scanEnd, len(p.scans))
	}
	m.prog = p
	m.input = input
	m.cells = m.cells[:0]
	m.choices = m.choices[:0]
	m.events = m.events[:0]
	m.steps = 0
	m.budget = stepBudget(len(input))
	m.record = record
	m.far = -1
	m.farDepth = -1
	m.farChain = m.farChain[:0]
	m.expected = m.expected[:0]
}

// fail records a failed test at pos when recording. Of the failures at the
// furthest position, the one inside the most rules that had already matched
// something there names the production: a port that has begun, rather than
// an escape that was only tried.
func (m *machine) fail(pos int, expect int32, sp int32, depthBias int) {
	if !m.record || expect < 0 {
		return
	}
	depth := depthBias
	if depthBias >= 0 {
		for s := sp; s >= 0; s = m.cells[s].next {
			if m.cells[s].b >= 0 && int(m.cells[s].start) < pos {
				depth++
			}
		}
	}
	if pos > m.far {
		m.far = pos
		m.farDepth = -2
		m.expected = m.expected[:0]
	}
	if pos < m.far {
		return
	}
	labels := m.prog.expect[expect]
	// A rule that was only being tried here, not yet under way, is what was
	// expected: "port" rather than the digit its first byte would have been.
	var outer int32 = -1
	for s := sp; s >= 0 && depthBias >= 0; s = m.cells[s].next {
		c := m.cells[s]
		if c.b < 0 {
			continue
		}
		if int(c.start) < pos || c.next < 0 {
			break
		}
		outer = c.b >> 1
	}
	if outer >= 0 {
		labels = []string{m.prog.names[outer]}
	}
	for _, l := range labels {
		dup := false
		for _, e := range m.expected {
			if e == l {
				dup = true
				break
			}
		}
		if !dup {
			m.expected = append(m.expected, l)
		}
	}
	if depth > m.farDepth {
		m.farDepth = depth
		m.farChain = m.farChain[:0]
		for s := sp; s >= 0; s = m.cells[s].next {
			if m.cells[s].b >= 0 && (int(m.cells[s].start) < pos || m.cells[s].next < 0) {
				m.farChain = append(m.farChain, m.cells[s].b>>1)
			}
		}
	}
}

func (m *machine) run(pc int32) bool {
	insts := m.prog.insts
	input := m.input
	n := int32(len(input))
	pos := int32(0)
	sp := int32(-1)
	for {
		m.steps++
		if m.steps > m.budget {
			return false
		}
		in := &insts[pc]
		switch in.op {
		case opSet:
			if pos < n && m.prog.sets[in.arg].has(input[pos]) {
				pos++
				pc++
				continue
			}
			m.fail(int(pos), in.expect, sp, 0)
		case opSetStar:
			set := &m.prog.sets[in.arg]
			start := pos
			for pos < n && set.has(input[pos]) {
				pos++
			}
			m.fail(int(pos), in.expect, sp, 0)
			if pos-start < in.arg2 {
				break
			}
			if low := start + in.arg2; pos > low {
				m.choices = append(m.choices, choice{pc: pc + 1, pos: pos - 1, sp: sp, events: int32(len(m.events)), low: low, setStar: true})
			}
			pc++
			continue
		case opLit:
			l := &m.prog.lits[in.arg]
			if matchLit(input[pos:], l) {
				pos += int32(len(l.text))
				pc++
				continue
			}
			m.fail(int(pos), in.expect, sp, 0)
		case opSplit:
			if !m.record && !m.plain {
				if r := in.run; r > 0 {
					set := &m.prog.sets[r-1]
					for pos < n && set.has(input[pos]) {
						pos++
					}
				}
				// The guards (compiler.alt, compiler.rep) skip a branch
				// that cannot match: its choice would only fail, so the
				// derivation found is the same. The recording run tries
				// every branch, since the failure report lists what each
				// expected.
				if g := in.guard; g > 0 && !m.prog.guards[g-1].allows(input, pos) {
					pc = in.arg2
					continue
				}
				if g := in.scan; g > 0 && !m.scanOK(g-1, pos) {
					pc = in.arg2
					continue
				}
				if g := in.guard2; g > 0 && !m.prog.guards[g-1].allows(input, pos) {
					pc = in.arg
					continue
				}
			}
			m.choices = append(m.choices, choice{pc: in.arg2, pos: pos, sp: sp, events: int32(len(m.events)), low: -1})
			pc = in.arg
			continue
		case opJmp:
			pc = in.arg
			continue
		case opCall, opCallRoot:
			r := m.prog.entry[in.arg]
			b := in.arg * 2
			if in.op == opCallRoot || m.inTree(in.arg) {
				b++
				m.events = append(m.events, event{rule: in.arg, pos: pos})
			}
			m.cells = append(m.cells, cell{a: pc + 1, b: b, next: sp, start: pos})
			sp = int32(len(m.cells) - 1)
			pc = r
			continue
		case opRet:
			f := m.cells[sp]
			if f.b&1 == 1 {
				m.events = append(m.events, event{rule: -1, pos: pos})
			}
			sp = f.next
			pc = f.a
			continue
		case opMark:
			m.cells = append(m.cells, cell{a: pos, b: -1, next: sp})
			sp = int32(len(m.cells) - 1)
			pc++
			continue
		case opProgress:
			f := m.cells[sp]
			if pos != f.a {
				sp = f.next
				pc++
				continue
			}
		case opEnd:
			if pos == n {
				return true
			}
			m.fail(int(pos), in.expect, sp, -1)
		}
		// Backtrack to the latest choice.
		if len(m.choices) == 0 {
			return false
		}
		c := &m.choices[len(m.choices)-1]
		pc, pos, sp = c.pc, c.pos, c.sp
		m.events = m.events[:c.events]
		if c.setStar && c.pos > c.low {
			c.pos--
		} else {
			m.choices = m.choices[:len(m.choices)-1]
		}
	}
}

// scanOK reports whether the scan guard g lets its branch try at pos: the
// longest run of its run set from pos is followed by a byte of its next
// set. The run's end is remembered, so that a guard met at every byte of a
// run (a branch in a loop) costs linear time, not quadratic.
func (m *machine) scanOK(g int32, pos int32) bool {
	sg := m.prog.scans[g]
	c := &m.scanEnds[g]
	end := c.end
	if c.gen != m.gen || pos < c.start || pos > c.end {
		set := &m.prog.sets[sg.run]
		end = pos
		for end < int32(len(m.input)) && set.has(m.input[end]) {
			end++
		}
		*c = scanEnd{gen: m.gen, start: pos, end: end}
	}
	return end < int32(len(m.input)) && m.prog.sets[sg.next].has(m.input[end])
}

func (m *machine) inTree(rule int32) bool {
	return m.prog.inTree[rule]
}

func matchLit(s string, l *literal) bool {
	if len(s) < len(l.text) {
		return false
	}
	if !l.fold {
		return s[:len(l.text)] == l.text
	}
	for i := 0; i < len(l.text); i++ {
		if lower(s[i]) != l.text[i] {
			return false
		}
	}
	return true
}

// tree builds the derivation tree from the event log of a successful run.
func (m *machine) tree(g *Grammar) *Tree {
	// The log of a successful run is balanced: one close per open.
	t := &Tree{Input: m.input, Nodes: make([]Node, 0, len(m.events)/2)}
	ids := m.prog.ids
	var buf [32]int32
	stack := buf[:0]
	for _, e := range m.events {
		if e.rule >= 0 {
			stack = append(stack, int32(len(t.Nodes)))
			t.Nodes = append(t.Nodes, Node{ID: ids[e.rule], Start: e.pos})
			continue
		}
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		t.Nodes[i].End = e.pos
		t.Nodes[i].Size = int32(len(t.Nodes)) - i
	}
	return t
}

func (m *machine) syntaxError(r *Rule, gaveUp bool) *SyntaxError {
	g := r.grammar
	e := &SyntaxError{Input: m.input, Offset: m.far, Rule: r, GaveUp: gaveUp}
	if e.Offset < 0 {
		e.Offset = 0
	}
	for i := len(m.farChain) - 1; i >= 0; i-- {
		rule := g.Rules[m.farChain[i]]
		if rule == r || rule.InTree() {
			e.Chain = append(e.Chain, rule)
		}
	}
	if len(e.Chain) == 0 {
		e.Chain = []*Rule{r}
	}
	e.Rule = e.Chain[len(e.Chain)-1]
	e.Expected = append([]string(nil), m.expected...)
	return e
}
