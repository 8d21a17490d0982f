package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/urlls/urlls/analysis/checks"
	"github.com/urlls/urlls/analysis/config"
	"github.com/urlls/urlls/analysis/scan"
)

// stdinName is how findings in standard input name their file.
const stdinName = "<stdin>"

// selectFlags are the options that "urlls check" and "urlls report" share:
// which files to check, and how to read them.
type selectFlags struct {
	strict  bool
	lang    string
	config  string
	include patternList
}

func (f *selectFlags) register(fs *flag.FlagSet) {
	fs.BoolVar(&f.strict, "strict", false, "make every RFC 1738 violation an error")
	fs.StringVar(&f.lang, "lang", "", "the language of every file (markdown, html, plaintext or an LSP language id); by default the file extension decides")
	fs.StringVar(&f.config, "config", "", "use this configuration `file` instead of the "+config.FileName+" files found upward from each file")
	fs.Var(&f.include, "include", "also check the files matching this `glob` (gitignore syntax, relative to the current directory) in directory walks, which check only documents by default; repeatable")
}

// patternList is a repeatable flag.
type patternList []string

func (l *patternList) String() string { return strings.Join(*l, " ") }

func (l *patternList) Set(p string) error {
	switch {
	case strings.TrimSpace(p) == "":
		return errors.New("empty pattern")
	case strings.HasPrefix(p, "#"):
		return fmt.Errorf("pattern %q starts with \"#\", which makes a comment in gitignore syntax (write \\# for a literal #)", p)
	}
	*l = append(*l, p)
	return nil
}

// checkFlags are the options of "urlls check".
type checkFlags struct {
	selectFlags
	format string
	fix    bool
}

// fileResult is what checking one file produced.
type fileResult struct {
	path     string // as the user named it (or found it under a named directory)
	named    bool   // named on the command line, not found by a walk
	doc      []byte
	urls     int // the candidate URLs scan found
	findings []config.Finding
	err      error  // an I/O or configuration error: the file was not checked
	binary   string // the kind of binary data (binaryKind) when the file was not checked for it

	// cfg is the file's configuration. findings holds every finding (the
	// exit code and --fix go by them); check prints cfg.Limit(findings).
	cfg config.Config
}

// target is a file to check.
type target struct {
	path string
	// named is true for a file named on the command line (or standard
	// input), false for one a directory walk found.
	named bool
}

func runCheck(e *env, cmd *command, args []string) int {
	fs := newFlagSet(cmd)
	var f checkFlags
	fs.StringVar(&f.format, "format", "text", "output `format`: text, json, sarif or github")
	f.selectFlags.register(fs)
	fs.BoolVar(&f.fix, "fix", false, "apply the preferred fix of every finding in place, then report what is left")
	paths, code, done := e.parse(cmd, fs, args)
	if done {
		return code
	}
	if len(paths) == 0 {
		return e.usageError(cmd, fs, "no files given (use - for standard input)")
	}
	switch f.format {
	case "text", "json", "sarif", "github":
	default:
		return e.usageError(cmd, fs, "unknown format %s (want text, json, sarif or github)", oneLine(f.format))
	}
	if f.fix && containsString(paths, "-") {
		return e.usageError(cmd, fs, "--fix rewrites files in place; it cannot fix standard input")
	}
	c, err := newChecker(f.selectFlags)
	if err != nil {
		fmt.Fprintf(e.stderr, "urlls: check: %s\n", message(err.Error()))
		return exitUsage
	}
	c.fix = f.fix
	ok, ioErrors := c.run(e, cmd, paths)
	if err := writeFindings(e.stdout, f.format, ok); err != nil {
		fmt.Fprintf(e.stderr, "urlls: check: %s\n", message(err.Error()))
		return exitUsage
	}
	if ioErrors > 0 {
		return exitUsage
	}
	for _, r := range ok {
		for _, fd := range r.findings {
			if fd.Severity == checks.Error {
				return exitFail
			}
		}
	}
	return exitOK
}

func containsString(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// checker holds what the files of one run share.
type checker struct {
	flags       selectFlags
	fix         bool
	explicit    bool            // --config was given
	fixedConfig *dirConfig      // its configuration
	include     *includeMatcher // --include, relative to the current directory

	mu      sync.Mutex
	configs map[string]*dirConfig // by absolute directory
}

// dirConfig is the configuration in force in a directory.
type dirConfig struct {
	once    sync.Once
	cfg     config.Config
	include *includeMatcher // cfg.Include, relative to the file's directory
	err     error
}

// newChecker reads --config and compiles --include.
func newChecker(f selectFlags) (*checker, error) {
	c := &checker{flags: f, configs: map[string]*dirConfig{}}
	if f.config != "" {
		data, err := os.ReadFile(f.config)
		if err != nil {
			return nil, pathError(f.config, err)
		}
		cfg, err := config.Parse(f.config, data)
		if err != nil {
			return nil, err
		}
		abs, err := filepath.Abs(f.config)
		if err != nil {
			return nil, err
		}
		c.explicit = true
		c.fixedConfig = &dirConfig{cfg: cfg, include: newIncludeMatcher(filepath.Dir(abs), cfg.Include)}
	}
	if len(f.include) > 0 {
		wd, err := os.Getwd()
		if err != nil {
			return nil, err
		}
		c.include = newIncludeMatcher(wd, f.include)
	}
	return c, nil
}

// run checks the files and directories of paths, in parallel, and returns
// the results of the files it checked, in order, after printing on stderr
// the errors (which it counts) and the binary files named by the user.
func (c *checker) run(e *env, cmd *command, paths []string) (ok []fileResult, ioErrors int) {
	files, walkErrs := c.collect(paths)
	results := make([]fileResult, len(files))
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				results[i] = c.checkFile(files[i].path, e.stdin)
				results[i].named = files[i].named
			}
		}()
	}
	for i := range files {
		next <- i
	}
	close(next)
	wg.Wait()

	ioErrors = len(walkErrs)
	for _, err := range walkErrs {
		fmt.Fprintf(e.stderr, "urlls: %s: %s\n", cmd.name, message(err.Error()))
	}
	for _, r := range results {
		switch {
		case r.err != nil:
			ioErrors++
			fmt.Fprintf(e.stderr, "urlls: %s: %s\n", cmd.name, message(r.err.Error()))
		case r.binary != "":
			// A binary file is no document: one that a walk found is
			// skipped silently, one named on the command line is mentioned,
			// since the user asked for it, but it is no error (exit 2 is
			// for what went wrong) nor a finding (exit 1).
			if r.named {
				fmt.Fprintf(e.stderr, "urlls: %s: %s\n", cmd.name, message(skipNotice(r.path, r.binary)))
			}
		default:
			ok = append(ok, r)
		}
	}
	return ok, ioErrors
}

// collect expands the command line into files, in order, without
// duplicates: each path named, and the files a directory walk selects
// (walk.go). A path that does not exist is an error; the others are still
// checked.
func (c *checker) collect(paths []string) (files []target, errs []error) {
	seen := map[string]int{}
	add := func(p string, named bool) {
		if i, ok := seen[p]; ok {
			files[i].named = files[i].named || named
			return
		}
		seen[p] = len(files)
		files = append(files, target{path: p, named: named})
	}
	for _, p := range paths {
		if p == "-" {
			add(p, true)
			continue
		}
		info, err := os.Stat(p)
		if err != nil {
			errs = append(errs, pathError(p, err))
			continue
		}
		if !info.IsDir() {
			add(p, true)
			continue
		}
		errs = append(errs, c.walk(p, func(path string) { add(path, false) })...)
	}
	return files, errs
}

// walk calls add for each file of the directory p that a walk checks.
func (c *checker) walk(p string, add func(string)) (errs []error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return []error{pathError(p, err)}
	}
	start, err := walkStart(abs)
	if err != nil {
		return []error{err}
	}
	// The ignore state of each directory walked, by its path.
	states := map[string]*ignoreState{}
	err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			errs = append(errs, pathError(path, err))
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		rel, err := filepath.Rel(p, path)
		if err != nil {
			errs = append(errs, pathError(path, err))
			return nil
		}
		pathAbs := filepath.Join(abs, rel)
		// WalkDir joins (and so cleans) the paths below p: key the states
		// by clean paths.
		parent := states[filepath.Dir(path)]
		if d.IsDir() {
			if path != p {
				if skipDirs[d.Name()] || parent.ignored(pathAbs, true) {
					return fs.SkipDir
				}
			} else {
				parent = start
			}
			st, err := parent.with(pathAbs)
			if err != nil {
				errs = append(errs, err)
				return fs.SkipDir
			}
			states[filepath.Clean(path)] = st
			return nil
		}
		if !d.Type().IsRegular() || d.Name() == config.FileName || parent.ignored(pathAbs, false) {
			return nil
		}
		if c.selects(path, pathAbs) {
			add(path)
		}
		return nil
	})
	if err != nil {
		errs = append(errs, pathError(p, err))
	}
	return errs
}

// selects reports whether a walk checks the file at path (pathAbs, made
// absolute): a document, or a file the configuration's "include" or
// --include names.
func (c *checker) selects(path, pathAbs string) bool {
	dc := c.dirConfig(filepath.Dir(path))
	if dc.err != nil {
		// Check the documents: the error is then reported for them.
		return isDocument(path, config.Config{})
	}
	return isDocument(path, dc.cfg) || dc.include.includes(pathAbs) || c.include.includes(pathAbs)
}

// pathError words an I/O error the way a user reads it: "PATH: no such file".
func pathError(path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %v", path, pe.Err)
	}
	return err
}

// configFor returns the configuration for a file in dir: --config's, or the
// nearest .urlls.json upward, or the default.
func (c *checker) configFor(dir string) (config.Config, error) {
	dc := c.dirConfig(dir)
	return dc.cfg, dc.err
}

// dirConfig returns the configuration in force in dir: --config's, or the
// nearest .urlls.json upward, or the default.
func (c *checker) dirConfig(dir string) *dirConfig {
	if c.explicit {
		return c.fixedConfig
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return &dirConfig{err: err}
	}
	c.mu.Lock()
	dc, ok := c.configs[abs]
	if !ok {
		dc = &dirConfig{}
		c.configs[abs] = dc
	}
	c.mu.Unlock()
	dc.once.Do(func() {
		name := filepath.Join(abs, config.FileName)
		data, err := os.ReadFile(name)
		switch {
		case err == nil:
			dc.cfg, dc.err = config.Parse(name, data)
			dc.include = newIncludeMatcher(abs, dc.cfg.Include)
		case errors.Is(err, fs.ErrNotExist):
			if parent := filepath.Dir(abs); parent != abs {
				up := c.dirConfig(parent)
				dc.cfg, dc.include, dc.err = up.cfg, up.include, up.err
			}
		default:
			dc.err = pathError(name, err)
		}
	})
	return dc
}

// checkFile reads and checks one file, and fixes it with --fix.
func (c *checker) checkFile(path string, stdin io.Reader) fileResult {
	r := fileResult{path: path}
	dir := filepath.Dir(path)
	if path == "-" {
		r.path = stdinName
		dir = "."
	}
	var err error
	r.doc, r.binary, err = readDocument(path, stdin)
	if err != nil {
		r.err = pathError(r.path, err)
		return r
	}
	if r.binary != "" {
		r.doc = nil
		return r
	}
	cfg, err := c.configFor(dir)
	if err != nil {
		r.err = err
		return r
	}
	if c.flags.strict {
		cfg.Strict = true
	}
	r.cfg = cfg
	lang := languageOf(path, c.flags.lang, cfg)
	if lang == "" {
		lang = "plaintext"
	}
	cands := scan.Scan(r.doc, lang)
	r.urls = len(cands)
	r.findings = cfg.Apply(r.doc, lang, checks.CheckCandidates(r.doc, cands))
	if c.fix && len(r.findings) > 0 {
		fixed, n := applyPreferredFixes(r.doc, r.findings)
		if n > 0 {
			if err := writeFileAtomic(path, fixed); err != nil {
				r.err = err
				return r
			}
			r.doc = fixed
			r.findings = cfg.Apply(fixed, lang, checks.CheckDocument(fixed, lang))
		}
	}
	return r
}

// applyPreferredFixes applies the fix-all of the findings (config.FixAll:
// the preferred fix of each error and warning whose edits do not overlap
// another's), and returns the new document and how many fixes it applied.
func applyPreferredFixes(doc []byte, findings []config.Finding) ([]byte, int) {
	edits, n := config.FixAll(findings)
	return checks.ApplyEdits(doc, edits), n
}

// writeFileAtomic replaces path's content safely: a temporary file in the
// same directory, with the same permissions, renamed over the original.
func writeFileAtomic(path string, data []byte) error {
	info, err := os.Stat(path)
	if err != nil {
		return pathError(path, err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".urlls-*")
	if err != nil {
		return pathError(path, err)
	}
	name := tmp.Name()
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Chmod(name, info.Mode().Perm())
	}
	if werr == nil {
		werr = os.Rename(name, path)
	}
	if werr != nil {
		os.Remove(name)
		return fmt.Errorf("%s: could not write the fixed file: %v", path, werr)
	}
	return nil
}
