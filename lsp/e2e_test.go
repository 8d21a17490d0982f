package lsp

// The end-to-end harness: Serve runs in a goroutine on one end of a
// net.Pipe, a real jsonrpc2 connection with the library's typed server
// dispatcher on the other. The client's handler records what the server
// sends (publishDiagnostics, window/showMessage, workspace/configuration
// requests) and checks on arrival that the versions of a document's
// publications never go backwards and that every published range is valid
// in the text the client sent for that version. Positions are computed by
// the harness's own UTF-16 code (position, offset below), never by Mapper.
// The scenario scripts of testdata/lsp (script_test.go), session_test.go
// and utf16_test.go drive it in process; stdio_test.go connects the same
// client to the urlls binary's standard input and output.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
	"go.uber.org/zap"
	"go.uber.org/zap/zaptest"
)

// patience bounds every wait of the harness; it only keeps a broken server
// from hanging the test, no test depends on how long anything takes.
const patience = 10 * time.Second

// testClient is the client side of one in-process session.
type testClient struct {
	t      *testing.T
	ctx    context.Context
	conn   jsonrpc2.Conn
	server protocol.Server
	dir    string   // the workspace folder, a temporary directory
	code   chan int // the server's exit code
	// serverName names the server in messages: Serve or the process
	serverName string

	mu        sync.Mutex
	changed   chan struct{} // closed and replaced whenever an event arrives
	pubs      []protocol.PublishDiagnosticsParams
	messages  []protocol.ShowMessageParams
	configAsk []protocol.ConfigurationParams
	config    any                                       // the answer to workspace/configuration
	versions  map[protocol.DocumentURI]uint32           // last published non-zero version
	sent      map[protocol.DocumentURI]map[int32]string // text of each version the client sent
	problems  []string                                  // invariants broken on arrival
	exitCode  *int
}

type clientOptions struct {
	debounce time.Duration
	dir      string // workspace folder; a new temporary directory when empty
	// wrote, when not nil, is told every write of the client to the pipe
	// once it has returned (sentConn).
	wrote func(b []byte)
}

// sentConn is the client's end of net.Pipe, telling wrote what each write
// wrote once it has returned. net.Pipe does not buffer: a write returns
// when the server has read every byte of it, and the server reads and
// hands on its messages in order, so once the write of a message has
// returned, the server has the message in hand and handles it before
// anything the client writes after.
type sentConn struct {
	net.Conn
	wrote func(b []byte)
}

func (c sentConn) Write(b []byte) (int, error) {
	n, err := c.Conn.Write(b)
	c.wrote(b[:n])
	return n, err
}

// newTestClient starts a server and connects a client to it. The session
// is ended when the test ends: the client closes its end of the pipe, which
// must make Serve return.
func newTestClient(t *testing.T, o clientOptions) *testClient {
	t.Helper()
	if o.debounce == 0 {
		o.debounce = 2 * time.Millisecond
	}
	serverEnd, clientEnd := net.Pipe()
	code := make(chan int, 1)
	logger := zaptest.NewLogger(t)
	go func() {
		code <- Serve(context.Background(), serverEnd, Options{Logger: logger.Named("server"), Debounce: o.debounce, Version: "test"})
	}()
	if o.wrote != nil {
		clientEnd = sentConn{clientEnd, o.wrote}
	}
	return connectClient(t, clientEnd, o.dir, code, "Serve")
}

// connectClient connects a client to a server on rwc; code receives the
// server's exit code when it ends, server names it in messages. When the
// test ends the client closes rwc, which must end the server.
func connectClient(t *testing.T, rwc io.ReadWriteCloser, dir string, code chan int, server string) *testClient {
	t.Helper()
	if dir == "" {
		dir = t.TempDir()
	}
	c := &testClient{
		t:          t,
		ctx:        context.Background(),
		dir:        dir,
		code:       code,
		serverName: server,
		changed:    make(chan struct{}),
		versions:   map[protocol.DocumentURI]uint32{},
		sent:       map[protocol.DocumentURI]map[int32]string{},
	}
	c.conn = jsonrpc2.NewConn(jsonrpc2.NewStream(rwc))
	c.server = protocol.ServerDispatcher(c.conn, zap.NewNop())
	c.conn.Go(c.ctx, c.handle)
	t.Cleanup(func() {
		c.conn.Close()
		if c.exitCode == nil {
			select {
			case code := <-c.code:
				c.exitCode = &code
			case <-time.After(patience):
				t.Errorf("%s did not end after the client closed the connection", c.serverName)
			}
		}
		select {
		case <-c.conn.Done():
		case <-time.After(patience):
			t.Errorf("the client connection did not end")
		}
		c.checkInvariants()
	})
	return c
}

// handle is the client's handler of what the server sends. It never blocks
// on the test, and replies after releasing c.mu.
func (c *testClient) handle(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	var result any
	var rerr error
	c.mu.Lock()
	switch req.Method() {
	case protocol.MethodTextDocumentPublishDiagnostics:
		var p protocol.PublishDiagnosticsParams
		if err := json.Unmarshal(req.Params(), &p); err != nil {
			c.problems = append(c.problems, fmt.Sprintf("publishDiagnostics: %v", err))
			break
		}
		c.checkPublication(p)
		c.pubs = append(c.pubs, p)
	case protocol.MethodWindowShowMessage:
		var p protocol.ShowMessageParams
		if err := json.Unmarshal(req.Params(), &p); err != nil {
			c.problems = append(c.problems, fmt.Sprintf("showMessage: %v", err))
			break
		}
		c.messages = append(c.messages, p)
	case protocol.MethodWorkspaceConfiguration:
		var p protocol.ConfigurationParams
		if err := json.Unmarshal(req.Params(), &p); err != nil {
			rerr = err
			break
		}
		c.configAsk = append(c.configAsk, p)
		res := make([]any, len(p.Items))
		for i, it := range p.Items {
			if it.Section == "urlls" {
				res[i] = c.config
			}
		}
		result = res
	}
	close(c.changed)
	c.changed = make(chan struct{})
	c.mu.Unlock()
	return reply(ctx, result, rerr)
}

// checkPublication (with c.mu held) checks a publication on arrival: its
// version never goes backwards and each range is valid in the text the
// client sent for that version.
func (c *testClient) checkPublication(p protocol.PublishDiagnosticsParams) {
	if p.Version == 0 {
		delete(c.versions, p.URI) // closed: the next open starts again
		if len(p.Diagnostics) > 0 {
			c.problems = append(c.problems, fmt.Sprintf("%s: diagnostics without a version", p.URI))
		}
		return
	}
	if last, ok := c.versions[p.URI]; ok && p.Version < last {
		c.problems = append(c.problems, fmt.Sprintf("%s: version %d published after version %d", p.URI, p.Version, last))
	}
	c.versions[p.URI] = p.Version
	text, ok := c.sent[p.URI][int32(p.Version)]
	if !ok {
		c.problems = append(c.problems, fmt.Sprintf("%s: published version %d, which the client never sent", p.URI, p.Version))
		return
	}
	spans := lineSpans(text) // once: a large document has a thousand diagnostics
	for _, d := range p.Diagnostics {
		if err := validRangeIn(spans, text, d.Range); err != nil {
			c.problems = append(c.problems, fmt.Sprintf("%s version %d: diagnostic %v %s: %v", p.URI, p.Version, d.Code, d.Message, err))
		}
	}
}

func (c *testClient) checkInvariants() {
	c.t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, p := range c.problems {
		c.t.Error(p)
	}
	c.problems = nil
}

// wait calls cond with c.mu held until it returns true, whenever an event
// arrives; it fails the test after patience.
func (c *testClient) wait(what string, cond func() bool) {
	c.t.Helper()
	if !c.tryWait(cond) {
		c.checkInvariants()
		c.t.Fatalf("timed out waiting for %s", what)
	}
}

// tryWait is wait that reports a timeout instead of failing.
func (c *testClient) tryWait(cond func() bool) bool {
	deadline := time.NewTimer(patience)
	defer deadline.Stop()
	for {
		c.mu.Lock()
		ok := cond()
		ch := c.changed
		c.mu.Unlock()
		if ok {
			return true
		}
		select {
		case <-ch:
		case <-deadline.C:
			return false
		}
	}
}

// uri returns the file: URI of a file of the workspace.
func (c *testClient) uri(name string) protocol.DocumentURI {
	return protocol.DocumentURI(uri.File(filepath.Join(c.dir, filepath.FromSlash(name))))
}

// workspaceURI is the URI of the workspace folder, as links render it.
func (c *testClient) workspaceURI() string { return string(uri.File(c.dir)) }

// capabilities are what the client declares in initialize.
type capabilities struct {
	plaintextHover  bool // hover contentFormat is only plaintext
	codeDescription bool // publishDiagnostics.codeDescriptionSupport
	pull            bool // workspace.configuration
	options         any  // initializationOptions
}

func (c *testClient) initialize(caps capabilities) *protocol.InitializeResult {
	c.t.Helper()
	formats := []protocol.MarkupKind{protocol.Markdown, protocol.PlainText}
	if caps.plaintextHover {
		formats = []protocol.MarkupKind{protocol.PlainText}
	}
	folder := c.workspaceURI()
	params := &protocol.InitializeParams{
		ProcessID:             int32(os.Getpid()),
		ClientInfo:            &protocol.ClientInfo{Name: "urlls-e2e", Version: "1"},
		RootURI:               protocol.DocumentURI(folder),
		WorkspaceFolders:      []protocol.WorkspaceFolder{{URI: folder, Name: "work"}},
		InitializationOptions: caps.options,
		Capabilities: protocol.ClientCapabilities{
			Workspace: &protocol.WorkspaceClientCapabilities{Configuration: caps.pull, WorkspaceFolders: true},
			TextDocument: &protocol.TextDocumentClientCapabilities{
				Hover: &protocol.HoverTextDocumentClientCapabilities{ContentFormat: formats},
				PublishDiagnostics: &protocol.PublishDiagnosticsClientCapabilities{
					VersionSupport:         true,
					CodeDescriptionSupport: caps.codeDescription,
					DataSupport:            true,
					TagSupport: &protocol.PublishDiagnosticsClientCapabilitiesTagSupport{
						ValueSet: []protocol.DiagnosticTag{protocol.DiagnosticTagUnnecessary, protocol.DiagnosticTagDeprecated},
					},
				},
			},
		},
	}
	res, err := c.server.Initialize(c.ctx, params)
	if err != nil {
		c.t.Fatalf("initialize: %v", err)
	}
	if err := c.server.Initialized(c.ctx, &protocol.InitializedParams{}); err != nil {
		c.t.Fatalf("initialized: %v", err)
	}
	if caps.pull {
		c.wait("workspace/configuration after initialized", func() bool { return len(c.configAsk) > 0 })
	}
	return res
}

// setConfig sets the client's answer to workspace/configuration.
func (c *testClient) setConfig(v any) {
	c.mu.Lock()
	c.config = v
	c.mu.Unlock()
}

// recordSent remembers the text of a version the client sends, for checking
// the ranges of its publications.
func (c *testClient) recordSent(u protocol.DocumentURI, version int32, text string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.sent[u] == nil {
		c.sent[u] = map[int32]string{}
	}
	c.sent[u][version] = text
}

func (c *testClient) didOpen(u protocol.DocumentURI, lang string, version int32, text string) {
	c.t.Helper()
	c.recordSent(u, version, text)
	err := c.server.DidOpen(c.ctx, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
		URI: u, LanguageID: protocol.LanguageIdentifier(lang), Version: version, Text: text,
	}})
	if err != nil {
		c.t.Fatalf("didOpen: %v", err)
	}
}

// change is one content change as the wire carries it: no range means the
// whole text.
type change struct {
	Range *protocol.Range `json:"range,omitempty"`
	Text  string          `json:"text"`
}

// didChange sends changes raw: protocol.TextDocumentContentChangeEvent
// always writes a range, so a full-text change could not be sent with it.
// newText is the text the client has after the changes, when it knows it.
func (c *testClient) didChange(u protocol.DocumentURI, version int32, newText *string, changes ...change) {
	c.t.Helper()
	if newText != nil {
		c.recordSent(u, version, *newText)
	}
	params := map[string]any{
		"textDocument":   protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: u}, Version: version},
		"contentChanges": changes,
	}
	if err := c.conn.Notify(c.ctx, protocol.MethodTextDocumentDidChange, params); err != nil {
		c.t.Fatalf("didChange: %v", err)
	}
}

func (c *testClient) didClose(u protocol.DocumentURI) {
	c.t.Helper()
	if err := c.server.DidClose(c.ctx, &protocol.DidCloseTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}}); err != nil {
		c.t.Fatalf("didClose: %v", err)
	}
}

// waitDiagnostics waits for a publication of u at version whose
// diagnostics satisfy match (nil: any), and returns it. Publications of
// older versions are skipped; one of a newer version fails. A publication
// at the version that does not match is skipped too: after a configuration
// change the server publishes the same version again.
func (c *testClient) waitDiagnostics(u protocol.DocumentURI, version int32, match func([]protocol.Diagnostic) bool) protocol.PublishDiagnosticsParams {
	c.t.Helper()
	p, ok := c.tryWaitDiagnostics(u, version, 0, match)
	if !ok {
		c.checkInvariants()
		c.t.Fatalf("timed out waiting for diagnostics of %s version %d; the last one at that version: %+v", u, version, p)
	}
	return p
}

// tryWaitDiagnostics is waitDiagnostics that reports a timeout, with the
// last publication at the version, instead of failing. Only publications
// after the first from count.
func (c *testClient) tryWaitDiagnostics(u protocol.DocumentURI, version int32, from int, match func([]protocol.Diagnostic) bool) (protocol.PublishDiagnosticsParams, bool) {
	c.t.Helper()
	var got protocol.PublishDiagnosticsParams
	var newer *protocol.PublishDiagnosticsParams
	ok := c.tryWait(func() bool {
		for i := len(c.pubs) - 1; i >= from; i-- {
			p := c.pubs[i]
			if p.URI != u {
				continue
			}
			if p.Version == 0 {
				return false // cleared on close: nothing of this opening yet
			}
			if int32(p.Version) > version {
				newer = &p
				return true
			}
			if int32(p.Version) == version {
				got = p
				return match == nil || match(p.Diagnostics)
			}
			return false // the latest publication of u is older
		}
		return false
	})
	if newer != nil {
		c.t.Fatalf("waiting for version %d of %s, got version %d", version, u, newer.Version)
	}
	return got, ok
}

// waitCleared waits for the empty, versionless publication of a closed document.
func (c *testClient) waitCleared(u protocol.DocumentURI, after int) {
	c.t.Helper()
	c.wait("diagnostics of "+string(u)+" cleared", func() bool {
		for _, p := range c.pubs[after:] {
			if p.URI == u && p.Version == 0 && p.Diagnostics != nil && len(p.Diagnostics) == 0 {
				return true
			}
		}
		return false
	})
}

// publications returns how many publications have arrived.
func (c *testClient) publications() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.pubs)
}

// waitMessage waits for the showMessage after the first n and returns it.
func (c *testClient) waitMessage(n int) protocol.ShowMessageParams {
	c.t.Helper()
	var m protocol.ShowMessageParams
	c.wait("window/showMessage", func() bool {
		if len(c.messages) > n {
			m = c.messages[n]
			return true
		}
		return false
	})
	return m
}

func (c *testClient) hover(u protocol.DocumentURI, p protocol.Position) *protocol.Hover {
	c.t.Helper()
	h, err := c.server.Hover(c.ctx, &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: u}, Position: p,
	}})
	if err != nil {
		c.t.Fatalf("hover: %v", err)
	}
	return h
}

func (c *testClient) codeActions(u protocol.DocumentURI, r protocol.Range, only ...protocol.CodeActionKind) []protocol.CodeAction {
	c.t.Helper()
	actions, err := c.server.CodeAction(c.ctx, &protocol.CodeActionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: u}, Range: r, Context: protocol.CodeActionContext{Only: only},
	})
	if err != nil {
		c.t.Fatalf("codeAction: %v", err)
	}
	return actions
}

func (c *testClient) links(u protocol.DocumentURI) []protocol.DocumentLink {
	c.t.Helper()
	links, err := c.server.DocumentLink(c.ctx, &protocol.DocumentLinkParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}})
	if err != nil {
		c.t.Fatalf("documentLink: %v", err)
	}
	return links
}

func (c *testClient) tokens(u protocol.DocumentURI) *protocol.SemanticTokens {
	c.t.Helper()
	toks, err := c.server.SemanticTokensFull(c.ctx, &protocol.SemanticTokensParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}})
	if err != nil {
		c.t.Fatalf("semanticTokens/full: %v", err)
	}
	return toks
}

// shutdownExit ends the session politely and returns Serve's exit code.
func (c *testClient) shutdownExit() int {
	c.t.Helper()
	if err := c.server.Shutdown(c.ctx); err != nil {
		c.t.Fatalf("shutdown: %v", err)
	}
	return c.exit()
}

// exit sends exit and returns Serve's exit code; the server then closes
// the connection.
func (c *testClient) exit() int {
	c.t.Helper()
	if err := c.server.Exit(c.ctx); err != nil {
		c.t.Fatalf("exit: %v", err)
	}
	return c.waitExit()
}

// waitExit returns Serve's exit code once it has returned.
func (c *testClient) waitExit() int {
	c.t.Helper()
	select {
	case code := <-c.code:
		c.exitCode = &code
	case <-time.After(patience):
		c.t.Fatalf("%s did not end", c.serverName)
	}
	return *c.exitCode
}

// rawCall sends a request by method name and returns its error.
func (c *testClient) rawCall(method string, params, result any) error {
	ctx, cancel := context.WithTimeout(c.ctx, patience)
	defer cancel()
	_, err := c.conn.Call(ctx, method, params, result)
	return err
}

// errorCode returns the JSON-RPC code of err, or 0.
func errorCode(err error) int64 {
	var e *jsonrpc2.Error
	if errors.As(err, &e) {
		return int64(e.Code)
	}
	return 0
}

// --- positions, computed independently of Mapper ---

// lineSpans returns the byte offsets [start, end) of each line's content;
// lines end at "\n", "\r\n" or "\r".
func lineSpans(text string) [][2]int {
	var spans [][2]int
	start := 0
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '\n':
			spans = append(spans, [2]int{start, i})
			start = i + 1
		case '\r':
			spans = append(spans, [2]int{start, i})
			if i+1 < len(text) && text[i+1] == '\n' {
				i++
			}
			start = i + 1
		}
	}
	return append(spans, [2]int{start, len(text)})
}

// position returns the LSP position of byte offset off, which must be at
// a character boundary outside line breaks.
func position(text string, off int) protocol.Position {
	for l, sp := range lineSpans(text) {
		if off >= sp[0] && off <= sp[1] {
			return protocol.Position{Line: uint32(l), Character: uint32(len(utf16.Encode([]rune(text[sp[0]:off]))))}
		}
	}
	panic(fmt.Sprintf("offset %d is inside a line break or past the end of %q", off, text))
}

// offset returns the byte offset of p as a client applies it: a character
// past the end of its line is the end of the line (LSP 3.15). A missing
// line or a character inside a surrogate pair is an error.
func offset(text string, p protocol.Position) (int, error) {
	return offsetIn(lineSpans(text), text, p)
}

// offsetIn is offset with the lineSpans of text.
func offsetIn(spans [][2]int, text string, p protocol.Position) (int, error) {
	if int(p.Line) >= len(spans) {
		return 0, fmt.Errorf("line %d does not exist (%d lines)", p.Line, len(spans))
	}
	sp := spans[p.Line]
	units := uint32(0)
	for i := sp[0]; i < sp[1]; {
		if units == p.Character {
			return i, nil
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		units += uint32(utf16.RuneLen(r))
		if units > p.Character {
			return 0, fmt.Errorf("character %d of line %d is inside a surrogate pair", p.Character, p.Line)
		}
		i += size
	}
	return sp[1], nil
}

// validRange says whether r is a range a client can apply to text without
// clamping: both ends exist, at character boundaries, in order.
func validRange(text string, r protocol.Range) error {
	return validRangeIn(lineSpans(text), text, r)
}

// validRangeIn is validRange with the lineSpans of text.
func validRangeIn(spans [][2]int, text string, r protocol.Range) error {
	for _, p := range []protocol.Position{r.Start, r.End} {
		if int(p.Line) >= len(spans) {
			return fmt.Errorf("%s: line %d does not exist", fmtRange(r), p.Line)
		}
		sp := spans[p.Line]
		if n := uint32(len(utf16.Encode([]rune(text[sp[0]:sp[1]])))); p.Character > n {
			return fmt.Errorf("%s: character %d past the end of line %d (%d units)", fmtRange(r), p.Character, p.Line, n)
		}
		if _, err := offsetIn(spans, text, p); err != nil {
			return fmt.Errorf("%s: %v", fmtRange(r), err)
		}
	}
	if r.End.Line < r.Start.Line || r.End.Line == r.Start.Line && r.End.Character < r.Start.Character {
		return fmt.Errorf("%s: end before start", fmtRange(r))
	}
	return nil
}

// applyEdits applies LSP edits that do not overlap, as a client does.
func applyEdits(text string, edits []protocol.TextEdit) (string, error) {
	type span struct {
		start, end int
		text       string
	}
	spans := make([]span, 0, len(edits))
	for _, e := range edits {
		if err := validRange(text, e.Range); err != nil {
			return "", err
		}
		s, _ := offset(text, e.Range.Start)
		en, _ := offset(text, e.Range.End)
		spans = append(spans, span{s, en, e.NewText})
	}
	slices.SortStableFunc(spans, func(a, b span) int { return a.start - b.start })
	var b strings.Builder
	at := 0
	for _, s := range spans {
		if s.start < at {
			return "", fmt.Errorf("edits overlap at byte %d", s.start)
		}
		b.WriteString(text[at:s.start])
		b.WriteString(s.text)
		at = s.end
	}
	b.WriteString(text[at:])
	return b.String(), nil
}

func fmtPos(p protocol.Position) string { return fmt.Sprintf("%d:%d", p.Line, p.Character) }

func fmtRange(r protocol.Range) string { return fmtPos(r.Start) + "-" + fmtPos(r.End) }

func rng(l1, c1, l2, c2 uint32) protocol.Range {
	return protocol.Range{Start: protocol.Position{Line: l1, Character: c1}, End: protocol.Position{Line: l2, Character: c2}}
}
