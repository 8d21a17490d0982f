// Command urlls checks URLs against the historical URL grammars: RFC 1738 §5,
// RFC 1808 §2.2 and the W3C XBNF. It is one of the two thin faces of package
// analysis (the other is the language server): it parses, resolves and prints,
// and leaves every decision about URLs to analysis/.
//
//	urlls [serve] [--stdio] [--log-file FILE] [--log-level LEVEL]
//	urlls check [--format text|json|sarif|github] [--strict] [--grammar rfc1738|rfc3986|xbnf] [--lang LANG] [--config FILE] [--include GLOB]... [--max-size SIZE] [--fix] [--min-severity SEVERITY] [--quiet] [--color WHEN] PATH... | -
//	urlls report [--sample N] [--severity error,warning] [--strict] [--grammar rfc1738|rfc3986|xbnf] [--lang LANG] [--config FILE] [--include GLOB]... [--max-size SIZE] [--quiet] [--color WHEN] PATH... | -
//	urlls explain [--grammar NAME] [--rule NAME] [--json] URL
//	urlls resolve BASE REF
//	urlls grammar [NAME]
//	urlls version
//	urlls help [COMMAND]
//
// Results go to stdout and errors to stderr. The exit code is 0 on success, 1
// when the input does not parse or resolve, and 2 on a usage error.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// Exit codes.
const (
	exitOK    = 0
	exitFail  = 1 // the input does not parse or resolve
	exitUsage = 2 // bad command line
)

// env is what a command may touch: the process's streams, passed in so that
// tests run the command in-process.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
}

// command is one subcommand.
type command struct {
	name string
	// args is the synopsis after "urlls NAME".
	args string
	// summary is the one line of the command list.
	summary string
	// doc is the paragraph of "urlls help NAME".
	doc string
	run func(e *env, cmd *command, args []string) int
}

// commands in the order the usage lists them; run's no-argument case starts
// "serve", the language server.
var commands []*command

func init() {
	commands = []*command{
		{
			name:    "check",
			args:    "[--format text|json|sarif|github] [--strict] [--grammar rfc1738|rfc3986|xbnf] [--lang LANG] [--config FILE] [--include GLOB]... [--max-size SIZE] [--fix] [--min-severity SEVERITY] [--quiet] [--color WHEN] PATH... | -",
			summary: "report the URL problems of files, directories or standard input",
			doc: `Check finds the URLs of each file (Markdown, HTML, plain text, comments and
strings of code; --lang or the file extension decides) and reports every
problem with a stable code (see README.md, "Diagnostics"). A file named on
the command line is checked whatever its language; "-" reads standard input.
A directory is walked: the walk checks documents (Markdown, reStructuredText,
AsciiDoc, HTML, plain text, README-like files without an extension) and the
files that the configuration's "include" or --include GLOB (gitignore
syntax, repeatable) names, and skips what the repository's .gitignore files
and .git/info/exclude ignore, .git, node_modules, vendor, third_party and
binary files (told by content: PDF, images, archives, executables, NULs),
symbolic links (not followed) and FIFOs, sockets and devices (with a notice).
A binary file named on the command line is skipped with a notice on stderr
(one whose only binary sign is a NUL byte is checked); a FIFO or a device
named is refused. A directory named through a symbolic link is walked. No
file or input larger than --max-size (default 64M) is read. Each file's
settings come from the nearest .urlls.json in its directory or above, up to
the repository's root (the directory holding .git) or, outside a
repository, the directory named; a file owned by another user is ignored
with a warning (or --config FILE names the one to use). Text output is
"path:line:col: severity: message [code]" with 1-based byte columns; json
adds end positions, byte offsets and fixes; sarif is SARIF 2.1.0; github
prints workflow annotations. --min-severity hides the findings below a
severity (error, warning, information, hint) in every format; errors are
never hidden and still decide the exit code. On a terminal the text format
is coloured (--color auto, the default: not when NO_COLOR is set or TERM is
dumb; always; never), a run of more than a second shows its progress on
stderr, and a closing line on stderr sums up what was found and checked
("3 errors, 1 warning in 2 files; 1,204 URLs in 310 files checked"), in
every format and wherever stderr goes; --quiet leaves out the progress and
the summary. --fix applies the preferred fix of each error
and warning in place, in the same file (its mode, owner, links and
attributes kept), if it is writable and unchanged since it was read, and
reports what is left.
Exit codes: 0 no error-severity finding (a skipped binary file counts for
nothing), 1 errors found, 2 usage, I/O or configuration error, a file too
large or not regular, or a file --fix could not write (the other files are
still checked).`,
			run: runCheck,
		},
		{
			name:    "report",
			args:    "[--sample N] [--severity error,warning] [--strict] [--grammar rfc1738|rfc3986|xbnf] [--lang LANG] [--config FILE] [--include GLOB]... [--max-size SIZE] [--quiet] [--color WHEN] PATH... | -",
			summary: "count the findings of a corpus by code, with samples to judge each code's precision",
			doc: `Report checks files as check does (the same walk, configuration and flags)
and prints what a person needs to judge whether the findings are real
problems: the number of files, candidate URLs and findings; a table of the
findings by severity and code, with the number of files each occurs in;
then, for each code, errors and warnings first, up to N findings (--sample,
default 10, 0 for none), spread over different files and the same at every
run, each as "path:line:col: severity: message [code]" followed by its source
line (cut to about 160 columns) with a caret under the finding. --severity
keeps only findings of the given severities. On a terminal the samples are
coloured and a long run shows its progress on stderr, as for check (--color,
--quiet).
Exit codes: 0, whatever the findings; 2 usage, I/O or configuration error.`,
			run: runReport,
		},
		{
			name:    "explain",
			args:    "[--grammar rfc1738|rfc1808|rfc3986|xbnf] [--rule NAME] [--json] [--config FILE] URL",
			summary: "draw the derivation tree of URL: productions, byte spans, text and sources",
			doc: `Explain parses URL and draws its derivation tree, one production a line with
its byte span (start-end, end exclusive), the text it matched and the section
of the RFC it comes from. Without --rule (and with --grammar rfc1738) the
scheme picks the production (RFC 1738 §5; https per RFC 2818 §2.4; other
schemes genericurl; the scheme's case ignored), a "#" starts an RFC 1808
fragment, and by default a URL without a scheme parses as an RFC 1808
relativeURL. With --rule, or another --grammar, URL must match that one rule
of that grammar (default grammar rfc1738; default rule its start rule).
With --config FILE, a URL of a scheme that the configuration's "schemes"
give a grammar parses by that grammar's start rule.
A URL that does not parse is reported with a caret under the offending byte,
the production and the chain of productions leading to it, and what was
expected there; the exit code is then 1. Without --rule, the output ends
with what RFC 1738, RFC 3986 and browsers (the WHATWG URL Standard) make of
the URL, one line each: accepted, or the first reason it is not, and the URL
a browser follows.`,
			run: runExplain,
		},
		{
			name:    "resolve",
			args:    "BASE REF",
			summary: "resolve the relative URL REF against the base URL BASE (RFC 1808 §4)",
			doc:     `Resolve prints the absolute URL that REF stands for in a document whose base URL is BASE, by the algorithm of RFC 1808 §4.`,
			run:     runResolve,
		},
		{
			name:    "grammar",
			args:    "[NAME]",
			summary: "list the embedded grammars, or print every rule of one with its source",
			doc: `Without NAME, grammar lists the embedded grammars: name, rule count and title.
With NAME it prints the grammar's rules as written in its ABNF file, grouped
by the section of the RFC each comes from (";@source" lines); rules named by
";@transparent" are lexical helpers that derivation trees leave out.`,
			run: runGrammar,
		},
		{
			name:    "serve",
			args:    "[--stdio] [--log-file FILE] [--log-level LEVEL]",
			summary: "run the language server on standard input and output (also: urlls with no command)",
			doc: `Serve speaks the Language Server Protocol (3.15) on standard input and
output: diagnostics for the URLs of open documents, hovers naming the grammar
production under the cursor, quick fixes and a fix-all, document links and
semantic tokens. The log goes to standard error, or to --log-file. The process
exits 0 after "shutdown" and "exit", 1 on "exit" without "shutdown" or when
the client closes the connection first.`,
			run: runServe,
		},
		{
			name:    "version",
			args:    "",
			summary: "print the version of urlls and of the Go that built it",
			doc: `Version prints "urlls VERSION GOVERSION OS/ARCH": the module version that
the go command recorded in the binary (v1.2.3 or a pseudo-version for go
install MODULE@VERSION and for a build in a git clone, "(devel)" for a build
without version control information), the Go release that built it and the
platform. A binary built in a git clone adds a line "git commit REVISION
(TIME)", with ", with uncommitted changes" when the tree had some.`,
			run: runVersion,
		},
		{
			name:    "help",
			args:    "[COMMAND]",
			summary: "print this help, or the help of COMMAND",
			doc:     `Help prints the usage of urlls, or of one command.`,
			run:     runHelp,
		},
	}
}

func lookup(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	return nil
}

// run is the whole program: it returns the exit code.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr}
	if len(args) == 0 || isServeFlag(args[0]) {
		// A bare "urlls" is the language server, as editors start it
		// (vscode-languageclient appends --stdio).
		return runServe(e, lookup("serve"), args)
	}
	switch name := args[0]; name {
	case "-h", "-help", "--help":
		printUsage(stdout)
		return exitOK
	case "-version", "--version":
		// What people type first; the same as "urlls version".
		return runVersion(e, lookup("version"), args[1:])
	default:
		if cmd := lookup(name); cmd != nil {
			return cmd.run(e, cmd, args[1:])
		}
		if strings.HasPrefix(name, "-") {
			fmt.Fprintf(stderr, "urlls: unknown flag %s: flags follow the command\n", oneLine(name))
		} else {
			fmt.Fprintf(stderr, "urlls: unknown command %s\n", oneLine(name))
		}
		printUsage(stderr)
		return exitUsage
	}
}

// isServeFlag reports whether arg is a flag of serve, which a bare "urlls"
// accepts too: "urlls --stdio", "urlls --log-file F".
func isServeFlag(arg string) bool {
	name := strings.TrimLeft(arg, "-")
	name, _, _ = strings.Cut(name, "=")
	return strings.HasPrefix(arg, "-") && (name == "stdio" || name == "log-file" || name == "log-level")
}

func printUsage(w io.Writer) {
	fmt.Fprint(w, `urlls checks URLs against the historical URL grammars (RFC 1738, RFC 1808, W3C XBNF).

Usage:
  urlls <command> [arguments]

Commands:
`)
	for _, c := range commands {
		fmt.Fprintln(w, strings.TrimRight(fmt.Sprintf("  %-8s %s", c.name, c.args), " "))
		fmt.Fprintf(w, "           %s\n", c.summary)
	}
	fmt.Fprint(w, `
Run "urlls help COMMAND" for a command's flags; "urlls --version" is
"urlls version". Without a command, urlls runs the language server
(urlls serve).
Exit codes: 0 success, 1 findings that are errors (check) or a URL that does
not parse or resolve (explain, resolve), 2 usage, I/O or configuration error.
`)
}

func printCommandUsage(w io.Writer, cmd *command, fs *flag.FlagSet) {
	fmt.Fprintf(w, "Usage: urlls %s %s\n", cmd.name, cmd.args)
	if fs == nil {
		return
	}
	hasFlags := false
	fs.VisitAll(func(*flag.Flag) { hasFlags = true })
	if hasFlags {
		fmt.Fprintln(w, "\nFlags:")
		fs.SetOutput(w)
		fs.PrintDefaults()
		fs.SetOutput(io.Discard)
	}
}

// usageError reports a bad command line: one line "urlls: CMD: msg" and the
// command's usage, on stderr.
func (e *env) usageError(cmd *command, fs *flag.FlagSet, format string, args ...any) int {
	fmt.Fprintf(e.stderr, "urlls: %s: %s\n", cmd.name, message(fmt.Sprintf(format, args...)))
	printCommandUsage(e.stderr, cmd, fs)
	return exitUsage
}

// newFlagSet returns the flag set of cmd. Its output is discarded while
// parsing: parse reports errors itself, as one "urlls:" line.
func newFlagSet(cmd *command) *flag.FlagSet {
	fs := flag.NewFlagSet("urlls "+cmd.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// parse parses args with fs, letting flags come before and after the
// positional arguments ("--" ends the flags). It returns the positional
// arguments, or done with the exit code when the command line was bad or asked
// for help.
func (e *env) parse(cmd *command, fs *flag.FlagSet, args []string) (pos []string, code int, done bool) {
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				e.printHelp(e.stdout, cmd, fs)
				return nil, exitOK, true
			}
			return nil, e.usageError(cmd, fs, "%v", err), true
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, 0, false
		}
		if consumed := len(args) - len(rest); consumed > 0 && args[consumed-1] == "--" {
			// fs.Parse stopped at the terminator: the rest are all arguments.
			return append(pos, rest...), 0, false
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

func (e *env) printHelp(w io.Writer, cmd *command, fs *flag.FlagSet) {
	printCommandUsage(w, cmd, fs)
	fmt.Fprintf(w, "\n%s\n", cmd.doc)
}

func runHelp(e *env, cmd *command, args []string) int {
	fs := newFlagSet(cmd)
	pos, code, done := e.parse(cmd, fs, args)
	if done {
		return code
	}
	switch len(pos) {
	case 0:
		printUsage(e.stdout)
		return exitOK
	case 1:
		c := lookup(pos[0])
		if c == nil {
			return e.usageError(cmd, fs, "unknown command %s", oneLine(pos[0]))
		}
		if c == cmd {
			printUsage(e.stdout)
			return exitOK
		}
		// Each command declares its flags when it runs; "-h" makes it print
		// its help, with them, to stdout.
		return c.run(e, c, []string{"-h"})
	default:
		return e.usageError(cmd, fs, "want at most one command, got %d arguments", len(pos))
	}
}

// oneLine quotes s when it holds anything that would break a one-line message
// (newlines, control characters, invalid UTF-8) or is empty, and caps its
// length.
func oneLine(s string) string {
	const max = 80
	if len(s) > max {
		s = s[:max] + "…"
	}
	q := fmt.Sprintf("%q", s)
	if s == "" || q[1:len(q)-1] != s || strings.ContainsAny(s, " \"") {
		return q
	}
	return s
}

// message makes s safe to print as one line: control characters (newlines
// included) and invalid UTF-8 are escaped, everything else is kept.
func message(s string) string {
	printable := true
	for i := 0; i < len(s) && printable; i++ {
		printable = ' ' <= s[i] && s[i] < utf8.RuneSelf && s[i] != 0x7f
	}
	if printable {
		return s // the common case, as it is, without a copy
	}
	return escapeMessage(s)
}

// escapeMessage is message without its shortcut for printable ASCII.
func escapeMessage(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case !unicode.IsPrint(r) && r != ' ':
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}
