package main

import (
	"bufio"
	"cmp"
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
	"text/tabwriter"

	"github.com/urlls/urlls/analysis/grammar"
	"github.com/urlls/urlls/analysis/resolve"
)

func runResolve(e *env, cmd *command, args []string) int {
	fs := newFlagSet(cmd)
	pos, code, done := e.parse(cmd, fs, args)
	if done {
		return code
	}
	if len(pos) != 2 {
		return e.usageError(cmd, fs, "want BASE and REF, got %d arguments", len(pos))
	}
	abs, err := resolve.Resolve(pos[0], pos[1])
	if err != nil {
		fmt.Fprintf(e.stderr, "urlls: resolve: %s\n", message(err.Error()))
		return exitFail
	}
	fmt.Fprintln(e.stdout, abs)
	return exitOK
}

func runGrammar(e *env, cmd *command, args []string) int {
	fs := newFlagSet(cmd)
	pos, code, done := e.parse(cmd, fs, args)
	if done {
		return code
	}
	switch len(pos) {
	case 0:
		listGrammars(e)
		return exitOK
	case 1:
	default:
		return e.usageError(cmd, fs, "want at most one grammar name, got %d arguments", len(pos))
	}
	name := pos[0]
	if _, ok := grammar.BuiltinSource(name); !ok {
		return e.usageError(cmd, fs, "unknown grammar %s (choose %s)", oneLine(name), strings.Join(grammar.BuiltinNames(), ", "))
	}
	g := grammar.Builtin(name)
	if g == nil {
		fmt.Fprintf(e.stderr, "urlls: grammar: %s does not load: %s\n", name, message(fmt.Sprint(grammar.BuiltinError())))
		return exitFail
	}
	w := bufio.NewWriter(e.stdout)
	defer w.Flush()
	printGrammar(w, g)
	return exitOK
}

// listGrammars prints a table of the embedded grammars.
func listGrammars(e *env) {
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tRULES\tTITLE")
	for _, name := range grammar.BuiltinNames() {
		g := grammar.Builtin(name)
		if g == nil {
			fmt.Fprintf(tw, "%s\t-\tdoes not load: %s\n", name, message(fmt.Sprint(grammar.BuiltinError())))
			continue
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\n", g.Name, len(g.Rules), g.Title)
	}
	tw.Flush()
}

// printGrammar prints every rule of g as written in its file, grouped by
// source. The output is itself a grammar file in the dialect of package
// grammar: ";@title", ";@source" and ";@transparent" say what the embedded
// file says.
func printGrammar(w *bufio.Writer, g *grammar.Grammar) {
	fmt.Fprintf(w, "; %s: %d rules\n", g.Name, len(g.Rules))
	fmt.Fprintf(w, ";@title %s\n", g.Title)
	var transparent []string
	for _, r := range g.Rules {
		if !r.InTree() {
			transparent = append(transparent, r.Name)
		}
	}
	if len(transparent) > 0 {
		fmt.Fprintln(w, "; transparent rules are lexical helpers that derivation trees leave out")
		fmt.Fprintf(w, ";@transparent %s\n", strings.Join(transparent, " "))
	}
	source := ""
	for i, r := range g.Rules {
		if i == 0 || r.Source != source {
			source = r.Source
			fmt.Fprintf(w, "\n;@source %s\n", source)
		}
		fmt.Fprintln(w, r.Definition)
	}
}

func runVersion(e *env, cmd *command, args []string) int {
	fs := newFlagSet(cmd)
	pos, code, done := e.parse(cmd, fs, args)
	if done {
		return code
	}
	if len(pos) != 0 {
		return e.usageError(cmd, fs, "takes no arguments, got %d", len(pos))
	}
	info, _ := debug.ReadBuildInfo()
	fmt.Fprint(e.stdout, versionText(info))
	return exitOK
}

// version returns the module version of the binary and the Go version that
// built it. The go command writes the module version into every binary:
// "v1.2.3" (or a pseudo-version) for "go install MODULE/cmd/urlls@VERSION",
// a pseudo-version such as "v0.0.0-20260101120000-0123456789ab+dirty" for
// "go build" in a git clone (Go 1.24 and later, unless -buildvcs=false), and
// "(devel)" for a build without version control information. No -ldflags
// are needed.
func version() (string, string) {
	info, _ := debug.ReadBuildInfo()
	return buildVersion(info)
}

func buildVersion(info *debug.BuildInfo) (string, string) {
	v, gov := "(devel)", runtime.Version()
	if info != nil {
		if info.Main.Version != "" {
			v = info.Main.Version
		}
		if info.GoVersion != "" {
			gov = info.GoVersion
		}
	}
	return v, gov
}

// versionText is what "urlls version" prints: "urlls VERSION GOVERSION
// OS/ARCH" and, for a binary built in a version control checkout, a second
// line with the commit, its time and whether the tree had changes that were
// not committed ("vcs.*" build settings; a module installed with go
// install has none: its version names the commit).
func versionText(info *debug.BuildInfo) string {
	v, gov := buildVersion(info)
	var b strings.Builder
	fmt.Fprintf(&b, "urlls %s %s %s/%s\n", v, gov, runtime.GOOS, runtime.GOARCH)
	settings := map[string]string{}
	if info != nil {
		for _, s := range info.Settings {
			settings[s.Key] = s.Value
		}
	}
	if rev := settings["vcs.revision"]; rev != "" {
		fmt.Fprintf(&b, "%s commit %s", cmp.Or(settings["vcs"], "vcs"), rev)
		if t := settings["vcs.time"]; t != "" {
			fmt.Fprintf(&b, " (%s)", t)
		}
		if settings["vcs.modified"] == "true" {
			b.WriteString(", with uncommitted changes")
		}
		b.WriteString("\n")
	}
	return b.String()
}
