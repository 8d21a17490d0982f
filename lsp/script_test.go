package lsp

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.lsp.dev/protocol"
	"golang.org/x/tools/txtar"
)

var update = flag.Bool("update", false, "rewrite the expected lines of the scripts in testdata/lsp/*.txtar")

// TestScenarios runs the scripts of ../testdata/lsp against the server,
// in process over net.Pipe (e2e_test.go).
//
// An archive's comment says what the scenario proves. Its "script" section
// is the script; every other section is a file, written (markers removed)
// into a temporary workspace folder, which is the client's root: a
// ".urlls.json" section is the workspace's configuration file, other
// sections are documents to open or texts to replace one with.
//
// In a file, a marker ⟦name⟧ names the position where it stands (it is
// removed from the text); a script refers to it as @name. Markers belong to
// the text a document was opened or replaced with: after incremental
// changes they may be stale.
//
// A script line is a command; the lines after it indented by two spaces are
// its expected output, compared exactly (missing or extra lines fail; run
// with -update to rewrite them from what the server does, then read the
// diff). Blank lines and lines starting with "#" are comments. Positions are
// LSP positions, 0-based "line:character" in UTF-16 code units, computed by
// the harness without the server's Mapper; a RANGE is "L:C-L:C", "@a-@b",
// "@a" (empty) or a mix; TEXT is a Go string literal. Commands:
//
//	initialize [plaintext] [codedesc] [pull] [JSON]
//	    initialize and initialized. plaintext: hovers in plain text only
//	    (default Markdown and plain text); codedesc: the client supports
//	    codeDescription; pull: the client answers workspace/configuration,
//	    and the harness waits for the server to ask; JSON: the
//	    initializationOptions. Without it the script starts with a bare
//	    initialize.
//	configuration JSON
//	    what the client answers for the section "urlls" from now on
//	didChangeConfiguration [JSON]
//	    settings {"urlls": JSON}, or null without JSON; the diagnostics
//	    that follow must be published after it
//	message
//	    waits for the next window/showMessage: "TYPE: MESSAGE"; the
//	    workspace folder's path is $WORK
//	open FILE LANGUAGE [crlf] [nonl]
//	    didOpen at version 1; crlf turns the file's line breaks into CRLF,
//	    nonl drops its final line break (txtar files always end with one)
//	change FILE RANGE TEXT [RANGE TEXT]...
//	    one didChange with these incremental changes, applied in order, at
//	    the next version. When the harness finds a range outside its copy of
//	    the document (a missing line, an end before its start), it expects
//	    the server to refuse the change, shows "rejected: MESSAGE" (its
//	    window/showMessage, which message then does not show again) and
//	    keeps the document as it was.
//	replace FILE SECTION [crlf] [nonl]
//	    one didChange without a range: the whole text of SECTION; its
//	    markers become the document's
//	diagnostics FILE
//	    waits for the publication of the current version (older ones are
//	    skipped, a newer one fails, one at the version that differs is
//	    skipped as the server republishes after configuration changes) and
//	    shows each diagnostic as "RANGE SEVERITY CODE[ +unnecessary][ +doc=HREF]:
//	    MESSAGE", then each fix its data carries as "  fix TITLE: RANGE TEXT; …"
//	hover FILE POS
//	    "null", or "range RANGE", the content kind and the content, each
//	    line prefixed "| "; FILE need not be open
//	actions FILE RANGE [KIND]...
//	    code actions (KINDs go to context.only): "KIND[ preferred] TITLE
//	    [CODE RANGE, …]" and its edits "  edit RANGE TEXT"
//	apply N
//	    applies the edits of the Nth (1-based) action of the last actions
//	    to the harness's copy and sends them as one didChange; the
//	    publication of that version must no longer hold the diagnostics the
//	    action lists (same code at the same start)
//	text FILE
//	    the harness's copy of the document, each line prefixed "| "
//	links FILE
//	    document links: "RANGE TARGET TOOLTIP"; the workspace URI is $WORK
//	legend
//	    the semantic token types of the server's legend
//	tokens FILE
//	    semantic tokens, decoded: "L:C+LENGTH TYPE TEXT"
//	write NAME SECTION
//	    writes the text of SECTION into the workspace file NAME
//	save FILE
//	    didSave; the diagnostics that follow must be published after it
//	close FILE
//	    didClose; the server must publish an empty list without a version
//	request METHOD [JSON]
//	    a raw request: "result JSON" or "error CODE MESSAGE"
//	notify METHOD [JSON]
//	    a raw notification
//	shutdown
//	exit
//	    "code N", Serve's exit code
//
// A script that does not exit ends with shutdown and exit, and code 0.
//
// Whatever the script says, the client checks every publication as it
// arrives (e2e_test.go): a document's versions never go backwards, every
// published version is one the client sent (so never that of a refused
// change), and every range is valid in the text of its version.
func TestScenarios(t *testing.T) {
	files, err := filepath.Glob("../testdata/lsp/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no scenarios: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			t.Parallel()
			runScenario(t, file)
		})
	}
}

var markerRE = regexp.MustCompile(`⟦([A-Za-z0-9_.-]*)⟧`)

// stripMarkers removes the markers of text and returns their byte offsets.
func stripMarkers(text string) (string, map[string]int) {
	marks := map[string]int{}
	var b strings.Builder
	at := 0
	for _, m := range markerRE.FindAllStringSubmatchIndex(text, -1) {
		b.WriteString(text[at:m[0]])
		marks[text[m[2]:m[3]]] = b.Len()
		at = m[1]
	}
	b.WriteString(text[at:])
	return b.String(), marks
}

// scriptDoc is an open document as the client knows it.
type scriptDoc struct {
	name    string
	uri     protocol.DocumentURI
	text    string
	version int32 // of text: the last version the server accepted
	sent    int32 // the last version the client sent
	markers map[string]protocol.Position
	since   int // publications before a configuration change do not count
}

type step struct {
	lineNo int      // 1-based, in the script section
	line   string   // the command
	want   []string // expected lines
}

type scenario struct {
	t        *testing.T
	file     string
	c        *testClient
	files    map[string]string // section name -> raw text
	docs     map[string]*scriptDoc
	init     *protocol.InitializeResult
	actions  []protocol.CodeAction
	actDoc   *scriptDoc
	messages int // window/showMessage notifications seen by the script
	exited   bool
}

func runScenario(t *testing.T, file string) {
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	sc := &scenario{t: t, file: file, files: map[string]string{}, docs: map[string]*scriptDoc{}}
	var script *txtar.File
	dir := t.TempDir()
	for i := range ar.Files {
		f := &ar.Files[i]
		if f.Name == "script" {
			script = f
			continue
		}
		sc.files[f.Name] = string(f.Data)
		text, _ := stripMarkers(string(f.Data))
		path := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if script == nil {
		t.Fatal("no script section")
	}
	steps, lines := parseScript(t, string(script.Data))
	sc.c = newTestClient(t, clientOptions{dir: dir})

	got := make([][]string, len(steps))
	for i, st := range steps {
		if sc.exited {
			t.Fatalf("script line %d: %s after exit", st.lineNo, st.line)
		}
		args := splitArgs(t, st)
		if sc.init == nil && args[0] != "initialize" && args[0] != "configuration" {
			sc.init = sc.c.initialize(capabilities{})
		}
		out := sc.run(st, args)
		got[i] = out
		if !*update {
			if d := cmp.Diff(st.want, out); d != "" {
				t.Errorf("script line %d: %s (-want +got):\n%s", st.lineNo, st.line, d)
			}
		}
	}
	if !sc.exited {
		if code := sc.c.shutdownExit(); code != 0 {
			t.Errorf("after shutdown and exit, Serve returned %d, want 0", code)
		}
	}
	if *update {
		script.Data = []byte(rewriteScript(lines, steps, got))
		if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// parseScript splits a script into steps; lines are the script's lines.
func parseScript(t *testing.T, text string) ([]step, []string) {
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	var steps []step
	for i, l := range lines {
		switch {
		case strings.HasPrefix(l, "  "):
			if len(steps) == 0 {
				t.Fatalf("script line %d: expected output before any command", i+1)
			}
			steps[len(steps)-1].want = append(steps[len(steps)-1].want, l[2:])
		case strings.TrimSpace(l) == "" || strings.HasPrefix(l, "#"):
		default:
			steps = append(steps, step{lineNo: i + 1, line: l})
		}
	}
	return steps, lines
}

// rewriteScript replaces the expected lines of each step by got.
func rewriteScript(lines []string, steps []step, got [][]string) string {
	var b strings.Builder
	next := 0
	for i, l := range lines {
		if strings.HasPrefix(l, "  ") {
			continue
		}
		b.WriteString(l + "\n")
		if next < len(steps) && steps[next].lineNo == i+1 {
			for _, g := range got[next] {
				b.WriteString("  " + g + "\n")
			}
			next++
		}
	}
	return b.String()
}

// splitArgs splits a command line into words; a Go string literal is one
// word (unquoted), and a word starting with "{" or "[" takes the rest of
// the line (JSON).
func splitArgs(t *testing.T, st step) []string {
	var args []string
	s := st.line
	for {
		s = strings.TrimLeft(s, " ")
		if s == "" {
			return args
		}
		switch s[0] {
		case '{', '[':
			return append(args, s)
		case '"':
			q, err := strconv.QuotedPrefix(s)
			if err != nil {
				t.Fatalf("script line %d: %v", st.lineNo, err)
			}
			u, _ := strconv.Unquote(q)
			args = append(args, u)
			s = s[len(q):]
		default:
			i := strings.IndexByte(s, ' ')
			if i < 0 {
				i = len(s)
			}
			args = append(args, s[:i])
			s = s[i:]
		}
	}
}

func (sc *scenario) fatalf(st step, format string, args ...any) {
	sc.t.Helper()
	sc.t.Fatalf("%s:%d: %s: %s", filepath.Base(sc.file), st.lineNo, st.line, fmt.Sprintf(format, args...))
}

func (sc *scenario) doc(st step, name string) *scriptDoc {
	d, ok := sc.docs[name]
	if !ok {
		sc.fatalf(st, "%s is not open", name)
	}
	return d
}

// fileText returns a section's text with the transformations asked for.
func (sc *scenario) fileText(st step, name string, opts []string) (string, map[string]protocol.Position) {
	raw, ok := sc.files[name]
	if !ok {
		sc.fatalf(st, "no section %s", name)
	}
	for _, o := range opts {
		switch o {
		case "crlf":
			raw = strings.ReplaceAll(raw, "\n", "\r\n")
		case "nonl":
			raw = strings.TrimSuffix(strings.TrimSuffix(raw, "\n"), "\r")
		default:
			sc.fatalf(st, "unknown option %s", o)
		}
	}
	text, offs := stripMarkers(raw)
	marks := map[string]protocol.Position{}
	for k, off := range offs {
		marks[k] = position(text, off)
	}
	return text, marks
}

func (sc *scenario) pos(st step, d *scriptDoc, s string) protocol.Position {
	if name, ok := strings.CutPrefix(s, "@"); ok {
		p, ok := d.markers[name]
		if !ok {
			sc.fatalf(st, "no marker %s in %s", name, d.name)
		}
		return p
	}
	var l, c uint32
	if _, err := fmt.Sscanf(s, "%d:%d", &l, &c); err != nil {
		sc.fatalf(st, "bad position %q", s)
	}
	return protocol.Position{Line: l, Character: c}
}

func (sc *scenario) rangeArg(st step, d *scriptDoc, s string) protocol.Range {
	a, b, ok := strings.Cut(s, "-")
	if !ok {
		p := sc.pos(st, d, a)
		return protocol.Range{Start: p, End: p}
	}
	return protocol.Range{Start: sc.pos(st, d, a), End: sc.pos(st, d, b)}
}

// jsonArg decodes an optional JSON argument.
func (sc *scenario) jsonArg(st step, args []string, i int) any {
	if len(args) <= i {
		return nil
	}
	var v any
	if err := json.Unmarshal([]byte(args[i]), &v); err != nil {
		sc.fatalf(st, "bad JSON: %v", err)
	}
	return v
}

func (sc *scenario) work(s string) string {
	s = strings.ReplaceAll(s, sc.c.workspaceURI(), "$WORK")
	return strings.ReplaceAll(s, sc.c.dir, "$WORK") // a path in a message
}

func (sc *scenario) run(st step, args []string) []string {
	c := sc.c
	need := func(n int) {
		if len(args) < n {
			sc.fatalf(st, "want at least %d arguments", n-1)
		}
	}
	switch args[0] {
	case "initialize":
		var caps capabilities
		for i, a := range args[1:] {
			switch {
			case a == "plaintext":
				caps.plaintextHover = true
			case a == "codedesc":
				caps.codeDescription = true
			case a == "pull":
				caps.pull = true
			case strings.HasPrefix(a, "{"):
				caps.options = sc.jsonArg(st, args, i+1)
			default:
				sc.fatalf(st, "unknown capability %s", a)
			}
		}
		sc.init = c.initialize(caps)
		return nil

	case "configuration":
		need(2)
		c.setConfig(sc.jsonArg(st, args, 1))
		return nil

	case "didChangeConfiguration":
		for _, d := range sc.docs {
			d.since = c.publications()
		}
		var settings any
		if len(args) > 1 {
			settings = map[string]any{"urlls": sc.jsonArg(st, args, 1)}
		}
		if err := c.server.DidChangeConfiguration(c.ctx, &protocol.DidChangeConfigurationParams{Settings: settings}); err != nil {
			sc.fatalf(st, "%v", err)
		}
		return nil

	case "open":
		need(3)
		text, marks := sc.fileText(st, args[1], args[3:])
		d := &scriptDoc{name: args[1], uri: c.uri(args[1]), text: text, version: 1, sent: 1, markers: marks}
		sc.docs[args[1]] = d
		c.didOpen(d.uri, args[2], 1, text)
		return nil

	case "change":
		need(4)
		d := sc.doc(st, args[1])
		if len(args)%2 != 0 {
			sc.fatalf(st, "want RANGE TEXT pairs")
		}
		var changes []change
		text, bad := d.text, error(nil)
		for i := 2; i < len(args); i += 2 {
			r := sc.rangeArg(st, d, args[i])
			changes = append(changes, change{Range: &r, Text: args[i+1]})
			if bad != nil {
				continue
			}
			start, err1 := offset(text, r.Start)
			end, err2 := offset(text, r.End)
			switch {
			case err1 != nil:
				bad = err1
			case err2 != nil:
				bad = err2
			case end < start:
				bad = fmt.Errorf("end before start")
			default:
				text = text[:start] + args[i+1] + text[end:]
			}
		}
		d.sent++
		if bad == nil {
			c.didChange(d.uri, d.sent, &text, changes...)
			d.text, d.version = text, d.sent
			return nil
		}
		c.didChange(d.uri, d.sent, nil, changes...)
		m := c.waitMessage(sc.messages)
		sc.messages++
		if m.Type != protocol.MessageTypeError {
			sc.fatalf(st, "showMessage of type %v, want an error", m.Type)
		}
		return []string{"rejected: " + sc.work(m.Message)}

	case "replace":
		need(3)
		d := sc.doc(st, args[1])
		text, marks := sc.fileText(st, args[2], args[3:])
		d.sent++
		c.didChange(d.uri, d.sent, &text, change{Text: text})
		d.text, d.version, d.markers = text, d.sent, marks
		return nil

	case "diagnostics":
		need(2)
		d := sc.doc(st, args[1])
		p, ok := c.tryWaitDiagnostics(d.uri, d.version, d.since, func(diags []protocol.Diagnostic) bool {
			return *update || slices.Equal(sc.renderDiagnostics(diags), st.want)
		})
		if !ok && p.Version == 0 {
			sc.fatalf(st, "timed out waiting for version %d", d.version)
		}
		return sc.renderDiagnostics(p.Diagnostics) // on a timeout, the diff says why

	case "hover":
		need(3)
		d, ok := sc.docs[args[1]]
		if !ok { // a document the server does not know
			d = &scriptDoc{name: args[1], uri: c.uri(args[1])}
		}
		h := c.hover(d.uri, sc.pos(st, d, args[2]))
		if h == nil {
			return []string{"null"}
		}
		var out []string
		if h.Range != nil {
			out = append(out, "range "+fmtRange(*h.Range))
		}
		out = append(out, string(h.Contents.Kind))
		for _, l := range strings.Split(h.Contents.Value, "\n") {
			out = append(out, strings.TrimRight("| "+sc.work(l), " "))
		}
		return out

	case "actions":
		need(3)
		d := sc.doc(st, args[1])
		var only []protocol.CodeActionKind
		for _, k := range args[3:] {
			only = append(only, protocol.CodeActionKind(k))
		}
		sc.actions = c.codeActions(d.uri, sc.rangeArg(st, d, args[2]), only...)
		sc.actDoc = d
		var out []string
		for _, a := range sc.actions {
			var ds []string
			for _, dg := range a.Diagnostics {
				ds = append(ds, fmt.Sprint(dg.Code)+" "+fmtRange(dg.Range))
			}
			pref := ""
			if a.IsPreferred {
				pref = " preferred"
			}
			out = append(out, fmt.Sprintf("%s%s %q [%s]", a.Kind, pref, a.Title, strings.Join(ds, ", ")))
			if a.Edit == nil {
				continue
			}
			for u, edits := range a.Edit.Changes {
				if u != d.uri {
					out = append(out, "  edits of another document: "+sc.work(string(u)))
				}
				for _, e := range edits {
					out = append(out, fmt.Sprintf("  edit %s %q", fmtRange(e.Range), e.NewText))
				}
			}
		}
		return out

	case "apply":
		need(2)
		n, err := strconv.Atoi(args[1])
		if err != nil || n < 1 || n > len(sc.actions) {
			sc.fatalf(st, "no action %s among %d", args[1], len(sc.actions))
		}
		a, d := sc.actions[n-1], sc.actDoc
		if a.Edit == nil || len(a.Edit.DocumentChanges) > 0 {
			sc.fatalf(st, "the action has no edit of changes")
		}
		edits := a.Edit.Changes[d.uri]
		text, err := applyEdits(d.text, edits)
		if err != nil {
			sc.fatalf(st, "applying the action: %v", err)
		}
		// As one didChange, last edit first, so that each range still
		// holds in the text the previous changes left.
		sorted := slices.Clone(edits)
		slices.SortFunc(sorted, func(x, y protocol.TextEdit) int {
			if x.Range.Start.Line != y.Range.Start.Line {
				return int(y.Range.Start.Line) - int(x.Range.Start.Line)
			}
			return int(y.Range.Start.Character) - int(x.Range.Start.Character)
		})
		var changes []change
		for _, e := range sorted {
			r := e.Range
			changes = append(changes, change{Range: &r, Text: e.NewText})
		}
		d.sent++
		c.didChange(d.uri, d.sent, &text, changes...)
		d.text, d.version = text, d.sent
		p := c.waitDiagnostics(d.uri, d.version, nil)
		for _, fixed := range a.Diagnostics {
			for _, dg := range p.Diagnostics {
				if fmt.Sprint(dg.Code) == fmt.Sprint(fixed.Code) && dg.Range.Start == fixed.Range.Start {
					sc.t.Errorf("%s:%d: %s: diagnostic %v at %s is still there after its fix: %s",
						filepath.Base(sc.file), st.lineNo, st.line, dg.Code, fmtPos(dg.Range.Start), dg.Message)
				}
			}
		}
		return nil

	case "text":
		need(2)
		d := sc.doc(st, args[1])
		var out []string
		for _, l := range strings.Split(d.text, "\n") {
			out = append(out, strings.TrimRight("| "+strings.ReplaceAll(l, "\r", `\r`), " "))
		}
		return out

	case "links":
		need(2)
		d := sc.doc(st, args[1])
		var out []string
		for _, l := range c.links(d.uri) {
			out = append(out, fmt.Sprintf("%s %s %q", fmtRange(l.Range), sc.work(string(l.Target)), sc.work(l.Tooltip)))
		}
		return out

	case "legend":
		return []string{strings.Join(sc.legend(st), " ")}

	case "tokens":
		need(2)
		d := sc.doc(st, args[1])
		legend := sc.legend(st)
		toks := c.tokens(d.uri)
		if len(toks.Data)%5 != 0 {
			sc.fatalf(st, "%d integers of token data", len(toks.Data))
		}
		var out []string
		var line, char uint32
		for i := 0; i < len(toks.Data); i += 5 {
			dl, dc, n, typ := toks.Data[i], toks.Data[i+1], toks.Data[i+2], toks.Data[i+3]
			if dl > 0 {
				line, char = line+dl, dc
			} else {
				char += dc
			}
			name := fmt.Sprint(typ)
			if int(typ) < len(legend) {
				name = legend[typ]
			}
			start := protocol.Position{Line: line, Character: char}
			end := protocol.Position{Line: line, Character: char + n}
			s, err1 := offset(d.text, start)
			e, err2 := offset(d.text, end)
			if err1 != nil || err2 != nil || validRange(d.text, protocol.Range{Start: start, End: end}) != nil {
				sc.t.Errorf("%s:%d: token %s+%d is not in the text", filepath.Base(sc.file), st.lineNo, fmtPos(start), n)
				continue
			}
			out = append(out, fmt.Sprintf("%s+%d %s %q", fmtPos(start), n, name, d.text[s:e]))
		}
		return out

	case "write":
		need(3)
		text, _ := sc.fileText(st, args[2], nil)
		if err := os.WriteFile(filepath.Join(c.dir, filepath.FromSlash(args[1])), []byte(text), 0o644); err != nil {
			sc.fatalf(st, "%v", err)
		}
		return nil

	case "save":
		need(2)
		d := sc.doc(st, args[1])
		d.since = c.publications()
		if err := c.server.DidSave(c.ctx, &protocol.DidSaveTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: d.uri}}); err != nil {
			sc.fatalf(st, "%v", err)
		}
		return nil

	case "close":
		need(2)
		d := sc.doc(st, args[1])
		n := c.publications()
		c.didClose(d.uri)
		c.waitCleared(d.uri, n)
		delete(sc.docs, args[1])
		return nil

	case "request":
		need(2)
		var result json.RawMessage
		if err := c.rawCall(args[1], sc.jsonArg(st, args, 2), &result); err != nil {
			if code := errorCode(err); code != 0 {
				return []string{fmt.Sprintf("error %d %s", code, err)}
			}
			sc.fatalf(st, "%v", err)
		}
		if len(result) == 0 {
			result = json.RawMessage("null")
		}
		return []string{"result " + string(result)}

	case "notify":
		need(2)
		if err := c.conn.Notify(c.ctx, args[1], sc.jsonArg(st, args, 2)); err != nil {
			sc.fatalf(st, "%v", err)
		}
		return nil

	case "message":
		m := c.waitMessage(sc.messages)
		sc.messages++
		return []string{fmt.Sprintf("%v: %s", m.Type, sc.work(m.Message))}

	case "shutdown":
		if err := c.server.Shutdown(c.ctx); err != nil {
			sc.fatalf(st, "%v", err)
		}
		return nil

	case "exit":
		sc.exited = true
		return []string{fmt.Sprintf("code %d", c.exit())}
	}
	sc.fatalf(st, "unknown command")
	return nil
}

// legend returns the token types the server declared in initialize.
func (sc *scenario) legend(st step) []string {
	var caps struct {
		SemanticTokensProvider struct {
			Legend struct {
				TokenTypes []string `json:"tokenTypes"`
			} `json:"legend"`
			Full bool `json:"full"`
		} `json:"semanticTokensProvider"`
	}
	b, _ := json.Marshal(sc.init.Capabilities)
	if err := json.Unmarshal(b, &caps); err != nil || !caps.SemanticTokensProvider.Full {
		sc.fatalf(st, "no full semantic tokens in %s", b)
	}
	return caps.SemanticTokensProvider.Legend.TokenTypes
}

var severityNames = map[protocol.DiagnosticSeverity]string{
	protocol.DiagnosticSeverityError:       "error",
	protocol.DiagnosticSeverityWarning:     "warning",
	protocol.DiagnosticSeverityInformation: "information",
	protocol.DiagnosticSeverityHint:        "hint",
}

// renderDiagnostics shows diagnostics as the script expects them.
func (sc *scenario) renderDiagnostics(diags []protocol.Diagnostic) []string {
	var out []string
	for _, d := range diags {
		line := fmt.Sprintf("%s %s %v", fmtRange(d.Range), severityNames[d.Severity], d.Code)
		for _, tag := range d.Tags {
			switch tag {
			case protocol.DiagnosticTagUnnecessary:
				line += " +unnecessary"
			default:
				line += fmt.Sprintf(" +tag%v", tag)
			}
		}
		if d.CodeDescription != nil {
			line += " +doc=" + string(d.CodeDescription.Href)
		}
		if d.Source != "urlls" {
			line += fmt.Sprintf(" source=%q", d.Source)
		}
		out = append(out, line+": "+d.Message)
		if d.Data == nil {
			continue
		}
		var fixes []struct {
			Message string              `json:"message"`
			Edits   []protocol.TextEdit `json:"edits"`
		}
		b, _ := json.Marshal(d.Data)
		if err := json.Unmarshal(b, &fixes); err != nil || len(fixes) == 0 {
			out = append(out, "  data "+string(b))
			continue
		}
		for _, f := range fixes {
			var edits []string
			for _, e := range f.Edits {
				edits = append(edits, fmt.Sprintf("%s %q", fmtRange(e.Range), e.NewText))
			}
			out = append(out, fmt.Sprintf("  fix %s: %s", f.Message, strings.Join(edits, "; ")))
		}
	}
	return out
}
