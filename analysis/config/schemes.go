package config

import (
	"encoding/json"
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/urlls/urlls/analysis/checks"
	"github.com/urlls/urlls/analysis/grammar"
	"github.com/urlls/urlls/analysis/parser"
)

// SchemeGrammar is the grammar of the user's for one scheme (the key
// "schemes"):
//
//	"schemes": { "geo": { "grammar": "geo.abnf", "rule": "geo-URI" } }
//
// This package records it; a front end reads the grammar file (relative to
// the configuration file's directory), loads it with grammar.LoadUser and
// sets Start (lsp/fileio.LoadSchemes).
type SchemeGrammar struct {
	// Grammar is the path of the grammar file as written: relative to the
	// directory of the configuration file, with "/" between its names,
	// inside that directory (no "..", not absolute).
	Grammar string
	// Rule is the name of the start rule, the production a URL of the
	// scheme must match (without its fragment).
	Rule string
	// Start is the start rule, once a front end has loaded the grammar;
	// nil before.
	Start *grammar.Rule

	// where the values stand, for the errors found when loading them
	file                  string
	grammarLine, grammarC int
	ruleLine, ruleC       int
}

// GrammarError returns an error located at the scheme's "grammar" key in
// the configuration file: the grammar file could not be read.
func (s SchemeGrammar) GrammarError(format string, args ...any) error {
	return &Error{File: s.file, Line: s.grammarLine, Col: s.grammarC, Msg: fmt.Sprintf(format, args...)}
}

// RuleError returns an error located at the scheme's "rule" key in the
// configuration file: the grammar has no such rule.
func (s SchemeGrammar) RuleError(format string, args ...any) error {
	return &Error{File: s.file, Line: s.ruleLine, Col: s.ruleC, Msg: fmt.Sprintf(format, args...)}
}

// CheckOptions returns how the checks judge URLs under c: the grammar
// profile, and the start rules of the user's grammars that a front end
// loaded, by lower-case scheme.
func (c Config) CheckOptions() checks.Options {
	var opts checks.Options
	opts.Grammar, _ = parser.ProfileNamed(c.Grammar) // Parse accepts only known names
	for scheme, s := range c.Schemes {
		if s.Start == nil {
			continue
		}
		if opts.Schemes == nil {
			opts.Schemes = map[string]*grammar.Rule{}
		}
		opts.Schemes[scheme] = s.Start
	}
	return opts
}

// validScheme reports whether s is a scheme name by RFC 3986 §3.1: scheme =
// ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ).
func validScheme(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i] | 0x20
		switch {
		case 'a' <= c && c <= 'z':
		case i > 0 && ('0' <= s[i] && s[i] <= '9' || s[i] == '+' || s[i] == '-' || s[i] == '.'):
		default:
			return false
		}
	}
	return s != ""
}

// parseSchemes reads the value of "schemes"; at locates an error at what a
// path of keys names.
func parseSchemes(file string, data []byte, v json.RawMessage, at func(path []any, msg string, args ...any) error) (map[string]SchemeGrammar, error) {
	const key = "schemes"
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(v, &raw); err != nil || raw == nil {
		return nil, at([]any{key}, `"schemes" must map schemes to {"grammar": "FILE.abnf", "rule": "START-RULE"}`)
	}
	names := make([]string, 0, len(raw))
	for name := range raw {
		names = append(names, name)
	}
	sort.Strings(names)
	out := map[string]SchemeGrammar{}
	written := map[string]string{} // lower-case scheme -> as written
	for _, name := range names {
		lower := strings.ToLower(name)
		switch {
		case !validScheme(name):
			return nil, at([]any{key, name}, `%q is not a scheme name (RFC 3986 §3.1: a letter, then letters, digits, "+", "-" and "."; no ":")`, name)
		case parser.KnownScheme(lower):
			return nil, at([]any{key, name}, "scheme %q has its grammar in urlls (RFC 1738 §5); \"schemes\" gives a grammar to the schemes urlls has none for", lower)
		case written[lower] != "":
			return nil, at([]any{key, name}, "scheme %q is given twice (%q and %q: schemes are case-insensitive)", lower, written[lower], name)
		}
		written[lower] = name
		var fields map[string]json.RawMessage
		if err := json.Unmarshal(raw[name], &fields); err != nil || fields == nil {
			return nil, at([]any{key, name}, `scheme %q must be an object {"grammar": "FILE.abnf", "rule": "START-RULE"}`, name)
		}
		s := SchemeGrammar{file: file}
		keys := make([]string, 0, len(fields))
		for k := range fields {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			var val string
			switch k {
			case "grammar", "rule":
				if err := json.Unmarshal(fields[k], &val); err != nil || strings.TrimSpace(val) == "" {
					return nil, at([]any{key, name, k}, "%q of scheme %q must be a non-empty string", k, name)
				}
			default:
				return nil, at([]any{key, name, k}, `unknown key %q in scheme %q (known: "grammar", "rule")`, k, name)
			}
			line, col := lineCol(data, locate(data, []any{key, name, k}))
			if k == "grammar" {
				s.Grammar, s.grammarLine, s.grammarC = val, line, col
				if msg := grammarPathProblem(val); msg != "" {
					return nil, at([]any{key, name, k}, "grammar file %q of scheme %q %s", val, name, msg)
				}
			} else {
				s.Rule, s.ruleLine, s.ruleC = val, line, col
			}
		}
		for _, k := range []string{"grammar", "rule"} {
			if _, ok := fields[k]; !ok {
				return nil, at([]any{key, name}, "scheme %q lacks %q", name, k)
			}
		}
		out[lower] = s
	}
	return out, nil
}

// grammarPathProblem says what is wrong with a grammar path, or "". A
// grammar file is read from the configuration file's directory or below
// (and a symbolic link must not lead out of it, which the front end checks):
// a repository's configuration names its own files, never a file elsewhere
// on the machine whose lines an error message would quote.
func grammarPathProblem(p string) string {
	switch {
	case strings.Contains(p, "\\"):
		return `must use "/" between names`
	case strings.HasPrefix(p, "/") || len(p) >= 2 && p[1] == ':':
		return "must be relative to the directory of the configuration file"
	case strings.IndexByte(p, 0) >= 0:
		return "holds a NUL byte"
	}
	for _, elem := range strings.Split(p, "/") {
		if elem == ".." {
			return "must be in the directory of the configuration file or below it, without \"..\""
		}
	}
	if path.Clean(p) == "." {
		return "names a directory"
	}
	return ""
}
