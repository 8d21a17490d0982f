package fileio

import (
	"errors"
	"fmt"
	"hash"
	"path/filepath"
	"sort"
	"strings"

	"github.com/urlls/urlls/analysis/config"
	"github.com/urlls/urlls/analysis/grammar"
)

// GrammarMaxSize is the size of the largest grammar file read: the grammar
// of a scheme is a few KiB.
const GrammarMaxSize = 1 << 20

// LoadSchemes reads and loads the grammar files that cfg's "schemes" name
// (config.SchemeGrammar) and sets the start rule of each. configFile is the
// path of the configuration file they come from, as its errors name it: the
// grammar paths are relative to its directory, and an error in a grammar
// file is named after both joined ("docs/geo.abnf:3:12: …").
//
// A grammar file must be a regular file of at most GrammarMaxSize bytes in
// the configuration file's directory or below it, symbolic links resolved:
// config.Parse refuses a path with ".." or an absolute one, and a link out
// of the directory is refused here. The configuration of a repository one
// has cloned names the repository's own files, never one elsewhere on the
// machine, whose lines an error message would then quote.
//
// On an error, the schemes whose grammars did load keep their start rules,
// the others are dropped from cfg, and the error of the first (by scheme)
// is returned: a *grammar.LoadError located in the grammar file, or a
// *config.Error located at its key in the configuration file.
func LoadSchemes(cfg *config.Config, configFile string) error {
	return loadSchemes(cfg, configFile, nil)
}

// loadSchemes is LoadSchemes; it writes the grammar files' names and bytes
// to h when h is not nil (FindConfigDigest).
func loadSchemes(cfg *config.Config, configFile string, h hash.Hash) error {
	if len(cfg.Schemes) == 0 {
		return nil
	}
	names := make([]string, 0, len(cfg.Schemes))
	for name := range cfg.Schemes {
		names = append(names, name)
	}
	sort.Strings(names)
	dir := filepath.Dir(configFile)
	loaded := make(map[string]config.SchemeGrammar, len(cfg.Schemes))
	var first error
	for _, name := range names {
		s := cfg.Schemes[name]
		start, err := loadScheme(dir, name, s, h)
		if err != nil {
			if first == nil {
				first = err
			}
			continue
		}
		s.Start = start
		loaded[name] = s
	}
	cfg.Schemes = loaded
	return first
}

// loadScheme loads the grammar of one scheme and returns its start rule.
func loadScheme(dir, scheme string, s config.SchemeGrammar, h hash.Hash) (*grammar.Rule, error) {
	name := filepath.Join(dir, filepath.FromSlash(s.Grammar))
	if err := inside(dir, name); err != nil {
		return nil, s.GrammarError("grammar file %q of scheme %q: %v", s.Grammar, scheme, err)
	}
	data, _, err := ReadRegular(name, GrammarMaxSize)
	if err != nil {
		var nr *NotRegularError
		var tl *TooLargeError
		switch {
		case IsNotExist(err):
			err = errors.New("no such file")
		case errors.As(err, &nr):
			err = fmt.Errorf("not a regular file (%s)", Kind(nr.Mode))
		case errors.As(err, &tl):
			err = fmt.Errorf("larger than %s", FormatSize(tl.Limit))
		default:
			err = errors.Unwrap(err) // the *fs.PathError's own error: the path is said already
		}
		return nil, s.GrammarError("grammar file %q of scheme %q: %v", s.Grammar, scheme, err)
	}
	if h != nil {
		digestPart(h, name, data)
	}
	g, err := grammar.LoadUser(s.Grammar, name, data)
	if err != nil {
		return nil, err
	}
	r := g.Rule(s.Rule)
	if r == nil {
		return nil, s.RuleError("grammar file %q of scheme %q has no rule %q (its rules: %s)", s.Grammar, scheme, s.Rule, strings.Join(fileRules(g), ", "))
	}
	return r, nil
}

// fileRules returns the names of the rules g's file defines, in its order,
// not the predefined ones it uses.
func fileRules(g *grammar.Grammar) []string {
	var names []string
	for _, r := range g.Rules {
		if !r.Predefined() {
			names = append(names, r.Name)
		}
	}
	return names
}

// inside checks that the file name, with its symbolic links resolved, is in
// dir or below it.
func inside(dir, name string) error {
	realDir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return nil // reading the file will say what is wrong
	}
	real, err := filepath.EvalSymlinks(name)
	if err != nil {
		return nil
	}
	realDir, _ = filepath.Abs(realDir)
	real, _ = filepath.Abs(real)
	if !Within(real, realDir) {
		return errors.New("a symbolic link out of the configuration file's directory, not read")
	}
	return nil
}

// ReadConfigFile reads the configuration file a user named (urlls check
// --config, urlls explain --config): trusted whoever owns it, since the user
// named it, but a regular file of at most ConfigMaxSize bytes; its grammar
// files are loaded (LoadSchemes).
func ReadConfigFile(name string) (config.Config, error) {
	data, _, err := ReadRegular(name, ConfigMaxSize)
	if err != nil {
		return config.Config{}, err
	}
	cfg, err := config.Parse(name, data)
	if err != nil {
		return config.Config{}, err
	}
	return cfg, LoadSchemes(&cfg, name)
}
