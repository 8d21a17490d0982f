package grammar

import "math"

// The memoising matcher: a polynomial-time fallback for the backtracking
// machine of match.go, used when the machine runs out of steps (stepBudget) on
// an ambiguous grammar, such as the XBNF's "search = 1*xalpha [ search ]",
// where one string splits in exponentially many ways. It computes exactly what
// the machine computes, the same tree or the same SyntaxError, only without
// enumerating the derivations one by one.
//
// It interprets the machine's own program, not the rules' Exprs, so that it
// sees the same instructions: the same inlined helpers, the same merged byte
// sets with their labels, the same call frames. A state is (pc, pos, k): an
// instruction inside a rule body, an input position and the number of
// innermost opMark marks that no input has been consumed since (consuming a
// byte clears them all, opMark adds one, opProgress fails while k > 0 and
// otherwise drops the mark it checks). From a state, the machine's depth-first
// search runs to the rule's opRet in some order of derivations; trace(state)
// is what that search does, with repeats removed:
//
//   - ret(e): the body returns at e, listed in the order the search first
//     returns there. For a byte test it is the trace of the next state; for
//     opSplit the trace of the first branch, then what the second adds; for
//     opCall, for each e1 the callee returns at (in its order), the trace of
//     the continuation from e1. Repeats can go because the search after a
//     return at e is the same every time the body returns at e: it depends
//     on e only, not on the derivation that got there.
//   - label(l): a failed test at the report offset expected l (second pass
//     only), in the order the search first fails with l there. As in
//     machine.fail, l is the test's own label unless the test is inside
//     rules that only start at the offset: then it is the outermost of them.
//   - deep(d, chain): a failed test at the report offset inside d call frames
//     (of this body) that started before it, d larger than that of every
//     earlier failure in the trace: the candidates for machine.fail's "the
//     first failure of the greatest depth names the production". A caller
//     adds its callee's frame (one deeper when the callee started before the
//     offset), so an order that holds inside a trace holds in every caller.
//
// Each state's trace is computed once (memoised), so the work is polynomial
// in the input length, while the machine's search can be exponential.
//
// Acceptance: the input matches if the start rule's trace from 0 returns at
// len(input). The tree is then read off top-down: at opSplit take the first
// branch whose trace returns at the target end; at opCall take the first end
// e1 of the callee (in the callee's order) whose continuation's trace returns
// at the target, derive the callee from pos to e1 and go on from e1. This is
// the machine's first derivation: the machine tries the callee's derivations
// in order and, for each, the continuation; whether the continuation can
// reach the target depends only on e1, so the first derivation that leads to
// success is the callee's first derivation ending at the first good e1.
//
// Failure: a first pass (with the acceptance test) finds the furthest failed
// test, which is where the machine's failure report points, since the
// machine, failing, has tried every state the memo visits; a second pass
// collects the labels and depths of the failures there, in the machine's
// order, as above.
//
// Cost: a trace lists at most every position once, so time and memory are
// O(states × positions) in the worst case, quadratic in the input length for
// a rule like the XBNF's search, which can end at every later position.

// traceItem is one item of a trace, packed in an int32 because traces are
// long (one return per reachable end): a return at p is p itself; a label is
// ^(2*id) (an id of memoMatcher.names); a deep candidate is ^(2*i+1), i an
// index of memoMatcher.deeps.
type traceItem int32

func retItem(pos int32) traceItem  { return traceItem(pos) }
func labelItem(id int32) traceItem { return traceItem(^(id << 1)) }
func deepItem(i int32) traceItem   { return traceItem(^(i<<1 | 1)) }

// ret returns the position of a return item.
func (it traceItem) ret() (int32, bool) { return int32(it), it >= 0 }

// label returns the label id of a label item.
func (it traceItem) label() (int32, bool) { w := ^int32(it); return w >> 1, it < 0 && w&1 == 0 }

// deep returns the deeps index of a deep item.
func (it traceItem) deep() (int32, bool) { w := ^int32(it); return w >> 1, it < 0 && w&1 == 1 }

// deepRecord is a failure at the report offset inside depth frames of the
// body whose trace holds it; chain names the tree rules among those frames.
type deepRecord struct {
	depth int32
	chain *chainLink
}

// chainLink is a list of rule indexes, outermost first.
type chainLink struct {
	rule int32
	next *chainLink
}

// memoState is a state of the machine inside a rule body: see above.
type memoState struct{ pc, pos, k int32 }

type memoMatcher struct {
	prog  *program
	g     *Grammar
	root  int32 // index of the start rule
	input string

	traces map[memoState][]traceItem

	// report is false in the first pass, which only looks for the ends and
	// the furthest failure (furthest), and true in the second, which
	// collects what failed at far.
	report   bool
	far      int32
	furthest int32

	// labels interns the expected labels as ids of names; labelIDs[i] are
	// the ids of prog.expect[i].
	labels   map[string]int32
	names    []string
	labelIDs [][]int32
	deeps    []deepRecord
	lifted   map[[2]int32]traceItem // deep item and callee: the lifted item

	// conts is a stack of the traces a state combines, computed before the
	// merge. The merge state: the trace under construction (scratch), its
	// deepest candidate and its duplicate filters, stamped with gen. Merges
	// never nest: a state's parts are all computed before its merge begins.
	conts     [][]traceItem
	scratch   []traceItem
	deepest   int32
	gen       uint32
	retSeen   []uint32
	labelSeen []uint32
}

// matchMemo matches input against r like the machine (Rule.Match), in
// polynomial time.
func matchMemo(r *Rule, input string) (*Tree, *SyntaxError) {
	g := r.grammar
	m := &memoMatcher{
		prog:     g.prog,
		g:        g,
		root:     int32(r.index),
		input:    input,
		traces:   map[memoState][]traceItem{},
		furthest: -1,
		far:      -1,
		retSeen:  make([]uint32, len(input)+1),
	}
	n := int32(len(input))
	entry := m.prog.entry[m.root]
	ends := m.trace(entry, 0, 0)
	for _, it := range ends {
		if e, _ := it.ret(); e == n {
			return m.tree(entry), nil
		}
	}
	// opEnd fails at every other end of the start rule.
	for _, it := range ends {
		e, _ := it.ret()
		m.furthest = max(m.furthest, e)
	}

	// Second pass: what failed at the furthest offset, in the machine's order.
	m.report = true
	m.far = max(m.furthest, 0)
	m.traces = map[memoState][]traceItem{}
	m.labels = map[string]int32{}
	m.labelIDs = make([][]int32, len(m.prog.expect))
	m.lifted = map[[2]int32]traceItem{}
	body := m.trace(entry, 0, 0)
	// The stub CALLROOT r; END: the start rule's frame is in every chain and
	// counts in the depth if it started before the failure; after it returns,
	// END fails where the input does not end, outside every frame (depth -1).
	endExpect := m.prog.insts[m.prog.root[m.root]+1].expect
	endFailure := m.failure(m.far, endExpect, -1)
	m.startMerge()
	for _, it := range body {
		if e, ok := it.ret(); ok {
			if e == m.far {
				m.addAll(endFailure)
			}
			continue
		}
		if i, ok := it.deep(); ok {
			d := m.deeps[i]
			if m.far > 0 {
				d.depth++
			}
			it = m.newDeep(d.depth, &chainLink{rule: m.root, next: d.chain})
		}
		m.add(it)
	}
	e := &SyntaxError{Input: input, Offset: int(m.far), Rule: r}
	var chain *chainLink
	for _, it := range m.finishMerge() {
		if id, ok := it.label(); ok {
			e.Expected = append(e.Expected, m.names[id])
		} else if i, ok := it.deep(); ok {
			chain = m.deeps[i].chain // the last is the deepest
		}
	}
	for c := chain; c != nil; c = c.next {
		e.Chain = append(e.Chain, g.Rules[c.rule])
	}
	if len(e.Chain) == 0 {
		e.Chain = []*Rule{r}
	}
	e.Rule = e.Chain[len(e.Chain)-1]
	return nil, e
}

// trace returns the trace of the state (pc, pos, k), memoised.
func (m *memoMatcher) trace(pc, pos, k int32) []traceItem {
	key := memoState{pc, pos, k}
	if t, ok := m.traces[key]; ok {
		// A state in progress reads as empty: it would be a loop that consumes
		// nothing, which Load's left-recursion check and opProgress exclude.
		return t
	}
	m.traces[key] = nil
	t := m.compute(pc, pos, k)
	m.traces[key] = t
	return t
}

// compute runs straight-line instructions from (pc, pos, k) and combines the
// memoised traces of the states a branch leads to.
func (m *memoMatcher) compute(pc, pos, k int32) []traceItem {
	insts := m.prog.insts
	input := m.input
	n := int32(len(input))
	for {
		in := &insts[pc]
		switch in.op {
		case opSet:
			if pos < n && m.prog.sets[in.arg].has(input[pos]) {
				pc, pos, k = pc+1, pos+1, 0
				continue
			}
			return m.failure(pos, in.expect, 0)
		case opLit:
			l := &m.prog.lits[in.arg]
			if matchLit(input[pos:], l) {
				pc, pos, k = pc+1, pos+int32(len(l.text)), 0
				continue
			}
			return m.failure(pos, in.expect, 0)
		case opJmp:
			pc = in.arg
		case opMark:
			pc, k = pc+1, k+1
		case opProgress:
			if k > 0 {
				return nil // the loop body consumed nothing: no iteration
			}
			pc++
		case opRet:
			return []traceItem{retItem(pos)}
		case opSplit:
			first := m.trace(in.arg, pos, k)
			second := m.trace(in.arg2, pos, k)
			switch { // traces are already free of repeats: share them
			case len(second) == 0:
				return first
			case len(first) == 0:
				return second
			}
			m.startMerge()
			m.addAll(first)
			m.addAll(second)
			return m.finishMerge()
		case opSetStar:
			return m.setStar(pc, pos, k)
		case opCall:
			return m.call(pc, pos, k)
		default: // opCallRoot and opEnd only appear in the root stubs
			return nil
		}
	}
}

// setStar is the trace of an opSetStar: the machine records the failure
// where the run of the set stops, then tries the longest run first and gives
// bytes back one at a time.
func (m *memoMatcher) setStar(pc, pos, k int32) []traceItem {
	in := &m.prog.insts[pc]
	q := m.setRun(pos, in.arg)
	failed := m.failure(q, in.expect, 0)
	base := len(m.conts)
	for e := q; e >= pos+in.arg2; e-- {
		t := m.trace(pc+1, e, progressed(e, pos, k))
		m.conts = append(m.conts, t)
	}
	conts := m.conts[base:]
	defer func() { m.conts = m.conts[:base] }()
	if len(failed) == 0 && len(conts) == 1 {
		return conts[0]
	}
	m.startMerge()
	m.addAll(failed)
	for _, t := range conts {
		m.addAll(t)
	}
	return m.finishMerge()
}

// call is the trace of an opCall: the callee's trace with the continuation
// after each return spliced in its place.
func (m *memoMatcher) call(pc, pos, k int32) []traceItem {
	rule := m.prog.insts[pc].arg
	callee := m.trace(m.prog.entry[rule], pos, 0)
	base := len(m.conts)
	for _, it := range callee {
		if e, ok := it.ret(); ok {
			t := m.trace(pc+1, e, progressed(e, pos, k))
			m.conts = append(m.conts, t)
		}
	}
	conts := m.conts[base:]
	defer func() { m.conts = m.conts[:base] }()
	if len(callee) == 1 && len(conts) == 1 {
		return conts[0] // one return and no failure: the continuation's trace
	}
	m.startMerge()
	i := 0
	for _, it := range callee {
		if _, ok := it.ret(); ok {
			m.addAll(conts[i])
			i++
			continue
		}
		m.add(m.lift(it, rule, pos))
	}
	return m.finishMerge()
}

// lift moves a failure item of the trace of rule, called at pos, into the
// caller's trace. The callee's frame deepens the failure when it started
// before the offset, and names it in the chain when it is a tree rule. When
// the callee starts at the offset it was only being tried there: what was
// expected is the callee itself (machine.fail), and a caller that starts
// there too replaces it in turn, so the outermost such rule is named.
func (m *memoMatcher) lift(it traceItem, rule, pos int32) traceItem {
	if _, ok := it.label(); ok && pos == m.far {
		return labelItem(m.intern(m.prog.names[rule]))
	}
	if i, ok := it.deep(); ok && pos < m.far {
		// The same for every call position before the offset: made once.
		key := [2]int32{i, rule}
		if lifted, ok := m.lifted[key]; ok {
			return lifted
		}
		d := m.deeps[i]
		if m.prog.inTree[rule] || rule == m.root {
			d.chain = &chainLink{rule: rule, next: d.chain}
		}
		lifted := m.newDeep(d.depth+1, d.chain)
		m.lifted[key] = lifted
		return lifted
	}
	return it
}

// progressed returns the number of unprogressed marks after moving from pos
// to e with k of them.
func progressed(e, pos, k int32) int32 {
	if e > pos {
		return 0
	}
	return k
}

// setRun returns the end of the longest run of sets[set] from pos.
func (m *memoMatcher) setRun(pos, set int32) int32 {
	s := &m.prog.sets[set]
	for pos < int32(len(m.input)) && s.has(m.input[pos]) {
		pos++
	}
	return pos
}

// failure records a failed test at pos that expected prog.expect[expect]:
// in the first pass it only moves the furthest failure; in the second, a
// failure at the report offset yields its labels and a candidate of the
// given depth.
func (m *memoMatcher) failure(pos, expect, depth int32) []traceItem {
	if !m.report {
		m.furthest = max(m.furthest, pos)
		return nil
	}
	if pos != m.far || expect < 0 {
		return nil
	}
	ids := m.labelIDs[expect]
	if ids == nil {
		for _, l := range m.prog.expect[expect] {
			ids = append(ids, m.intern(l))
		}
		m.labelIDs[expect] = ids
	}
	out := make([]traceItem, 0, len(ids)+1)
	for _, id := range ids {
		out = append(out, labelItem(id))
	}
	return append(out, m.newDeep(depth, nil))
}

// intern returns the label's id.
func (m *memoMatcher) intern(label string) int32 {
	id, ok := m.labels[label]
	if !ok {
		id = int32(len(m.names))
		m.labels[label] = id
		m.names = append(m.names, label)
		m.labelSeen = append(m.labelSeen, 0)
	}
	return id
}

func (m *memoMatcher) newDeep(depth int32, chain *chainLink) traceItem {
	m.deeps = append(m.deeps, deepRecord{depth, chain})
	return deepItem(int32(len(m.deeps) - 1))
}

// startMerge begins a trace made of items added in order.
func (m *memoMatcher) startMerge() {
	m.gen++
	if m.gen == 0 { // wrapped: clear the stamps
		clear(m.retSeen)
		clear(m.labelSeen)
		m.gen = 1
	}
	m.scratch = m.scratch[:0]
	m.deepest = math.MinInt32
}

// add appends it to the trace under construction unless it repeats: a
// return or a label already listed, or a depth no greater than an earlier one.
func (m *memoMatcher) add(it traceItem) {
	if e, ok := it.ret(); ok {
		if m.retSeen[e] == m.gen {
			return
		}
		m.retSeen[e] = m.gen
	} else if id, ok := it.label(); ok {
		if m.labelSeen[id] == m.gen {
			return
		}
		m.labelSeen[id] = m.gen
	} else if i, ok := it.deep(); ok {
		if m.deeps[i].depth <= m.deepest {
			return
		}
		m.deepest = m.deeps[i].depth
	}
	m.scratch = append(m.scratch, it)
}

func (m *memoMatcher) addAll(t []traceItem) {
	for _, it := range t {
		m.add(it)
	}
}

// finishMerge returns the trace built since startMerge, in a slice of its own.
func (m *memoMatcher) finishMerge() []traceItem {
	if len(m.scratch) == 0 {
		return nil
	}
	return append([]traceItem(nil), m.scratch...)
}

// returnsAt reports whether the trace of (pc, pos, k) returns at end.
func (m *memoMatcher) returnsAt(pc, pos, k, end int32) bool {
	for _, it := range m.trace(pc, pos, k) {
		if e, ok := it.ret(); ok && e == end {
			return true
		}
	}
	return false
}

// tree builds the machine's derivation tree of a matching input.
func (m *memoMatcher) tree(entry int32) *Tree {
	t := &Tree{Input: m.input}
	n := int32(len(m.input))
	t.Nodes = append(t.Nodes, Node{ID: m.g.Rules[m.root].ID, Start: 0, End: n})
	m.derive(t, entry, 0, 0, n)
	t.Nodes[0].Size = int32(len(t.Nodes))
	return t
}

// derive appends the nodes of the machine's first derivation from (pc, pos,
// k) to the body's return at end, which the state's trace must list.
func (m *memoMatcher) derive(t *Tree, pc, pos, k, end int32) {
	insts := m.prog.insts
	for {
		in := &insts[pc]
		switch in.op {
		case opSet:
			pc, pos, k = pc+1, pos+1, 0
		case opLit:
			pc, pos, k = pc+1, pos+int32(len(m.prog.lits[in.arg].text)), 0
		case opJmp:
			pc = in.arg
		case opMark:
			pc, k = pc+1, k+1
		case opProgress:
			pc++
		case opRet:
			return
		case opSplit:
			if m.returnsAt(in.arg, pos, k, end) {
				pc = in.arg
			} else {
				pc = in.arg2
			}
		case opSetStar:
			e := m.setRun(pos, in.arg)
			for e > pos+in.arg2 && !m.returnsAt(pc+1, e, progressed(e, pos, k), end) {
				e--
			}
			pc, pos, k = pc+1, e, progressed(e, pos, k)
		case opCall:
			rule := in.arg
			body := m.prog.entry[rule]
			e := int32(-1)
			for _, it := range m.trace(body, pos, 0) {
				if r, ok := it.ret(); ok && m.returnsAt(pc+1, r, progressed(r, pos, k), end) {
					e = r
					break
				}
			}
			if e < 0 {
				return // not reached: some end of the callee leads to end
			}
			if m.prog.inTree[rule] {
				i := int32(len(t.Nodes))
				t.Nodes = append(t.Nodes, Node{ID: m.g.Rules[rule].ID, Start: pos, End: e})
				m.derive(t, body, pos, 0, e)
				t.Nodes[i].Size = int32(len(t.Nodes)) - i
			} else {
				m.derive(t, body, pos, 0, e)
			}
			pc, pos, k = pc+1, e, progressed(e, pos, k)
		default:
			return // not reached: derive follows a trace that returns at end
		}
	}
}
