package grammar

import (
	"embed"
	"fmt"
	"sort"
	"sync"
)

//go:embed abnf/*.abnf
var abnfFiles embed.FS

// builtinFiles maps each embedded grammar's short name to its file.
var builtinFiles = map[string]string{
	"rfc1738": "abnf/rfc1738.abnf",
	"rfc1808": "abnf/rfc1808.abnf",
	"rfc3986": "abnf/rfc3986.abnf",
	"xbnf":    "abnf/xbnf.abnf",
}

var (
	builtinOnce sync.Once
	builtins    map[string]*Grammar
	builtinErr  error
)

func loadBuiltins() {
	builtins = map[string]*Grammar{}
	for name, file := range builtinFiles {
		src, err := abnfFiles.ReadFile(file)
		if err != nil {
			builtinErr = fmt.Errorf("embedded grammar %s: %w", name, err)
			return
		}
		g, err := Load(name, file, src)
		if err != nil {
			builtinErr = err
			return
		}
		builtins[name] = g
	}
}

// Builtin returns the embedded grammar called name ("rfc1738", "rfc1808",
// "rfc3986" or "xbnf"), or nil.
func Builtin(name string) *Grammar {
	builtinOnce.Do(loadBuiltins)
	return builtins[name]
}

// BuiltinNames returns the names of the embedded grammars, sorted.
func BuiltinNames() []string {
	names := make([]string, 0, len(builtinFiles))
	for n := range builtinFiles {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// BuiltinError reports a failure to load the embedded grammars; the tests
// assert it is nil, so a release can never ship a broken grammar file.
func BuiltinError() error {
	builtinOnce.Do(loadBuiltins)
	return builtinErr
}

// BuiltinSource returns the text of the embedded grammar file called name.
func BuiltinSource(name string) ([]byte, bool) {
	file, ok := builtinFiles[name]
	if !ok {
		return nil, false
	}
	src, err := abnfFiles.ReadFile(file)
	return src, err == nil
}

// MustRule returns rule name of the embedded grammar g; it panics when either
// is missing, which only a broken build can cause (package initialisation of
// the fast parser uses it).
func MustRule(g, name string) *Rule {
	gr := Builtin(g)
	if gr == nil {
		panic(fmt.Sprintf("grammar: embedded grammar %s does not load: %v", g, BuiltinError()))
	}
	r := gr.Rule(name)
	if r == nil {
		panic(fmt.Sprintf("grammar: embedded grammar %s has no rule %s", g, name))
	}
	return r
}
