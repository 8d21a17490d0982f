package grammar

import (
	"crypto/sha256"
	"fmt"
	"sort"
	"strings"
	"sync"
)

// User grammars: the grammar files a configuration names for schemes that
// urlls has no grammar for (the key "schemes" of .urlls.json). RFC 1738 §4
// invites new schemes to be registered with their syntax, and their
// specifications write that syntax in RFC 5234 ABNF against the core rules
// (RFC 5234 Appendix B.1) and the rules of RFC 3986 (RFC 3986 Appendix A),
// which they use without defining. So does a user grammar.

// coreFile is the embedded text of RFC 5234 Appendix B.1.
const coreFile = "abnf/rfc5234-core.abnf"

var (
	predefinedOnce  sync.Once
	predefinedRules map[string]*Rule // by lower-case name
	predefinedErr   error
)

// loadPredefined collects the rules a user grammar may use without defining
// them: the core rules of RFC 5234 and those of RFC 3986 Appendix A (not the
// scheme rules of RFC 9110 and RFC 8089 that the embedded rfc3986 grammar
// adds). The core rules come from their own file, where all sixteen are.
func loadPredefined() {
	predefinedRules = map[string]*Rule{}
	src, err := abnfFiles.ReadFile(coreFile)
	if err != nil {
		predefinedErr = fmt.Errorf("embedded grammar %s: %w", coreFile, err)
		return
	}
	core, err := Load("rfc5234-core", coreFile, src)
	if err != nil {
		predefinedErr = err
		return
	}
	for _, r := range core.Rules {
		predefinedRules[strings.ToLower(r.Name)] = r
	}
	g := Builtin("rfc3986")
	if g == nil {
		predefinedErr = BuiltinError()
		return
	}
	for _, r := range g.Rules {
		if r.Source == "RFC 3986 Appendix A" {
			predefinedRules[strings.ToLower(r.Name)] = r
		}
	}
}

// predefinedRule returns the rule called name (in any case) that a user
// grammar may use without defining it, or nil.
func predefinedRule(name string) *Rule {
	predefinedOnce.Do(loadPredefined)
	return predefinedRules[strings.ToLower(name)]
}

// PredefinedRules returns the names of the rules a user grammar may use
// without defining them, sorted: the RFC 5234 core rules and the rules of
// RFC 3986 Appendix A.
func PredefinedRules() []string {
	predefinedOnce.Do(loadPredefined)
	names := make([]string, 0, len(predefinedRules))
	for _, r := range predefinedRules {
		names = append(names, r.Name)
	}
	sort.Strings(names)
	return names
}

// userCache holds the user grammars loaded, by name, file and content: Load
// gives each rule a RuleID for good, so a grammar must be loaded once per
// content, however often the language server reads the configuration
// again. A grammar the user edits and saves costs its rules once per saved
// version.
var userCache struct {
	sync.Mutex
	grammars map[userKey]*Grammar
}

type userKey struct {
	name, file string
	sum        [sha256.Size]byte
}

// LoadUser loads a grammar file of the user's, written in RFC 5234 ABNF
// (with RFC 7405's %s"" and %i""). It is Load with two differences:
//
//   - The rules before any ;@source directive (all of them, in a plain
//     ABNF file) cite name, the file as the user named it.
//   - The RFC 5234 core rules (ALPHA, DIGIT, HEXDIG, …) and the rules of
//     RFC 3986 Appendix A (unreserved, pct-encoded, host, query, …) may be
//     used without defining them (PredefinedRules). A rule the file refers
//     to and does not define is copied into the grammar, with the
//     predefined rules it refers to, each with its definition and source.
//     A rule the file defines under a predefined name replaces the
//     predefined one everywhere, in the predefined rules that refer to it
//     too: RFC 5870 (geo) defines its own unreserved and pct-encoded, as
//     specifications often do. "=/" extends a rule the file defines only.
//
// Errors are *LoadError located in file; a reference to an undefined rule
// is located where it is written. Loading the same name, file and content
// again returns the same *Grammar.
func LoadUser(name, file string, src []byte) (*Grammar, error) {
	key := userKey{name: name, file: file, sum: sha256.Sum256(src)}
	userCache.Lock()
	g, ok := userCache.grammars[key]
	userCache.Unlock()
	if ok {
		return g, nil
	}
	predefinedOnce.Do(loadPredefined)
	if predefinedErr != nil {
		return nil, predefinedErr
	}
	g, err := load(name, file, src, loadOptions{defaultSource: name, predefined: predefinedRule})
	if err != nil {
		return nil, err
	}
	userCache.Lock()
	defer userCache.Unlock()
	if old, ok := userCache.grammars[key]; ok {
		return old, nil // loaded meanwhile by another goroutine
	}
	if userCache.grammars == nil {
		userCache.grammars = map[userKey]*Grammar{}
	}
	userCache.grammars[key] = g
	return g, nil
}

// predefine copies into g the predefined rules that its rules (and the
// ;@transparent directive) name and it does not define, and the ones those
// name in turn. A copy keeps the rule's definition, source, line (in its
// own file) and transparency; its references resolve in g, so a rule of
// the file under a predefined name replaces the predefined one there too.
// The copies follow the file's rules, so an error about a rule (left
// recursion through a replaced rule) names a rule of the file first.
func (g *Grammar) predefine(predefined func(string) *Rule, transparent []string) {
	var names []string
	var collect func(e *Expr)
	collect = func(e *Expr) {
		if e.Kind == Ref {
			names = append(names, e.Name)
		}
		for _, it := range e.Items {
			collect(it)
		}
	}
	for _, r := range g.Rules {
		collect(r.Expr)
	}
	names = append(names, transparent...)
	for len(names) > 0 {
		n := names[0]
		names = names[1:]
		if g.Rule(n) != nil {
			continue
		}
		pre := predefined(n)
		if pre == nil {
			continue // check reports it
		}
		r := &Rule{Name: pre.Name, Definition: pre.Definition, Source: pre.Source, Line: pre.Line,
			Expr: pre.Expr, Transparent: pre.Transparent, grammar: g, index: len(g.Rules), predefined: true}
		g.Rules = append(g.Rules, r)
		g.byName[strings.ToLower(r.Name)] = r
		collect(r.Expr)
	}
}
