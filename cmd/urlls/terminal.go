package main

// What "urlls check" and "urlls report" show a person at a terminal, and
// only there: colour on standard output, a progress display on standard
// error for long runs, and (check) a closing summary on standard error, as
// the linters people know do. In a pipe, a file or an editor's process the
// output is the plain lines that tools read.

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fatih/color"
	"github.com/mattn/go-colorable"
	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/urlls/urlls/analysis/checks"
	"github.com/urlls/urlls/analysis/config"
)

// outputFlags are the options of the terminal output.
type outputFlags struct {
	color string // auto, always or never
	quiet bool
	// minSeverity is the mildest severity shown (check only): the findings
	// below it are not printed, in any format.
	minSeverity severityFlag
}

func (f *outputFlags) register(fs *flag.FlagSet, summary bool) {
	f.color = "auto"
	fs.StringVar(&f.color, "color", "auto", "colour the output: `when` auto (on a terminal, unless NO_COLOR is set or TERM is dumb), always or never")
	if summary {
		fs.BoolVar(&f.quiet, "quiet", false, "print the findings only: no progress display, no closing summary")
		f.minSeverity = severityFlag(checks.Hint)
		fs.Var(&f.minSeverity, "min-severity", "show only findings of this `severity` or above: error, warning, information or hint (errors decide the exit code whatever it is)")
	} else {
		fs.BoolVar(&f.quiet, "quiet", false, "no progress display")
	}
}

// check reports a bad --color.
func (f *outputFlags) check() error {
	switch f.color {
	case "auto", "always", "never":
		return nil
	}
	return &usageErr{fmt.Sprintf("unknown --color %s (want auto, always or never)", oneLine(f.color))}
}

// severityFlag is a severity given by name.
type severityFlag checks.Severity

func (s *severityFlag) String() string { return checks.Severity(*s).String() }

func (s *severityFlag) Set(v string) error {
	l, ok := config.ParseLevel(v)
	if !ok || l.Off {
		return fmt.Errorf("unknown severity %s (want error, warning, information or hint)", oneLine(v))
	}
	*s = severityFlag(l.Severity)
	return nil
}

// isTerminal reports whether w is a terminal.
var isTerminal = func(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// colorWanted decides whether output to w is coloured: --color always or
// never, else (auto) when w is a terminal, NO_COLOR is unset or empty
// (https://no-color.org: a command line flag overrides it) and TERM is not
// "dumb".
func colorWanted(mode string, w io.Writer) bool {
	switch mode {
	case "always":
		return true
	case "never":
		return false
	}
	return os.Getenv("NO_COLOR") == "" && os.Getenv("TERM") != "dumb" && isTerminal(w)
}

// colorWriter returns the writer to print colour to w through: w itself,
// except for a Windows console that does not take escape sequences, which
// go-colorable translates.
func colorWriter(w io.Writer) io.Writer {
	if f, ok := w.(*os.File); ok && isTerminal(w) {
		return colorable.NewColorable(f)
	}
	return w
}

// palette colours the parts of a finding; its zero value (nil) prints them
// plain. The colours are those of compilers' diagnostics: a bold location,
// the severity in red, yellow, blue or cyan, the code dimmed.
type palette struct {
	location, code, caret, heading, good *color.Color
	severity                             [checks.Hint + 1]*color.Color
}

// newPalette returns a palette that colours, or nil when on is false.
func newPalette(on bool) *palette {
	if !on {
		return nil
	}
	p := &palette{
		location: color.New(color.Bold),
		code:     color.New(color.Faint),
		caret:    color.New(color.FgGreen, color.Bold),
		heading:  color.New(color.Bold),
		good:     color.New(color.FgGreen, color.Bold),
	}
	p.severity[checks.Error] = color.New(color.FgRed, color.Bold)
	p.severity[checks.Warning] = color.New(color.FgYellow, color.Bold)
	p.severity[checks.Information] = color.New(color.FgBlue, color.Bold)
	p.severity[checks.Hint] = color.New(color.FgCyan, color.Bold)
	for _, c := range append([]*color.Color{p.location, p.code, p.caret, p.heading, p.good}, p.severity[1:]...) {
		c.EnableColor() // decided by colorWanted, not by the library's look at os.Stdout
	}
	return p
}

func paint(c *color.Color, s string) string {
	if c == nil {
		return s
	}
	return c.Sprint(s)
}

func (p *palette) paintLocation(s string) string {
	if p == nil {
		return s
	}
	return paint(p.location, s)
}

func (p *palette) paintSeverity(s checks.Severity, text string) string {
	if p == nil || s < checks.Error || s > checks.Hint {
		return text
	}
	return paint(p.severity[s], text)
}

func (p *palette) paintCode(s string) string {
	if p == nil {
		return s
	}
	return paint(p.code, s)
}

func (p *palette) paintCaret(s string) string {
	if p == nil {
		return s
	}
	return paint(p.caret, s)
}

func (p *palette) paintHeading(s string) string {
	if p == nil {
		return s
	}
	return paint(p.heading, s)
}

func (p *palette) paintGood(s string) string {
	if p == nil {
		return s
	}
	return paint(p.good, s)
}

// writeFindingLine prints a finding as check's text format and report's
// samples do: "path:line:col: severity: message [code]". path is already
// escaped (message): a newline in a file name must not start a line.
func writeFindingLine(w io.Writer, p *palette, path string, line, col int, f config.Finding) {
	if p == nil {
		fmt.Fprintf(w, "%s:%d:%d: %s: %s [%s]\n", path, line, col, f.Severity, message(f.Message), f.Code)
		return
	}
	fmt.Fprintf(w, "%s %s %s %s\n", p.paintLocation(fmt.Sprintf("%s:%d:%d:", path, line, col)),
		p.paintSeverity(f.Severity, f.Severity.String()+":"), message(f.Message), p.paintCode("["+f.Code+"]"))
}

// shownFindings returns the findings of severity mildest or above, to be
// kept once --fix went by all of them and they were counted.
func shownFindings(findings []config.Finding, mildest checks.Severity) []config.Finding {
	if mildest >= checks.Hint {
		return findings
	}
	var kept []config.Finding
	for _, f := range findings {
		if f.Severity <= mildest {
			kept = append(kept, f)
		}
	}
	return kept
}

// summary is what a run of check found, for its closing line.
type summary struct {
	files, urls int
	// found counts the findings shown, by severity (all of them, also
	// those past a document's maxFindings, which too-many-findings counts);
	// hidden those below --min-severity.
	found, hidden [checks.Hint + 1]int
	filesWith     int // the files with a finding shown
}

// summarizeFile returns the summary of one file checked, which found
// findings counted by severity in urls URLs.
func summarizeFile(urls int, all config.Counts, mildest checks.Severity) summary {
	s := summary{files: 1, urls: urls}
	for sev := checks.Error; sev <= checks.Hint; sev++ {
		if sev > mildest {
			s.hidden[sev] += all[sev]
			continue
		}
		s.found[sev] += all[sev]
		if all[sev] > 0 {
			s.filesWith = 1
		}
	}
	return s
}

// add adds the counts of o to s.
func (s *summary) add(o summary) {
	s.files += o.files
	s.urls += o.urls
	s.filesWith += o.filesWith
	for i := range s.found {
		s.found[i] += o.found[i]
		s.hidden[i] += o.hidden[i]
	}
}

// counts says "3 errors, 1 warning, 2 information" of n by severity, the
// count of each coloured by p; "" when all are zero.
func counts(p *palette, n [checks.Hint + 1]int) string {
	var parts []string
	for s := checks.Error; s <= checks.Hint; s++ {
		if n[s] == 0 {
			continue
		}
		name := s.String()
		if n[s] > 1 && s != checks.Information {
			name += "s"
		}
		parts = append(parts, p.paintSeverity(s, thousands(n[s])+" "+name))
	}
	return strings.Join(parts, ", ")
}

// writeSummary prints the closing line of check:
// "3 errors, 1 warning in 2 files; 1,204 URLs in 310 files checked".
func writeSummary(w io.Writer, p *palette, s summary) {
	found := counts(p, s.found)
	if found == "" {
		found = p.paintGood("no findings")
	} else {
		found += " in " + pluralThousands(s.filesWith, "file")
	}
	if hidden := counts(nil, s.hidden); hidden != "" {
		found += " (" + hidden + " below --min-severity not shown)"
	}
	fmt.Fprintf(w, "%s; %s in %s checked\n", found, pluralThousands(s.urls, "URL"), pluralThousands(s.files, "file"))
}

// thousands writes n with commas between groups of three digits: 1,204.
func thousands(n int) string {
	s := strconv.Itoa(n)
	if n < 0 {
		return "-" + thousands(-n)
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func pluralThousands(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return thousands(n) + " " + noun + "s"
}

// progressDelay is how long a run goes before it shows its progress: a
// short run shows none. progressTick is how often the display is redrawn.
// Tests change them.
var (
	progressDelay = time.Second
	progressTick  = 100 * time.Millisecond
)

// progress shows on a terminal how far a run has got: while the walk
// looks for files, a spinner with the count found; then a bar of the files
// checked. The bar is github.com/schollz/progressbar, drawn from one
// goroutine that reads counters the workers update, and cleared before
// anything else is printed. A nil *progress shows nothing.
type progress struct {
	w       io.Writer
	found   atomic.Int64 // files the walk selected so far
	total   atomic.Int64 // files to check; -1 while the walk goes on
	checked atomic.Int64
	stopc   chan struct{}
	done    chan struct{}

	// mu orders the drawing of the display and the findings printed to
	// the same terminal (around): bar is the display drawn, nil before
	// the first; midLine says that the findings last printed did not end
	// a line, and the display waits for one that does.
	mu      sync.Mutex
	bar     *progressbar.ProgressBar
	midLine bool
	sharing bool // findings are printed to the terminal the display is on
}

// startProgress returns the progress display of a run of paths that writes
// to stderr, or nil when there should be none: with --quiet, when stderr
// is not a terminal (a pipe, a file, CI), when standard input is read (a
// person may be typing it), and under pre-commit, which runs hooks in a
// pseudo-terminal to have them colour their output but shows that output
// only after the hook ends.
func startProgress(stderr io.Writer, quiet bool, paths []string) *progress {
	if quiet || !isTerminal(stderr) || os.Getenv("TERM") == "dumb" || os.Getenv("PRE_COMMIT") != "" || containsString(paths, "-") {
		return nil
	}
	p := &progress{w: stderr, stopc: make(chan struct{}), done: make(chan struct{})}
	p.total.Store(-1)
	go p.loop()
	return p
}

// around returns the writer that the findings, printed to out (stdout, or
// what colours it), go through: out itself, unless stdout is a terminal
// too while the display is shown; then each write clears the display
// first, and the display is drawn again at its next tick, below them.
func (p *progress) around(stdout, out io.Writer) io.Writer {
	if p == nil || !isTerminal(stdout) {
		return out
	}
	p.mu.Lock()
	p.sharing = true
	p.mu.Unlock()
	return &besideProgress{p: p, w: out}
}

// shown reports whether the findings share the terminal of the display
// (around): then they are printed file by file, not held in a buffer.
func (p *progress) shown() bool {
	if p == nil {
		return false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.sharing
}

// besideProgress writes to w with the display of p cleared.
type besideProgress struct {
	p *progress
	w io.Writer
}

func (b *besideProgress) Write(data []byte) (int, error) {
	b.p.mu.Lock()
	defer b.p.mu.Unlock()
	if b.p.bar != nil {
		b.p.bar.Clear()
	}
	n, err := b.w.Write(data)
	if n > 0 {
		b.p.midLine = data[n-1] != '\n'
	}
	return n, err
}

func (p *progress) fileFound() {
	if p != nil {
		p.found.Add(1)
	}
}

func (p *progress) walked(total int) {
	if p != nil {
		p.total.Store(int64(total))
	}
}

func (p *progress) fileChecked() {
	if p != nil {
		p.checked.Add(1)
	}
}

// stop clears the display and returns when it is gone.
func (p *progress) stop() {
	if p == nil {
		return
	}
	select {
	case <-p.stopc:
	default:
		close(p.stopc)
	}
	<-p.done
}

func (p *progress) loop() {
	defer close(p.done)
	delay := time.NewTimer(progressDelay)
	defer delay.Stop()
	select {
	case <-p.stopc:
		select {
		case <-delay.C:
			// The run lasted the delay, and ended before this goroutine
			// drew: the display is drawn once, and cleared.
		default:
			return
		}
	case <-delay.C:
	}
	tick := time.NewTicker(progressTick)
	defer tick.Stop()
	spinning := false
	for {
		p.mu.Lock()
		switch total := p.total.Load(); {
		case p.midLine:
			// Wait for the findings to end their line.
		case total < 0:
			if p.bar == nil {
				p.bar, spinning = p.newBar(-1, "finding files"), true
			}
			p.bar.Describe("finding files: " + thousands(int(p.found.Load())))
		default:
			if spinning {
				p.bar.Finish() // clears it
				p.bar, spinning = nil, false
			}
			if p.bar == nil && total > 0 {
				p.bar = p.newBar(total, "checking files")
			}
			if p.bar != nil {
				p.bar.Set64(p.checked.Load())
			}
		}
		p.mu.Unlock()
		select {
		case <-p.stopc:
			p.mu.Lock()
			if p.bar != nil {
				if p.midLine {
					p.bar.Exit() // drawn no more; the findings' line is not touched
				} else {
					p.bar.Finish() // clears it
				}
			}
			p.mu.Unlock()
			return
		case <-tick.C:
		}
	}
}

// newBar returns a bar of max files, or a spinner when max is -1 (the
// walk, whose description counts the files).
func (p *progress) newBar(max int64, what string) *progressbar.ProgressBar {
	opts := []progressbar.Option{
		progressbar.OptionSetWriter(p.w),
		progressbar.OptionSetDescription(what),
		progressbar.OptionSetTheme(progressbar.ThemeASCII),
		progressbar.OptionSetWidth(30),
		progressbar.OptionSetElapsedTime(true),
		progressbar.OptionSetPredictTime(max > 0),
		progressbar.OptionThrottle(progressTick),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionSetRenderBlankState(true),
		progressbar.OptionSpinnerType(14),
		// Drawn by loop only, under p.mu, never by a goroutine of its own:
		// the findings printed beside it clear it under the same lock.
		progressbar.OptionSetSpinnerChangeInterval(0),
	}
	if max > 0 {
		opts = append(opts, progressbar.OptionShowCount())
	}
	return progressbar.NewOptions64(max, opts...)
}
