package parser

import (
	"strings"

	"github.com/urlls/urlls/analysis/grammar"
)

// The grammar's first derivation (greedy repetitions, alternatives in the
// order written) hides three productions of RFC 1738 §5 that a URL has:
//
//   - gopher's search and gopher+_string: selector = *xchar takes every
//     "%09" (RFC 1738 §3.4: "gopher://<host>:<port>/<gopher-path>", the
//     gopher-path "<gophertype><selector>%09<search>%09<gopher+_string>").
//     §3.4 says the selector holds no tab, so the parser splits the selector
//     at its first "%09", and what follows at the next "%09", when the part
//     between is a search (RFC 1738's search has no "/" or "?"; where it has,
//     the selector keeps the tab, which is the only derivation then);
//   - nntp's article number: nntpurl = "nntp://" hostport "/" group [ "/"
//     digits ], and digits is a transparent rule (a run of digits, as in port
//     and hostnumber, where it adds nothing); here it is the article number,
//     and the tree gives it a node of its own;
//   - a genericurl's login and hostport: schemepart = *xchar / ip-schemepart,
//     and every ip-schemepart is a run of xchars too, so the first
//     alternative always wins; when the scheme part is an ip-schemepart
//     ("//" login [ "/" urlpath ]), the tree shows that derivation under
//     schemepart.
//
// Each is another derivation of the same grammar, not a change of its
// language: the verdict and the errors are the matcher's. Reference applies
// them to the general matcher's tree; the fast path builds the same trees,
// and the differential tests hold the two to each other as before.

var (
	rGopherPlus   = grammar.MustRule("rfc1738", "gopher+_string")
	rDigits       = grammar.MustRule("rfc1738", "digits")
	rIPSchemepart = grammar.MustRule("rfc1738", "ip-schemepart")
	rUrlpath      = grammar.MustRule("rfc1738", "urlpath")
)

// refine applies the refinements to the general matcher's tree of a start
// rule over body; nodes[0] is the start rule's node.
func refine(nodes []grammar.Node, body string) []grammar.Node {
	if len(nodes) == 0 {
		return nodes
	}
	switch nodes[0].ID {
	case rGopherurl.ID:
		return refineGopher(nodes, body)
	case rNntpurl.ID:
		return refineNntp(nodes, body)
	case rGenericurl.ID:
		return refineGeneric(nodes, body)
	}
	return nodes
}

// refineGopher splits the selector at its first "%09" into selector, search
// and, after a second "%09", gopher+_string.
func refineGopher(nodes []grammar.Node, body string) []grammar.Node {
	sel := childOf(nodes, 0, rSelector)
	if sel < 0 {
		return nodes
	}
	s, e := int(nodes[sel].Start), int(nodes[sel].End)
	text := body[s:e]
	i := strings.Index(text, "%09")
	if i < 0 {
		return nodes
	}
	rest := text[i+3:]
	search, plus := rest, -1
	if j := strings.Index(rest, "%09"); j >= 0 {
		search, plus = rest[:j], j
	}
	repl, ok := subtree(rSelector, text[:i], s)
	if !ok {
		return nodes
	}
	st, ok := subtree(rSearch, search, s+i+3)
	if !ok {
		return nodes // "/" or "?" after the tab: no search
	}
	repl = append(repl, st...)
	if plus >= 0 {
		gt, ok := subtree(rGopherPlus, rest[plus+3:], s+i+3+plus+3)
		if !ok {
			return nodes // not reached: the selector's xchars are gopher+_string's
		}
		repl = append(repl, gt...)
	}
	return splice(nodes, 0, sel, int(nodes[sel].Size), repl)
}

// refineNntp gives the article number after the group its node.
func refineNntp(nodes []grammar.Node, body string) []grammar.Node {
	g := childOf(nodes, 0, rGroup)
	if g < 0 {
		return nodes
	}
	end := int(nodes[g].End)
	if end+1 >= len(body) || body[end] != '/' {
		return nodes
	}
	leaf := grammar.Node{ID: rDigits.ID, Start: int32(end + 1), End: int32(len(body)), Size: 1}
	return splice(nodes, 0, len(nodes), 0, []grammar.Node{leaf})
}

// refineGeneric shows a scheme part that is an ip-schemepart as one.
func refineGeneric(nodes []grammar.Node, body string) []grammar.Node {
	sp := childOf(nodes, 0, rSchemepart)
	if sp < 0 {
		return nodes
	}
	s, e := int(nodes[sp].Start), int(nodes[sp].End)
	if !strings.HasPrefix(body[s:e], "//") {
		return nodes
	}
	ip, ok := subtree(rIPSchemepart, body[s:e], s)
	if !ok {
		return nodes
	}
	return splice(nodes, sp, sp+1, int(nodes[sp].Size)-1, ip)
}

// childOf returns the index of the first child of node parent that matched
// rule r, or -1.
func childOf(nodes []grammar.Node, parent int, r *grammar.Rule) int {
	end := parent + int(nodes[parent].Size)
	for c := parent + 1; c < end; c += int(nodes[c].Size) {
		if nodes[c].ID == r.ID {
			return c
		}
	}
	return -1
}

// subtree matches text against r with the general matcher and returns the
// tree's nodes moved to offset off.
func subtree(r *grammar.Rule, text string, off int) ([]grammar.Node, bool) {
	t, err := r.Match(text)
	if err != nil {
		return nil, false
	}
	for i := range t.Nodes {
		t.Nodes[i].Start += int32(off)
		t.Nodes[i].End += int32(off)
	}
	return t.Nodes, true
}

// splice replaces the remove nodes at index at, inside the subtree of node
// parent, with repl, and resizes parent and its ancestors.
func splice(nodes []grammar.Node, parent, at, remove int, repl []grammar.Node) []grammar.Node {
	delta := int32(len(repl) - remove)
	out := make([]grammar.Node, 0, len(nodes)+len(repl)-remove)
	out = append(out, nodes[:at]...)
	out = append(out, repl...)
	out = append(out, nodes[at+remove:]...)
	for j := 0; j <= parent; j++ {
		if j+int(out[j].Size) > parent {
			out[j].Size += delta
		}
	}
	return out
}
