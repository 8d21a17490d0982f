package main

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"

	"github.com/urlls/urlls/analysis/config"
	"github.com/urlls/urlls/analysis/scan"
	"github.com/urlls/urlls/lsp/fileio"
)

// A directory walk checks what a writer wrote for people to read, and skips
// what the repository does not keep:
//
//   - the ignore rules of git: .git/info/exclude, the .gitignore files of
//     the directories above the walked one up to the repository's root (the
//     directory holding .git), and those inside it, each applying below its
//     own directory; a deeper file wins over a shallower one and a later
//     line over an earlier one, "!" takes a path back, and nothing inside
//     an ignored directory is looked at, as in git. The user's global
//     excludes file (core.excludesFile) is not read, so that a check gives
//     the same result on every machine and in CI. Outside a repository the
//     .gitignore files inside the walked directory still apply: a copy of
//     a repository's tree keeps its rules.
//   - .git, .hg, .svn, node_modules, vendor and third_party, ignored or not.
//   - files that are not documents (Markdown, reStructuredText, AsciiDoc,
//     HTML, plain text and the README-like files without an extension),
//     unless the configuration's "include" or --include names them.
//   - binary files (binaryKind), found when the file is read, silently.
//   - symbolic links, which are not followed (git stores them as links;
//     what they point to is checked where it is, if the walk gets there),
//     silently; and FIFOs, sockets and devices, which are not read, with a
//     notice when the walk would have checked a regular file of that name.
//
// A path named on the command line is checked whatever these rules say: a
// file in any language, even ignored, and a directory even if ignored (its
// own .gitignore files then apply inside it, those above it do not). A
// directory named through a symbolic link is walked (its files are named
// under the link); a loop of links is reported, and a directory named
// twice, under any names, is walked once.
//
// The patterns are git's and are matched by go-git's implementation
// (plumbing/format/gitignore), so that urlls does not grow a gitignore
// dialect of its own; this file only finds and reads the ignore files.

// skipDirs are never walked into.
var skipDirs = map[string]bool{".git": true, ".hg": true, ".svn": true, "node_modules": true, "vendor": true, "third_party": true}

// documentLanguages are the languages a walk checks by default: those of
// documents written for people, where a broken URL is a broken link.
var documentLanguages = map[string]bool{
	"markdown": true, "html": true, "plaintext": true, "restructuredtext": true, "asciidoc": true,
}

// documentNames are the names (in upper case, without extension) of the
// plain-text documents of a project that have no telling extension: README,
// LICENSE, ChangeLog, ... A license is a document too: its URLs are links
// to the license's home and worth checking like any other.
var documentNames = map[string]bool{
	"README": true, "READ_ME": true, "NEWS": true, "CHANGES": true, "CHANGELOG": true, "HISTORY": true,
	"RELEASE_NOTES": true, "RELEASE-NOTES": true, "CONTRIBUTING": true, "CONTRIBUTORS": true,
	"AUTHORS": true, "MAINTAINERS": true, "THANKS": true, "CREDITS": true, "TODO": true, "INSTALL": true,
	"LICENSE": true, "LICENCE": true, "COPYING": true, "COPYRIGHT": true, "NOTICE": true, "PATENTS": true,
	"SECURITY": true, "CODE_OF_CONDUCT": true, "SUPPORT": true, "FAQ": true, "BUGS": true, "HACKING": true,
}

// walk calls add for each file of the directory p that a walk checks. real
// is p made absolute with its symbolic links resolved: the directory
// walked, where the ignore and configuration files are looked for; the
// files are named under p. It returns the errors met, and notices of the
// files it would have checked that are not regular files (FIFOs, sockets,
// devices), which it skips. Symbolic links inside the walk are not
// followed (as git, which stores them as links): the file or directory
// they point to is checked where it is, if the walk reaches it.
//
// It goes as filepath.WalkDir went (depth first, each directory's entries
// in the order of their names, the same errors in the same order), with
// fewer system calls: a directory's listing says whether it holds a
// .gitignore, a .urlls.json or a .git, which are then not looked for when
// they are not there, and its configuration is looked up once for all its
// files, not once a file.
//
// With stat, each file checked is lstat'ed and add gets what the lstat
// said (nil if it failed); without, add gets nil and the target is marked
// identifyLater.
func (c *checker) walk(p, real string, stat bool, add func(target, fs.FileInfo)) (errs []error, notices []string) {
	start, err := walkStart(real)
	if err != nil {
		return []error{err}, nil
	}
	w := &walker{c: c, top: real, stat: stat, add: add}
	info, err := os.Lstat(real)
	switch {
	case err != nil:
		w.errs = append(w.errs, pathError(p, err))
	case info.IsDir():
		w.dir(real, p, true, start)
	default:
		// Replaced by a file since it was resolved: taken as a file of the
		// walk, as WalkDir would.
		w.file(&walkDir{path: filepath.Dir(real), hasConfig: true}, real, p, fs.FileInfoToDirEntry(info))
	}
	return w.errs, w.notices
}

// walker is the state of one directory walk.
type walker struct {
	c       *checker
	top     string // the directory walked (absolute, resolved)
	stat    bool   // lstat each file checked
	add     func(target, fs.FileInfo)
	errs    []error
	notices []string
}

// walkDir is a directory a walk is in.
type walkDir struct {
	path      string       // absolute, resolved
	st        *ignoreState // the rules in force in it (nil: none)
	rel       []string     // its path elements relative to st.root, when st has patterns
	hasConfig bool         // its listing holds a .urlls.json
	dc        *dirConfig   // its configuration, once looked up (config)
}

// config returns the configuration in force in the directory d, looked up
// once.
func (w *walker) config(d *walkDir) *dirConfig {
	if d.dc == nil {
		d.dc = w.c.listedDirConfig(d.path, w.top, d.hasConfig)
	}
	return d.dc
}

// ignored reports whether the entry name of d is ignored.
func (d *walkDir) ignored(name string, isDir bool) bool {
	if d.st == nil || len(d.st.patterns) == 0 {
		return false
	}
	if d.rel == nil {
		d.rel = components(d.st.root, d.path)
		if d.rel == nil {
			d.rel = []string{}
		}
	}
	return gitignore.NewMatcher(d.st.patterns).Match(append(d.rel[:len(d.rel):len(d.rel)], name), isDir)
}

// dir walks the directory at path (absolute, resolved), shown to the user
// as name, whose parent's ignore rules are parent's. top is true for the
// directory walked, named as on the command line; the names below it are
// filepath.Join's of it and their path, as WalkDir made them.
func (w *walker) dir(path, name string, top bool, parent *ignoreState) {
	entries, listErr := os.ReadDir(path)
	// What the listing says is there; when there is no listing, everything
	// is looked for, and the listing's error is reported unless reading the
	// ignore files failed first (the order of WalkDir, which read them
	// before the listing). So too in a directory that can be listed but
	// not searched (mode r without x): looking for its .gitignore fails,
	// with the error WalkDir's walk gave.
	listed := func(string) bool { return true }
	var root string
	if listErr == nil && fileio.Searchable(path) {
		listed = func(n string) bool {
			_, found := slices.BinarySearchFunc(entries, n, func(e fs.DirEntry, n string) int { return strings.Compare(e.Name(), n) })
			return found
		}
		root = w.c.listedRepoRoot(path, listed(".git"))
	} else {
		root = w.c.repoRoot(path)
	}
	st, err := parent.with(path, root == path, listed(".gitignore"))
	if err != nil {
		w.errs = append(w.errs, err)
		return
	}
	if listErr != nil {
		w.errs = append(w.errs, pathError(name, listErr))
		return
	}
	d := &walkDir{path: path, st: st, hasConfig: listed(config.FileName)}
	join := joinName
	if top {
		// path may be "/", name "." or "docs/".
		join = func(dir, name string) string { return filepath.Join(dir, name) }
	}
	// names joins name and an entry's name: the same string as the path
	// when the directory is named by its absolute path (one string a file
	// instead of two).
	names := func(full, n string) string {
		if name == path {
			return full
		}
		return join(name, n)
	}
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() {
			if skipDirs[n] || d.ignored(n, true) {
				continue
			}
			full := join(path, n)
			w.dir(full, names(full, n), false, st)
			continue
		}
		full := join(path, n)
		w.file(d, full, names(full, n), e)
	}
}

// file takes the entry e of the directory d, at path and shown as name,
// that is not a directory: a file the walk checks, or one it skips.
func (w *walker) file(d *walkDir, path, name string, e fs.DirEntry) {
	if e.Name() == config.FileName || d.ignored(e.Name(), false) {
		return
	}
	switch t := e.Type(); {
	case t&fs.ModeSymlink != 0:
		return // not followed
	case !t.IsRegular():
		// A FIFO would block the reader, a device never end: say that a
		// file the walk would have checked was skipped.
		if w.c.selectsIn(w.config(d), name, path) {
			w.notices = append(w.notices, fmt.Sprintf("%s: not a regular file (%s), skipped", name, fileio.Kind(t)))
		}
		return
	}
	dc := w.config(d)
	if w.c.selectsIn(dc, name, path) {
		t := target{path: name, abs: path, top: w.top, found: true, dc: dc}
		var info fs.FileInfo
		if w.stat {
			info, _ = e.Info()
		} else {
			t.identifyLater = true
		}
		w.add(t, info)
	}
}

// joinName is filepath.Join(dir, name) for a dir that Join made of a
// directory and an entry's name (clean, neither a root nor ".") and the
// name of an entry in it, without Join's cleaning of what is clean.
func joinName(dir, name string) string {
	return dir + string(filepath.Separator) + name
}

// selectsIn reports whether a walk checks the file at path (abs, its
// absolute path, resolved), in a directory whose configuration is dc: a
// document, or a file the configuration's "include" or --include names.
func (c *checker) selectsIn(dc *dirConfig, path, abs string) bool {
	if dc.err != nil {
		// Check the documents: the error is then reported for them.
		return isDocument(path, config.Config{})
	}
	return isDocument(path, dc.cfg) || dc.include.includes(abs) || c.include.includes(abs)
}

// isDocument reports whether a walk checks the file at path by default. Its
// language decides: the configuration's languages, else the extension (not
// --lang, which says how to read the files, not which to read). A Markdown,
// reStructuredText, AsciiDoc, HTML or plain-text file is a document. A file
// without a telling extension (README, LICENSE-MIT, COPYING.LIB, README.ja)
// is one only by its name: scripts, dotfiles and data files have no
// extension either.
func isDocument(path string, cfg config.Config) bool {
	name := filepath.Base(path)
	ext := filepath.Ext(name)
	lang := languageOf(path, "", cfg)
	if ext != "" && ext != name && lang != "" {
		return documentLanguages[lang]
	}
	if lang != "" && lang != "plaintext" {
		return documentLanguages[lang] // Dockerfile, Makefile and others by name
	}
	upper := strings.ToUpper(name)
	for j := len(upper); j > 0; j = strings.LastIndexAny(upper[:j], ".-_") {
		if documentNames[upper[:j]] {
			return true
		}
	}
	return false
}

// languageOf is the language a file is checked as: --lang, else the
// configuration's languages, else the extension; "" when none knows it.
func languageOf(path, flagLang string, cfg config.Config) string {
	if flagLang != "" {
		return flagLang
	}
	if lang := cfg.Language(strings.ToLower(filepath.Ext(path))); lang != "" {
		return lang
	}
	return scan.LanguageForPath(path)
}

// ignoreState is what decides, in one directory of a walk, whether an entry
// is ignored: the repository (or walk) root that paths are relative to, and
// the patterns in force, in the order of increasing priority.
type ignoreState struct {
	root     string // absolute
	patterns []gitignore.Pattern
}

// ignored reports whether the entry at abs is ignored.
func (st *ignoreState) ignored(abs string, isDir bool) bool {
	if st == nil || len(st.patterns) == 0 {
		return false
	}
	return gitignore.NewMatcher(st.patterns).Match(components(st.root, abs), isDir)
}

// with returns the state of the directory dir (absolute) below st's: st's
// patterns and those of dir/.gitignore, or a fresh state when dir is the
// root of another repository (a submodule or a nested clone: repoRoot says
// whether dir holds .git), whose rules are its own. dir/.gitignore is not
// looked for when hasIgnoreFile is false (dir's listing has none).
func (st *ignoreState) with(dir string, repoRoot, hasIgnoreFile bool) (*ignoreState, error) {
	next := &ignoreState{root: st.root, patterns: st.patterns}
	if repoRoot && dir != st.root {
		next = &ignoreState{root: dir}
		ps, err := readIgnoreFile(filepath.Join(gitCommonDir(dir), "info", "exclude"), nil)
		if err != nil {
			return nil, err
		}
		next.patterns = ps
	}
	if !hasIgnoreFile {
		return next, nil
	}
	ps, err := readIgnoreFile(filepath.Join(dir, ".gitignore"), components(next.root, dir))
	if err != nil {
		return nil, err
	}
	if len(ps) > 0 {
		next.patterns = append(append([]gitignore.Pattern(nil), next.patterns...), ps...)
	}
	return next, nil
}

// components splits abs, relative to root, into its path elements.
func components(root, abs string) []string {
	rel, err := filepath.Rel(root, abs)
	if err != nil || rel == "." {
		return nil
	}
	return strings.Split(filepath.ToSlash(rel), "/")
}

// walkStart returns the ignore state in force at dir (absolute), a
// directory named on the command line, before its own .gitignore is read:
// the repository's info/exclude and the .gitignore files from the
// repository's root down to dir's parent. Outside a repository, and for a
// directory the rules above it ignore, the rules start at dir.
func walkStart(dir string) (*ignoreState, error) {
	root := fileio.RepoRoot(dir)
	if root == "" {
		return &ignoreState{root: dir}, nil
	}
	st := &ignoreState{root: root}
	ps, err := readIgnoreFile(filepath.Join(gitCommonDir(root), "info", "exclude"), nil)
	if err != nil {
		return nil, err
	}
	st.patterns = ps
	// The directories from the root down to dir's parent, each of which may
	// be ignored itself (git would not look inside it).
	rel := components(root, dir)
	d := root
	for i := range rel {
		if st, err = st.with(d, fileio.IsRepoRoot(d), true); err != nil {
			return nil, err
		}
		d = filepath.Join(d, rel[i])
		if st.ignored(d, true) {
			return &ignoreState{root: dir}, nil
		}
	}
	return st, nil
}

// gitFileMaxSize bounds what is read of a .git file and of a worktree's
// commondir, which hold one path.
const gitFileMaxSize = 64 << 10

// ignoreMaxSize bounds the size of an ignore file read.
const ignoreMaxSize = 16 << 20

// gitCommonDir returns the git directory holding the info/exclude of the
// repository rooted at root: root/.git, or for a worktree the main
// repository's directory (git-worktree(1): .git is a file "gitdir: DIR" and
// DIR/commondir names the shared directory).
func gitCommonDir(root string) string {
	dotgit := filepath.Join(root, ".git")
	data, _, err := fileio.ReadRegular(dotgit, gitFileMaxSize)
	if err != nil { // a directory, or unreadable: take it as it is
		return dotgit
	}
	gitdir, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir:")
	if !ok {
		return dotgit
	}
	gitdir = strings.TrimSpace(gitdir)
	if !filepath.IsAbs(gitdir) {
		gitdir = filepath.Join(root, gitdir)
	}
	if common, _, err := fileio.ReadRegular(filepath.Join(gitdir, "commondir"), gitFileMaxSize); err == nil {
		c := strings.TrimSpace(string(common))
		if !filepath.IsAbs(c) {
			c = filepath.Join(gitdir, c)
		}
		return c
	}
	return gitdir
}

// readIgnoreFile reads the patterns of an ignore file, each applying below
// domain (the path elements of the file's directory, relative to the root).
// A missing file has no patterns. Lines are read as git reads them: blank
// lines and lines starting with "#" are skipped, and a UTF-8 byte order
// mark is dropped; the patterns themselves are go-git's to parse.
func readIgnoreFile(name string, domain []string) ([]gitignore.Pattern, error) {
	// Only a regular file is read (a FIFO would block), of a bounded size.
	data, _, err := fileio.ReadRegular(name, ignoreMaxSize)
	// ENOTDIR: info/exclude under a .git that is a file.
	if fileio.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, pathError(name, err)
	}
	data = bytes.TrimPrefix(data, []byte("\xEF\xBB\xBF"))
	var ps []gitignore.Pattern
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSuffix(line, "\r")
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		ps = append(ps, gitignore.ParsePattern(line, domain))
	}
	return ps, nil
}

// includeMatcher holds compiled include patterns, relative to a directory.
type includeMatcher struct {
	dir     string // absolute
	matcher gitignore.Matcher
}

// newIncludeMatcher compiles patterns relative to dir (absolute), or
// returns nil when there are none.
func newIncludeMatcher(dir string, patterns []string) *includeMatcher {
	if len(patterns) == 0 {
		return nil
	}
	ps := make([]gitignore.Pattern, len(patterns))
	for i, p := range patterns {
		ps[i] = gitignore.ParsePattern(p, nil)
	}
	return &includeMatcher{dir: dir, matcher: gitignore.NewMatcher(ps)}
}

// includes reports whether the file at abs matches: the last pattern that
// matches is not a "!" one. For a file outside the directory, only the
// patterns without a "/" (which match a name at any depth) can match.
func (m *includeMatcher) includes(abs string) bool {
	if m == nil {
		return false
	}
	rel, err := filepath.Rel(m.dir, abs)
	if err != nil {
		return false
	}
	// gitignore's Exclude is the include list's "match".
	return m.matcher.Match(strings.Split(filepath.ToSlash(rel), "/"), false)
}
