package grammar

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// The memoising matcher must compute exactly what the backtracking machine
// computes. These tests run both on the same inputs and compare the trees,
// and for rejected inputs the offset, the expected list and the chain.

// machineMatch is Rule.Match without the fallback: the machine alone, and
// whether it ran out of steps.
func machineMatch(r *Rule, input string) (tree *Tree, serr *SyntaxError, gaveUp bool) {
	p := r.grammar.prog
	m := new(machine)
	m.reset(p, input, false)
	if m.run(p.root[r.index]) {
		return m.tree(r.grammar), nil, false
	}
	if m.steps > m.budget {
		return nil, nil, true
	}
	m.reset(p, input, true)
	m.run(p.root[r.index])
	if m.steps > m.budget {
		// The recording run tries the branches the first run's guards
		// skipped, and ran out of steps.
		return nil, nil, true
	}
	return nil, m.syntaxError(r, false), false
}

// sameResult reports how two results differ, or "" if they agree.
func sameResult(t1 *Tree, e1 *SyntaxError, t2 *Tree, e2 *SyntaxError) string {
	switch {
	case (t1 == nil) != (t2 == nil):
		return "one accepts, the other rejects"
	case t1 != nil:
		if t1.String() != t2.String() || !slices.Equal(t1.Nodes, t2.Nodes) {
			return "trees differ:\n" + t1.String() + "---\n" + t2.String()
		}
		return ""
	}
	var diffs []string
	if e1.Offset != e2.Offset {
		diffs = append(diffs, "offsets differ")
	}
	if !slices.Equal(e1.Expected, e2.Expected) {
		diffs = append(diffs, "expected lists differ")
	}
	if !slices.Equal(ruleNamesOf(e1.Chain), ruleNamesOf(e2.Chain)) || e1.Rule != e2.Rule {
		diffs = append(diffs, "chains differ")
	}
	if diffs == nil {
		return ""
	}
	return strings.Join(diffs, ", ") + ":\n" + describeError(e1) + "\n" + describeError(e2)
}

func ruleNamesOf(rules []*Rule) []string {
	var out []string
	for _, r := range rules {
		out = append(out, r.Name)
	}
	return out
}

func describeError(e *SyntaxError) string {
	return e.Error() + " chain " + strings.Join(ruleNamesOf(e.Chain), " > ") + " expected [" + strings.Join(e.Expected, "|") + "]"
}

// sampler produces strings of a grammar's rules by random derivation.
type sampler struct {
	g        *Grammar
	r        *rand.Rand
	shortest map[*Rule]string
}

func newSampler(g *Grammar, seed uint64) *sampler {
	s := &sampler{g: g, r: rand.New(rand.NewPCG(seed, 5234)), shortest: map[*Rule]string{}}
	// The shortest string of each rule, by fixed point; it ends deep derivations.
	for changed := true; changed; {
		changed = false
		for _, r := range g.Rules {
			if str, ok := s.short(r.Expr); ok {
				if old, had := s.shortest[r]; !had || len(str) < len(old) {
					s.shortest[r] = str
					changed = true
				}
			}
		}
	}
	return s
}

func (s *sampler) short(e *Expr) (string, bool) {
	switch e.Kind {
	case Lit:
		return e.Text, true
	case Range:
		return string(e.Lo), true
	case Ref:
		str, ok := s.shortest[s.g.Rule(e.Name)]
		return str, ok
	case Alt:
		best, found := "", false
		for _, it := range e.Items {
			if str, ok := s.short(it); ok && (!found || len(str) < len(best)) {
				best, found = str, true
			}
		}
		return best, found
	case Seq:
		var b strings.Builder
		for _, it := range e.Items {
			str, ok := s.short(it)
			if !ok {
				return "", false
			}
			b.WriteString(str)
		}
		return b.String(), true
	case Rep:
		str, ok := s.short(e.Items[0])
		if !ok && e.Min > 0 {
			return "", false
		}
		return strings.Repeat(str, e.Min), true
	}
	return "", false
}

func (s *sampler) sample(e *Expr, depth int) string {
	switch e.Kind {
	case Lit:
		if e.CaseSensitive {
			return e.Text
		}
		b := []byte(e.Text)
		for i := range b {
			if s.r.IntN(2) == 0 {
				b[i] = upper(b[i])
			} else {
				b[i] = lower(b[i])
			}
		}
		return string(b)
	case Range:
		return string([]byte{byte(int(e.Lo) + s.r.IntN(int(e.Hi)-int(e.Lo)+1))})
	case Ref:
		r := s.g.Rule(e.Name)
		if depth > 6 {
			return s.shortest[r]
		}
		return s.sample(r.Expr, depth+1)
	case Alt:
		return s.sample(e.Items[s.r.IntN(len(e.Items))], depth)
	case Seq:
		var b strings.Builder
		for _, it := range e.Items {
			b.WriteString(s.sample(it, depth))
		}
		return b.String()
	case Rep:
		n := e.Min + s.r.IntN(4)
		if e.Max >= 0 && n > e.Max {
			n = e.Max
		}
		var b strings.Builder
		for range n {
			b.WriteString(s.sample(e.Items[0], depth))
		}
		return b.String()
	}
	return ""
}

const mutationAlphabet = "a1.-/:@?;=%#& +Z"

// mutate deletes, inserts or replaces one byte of str.
func mutate(r *rand.Rand, str string) string {
	c := string(mutationAlphabet[r.IntN(len(mutationAlphabet))])
	if str == "" {
		return c
	}
	i := r.IntN(len(str))
	switch r.IntN(3) {
	case 0:
		return str[:i] + str[i+1:]
	case 1:
		return str[:i] + c + str[i:]
	}
	return str[:i] + c + str[i+1:]
}

// realisticURLs are URLs of every scheme the grammars know, valid or nearly.
var realisticURLs = []string{
	"http://www.w3.org/hypertext/WWW/Addressing/URL/5_BNF.html",
	"http://info.cern.ch:80/hypertext/WWW/TheProject.html?www+cern",
	"http://example.com/a/b;c?q=go&x=%20y",
	"http://192.168.0.1:8080/",
	"http://a.b.c.d.example.org/docs/index?a+b+c",
	"https://example.com/x#top",
	"ftp://ftp.funet.fi/pub/README;type=a",
	"ftp://anonymous:guest@ftp.w3.org/pub/AI",
	"ftp://user:secret@x.org:21/a/b/file.txt;type=i",
	"file://localhost/etc/motd",
	"file:///etc/motd",
	"gopher://gopher.micro.umn.edu/1/",
	"gopher://x.org:70/0about%09search",
	"mailto:timbl@w3.org",
	"mailto:first.last+list@host-1.example.co.uk",
	"news:comp.infosystems.www",
	"news:1234@cernvax.cern.ch",
	"news:*",
	"nntp://news.example.net/comp.lang.go/123",
	"nntp:comp.infosystems.www/42",
	"telnet://guest:pw@info.cern.ch:23/",
	"wais://quake.think.com/directory-of-servers?cooking",
	"wais://x.org:210/db/TEXT/doc-17",
	"prospero://prospero.isi.edu/pub/papers;type=text",
	"prospero://prospero.isi.edu/pub/papers%001",
	"mid:960101.1234@example.org",
	"cid:part1.960101@example.org",
	"afs://cern.ch/usr/timbl",
	"url:http://info.cern.ch/",
	"urn:isbn:0451450523",
	"git+ssh://x.org/repo.git",
	"../a/b?q#frag",
	"//host/path;p=1?q",
	"/abs/path;x=1?y",
	"g;x=1?y#s",
	"?a=1&b=2",
	"#frag",
	"http://h/p?abcdefghij kl",
	"http://a.a.a.a.a.a.a.a ",
	"http://h/p?a+b+c+d+e+f ",
}

// agreementInputs returns the inputs to try against rule r.
func agreementInputs(r *Rule, s *sampler, rnd *rand.Rand) []string {
	var in []string
	for _, u := range realisticURLs {
		in = append(in, u)
		for i := 0; i < 2; i++ {
			in = append(in, u[:rnd.IntN(len(u)+1)], mutate(rnd, u))
		}
	}
	for i := 0; i < 30; i++ {
		str := s.sample(r.Expr, 0)
		in = append(in, str, mutate(rnd, str), mutate(rnd, mutate(rnd, str)))
		if len(str) > 0 {
			in = append(in, str[:rnd.IntN(len(str))])
		}
	}
	for i := 0; i < 30; i++ {
		b := make([]byte, rnd.IntN(9))
		for j := range b {
			b[j] = "a1.-/:@?;=%#&"[rnd.IntN(13)]
		}
		in = append(in, string(b))
	}
	return append(in, "")
}

// TestMemoAgreesWithMachine runs the memoising matcher and the machine on
// generated inputs for every rule of every built-in grammar: random
// derivations of the rule and their mutations, prefixes and mutations of
// realistic URLs, and random short strings. They must agree exactly wherever
// the machine does not give up.
func TestMemoAgreesWithMachine(t *testing.T) {
	for _, name := range BuiltinNames() {
		t.Run(name, func(t *testing.T) {
			g := Builtin(name)
			s := newSampler(g, 1738)
			rnd := rand.New(rand.NewPCG(1808, 1994))
			var accepted, rejected, gaveUp int
			for _, r := range g.Rules {
				for _, input := range agreementInputs(r, s, rnd) {
					mt, me, gave := machineMatch(r, input)
					if gave {
						gaveUp++
						continue
					}
					ft, fe := matchMemo(r, input)
					if d := sameResult(mt, me, ft, fe); d != "" {
						t.Errorf("%s %q: machine and memo disagree: %s", r.Name, input, d)
						continue
					}
					if mt != nil {
						accepted++
					} else {
						rejected++
					}
				}
			}
			t.Logf("%d accepted, %d rejected alike; machine gave up on %d", accepted, rejected, gaveUp)
			if accepted < len(g.Rules) || rejected < len(g.Rules) {
				t.Errorf("too few cases: %d accepted, %d rejected", accepted, rejected)
			}
		})
	}
}

// TestMemoSmallGrammars pins the derivation order on small grammars: the
// memoising matcher (called directly) and the machine must both give the
// tree or error written here.
func TestMemoSmallGrammars(t *testing.T) {
	tests := []struct {
		name, abnf, rule, input string
		tree                    string // want a match with this tree
		errOffset               int    // else want this error
		expected, chain         string
	}{
		{
			name: "ordered choice takes the first alternative that leads to the end",
			abnf: `a = b / c` + "\n" + `b = "x"` + "\n" + `c = "x" "y"`,
			rule: "a", input: "xy",
			tree: "a 0-2 \"xy\"\n  c 0-2 \"xy\"\n",
		},
		{
			name: "ordered choice prefers the first alternative",
			abnf: `a = b / c` + "\n" + `b = "x" ["y"]` + "\n" + `c = "x" "y"`,
			rule: "a", input: "xy",
			tree: "a 0-2 \"xy\"\n  b 0-2 \"xy\"\n",
		},
		{
			name: "greedy repetition gives back one iteration",
			abnf: `a = *b c` + "\n" + `b = "x"` + "\n" + `c = "x"`,
			rule: "a", input: "xxx",
			tree: "a 0-3 \"xxx\"\n  b 0-1 \"x\"\n  b 1-2 \"x\"\n  c 2-3 \"x\"\n",
		},
		{
			name: "greedy repetition of a byte set gives back one byte",
			abnf: `a = *x x` + "\n" + `x = "x"` + "\n;@transparent x",
			rule: "a", input: "xxx",
			tree: "a 0-3 \"xxx\"\n",
		},
		{
			name: "ambiguous split",
			abnf: `t = s s` + "\n" + `s = 1*x [s]` + "\n" + `x = "a"`,
			rule: "t", input: "aaa",
			tree: "t 0-3 \"aaa\"\n  s 0-2 \"aa\"\n    x 0-1 \"a\"\n    x 1-2 \"a\"\n  s 2-3 \"a\"\n    x 2-3 \"a\"\n",
		},
		{
			name: "ambiguous split alone",
			abnf: `s = 1*x [s]` + "\n" + `x = "a"`,
			rule: "s", input: "aaa",
			tree: "s 0-3 \"aaa\"\n  x 0-1 \"a\"\n  x 1-2 \"a\"\n  x 2-3 \"a\"\n",
		},
		{
			name: "ambiguous split that fails late",
			abnf: `s = 1*x [s]` + "\n" + `x = "a"`,
			rule: "s", input: "aaaab",
			// x was only being tried at the "b": it is what was expected. The
			// recursion is a tail call, a jump within the one s under way:
			// the chain names s once.
			errOffset: 4, expected: `x|end of input`, chain: "s",
		},
		{
			name: "nullable repetition body",
			abnf: `a = *( [ b ] [ c ] )` + "\n" + `b = "x"` + "\n" + `c = "y"`,
			rule: "a", input: "xyyx",
			tree: "a 0-4 \"xyyx\"\n  b 0-1 \"x\"\n  c 1-2 \"y\"\n  c 2-3 \"y\"\n  b 3-4 \"x\"\n",
		},
		{
			name: "nullable repetition body on the empty string",
			abnf: `a = *( [ "x" ] )`,
			rule: "a", input: "",
			tree: "a 0-0 \"\"\n",
		},
		{
			name: "nullable repetition body that fails",
			abnf: `a = *( [ "x" ] )`,
			rule: "a", input: "xxy",
			errOffset: 2, expected: `"x"|end of input`, chain: "a",
		},
		{
			name: "bounded repetition of a nullable body",
			abnf: `a = 2*3( [ b ] ) c` + "\n" + `b = "x"` + "\n" + `c = "y"`,
			rule: "a", input: "xxy",
			tree: "a 0-3 \"xxy\"\n  b 0-1 \"x\"\n  b 1-2 \"x\"\n  c 2-3 \"y\"\n",
		},
		{
			name: "bounded repetition runs out",
			abnf: `a = 2*3( [ b ] )` + "\n" + `b = "x"`,
			rule: "a", input: "xxxx",
			errOffset: 3, expected: "end of input", chain: "a",
		},
		{
			name: "case-insensitive literal",
			abnf: `a = "Ab" / %s"Cd" / %i"e"`,
			rule: "a", input: "aB",
			tree: "a 0-2 \"aB\"\n",
		},
		{
			name: "case-sensitive literal",
			abnf: `a = "Ab" / %s"Cd" / %i"e"`,
			rule: "a", input: "cd",
			errOffset: 0, expected: `"Ab"|"Cd"|"e"`, chain: "a",
		},
		{
			name: "recursion",
			abnf: `a = "(" [a] ")"`,
			rule: "a", input: "((()))",
			tree: "a 0-6 \"((()))\"\n  a 1-5 \"(())\"\n    a 2-4 \"()\"\n",
		},
		{
			name: "recursion that fails",
			abnf: `a = "(" [a] ")"`,
			rule: "a", input: "(()",
			errOffset: 3, expected: `")"`, chain: "a",
		},
		{
			name: "the deepest production that has begun names the failure",
			abnf: `a = b / c` + "\n" + `b = "x" d` + "\n" + `c = "x" "y" "z"` + "\n" + `d = "y" "w"`,
			rule: "a", input: "xyq",
			errOffset: 2, expected: `"w"|"z"`, chain: "a b d",
		},
		{
			name: "a production that has not begun is what was expected",
			abnf: `a = "x" b / "x" "y"` + "\n" + `b = "y" / "z" c` + "\n" + `c = "q"`,
			rule: "a", input: "xz",
			errOffset: 2, expected: `c`, chain: "a b",
		},
		{
			// The start rule is in the chain, even when it is transparent;
			// its recursion is a tail call, so the chain names it once and
			// what its body expects at 2 is expected.
			name: "transparent recursive start rule",
			abnf: `h = "x" [h] / "y"` + "\n;@transparent h",
			rule: "h", input: "xxz",
			errOffset: 2, expected: `"x"|"y"|end of input`, chain: "h",
		},
		{
			name: "a greedy part takes what a final optional part could have",
			abnf: `a = p [ t ]` + "\n" + `p = 1*"x"` + "\n" + `t = "x"`,
			rule: "a", input: "xxx",
			tree: "a 0-3 \"xxx\"\n  p 0-3 \"xxx\"\n",
		},
		{
			name: ";@present shows the final optional part when it can be there",
			abnf: `a = "<" p [ t ]` + "\n" + `p = 1*"x"` + "\n" + `t = "x" [ "y" ]` + "\n;@present a",
			rule: "a", input: "<xxxy",
			tree: "a 0-5 \"<xxxy\"\n  p 1-3 \"xx\"\n  t 3-5 \"xy\"\n",
		},
		{
			name: ";@present leaves it out when it cannot be there",
			abnf: `a = "<" p [ t ]` + "\n" + `p = 1*( "x" / "y" )` + "\n" + `t = "x" "z"` + "\n;@present a",
			rule: "a", input: "<xyy",
			tree: "a 0-4 \"<xyy\"\n  p 1-4 \"xyy\"\n",
		},
		{
			name: ";@present fails where the rule fails",
			abnf: `a = "<" p [ t ]` + "\n" + `p = 1*"x"` + "\n" + `t = "x" "z"` + "\n;@present a",
			rule: "a", input: "<xxq",
			errOffset: 3, expected: `"x"|t|"z"|end of input`, chain: "a p",
		},
		{
			name: "a nullable element repeated at least once",
			abnf: `a = 1*x "y" / 1*x "z"` + "\n" + `x = "b" / v` + "\n" + `v = ""` + "\n;@transparent x v",
			rule: "a", input: "bbz",
			tree: "a 0-3 \"bbz\"\n",
		},
		{
			name: "a nullable element repeated at least once, failing",
			abnf: `a = 1*x "y"` + "\n" + `x = "b" / v` + "\n" + `v = ""` + "\n;@transparent x v",
			rule: "a", input: "bbq",
			errOffset: 2, expected: `"b"|"y"`, chain: "a",
		},
		{
			name: "right recursion is one node",
			abnf: `a = b` + "\n" + `b = "x" [ "," b ]`,
			rule: "a", input: "x,x,x",
			tree: "a 0-5 \"x,x,x\"\n  b 0-5 \"x,x,x\"\n",
		},
		{
			name: "recursion that is not the last thing is nested",
			abnf: `a = "(" [a] ")" / "<" [a] ">" [ "." ]`,
			rule: "a", input: "(<()>.)",
			tree: "a 0-7 \"(<()>.)\"\n  a 1-6 \"<()>.\"\n    a 2-4 \"()\"\n",
		},
		{
			name: "a tail call under a choice that fails falls back",
			abnf: `a = "x" a / "x" "y"`,
			rule: "a", input: "xxxy",
			tree: "a 0-4 \"xxxy\"\n",
		},
		{
			name: "transparent recursive rule",
			abnf: `a = h` + "\n" + `h = "x" [h] / "y"` + "\n;@transparent h",
			rule: "a", input: "xxy",
			tree: "a 0-3 \"xxy\"\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := Load("test", "test.abnf", []byte(";@source test\n"+tt.abnf+"\n"))
			if err != nil {
				t.Fatal(err)
			}
			r := g.Rule(tt.rule)
			mt, me, gave := machineMatch(r, tt.input)
			if gave {
				t.Fatal("machine gave up")
			}
			ft, fe := matchMemo(r, tt.input)
			for _, res := range []struct {
				who  string
				tree *Tree
				err  *SyntaxError
			}{{"machine", mt, me}, {"memo", ft, fe}} {
				switch {
				case tt.tree != "" && res.tree == nil:
					t.Errorf("%s: %s, want a match", res.who, describeError(res.err))
				case tt.tree != "" && res.tree.String() != tt.tree:
					t.Errorf("%s: tree\n%s want\n%s", res.who, res.tree, tt.tree)
				case tt.tree == "" && res.err == nil:
					t.Errorf("%s: match\n%s want an error", res.who, res.tree)
				case tt.tree == "":
					got := res.err
					if got.Offset != tt.errOffset || strings.Join(got.Expected, "|") != tt.expected ||
						strings.Join(ruleNamesOf(got.Chain), " ") != tt.chain {
						t.Errorf("%s: %s, want offset %d, expected [%s], chain %s", res.who, describeError(got), tt.errOffset, tt.expected, tt.chain)
					}
				}
			}
		})
	}
}

// hostileXBNF returns the XBNF inputs that make the machine backtrack
// exponentially, with n letters, labels or query terms: a search part (1*xalpha
// [search] splits a string in every way), a hostname (ialpha, whose xalphas
// include ".", against [ "." hostname ]) and a query of "+" terms, each
// followed by a space, and the same without the space, which match.
func hostileXBNF(n int) []string {
	letters := strings.Repeat("abcdefghijklmnopqrstuvwxyz", n/26+1)[:n]
	labels := "http://" + strings.Repeat("a.", n) + "a"
	terms := make([]string, n)
	for i := range terms {
		terms[i] = string(letters[i])
	}
	return []string{
		"http://h/p?" + letters + " ",
		labels + " ",
		"http://h/p?" + strings.Join(terms, "+") + " ",
	}
}

// TestNoGiveUpOnAmbiguousXBNF checks that Match decides the inputs the
// machine gives up on, with the answer the grammar gives: an error at the
// space, and a match without it.
func TestNoGiveUpOnAmbiguousXBNF(t *testing.T) {
	g := Builtin("xbnf")
	r := g.Rule("httpaddress")
	for _, n := range []int{20, 30, 200} {
		for _, input := range hostileXBNF(n) {
			if n == 30 {
				// Show that these inputs exercise the fallback.
				if _, _, gave := machineMatch(r, input); !gave {
					t.Errorf("the machine did not give up on %q: not a test of the fallback", input)
				}
			}
			tree, err := r.Match(input)
			if tree != nil {
				t.Errorf("Match(%q) matched, want an error at the space", input)
				continue
			}
			if err.GaveUp || err.Offset != len(input)-1 || !slices.Contains(err.Expected, "end of input") {
				t.Errorf("Match(%q) = %s, want an error at offset %d expecting end of input among others", input, describeError(err), len(input)-1)
			}
			valid := input[:len(input)-1]
			tree, err = r.Match(valid)
			if err != nil {
				t.Errorf("Match(%q) = %s, want a match", valid, describeError(err))
				continue
			}
			if root := tree.Nodes[0]; root.Rule() != r || root.Start != 0 || int(root.End) != len(valid) {
				t.Errorf("Match(%q): root %s %d-%d", valid, root.Rule().Name, root.Start, root.End)
			}
			// The memo finds the machine's tree, which the machine finds at
			// once on a valid input.
			mt, _, gave := machineMatch(r, valid)
			if gave {
				t.Errorf("the machine gave up on the valid %q", valid)
			} else if ft, fe := matchMemo(r, valid); sameResult(mt, nil, ft, fe) != "" {
				t.Errorf("memo tree of %q differs: %s", valid, sameResult(mt, nil, ft, fe))
			}
		}
	}
}

// TestMemoAgreesOnHostileXBNF compares the machine and the memo on the
// hostile inputs while they are still short enough for the machine.
func TestMemoAgreesOnHostileXBNF(t *testing.T) {
	g := Builtin("xbnf")
	for _, rule := range []string{"httpaddress", "url", "search", "hostname"} {
		r := g.Rule(rule)
		for n := 1; n <= 10; n++ {
			for _, input := range hostileXBNF(n) {
				for _, in := range []string{input, input[:len(input)-1], input[len("http://h/p?"):]} {
					mt, me, gave := machineMatch(r, in)
					if gave {
						continue
					}
					ft, fe := matchMemo(r, in)
					if d := sameResult(mt, me, ft, fe); d != "" {
						t.Errorf("%s %q: %s", rule, in, d)
					}
				}
			}
		}
	}
}

// BenchmarkMatcherFallback is Match on an input the machine gives up on
// (the XBNF's search part of 20 letters followed by a space), so the budget
// of the machine plus the memoising matcher; and the memoising matcher alone.
func BenchmarkMatcherFallback(b *testing.B) {
	r := Builtin("xbnf").Rule("httpaddress")
	input := hostileXBNF(20)[0]
	b.Run("Match", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := r.Match(input); err == nil {
				b.Fatal("matched")
			}
		}
	})
	b.Run("memo", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := matchMemo(r, input); err == nil {
				b.Fatal("matched")
			}
		}
	})
}
