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
	counts   config.Counts // every finding by severity
	err      error         // an I/O or configuration error: the file was not checked
	fixErr   error         // --fix could not write the file: the findings are those of the file as it is
	binary   string        // the kind of binary data (binaryKind) when the file was not checked for it

	// For a file of target.identifyLater: what the stat of the file
	// opened (or when it could not be, its lstat) said of it, and what
	// collect would have done with its identity.
	identifyLater, remember bool
	opened                  fileio.Opened

	// cfg is the file's configuration. findings holds every finding (--fix
	// goes by them), unless the checker keeps only those shown
	// (checker.firstShown); counts counts them all (the exit code goes by
	// it). check prints cfg.LimitCounted(findings, counts, …).
	cfg config.Config

	// What check keeps of a file once its worker has rendered it, its
	// text and findings let go: its output, its counts for the summary,
	// and whether it has an error (exit 1).
	out      fileOutput
	sum      summary
	hasError bool
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
	// found is true for a file a walk found, a regular file by its
	// directory's listing: it is opened without a stat first.
	found bool
	// identifyLater is true for a file that a walk did not stat, to save a
	// system call a file: whether it was reached before under another
	// name (a hard link) is then told by the stat of its open descriptor,
	// after it is checked (run, firstReach); remember says that its
	// identity must then be remembered, as collect would have.
	identifyLater, remember bool
	// dc is the configuration of the file's directory when the walk that
	// found it looked it up already; nil: configFor looks it up.
	dc *dirConfig
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
	shown := checks.Severity(f.minSeverity) // the mildest severity printed
	stdout, pal := e.stdout, (*palette)(nil)
	if f.format == "text" && colorWanted(f.color, e.stdout) {
		// Only the text format is for people; the others are read by tools.
		stdout, pal = colorWriter(e.stdout), newPalette(true)
	}
	// The findings go out as the files are checked; on a terminal that
	// also shows the progress, each file's lines are printed with the
	// display cleared, and it is drawn again below them.
	stdout = c.progress.around(e.stdout, stdout)
	fw, err := newFindingsWriter(stdout, f.format)
	if err != nil {
		fmt.Fprintf(e.stderr, "urlls: check: %s\n", message(err.Error()))
		return exitUsage
	}
	rd := newRenderer(f.format, pal)
	var sum summary
	failed, writeErr := false, error(nil)
	c.reuseBuffers = true
	c.firstShown, c.mildest = true, shown
	ioErrors := c.run(e, cmd, paths, func(r *fileResult) {
		// In the worker: render, count, and let go of the text.
		r.out = rd.render(r, r.cfg.LimitCounted(r.findings, r.counts, shown))
		r.sum = summarizeFile(r.urls, r.counts, shown)
		r.hasError = r.counts[checks.Error] > 0
		r.doc, r.findings = nil, nil
	}, func(r *fileResult) {
		sum.add(r.sum)
		failed = failed || r.hasError
		if writeErr == nil {
			writeErr = fw.file(r, r.out)
			if writeErr == nil && c.progress.shown() {
				writeErr = fw.flush()
			}
		}
	})
	if writeErr == nil {
		writeErr = fw.close()
	} else {
		fw.abort()
	}
	if writeErr != nil {
		fmt.Fprintf(e.stderr, "urlls: check: %s\n", message(writeErr.Error()))
		return exitUsage
	}
	if !f.quiet {
		stderr, pal := e.stderr, (*palette)(nil)
		if colorWanted(f.color, e.stderr) {
			stderr, pal = colorWriter(e.stderr), newPalette(true)
		}
		writeSummary(stderr, pal, sum)
	}
	if ioErrors > 0 {
		return exitUsage
	}
	if failed {
		return exitFail
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
	// reuseBuffers lets each worker read a file into the buffer of the one
	// before: set when nothing keeps a file's text after prepare.
	reuseBuffers bool
	// firstShown keeps in a file's result only the findings of severity
	// mildest or above, no more of them than the output shows
	// (config.Config.ApplyFirst), and their counts: set when nothing needs
	// them all after prepare (check, unlike precision).
	firstShown bool
	mildest    checks.Severity

	mu       sync.Mutex
	configs  *recentCache[configKey, *dirConfig]
	roots    *recentCache[string, string] // repoRoot's answers, by directory
	warnings []string                     // about the configuration files ignored, each once
	warned   map[string]bool
}

// dirCacheSize is how many directories' configurations a run keeps in
// memory at the least (recentCache): far more than a walk is in at once.
const dirCacheSize = 1024

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
	c := &checker{flags: f, configs: newRecentCache[configKey, *dirConfig](dirCacheSize),
		roots: newRecentCache[string, string](dirCacheSize), warned: map[string]bool{}}
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

// run checks the files and directories of paths with a pool of workers,
// one a core (GOMAXPROCS), while the walks go on, and hands the result of
// each file checked to done, in order (the command line's, and each walk's),
// as soon as the files before it are done: a run streams, and holds at once
// only the results of the few files checked ahead of the next one done, so
// that its memory does not grow with the tree. prepare, when not nil, runs
// on each result in the worker that checked the file (in parallel): check
// renders the file's output there and drops its text, and its workers then
// read the next file into the same buffer. Last, run prints on stderr the
// errors (which it counts), the notices about what it skipped and the
// warnings about the configuration files it ignored, as a run that checked
// everything first and printed after would: the walks' errors, their
// notices, the warnings, then each file's error in order.
func (c *checker) run(e *env, cmd *command, paths []string, prepare, done func(*fileResult)) (ioErrors int) {
	defer tuneGC()() // gctune.go: fewer collections while little is live
	workers := runtime.GOMAXPROCS(0)
	// The files go to the workers in batches of consecutive files: a file
	// handed over alone costs the scheduler about what reading it costs.
	// ahead is the batches between the walk and done: enough for every
	// worker to go on while one slow file holds up the output.
	ahead := 4 * workers
	type batch struct {
		seq     int // the batch's number, in the walk's order
		targets []target
	}
	batches := make(chan batch, workers)
	tickets := make(chan struct{}, ahead)
	checked := make(chan int, ahead)     // the seq of each batch checked
	slots := make([][]fileResult, ahead) // batch seq's results are in slots[seq%ahead]
	// store[i] is the memory of slots[i], used by each batch of that slot
	// in turn: done has seen the results of one, and they were zeroed,
	// before the next is walked out (its ticket).
	store := make([][]fileResult, ahead)
	var walkErrs []error
	var notices []string
	go func() {
		defer close(batches)
		seq, files := 0, 0
		targets := make([]target, 0, batchSize)
		send := func() {
			tickets <- struct{}{}
			batches <- batch{seq, targets}
			seq, targets = seq+1, make([]target, 0, batchSize)
		}
		walkErrs, notices = c.collect(paths, func(t target) {
			targets = append(targets, t)
			files++
			if len(targets) == batchSize {
				send()
			}
		})
		if len(targets) > 0 {
			send()
		}
		c.progress.walked(files)
	}()
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mem := &workerMemory{clean: checks.NewClean()}
			for b := range batches {
				// The slot's slice, made once: results cost nothing
				// to allocate.
				results := store[b.seq%ahead]
				if results == nil {
					results = make([]fileResult, batchSize)
					store[b.seq%ahead] = results
				}
				results = results[:len(b.targets)]
				for i, t := range b.targets {
					// Into the batch's slice: a result of its own would
					// move to the heap (prepare takes its address), 432
					// bytes a file.
					r := &results[i]
					*r = c.checkFileInto(t, e.stdin, mem)
					if prepare != nil && r.err == nil && r.binary == "" {
						prepare(r)
					}
					switch {
					case !c.reuseBuffers:
						mem.buf = nil // the result keeps the text in it
					case cap(mem.buf) > maxReusedBuffer:
						mem.buf = nil // a huge file's buffer goes back to the heap
					}
					c.progress.fileChecked()
				}
				slots[b.seq%ahead] = results
				checked <- b.seq
			}
		}()
	}
	go func() {
		wg.Wait()
		close(checked)
	}()

	// The results in order: a ticket is taken before a batch is walked out
	// and given back once it is done, so no more than ahead batches are in
	// flight and slot seq%ahead is free when batch seq takes it.
	var messages []string           // the files' errors and notices, for the end
	reached := map[fileio.ID]bool{} // the files of identifyLater to remember
	ready := make([]bool, ahead)
	next := 0
	for seq := range checked {
		ready[seq%ahead] = true
		for ready[next%ahead] {
			i := next % ahead
			results := slots[i]
			slots[i], ready[i] = nil, false
			next++
			for j := range results {
				r := &results[j]
				if firstReach(r, reached) {
					c.handOver(r, &ioErrors, &messages, done)
				}
				results[j] = fileResult{} // let go of it at once
			}
			<-tickets
		}
	}
	c.progress.stop() // before anything else is printed on stderr

	ioErrors += len(walkErrs)
	for _, err := range walkErrs {
		fmt.Fprintf(e.stderr, "urlls: %s: %s\n", cmd.name, message(err.Error()))
	}
	for _, n := range notices {
		fmt.Fprintf(e.stderr, "urlls: %s: %s\n", cmd.name, message(n))
	}
	for _, w := range c.warnings {
		fmt.Fprintf(e.stderr, "urlls: %s: warning: %s\n", cmd.name, message(w))
	}
	for _, m := range messages {
		fmt.Fprintf(e.stderr, "urlls: %s: %s\n", cmd.name, message(m))
	}
	return ioErrors
}

// firstReach reports whether the file of r was reached for the first time,
// as collect tells it for the files that a walk stats (it does not emit
// those reached again), for a file that the walk did not stat
// (identifyLater): by the identity of the file opened, remembered in
// reached when collect would have remembered it, as run takes the results
// in the order collect emitted them.
func firstReach(r *fileResult, reached map[fileio.ID]bool) bool {
	if !r.identifyLater || r.opened.Links == 0 {
		return true // not identified: as collect with no lstat
	}
	if reached[r.opened.ID] {
		return false
	}
	if r.remember || r.opened.Links > 1 {
		reached[r.opened.ID] = true
	}
	return true
}

// handOver hands the result r of a file to done, or counts and words its
// error or notice (messages) for the end of the run.
func (c *checker) handOver(r *fileResult, ioErrors *int, messages *[]string, done func(*fileResult)) {
	switch {
	case r.err != nil:
		*ioErrors++
		*messages = append(*messages, r.err.Error())
	case r.binary != "":
		// A binary file is no document: one that a walk found is skipped
		// silently, one named on the command line is mentioned, since the
		// user asked for it, but it is no error (exit 2 is for what went
		// wrong) nor a finding (exit 1).
		if r.named {
			*messages = append(*messages, skipNotice(r.path, r.binary))
		}
	default:
		if r.fixErr != nil {
			// Not fixed: its findings are reported as they are.
			*ioErrors++
			*messages = append(*messages, r.fixErr.Error())
		}
		done(r)
	}
}

// batchSize is how many consecutive files a worker takes at once.
const batchSize = 16

// maxReusedBuffer bounds the read buffer a worker keeps for the next file:
// documents are small, and a rare 50 MB one should not pin 50 MB a worker.
const maxReusedBuffer = 4 << 20

// maxReusedCandidates bounds the candidates' memory a worker keeps for the
// next file, for the same reason: 256 KB (a candidate is 64 bytes), room
// for the URLs of nearly every document; a larger array goes back to the
// heap, which the garbage collector's tuning keeps small (gctune.go).
const maxReusedCandidates = 1 << 12

// workerMemory is what a worker of check keeps from file to file, so that
// a tree of small files does not allocate it again for each: the read
// buffer (when prepare lets go of the text), the memory of a file's
// candidates (which no result holds), and the URLs its files found clean
// with its checks' working memory (checks.Clean).
type workerMemory struct {
	buf   []byte
	cands []scan.Candidate
	clean *checks.Clean
}

// collect expands the command line into files, in order, without
// duplicates, and calls emit with each as soon as it is found: each path
// named, and the files a directory walk selects (walk.go). A path that
// does not exist is an error; the others are still checked. A file reached
// twice, under two names (a hard link, a symbolic link to a directory named
// too), is checked once, under the first; it counts as named when any of
// its names is named on the command line.
//
// What it remembers to tell a file reached again does not grow with the
// tree: the files named on the command line, the files of a walk with
// other names (hard links, whose link count says so), and only when
// another walk follows, the files of this one (which the next walk may
// reach again, through a nested or linked directory).
func (c *checker) collect(paths []string, emit func(target)) (errs []error, notices []string) {
	seen := seenFiles{paths: map[string]bool{}, ids: map[fileio.ID]bool{}}
	// The files named on the command line, known before any walk: one that a
	// walk reaches first is checked as named.
	named := seenFiles{paths: map[string]bool{}, ids: map[fileio.ID]bool{}}
	lastWalk := -1 // the index in paths of the last directory
	for i, p := range paths {
		if p == "-" {
			continue
		}
		if info, err := os.Stat(p); err == nil {
			if info.IsDir() {
				lastWalk = i
				continue
			}
			named.add(p, info)
		}
	}
	// The walks stat their files, to tell one reached again before it is
	// checked, only when they must: with --fix, which must not fix a file
	// twice at once, and when files are named too, which a walk may reach
	// under another name. Otherwise a file of a walk is told by the stat
	// of its open descriptor, which its reading makes anyway (run,
	// firstReach): all the files that may be reached twice are then the
	// walks', taken in order.
	stat := c.fix || len(named.paths) > 0
	add := func(t target, info fs.FileInfo, remember bool) {
		if seen.has(t.path, info) {
			return
		}
		if !t.named && named.has(t.path, info) {
			t.named = true
			remember = true // its named path comes later, and is a duplicate
		}
		switch {
		case remember || t.named:
			seen.add(t.path, info)
		case t.identifyLater:
			// Told by its identity after it is read (firstReach).
		default:
			if links, ok := fileio.Links(info); !ok || links > 1 {
				seen.addID(info)
			}
		}
		t.remember = remember
		emit(t)
		c.progress.fileFound()
	}
	walked := map[fileio.ID]bool{}
	for i, p := range paths {
		if p == "-" {
			add(target{path: p, top: c.cwd, named: true}, nil, true)
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
			add(target{path: p, abs: filepath.Join(dir, filepath.Base(abs)), top: dir, named: true}, info, true)
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
		rememberAll := i < lastWalk
		werrs, wnotices := c.walk(p, real, stat, func(t target, info fs.FileInfo) { add(t, info, rememberAll) })
		errs = append(errs, werrs...)
		notices = append(notices, wnotices...)
	}
	return errs, notices
}

// seenFiles is a set of files, by path and by file identity.
type seenFiles struct {
	paths map[string]bool
	ids   map[fileio.ID]bool
}

// add puts the file at path, which info describes (nil for standard
// input), in the set.
func (s seenFiles) add(path string, info fs.FileInfo) {
	s.paths[path] = true
	s.addID(info)
}

// addID puts the file that info describes in the set by its identity only.
func (s seenFiles) addID(info fs.FileInfo) {
	if info == nil {
		return
	}
	if id, ok := fileio.FileID(info); ok {
		s.ids[id] = true
	}
}

// has reports whether the set holds the file at path, by its path or its
// identity.
func (s seenFiles) has(path string, info fs.FileInfo) bool {
	if s.paths[path] {
		return true
	}
	if info == nil {
		return false
	}
	id, ok := fileio.FileID(info)
	return ok && s.ids[id]
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
	dc := t.dc
	if dc == nil {
		dc = c.dirConfig(c.targetDir(t), t.top)
	}
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
//
// It is fileio.ConfigStop, with the repository's root of each directory
// remembered (repoRoot): found for each file anew, it stats a .git in
// every directory up to the root, a fifth of the time of a walk.
func (c *checker) configStop(dir, top string) string {
	if root := c.repoRoot(dir); root != "" {
		return root
	}
	if top != "" && fileio.Within(dir, top) {
		return top
	}
	return dir
}

// repoRoot returns fileio.RepoRoot(dir): the nearest directory at or above
// dir (absolute, resolved) that holds .git, or "". Each directory's answer
// is remembered, and is its parent's unless it holds .git itself, so a
// walk stats one .git a directory.
func (c *checker) repoRoot(dir string) string {
	return c.rootOf(dir, func() bool { return fileio.IsRepoRoot(dir) })
}

// listedRepoRoot is repoRoot(dir) for a directory whose listing was read:
// hasGit says whether it holds .git, so that none is looked for.
func (c *checker) listedRepoRoot(dir string, hasGit bool) string {
	return c.rootOf(dir, func() bool { return hasGit })
}

// rootOf is repoRoot, told by isRoot whether dir holds .git when its answer
// is not remembered yet.
func (c *checker) rootOf(dir string, isRoot func() bool) string {
	c.mu.Lock()
	root, ok := c.roots.get(dir)
	c.mu.Unlock()
	if ok {
		return root
	}
	if isRoot() {
		root = dir
	} else if parent := filepath.Dir(dir); parent != dir {
		root = c.repoRoot(parent)
	}
	c.mu.Lock()
	c.roots.put(dir, root)
	c.mu.Unlock()
	return root
}

// dirConfig returns the configuration in force in dir (absolute, resolved)
// for a file whose lookup stops at top's stop (configStop): --config's, or
// the nearest trusted .urlls.json upward, or the default.
func (c *checker) dirConfig(dir, top string) *dirConfig {
	return c.listedDirConfig(dir, top, true)
}

// listedDirConfig is dirConfig(dir, top) for a directory whose listing was
// read: hasConfig says whether it holds a .urlls.json, so that none is
// looked for in dir when it does not (those above are looked for).
func (c *checker) listedDirConfig(dir, top string, hasConfig bool) *dirConfig {
	if c.explicit {
		return c.fixedConfig
	}
	return c.lookup(dir, c.configStop(dir, top), hasConfig)
}

// lookup returns the configuration of dir, looking no higher than stop;
// dir's own configuration file is not looked for when hasConfig is false.
func (c *checker) lookup(dir, stop string, hasConfig bool) *dirConfig {
	key := configKey{dir, stop}
	c.mu.Lock()
	dc, ok := c.configs.get(key)
	if !ok {
		dc = &dirConfig{}
		c.configs.put(key, dc)
	}
	c.mu.Unlock()
	dc.once.Do(func() {
		name := filepath.Join(dir, config.FileName)
		var cfg config.Config
		var found bool
		var warning string
		var err error
		if hasConfig {
			cfg, found, warning, err = fileio.ReadConfig(name)
		}
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
				up := c.lookup(parent, stop, true)
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

// checkFileInto reads and checks one file, and fixes it with --fix, in
// the memory of mem (see workerMemory; nil: new memory): reading the file
// into mem.buf (grown as needed, and left holding the grown buffer) and
// scanning it into mem.cands.
func (c *checker) checkFileInto(t target, stdin io.Reader, mem *workerMemory) fileResult {
	r := fileResult{path: t.path, named: t.named, identifyLater: t.identifyLater, remember: t.remember}
	if t.path == "-" {
		r.path = stdinName
	}
	if mem == nil {
		mem = &workerMemory{}
	}
	var err error
	r.doc, r.binary, r.opened, err = readDocument(t.path, stdin, int64(c.flags.maxSize), t.named, t.found, mem.buf[:0])
	if cap(r.doc) > cap(mem.buf) {
		mem.buf = r.doc[:0]
	}
	if err != nil && t.identifyLater && r.opened.Links == 0 {
		// Not opened: a file that cannot be read is still told by its
		// lstat, as the walk would have.
		if info, err := os.Lstat(t.path); err == nil {
			id, _ := fileio.FileID(info)
			links, _ := fileio.Links(info)
			r.opened = fileio.Opened{ID: id, Links: links}
		}
	}
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
	scanned := scan.ScanInto(mem.cands, r.doc, lang)
	defer func() { mem.cands = reusable(scanned.Candidates) }()
	clean := mem.clean
	r.urls = len(scanned.Candidates)
	if c.fix {
		all := cfg.Apply(scanned.Suppressions, cfg.CheckOptions().CheckCandidatesClean(r.doc, scanned.Candidates, clean))
		fixed, n := applyPreferredFixes(r.doc, all)
		if n == 0 || bytes.Equal(fixed, r.doc) {
			c.keep(&r, all)
			return r
		}
		if err := writeFixed(t.path, r.doc, fixed); err != nil {
			r.fixErr = err
			c.keep(&r, all)
			return r
		}
		r.doc = fixed
		scanned = scan.ScanInto(reusable(scanned.Candidates), fixed, lang)
	}
	if c.firstShown {
		// Only the findings shown need their messages and fixes.
		r.findings, r.counts = cfg.CheckFirstClean(r.doc, scanned.Candidates, scanned.Suppressions, c.mildest, clean)
	} else {
		c.keep(&r, cfg.Apply(scanned.Suppressions, cfg.CheckOptions().CheckCandidatesClean(r.doc, scanned.Candidates, clean)))
	}
	return r
}

// reusable returns the memory of cands, a file's candidates that nothing
// holds any more, for the next file's: emptied, so that it holds no text
// of the file, and nil when it is too large to keep.
func reusable(cands []scan.Candidate) []scan.Candidate {
	if cap(cands) > maxReusedCandidates {
		return nil
	}
	clear(cands)
	return cands[:0]
}

// keep keeps the findings all in r: all of them, or under firstShown those
// of severity mildest or above (LimitCounted cuts them), and their counts.
func (c *checker) keep(r *fileResult, all []config.Finding) {
	r.findings, r.counts = all, config.CountsOf(all)
	if c.firstShown {
		r.findings = shownFindings(all, c.mildest)
	}
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
// another's), and returns the new document and how many fixes it applied:
// doc itself when none, not a copy (--fix on a tree whose files have no
// error or warning copies none of them).
func applyPreferredFixes(doc []byte, findings []config.Finding) ([]byte, int) {
	edits, n := config.FixAll(findings)
	if n == 0 {
		return doc, 0
	}
	return checks.ApplyEdits(doc, edits), n
}
