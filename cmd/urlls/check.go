package main

import (
	"bytes"
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
	"syscall"

	"github.com/urlls/urlls/analysis/checks"
	"github.com/urlls/urlls/analysis/config"
	"github.com/urlls/urlls/analysis/parser"
	"github.com/urlls/urlls/analysis/scan"
	"github.com/urlls/urlls/lsp/fileio"
)

// stdinName is how findings in standard input name their file.
const stdinName = "<stdin>"

// selectFlags are the options that "urlls check" and "urlls report" share:
// which files to check, and how to read them.
type selectFlags struct {
	strict  bool
	grammar grammarFlag
	lang    string
	config  string
	include patternList
	maxSize sizeFlag
}

// defaultMaxSize is the size of the largest file checked unless --max-size
// says otherwise: far above any document written by hand, and above the
// generated ones (an API reference of 50 MB checks in seconds and takes
// about 15 bytes of memory per byte), yet it stops /dev/zero, logs and
// dumps from taking the memory of the machine.
const defaultMaxSize = 64 << 20

func (f *selectFlags) register(fs *flag.FlagSet) {
	fs.BoolVar(&f.strict, "strict", false, "make every RFC 1738 violation an error")
	fs.Var(&f.grammar, "grammar", "check URLs by `GRAMMAR`: "+strings.Join(parser.ProfileNames(), ", ")+" (default: the configuration's \"grammar\", else rfc1738)")
	fs.StringVar(&f.lang, "lang", "", "the language of every file (markdown, html, plaintext or an LSP language id); by default the file extension decides")
	fs.StringVar(&f.config, "config", "", "use this configuration `file` instead of the "+config.FileName+" files found upward from each file")
	fs.Var(&f.include, "include", "also check the files matching this `glob` (gitignore syntax, relative to the current directory) in directory walks, which check only documents by default; repeatable")
	f.maxSize = defaultMaxSize
	fs.Var(&f.maxSize, "max-size", "do not check a file larger than `SIZE` (bytes, or with K, M or G: 16M, 1G)")
}

// grammarFlag is the --grammar of check and report: a name of
// parser.ProfileNames, overriding the configuration's "grammar".
type grammarFlag string

func (g *grammarFlag) String() string { return string(*g) }

func (g *grammarFlag) Set(v string) error {
	if _, ok := parser.ProfileNamed(v); !ok || v == "" {
		return fmt.Errorf("unknown grammar %q (known: %s)", v, strings.Join(parser.ProfileNames(), ", "))
	}
	*g = grammarFlag(v)
	return nil
}

// sizeFlag is a size in bytes, given as 4096, 16K, 64M or 1GiB.
type sizeFlag int64

func (s *sizeFlag) String() string { return fileio.FormatSize(int64(*s)) }

func (s *sizeFlag) Set(v string) error {
	n, err := fileio.ParseSize(v)
	if err != nil {
		return err
	}
	*s = sizeFlag(n)
	return nil
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
	outputFlags
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
	fixErr   error  // --fix could not write the file: the findings are those of the file as it is
	binary   string // the kind of binary data (binaryKind) when the file was not checked for it

	// cfg is the file's configuration. findings holds every finding (the
	// exit code and --fix go by them); check prints cfg.Limit(findings).
	cfg config.Config
}

// target is a file to check.
type target struct {
	path string // as the user named it, or under the name of the directory named
	// abs is the absolute path of the file, its directories' symbolic
	// links resolved: where its configuration and ignore files are looked
	// for. "" for standard input.
	abs string
	// top is where the lookup of its configuration stops outside a
	// repository: the directory named on the command line, the directory
	// of the file named, or the current directory for standard input.
	top string
	// named is true for a file named on the command line (or standard
	// input), false for one a directory walk found.
	named bool
}

func runCheck(e *env, cmd *command, args []string) int {
	fs := newFlagSet(cmd)
	var f checkFlags
	fs.StringVar(&f.format, "format", "text", "output `format`: text, json, sarif or github")
	f.selectFlags.register(fs)
	fs.BoolVar(&f.fix, "fix", false, "apply the preferred fix of every error and warning in place, then report what is left")
	f.outputFlags.register(fs, true)
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
	if err := f.outputFlags.check(); err != nil {
		return e.checkerError(cmd, fs, err)
	}
	if f.fix && containsString(paths, "-") {
		return e.usageError(cmd, fs, "--fix rewrites files in place; it cannot fix standard input")
	}
	c, err := newChecker(f.selectFlags)
	if err != nil {
		return e.checkerError(cmd, fs, err)
	}
	c.fix = f.fix
	if c.fix {
		// A kill while a file is being written waits for the write to end
		// (fix.go).
		defer holdSignals()()
	}
	c.progress = startProgress(e.stderr, f.quiet, paths)
	ok, ioErrors := c.run(e, cmd, paths)
	shown := checks.Severity(f.minSeverity) // the mildest severity printed
	stdout, pal := e.stdout, (*palette)(nil)
	if f.format == "text" && colorWanted(f.color, e.stdout) {
		// Only the text format is for people; the others are read by tools.
		stdout, pal = colorWriter(e.stdout), newPalette(true)
	}
	if err := writeFindings(stdout, f.format, shownResults(ok, shown), pal); err != nil {
		fmt.Fprintf(e.stderr, "urlls: check: %s\n", message(err.Error()))
		return exitUsage
	}
	if !f.quiet {
		stderr, pal := e.stderr, (*palette)(nil)
		if colorWanted(f.color, e.stderr) {
			stderr, pal = colorWriter(e.stderr), newPalette(true)
		}
		writeSummary(stderr, pal, summarize(ok, shown))
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
	cwd         string          // the current directory, symbolic links resolved

	progress *progress // nil: none shown

	mu       sync.Mutex
	configs  map[configKey]*dirConfig
	warnings []string // about the configuration files ignored, each once
	warned   map[string]bool
}

// configKey is a directory whose configuration was looked up, and the
// directory where the lookup stops.
type configKey struct{ dir, stop string }

// dirConfig is the configuration in force in a directory.
type dirConfig struct {
	once    sync.Once
	cfg     config.Config
	include *includeMatcher // cfg.Include, relative to the file's directory
	err     error
}

// usageErr is a bad command line found after parsing it.
type usageErr struct{ msg string }

func (u *usageErr) Error() string { return u.msg }

// checkerError reports what newChecker returned: a usage error with the
// usage, any other on one line. It returns the exit code.
func (e *env) checkerError(cmd *command, fs *flag.FlagSet, err error) int {
	var ue *usageErr
	if errors.As(err, &ue) {
		return e.usageError(cmd, fs, "%s", ue.msg)
	}
	fmt.Fprintf(e.stderr, "urlls: %s: %s\n", cmd.name, message(err.Error()))
	return exitUsage
}

// newChecker reads --config, compiles --include and checks --lang.
func newChecker(f selectFlags) (*checker, error) {
	c := &checker{flags: f, configs: map[configKey]*dirConfig{}, warned: map[string]bool{}}
	wd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	c.cwd = realDir(wd)
	if f.config != "" {
		// Named by the user, the file is trusted whoever owns it; it must
		// still be a regular file of a sensible size (and so must the
		// grammar files it names).
		cfg, err := fileio.ReadConfigFile(f.config)
		if err != nil {
			return nil, pathError(f.config, err)
		}
		abs, err := filepath.Abs(f.config)
		if err != nil {
			return nil, err
		}
		c.explicit = true
		c.fixedConfig = &dirConfig{cfg: cfg, include: newIncludeMatcher(filepath.Dir(abs), cfg.Include)}
	}
	if len(f.include) > 0 {
		c.include = newIncludeMatcher(c.cwd, f.include) // matched against resolved paths
	}
	if f.lang != "" && !scan.KnownLanguage(f.lang) && !c.configuredLanguage(f.lang) {
		return nil, &usageErr{fmt.Sprintf("unknown language %s for --lang (known: %s; or a language id that the configuration's \"languages\" names)",
			oneLine(f.lang), strings.Join(scan.Languages(), ", "))}
	}
	return c, nil
}

// configuredLanguage reports whether lang is a language of the
// configuration in force in the current directory: a user may map an
// extension to a language id urlls does not know (and reads as plain text).
func (c *checker) configuredLanguage(lang string) bool {
	cfg, err := c.configFor(target{path: "-", abs: "", top: c.cwd})
	if err != nil {
		return false
	}
	for _, l := range cfg.Languages {
		if strings.EqualFold(l, lang) {
			return true
		}
	}
	return false
}

// realDir returns dir (absolute) with its symbolic links resolved, or dir
// when they cannot be.
func realDir(dir string) string {
	if r, err := filepath.EvalSymlinks(dir); err == nil {
		return r
	}
	return filepath.Clean(dir)
}

// run checks the files and directories of paths, in parallel, and returns
// the results of the files it checked, in order, after printing on stderr
// the errors (which it counts), the notices about what it skipped and the
// warnings about the configuration files it ignored.
func (c *checker) run(e *env, cmd *command, paths []string) (ok []fileResult, ioErrors int) {
	files, walkErrs, notices := c.collect(paths)
	c.progress.walked(len(files))
	results := make([]fileResult, len(files))
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				results[i] = c.checkFile(files[i], e.stdin)
				c.progress.fileChecked()
			}
		}()
	}
	for i := range files {
		next <- i
	}
	close(next)
	wg.Wait()
	c.progress.stop() // before anything else is printed

	ioErrors = len(walkErrs)
	for _, err := range walkErrs {
		fmt.Fprintf(e.stderr, "urlls: %s: %s\n", cmd.name, message(err.Error()))
	}
	for _, n := range notices {
		fmt.Fprintf(e.stderr, "urlls: %s: %s\n", cmd.name, message(n))
	}
	for _, w := range c.warnings {
		fmt.Fprintf(e.stderr, "urlls: %s: warning: %s\n", cmd.name, message(w))
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
			if r.fixErr != nil {
				// Not fixed: its findings are reported as they are.
				ioErrors++
				fmt.Fprintf(e.stderr, "urlls: %s: %s\n", cmd.name, message(r.fixErr.Error()))
			}
			ok = append(ok, r)
		}
	}
	return ok, ioErrors
}

// collect expands the command line into files, in order, without
// duplicates: each path named, and the files a directory walk selects
// (walk.go). A path that does not exist is an error; the others are still
// checked. A file reached twice, under two names (a hard link, a symbolic
// link to a directory named too), is checked once, under the first.
func (c *checker) collect(paths []string) (files []target, errs []error, notices []string) {
	seen := map[string]int{}
	seenID := map[fileio.ID]int{}
	add := func(t target, info fs.FileInfo) {
		i, ok := seen[t.path]
		if !ok && info != nil {
			if id, ok2 := fileio.FileID(info); ok2 {
				i, ok = seenID[id]
				if !ok {
					seenID[id] = len(files)
				}
			}
		}
		if ok {
			files[i].named = files[i].named || t.named
			return
		}
		seen[t.path] = len(files)
		files = append(files, t)
		c.progress.fileFound()
	}
	walked := map[fileio.ID]bool{}
	for _, p := range paths {
		if p == "-" {
			add(target{path: p, top: c.cwd, named: true}, nil)
			continue
		}
		info, err := os.Stat(p)
		if err != nil {
			if errors.Is(err, syscall.ELOOP) {
				errs = append(errs, fmt.Errorf("%s: a loop of symbolic links, not checked", p))
			} else {
				errs = append(errs, pathError(p, err))
			}
			continue
		}
		abs, err := filepath.Abs(p)
		if err != nil {
			errs = append(errs, pathError(p, err))
			continue
		}
		if !info.IsDir() {
			// Even a FIFO or a device: checkFile refuses it, with a message.
			dir := realDir(filepath.Dir(abs))
			add(target{path: p, abs: filepath.Join(dir, filepath.Base(abs)), top: dir, named: true}, info)
			continue
		}
		// A directory, or a symbolic link to one: the walk goes through
		// the directory it names, and reports the files under the name
		// given. The same directory named twice is walked once.
		if id, ok := fileio.FileID(info); ok {
			if walked[id] {
				continue
			}
			walked[id] = true
		}
		real, err := filepath.EvalSymlinks(abs)
		if err != nil {
			errs = append(errs, pathError(p, err))
			continue
		}
		werrs, wnotices := c.walk(p, real, add)
		errs = append(errs, werrs...)
		notices = append(notices, wnotices...)
	}
	return files, errs, notices
}

// pathError words an I/O error the way a user reads it: "PATH: no such file".
func pathError(path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %v", path, pe.Err)
	}
	return err
}

// configFor returns the configuration of the file t: --config's, or the
// nearest trusted .urlls.json upward, or the default.
func (c *checker) configFor(t target) (config.Config, error) {
	dc := c.dirConfig(c.targetDir(t), t.top)
	return dc.cfg, dc.err
}

// targetDir returns the directory of t where its configuration is looked
// for first.
func (c *checker) targetDir(t target) string {
	if t.abs == "" {
		return c.cwd // standard input
	}
	return filepath.Dir(t.abs)
}

// configStop returns the directory where the lookup of the configuration
// of a file in dir (absolute, resolved) stops (lsp/fileio): the
// repository's root; outside a repository, top: the directory named on the
// command line, the directory of the file named, or the current directory
// for standard input. So "urlls check /tmp/x/doc.md" reads no /tmp/.urlls.json,
// wherever it is run from: /tmp is not the user's project.
func (c *checker) configStop(dir, top string) string {
	return fileio.ConfigStop(dir, top)
}

// dirConfig returns the configuration in force in dir (absolute, resolved)
// for a file whose lookup stops at top's stop (configStop): --config's, or
// the nearest trusted .urlls.json upward, or the default.
func (c *checker) dirConfig(dir, top string) *dirConfig {
	if c.explicit {
		return c.fixedConfig
	}
	return c.lookup(dir, c.configStop(dir, top))
}

// lookup returns the configuration of dir, looking no higher than stop.
func (c *checker) lookup(dir, stop string) *dirConfig {
	key := configKey{dir, stop}
	c.mu.Lock()
	dc, ok := c.configs[key]
	if !ok {
		dc = &dirConfig{}
		c.configs[key] = dc
	}
	c.mu.Unlock()
	dc.once.Do(func() {
		name := filepath.Join(dir, config.FileName)
		cfg, found, warning, err := fileio.ReadConfig(name)
		if warning != "" {
			c.warn(warning)
		}
		switch {
		case err != nil:
			dc.err = pathError(name, err)
		case found:
			dc.cfg = cfg
			dc.include = newIncludeMatcher(dir, cfg.Include)
		default:
			if parent := filepath.Dir(dir); parent != dir && dir != stop && fileio.Within(dir, stop) {
				up := c.lookup(parent, stop)
				dc.cfg, dc.include, dc.err = up.cfg, up.include, up.err
			}
		}
	})
	return dc
}

// warn records a warning about a configuration file, once.
func (c *checker) warn(w string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.warned[w] {
		c.warned[w] = true
		c.warnings = append(c.warnings, w)
	}
}

// checkFile reads and checks one file, and fixes it with --fix.
func (c *checker) checkFile(t target, stdin io.Reader) fileResult {
	r := fileResult{path: t.path, named: t.named}
	if t.path == "-" {
		r.path = stdinName
	}
	var err error
	r.doc, r.binary, err = readDocument(t.path, stdin, int64(c.flags.maxSize), t.named)
	if err != nil {
		r.err = readError(r.path, err)
		return r
	}
	if r.binary != "" {
		r.doc = nil
		return r
	}
	cfg, err := c.configFor(t)
	if err != nil {
		r.err = err
		return r
	}
	if c.flags.strict {
		cfg.Strict = true
	}
	if c.flags.grammar != "" {
		cfg.Grammar = string(c.flags.grammar)
	}
	r.cfg = cfg
	lang := languageOf(t.path, c.flags.lang, cfg)
	if lang == "" {
		lang = "plaintext"
	}
	scanned := scan.Scan(r.doc, lang)
	r.urls = len(scanned.Candidates)
	opts := cfg.CheckOptions()
	r.findings = cfg.Apply(scanned.Suppressions, opts.CheckCandidates(r.doc, scanned.Candidates))
	if c.fix && len(r.findings) > 0 {
		fixed, n := applyPreferredFixes(r.doc, r.findings)
		if n > 0 && !bytes.Equal(fixed, r.doc) {
			if err := writeFixed(t.path, r.doc, fixed); err != nil {
				r.fixErr = err
				return r
			}
			r.doc = fixed
			scanned = scan.Scan(fixed, lang)
			r.findings = cfg.Apply(scanned.Suppressions, opts.CheckCandidates(fixed, scanned.Candidates))
		}
	}
	return r
}

// readError words an error reading a document: what it is, and that the
// file was not checked.
func readError(path string, err error) error {
	var nr *fileio.NotRegularError
	var tl *fileio.TooLargeError
	switch {
	case errors.As(err, &nr):
		if nr.Mode&fs.ModeNamedPipe != 0 {
			return fmt.Errorf("%s: not a regular file (%s), not checked (give its content on standard input: urlls check - < %s)", path, fileio.Kind(nr.Mode), path)
		}
		return fmt.Errorf("%s: not a regular file (%s), not checked", path, fileio.Kind(nr.Mode))
	case errors.As(err, &tl):
		return fmt.Errorf("%s: larger than the size limit of %s, not checked (--max-size raises it)", path, fileio.FormatSize(tl.Limit))
	}
	return pathError(path, err)
}

// applyPreferredFixes applies the fix-all of the findings (config.FixAll:
// the preferred fix of each error and warning whose edits do not overlap
// another's), and returns the new document and how many fixes it applied.
func applyPreferredFixes(doc []byte, findings []config.Finding) ([]byte, int) {
	edits, n := config.FixAll(findings)
	return checks.ApplyEdits(doc, edits), n
}
