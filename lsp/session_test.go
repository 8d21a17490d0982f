package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.uber.org/zap/zaptest"

	"github.com/urlls/urlls/analysis/checks"
	"github.com/urlls/urlls/analysis/config"
)

// TestServeEnds: Serve returns on exit (0 after shutdown, 1 without) and on
// end of input (1), also while an analysis is still waiting for its
// debounce: stop must not wait for an analysis it cancelled. The debounce
// of an hour keeps the analysis of the change pending, without timing
// anything.
func TestServeEnds(t *testing.T) {
	for _, tc := range []struct {
		name     string
		pending  bool // a didChange is still waiting for its analysis
		shutdown bool
		eof      bool // the client closes the connection instead of exit
		want     int
	}{
		{name: "shutdown, exit", shutdown: true, want: 0},
		{name: "exit without shutdown", want: 1},
		{name: "end of input", eof: true, want: 1},
		{name: "shutdown, end of input", shutdown: true, eof: true, want: 0},
		{name: "shutdown, exit, analysis pending", pending: true, shutdown: true, want: 0},
		{name: "exit, analysis pending", pending: true, want: 1},
		{name: "end of input, analysis pending", pending: true, eof: true, want: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newTestClient(t, clientOptions{debounce: time.Hour})
			c.initialize(capabilities{})
			u := c.uri("a.md")
			c.didOpen(u, "markdown", 1, "<http://example.org/%zz>\n")
			c.waitDiagnostics(u, 1, nil) // didOpen is analysed at once
			if tc.pending {
				text := "<http://example.org/%zzz>\n"
				c.didChange(u, 2, &text, change{Range: &protocol.Range{Start: position(text, 23), End: position(text, 23)}, Text: "z"})
				// A request answered after the notification: the change is in.
				if h := c.hover(u, protocol.Position{Line: 0, Character: 1}); h == nil {
					t.Fatal("no hover")
				}
			}
			if tc.shutdown {
				if err := c.server.Shutdown(c.ctx); err != nil {
					t.Fatal(err)
				}
			}
			var code int
			if tc.eof {
				c.conn.Close()
				code = c.waitExit()
			} else {
				code = c.exit()
			}
			if code != tc.want {
				t.Errorf("Serve returned %d, want %d", code, tc.want)
			}
		})
	}
}

// TestServeClosesConnection: once Serve has returned on exit, the
// connection is closed: the client sees the end of it, and nothing is
// dispatched to the stopped server any more.
func TestServeClosesConnection(t *testing.T) {
	c := newTestClient(t, clientOptions{})
	c.initialize(capabilities{})
	if code := c.shutdownExit(); code != 0 {
		t.Fatalf("Serve returned %d", code)
	}
	select {
	case <-c.conn.Done():
	case <-time.After(patience):
		t.Fatal("the connection is still open after Serve returned")
	}
}

// TestUnknownMethods: requests the server does not implement get
// MethodNotFound; unknown notifications are dropped and the connection
// goes on.
func TestUnknownMethods(t *testing.T) {
	c := newTestClient(t, clientOptions{})
	c.initialize(capabilities{})
	for _, m := range []string{protocol.MethodTextDocumentCompletion, protocol.MethodTextDocumentDefinition, "foo/bar", "$/custom"} {
		err := c.rawCall(m, map[string]any{}, nil)
		if code := errorCode(err); code != int64(jsonrpc2.MethodNotFound) {
			t.Errorf("%s: error %v (code %d), want MethodNotFound", m, err, code)
		}
	}
	for _, m := range []string{"foo/baz", "$/progress", protocol.MethodWorkDoneProgressCancel, "textDocument/didSomething"} {
		if err := c.conn.Notify(c.ctx, m, map[string]any{"token": 1}); err != nil {
			t.Fatal(err)
		}
	}
	u := c.uri("a.txt")
	c.didOpen(u, "plaintext", 1, "see http://example.org:99999/\n")
	p := c.waitDiagnostics(u, 1, nil)
	if len(p.Diagnostics) != 1 || p.Diagnostics[0].Code != "port-range" {
		t.Errorf("diagnostics %+v, want one port-range", p.Diagnostics)
	}
	if code := c.shutdownExit(); code != 0 {
		t.Errorf("exit code %d", code)
	}
}

// TestShutdownExitNullParams: clients that send "params": null with
// shutdown and exit (the library's own dispatcher does) are served.
func TestShutdownExitNullParams(t *testing.T) {
	c := newTestClient(t, clientOptions{})
	c.initialize(capabilities{})
	var res json.RawMessage
	if err := c.rawCall(protocol.MethodShutdown, json.RawMessage("null"), &res); err != nil {
		t.Fatal(err)
	}
	if err := c.conn.Notify(c.ctx, protocol.MethodExit, json.RawMessage("null")); err != nil {
		t.Fatal(err)
	}
	if code := c.waitExit(); code != 0 {
		t.Errorf("exit code %d", code)
	}
}

// TestCancelRequestOnTheWire: $/cancelRequest with a numeric id (which the
// library's CancelHandler mis-decodes), a string id, an id that is not in
// flight and malformed params never break the connection, and the request
// named is answered, by its result or RequestCancelled.
func TestCancelRequestOnTheWire(t *testing.T) {
	c := newTestClient(t, clientOptions{})
	c.initialize(capabilities{})
	u := c.uri("a.md")
	c.didOpen(u, "markdown", 1, "<http://example.org/%41>\n")
	c.waitDiagnostics(u, 1, nil)
	for _, params := range []string{`{"id":99}`, `{"id":"99"}`, `{"id":null}`, `{}`, `[]`, `{"id":{"x":1}}`} {
		if err := c.conn.Notify(c.ctx, protocol.MethodCancelRequest, json.RawMessage(params)); err != nil {
			t.Fatal(err)
		}
	}
	// The client's ids are numbers; cancel each hover right after sending it.
	hp := &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: u}, Position: protocol.Position{Line: 0, Character: 21},
	}}
	var wg sync.WaitGroup
	for i := 0; i < 20; i++ {
		wg.Add(1)
		errs := make(chan error, 1)
		go func() {
			defer wg.Done()
			var h *protocol.Hover
			_, err := c.conn.Call(c.ctx, protocol.MethodTextDocumentHover, hp, &h)
			if err == nil && h == nil {
				err = fmt.Errorf("null hover")
			}
			errs <- err
		}()
		// The id the call took is not known here; cancel the likely ones.
		for id := 1; id < 40; id++ {
			_ = c.conn.Notify(c.ctx, protocol.MethodCancelRequest, map[string]any{"id": id})
		}
		select {
		case err := <-errs:
			if err != nil && errorCode(err) != int64(protocol.CodeRequestCancelled) {
				t.Errorf("hover: %v, want a result or RequestCancelled", err)
			}
		case <-time.After(patience):
			t.Fatal("a cancelled request was never answered")
		}
	}
	wg.Wait()
	if h := c.hover(u, protocol.Position{Line: 0, Character: 21}); h == nil || !strings.Contains(h.Contents.Value, "escape") {
		t.Errorf("hover after the cancellations: %+v", h)
	}
	if code := c.shutdownExit(); code != 0 {
		t.Errorf("exit code %d", code)
	}
}

// TestCancelQueuedRequest: a request waiting behind another (requests are
// answered in order) is cancelled by $/cancelRequest with its id, numeric
// or string, and answered RequestCancelled without running; a cancel of a
// string id does not cancel the number with the same digits, nor the
// reverse. Every answer, RequestCancelled included, is given on a context
// that is not done (the stream writes nothing on a done one). The handler
// is driven directly, with the server's lock held to keep the first
// request from finishing until the cancels are in.
func TestCancelQueuedRequest(t *testing.T) {
	s := newServer(nopClient{}, Options{Logger: zaptest.NewLogger(t), Debounce: time.Hour})
	s.state.Store(stateInitialized) // as after initialize
	h := s.handler()
	ctx := context.Background()
	u := protocol.DocumentURI("file:///a.md")
	if err := s.DidOpen(ctx, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
		URI: u, LanguageID: "markdown", Version: 1, Text: "<http://example.org/>\n",
	}}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stopped := make(chan struct{})
		go func() { s.stop(); close(stopped) }()
		select {
		case <-stopped:
		case <-time.After(patience):
			t.Error("stop did not return")
		}
	})

	type answer struct {
		result any
		err    error
	}
	send := func(req jsonrpc2.Request) chan answer {
		ch := make(chan answer, 1)
		if err := h(ctx, func(ctx context.Context, result any, err error) error {
			if ctx.Err() != nil { // the stream writes nothing then
				ch <- answer{nil, fmt.Errorf("replied on a done context (%v): the client never sees it", ctx.Err())}
				return ctx.Err()
			}
			ch <- answer{result, err}
			return nil
		}, req); err != nil {
			t.Fatal(err)
		}
		return ch
	}
	call := func(id jsonrpc2.ID) chan answer {
		req, err := jsonrpc2.NewCall(id, protocol.MethodTextDocumentHover, protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: u}, Position: protocol.Position{Line: 0, Character: 3},
		}})
		if err != nil {
			t.Fatal(err)
		}
		return send(req)
	}
	notify := func(method string, params any) chan answer {
		req, err := jsonrpc2.NewNotification(method, params)
		if err != nil {
			t.Fatal(err)
		}
		return send(req)
	}

	s.mu.Lock() // the first hover waits for it, and the others behind it
	running := call(jsonrpc2.NewNumberID(5))
	num := call(jsonrpc2.NewNumberID(7))
	str := call(jsonrpc2.NewStringID("7"))
	other := call(jsonrpc2.NewNumberID(8))
	// 7 and "7" wait behind 5 whatever 5 does: it blocks on the lock, or,
	// if its cancel is in before it starts, answers at once, but then 7
	// and "7" are cancelled already.
	notify(protocol.MethodCancelRequest, json.RawMessage(`{"id":7}`))
	notify(protocol.MethodCancelRequest, json.RawMessage(`{"id":"7"}`))
	notify(protocol.MethodCancelRequest, json.RawMessage(`{"id":5}`))
	s.mu.Unlock()

	wait := func(name string, ch chan answer) answer {
		select {
		case a := <-ch:
			return a
		case <-time.After(patience):
			t.Fatalf("%s was never answered", name)
		}
		return answer{}
	}
	// Cancelled while running (or before it started): it is answered,
	// with its result or RequestCancelled.
	if a := wait("id 5", running); a.err != nil && errorCode(a.err) != int64(protocol.CodeRequestCancelled) {
		t.Errorf("id 5 (cancelled while running): %v", a.err)
	}
	for name, ch := range map[string]chan answer{"numeric id 7": num, `string id "7"`: str} {
		if a := wait(name, ch); errorCode(a.err) != int64(protocol.CodeRequestCancelled) {
			t.Errorf("%s (cancelled while queued): answered %v, %v; want RequestCancelled", name, a.result, a.err)
		}
	}
	if a := wait("id 8", other); a.err != nil || a.result == nil {
		t.Errorf("id 8 (not cancelled): answered %v, %v; want a hover", a.result, a.err)
	}
}

// nopClient is a protocol.Client that drops everything.
type nopClient struct{ protocol.Client }

func (nopClient) PublishDiagnostics(context.Context, *protocol.PublishDiagnosticsParams) error {
	return nil
}
func (nopClient) ShowMessage(context.Context, *protocol.ShowMessageParams) error { return nil }
func (nopClient) Configuration(context.Context, *protocol.ConfigurationParams) ([]any, error) {
	return nil, nil
}

// TestIDKey: the keys of in-flight requests tell ids apart.
func TestIDKey(t *testing.T) {
	keys := map[string]string{}
	for _, id := range []jsonrpc2.ID{jsonrpc2.NewNumberID(1), jsonrpc2.NewNumberID(7), jsonrpc2.NewStringID("7"), jsonrpc2.NewStringID("a")} {
		k := idKey(id)
		if prev, ok := keys[k]; ok {
			t.Errorf("ids %s and %v have the same key %s", prev, id, k)
		}
		keys[k] = fmt.Sprint(id)
	}
}

// TestRapidEdits: many changes sent without waiting; whatever the server
// publishes in between, a version never follows a newer one (the client
// checks every publication) and the last version is published with the
// diagnostics of the last text.
func TestRapidEdits(t *testing.T) {
	c := newTestClient(t, clientOptions{debounce: time.Microsecond})
	c.initialize(capabilities{})
	u := c.uri("a.md")
	text := "<http://example.org/>\n"
	c.didOpen(u, "markdown", 1, text)
	const n = 200
	for v := int32(2); v <= n; v++ {
		// Toggle a bad escape at the end of the path.
		at := position(text, len("<http://example.org/"))
		var ch change
		if v%2 == 0 {
			ch = change{Range: &protocol.Range{Start: at, End: at}, Text: "%z"}
			text = text[:20] + "%z" + text[20:]
		} else {
			end := protocol.Position{Line: at.Line, Character: at.Character + 2}
			ch = change{Range: &protocol.Range{Start: at, End: end}, Text: ""}
			text = text[:20] + text[22:]
		}
		c.didChange(u, v, &text, ch)
	}
	p := c.waitDiagnostics(u, n, nil)
	if len(p.Diagnostics) != 1 || p.Diagnostics[0].Code != "bad-escape" || p.Diagnostics[0].Range != rng(0, 20, 0, 22) {
		t.Errorf("version %d: %+v, want one bad-escape at 0:20-0:22", n, p.Diagnostics)
	}
	if code := c.shutdownExit(); code != 0 {
		t.Errorf("exit code %d", code)
	}
}

// TestQuickFixPreferred: every fix of a finding is a quick fix listing the
// finding's diagnostic, preferred only when it is the finding's only fix;
// fix-all takes the first fix of each finding. No check offers two fixes
// today, so the analysis is made by hand.
func TestQuickFixPreferred(t *testing.T) {
	s := newServer(nopClient{}, Options{Logger: zaptest.NewLogger(t), Debounce: time.Hour})
	u := protocol.DocumentURI("file:///a.txt")
	text := []byte("x http://a.org/%zz http://b.org/%41\n")
	two := config.Finding{Severity: checks.Error, Diagnostic: checks.Diagnostic{
		Start: 15, End: 18, Code: "bad-escape", Message: "two fixes",
		SuggestedFixes: []checks.SuggestedFix{
			{Message: "encode % as %25", Edits: []checks.TextEdit{{Start: 15, End: 16, NewText: "%25"}}},
			{Message: "drop it", Edits: []checks.TextEdit{{Start: 15, End: 18, NewText: ""}}},
		},
	}}
	one := config.Finding{Severity: checks.Hint, Diagnostic: checks.Diagnostic{
		Start: 32, End: 35, Code: "redundant-escape", Message: "one fix",
		SuggestedFixes: []checks.SuggestedFix{{Message: "decode", Edits: []checks.TextEdit{{Start: 32, End: 35, NewText: "A"}}}},
	}}
	snap := newSnapshot(u, "plaintext", 1, 1, text, nil)
	snap.started = true // analysed by hand:
	snap.result = &analysis{gen: 1, version: 1, text: text, mapper: NewMapper(text), lang: "plaintext",
		findings: []config.Finding{two, one}, shown: []config.Finding{two, one}}
	close(snap.done)
	s.docs[u] = &document{uri: u, snap: snap}

	actions, err := s.CodeAction(context.Background(), &protocol.CodeActionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: u}, Range: rng(0, 0, 1, 0),
	})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, a := range actions {
		var diags []string
		for _, d := range a.Diagnostics {
			diags = append(diags, d.Message+" "+fmtRange(d.Range))
		}
		var edits []string
		for _, e := range a.Edit.Changes[u] {
			edits = append(edits, fmt.Sprintf("%s %q", fmtRange(e.Range), e.NewText))
		}
		got = append(got, fmt.Sprintf("%s %q preferred=%v %v %v", a.Kind, a.Title, a.IsPreferred, diags, edits))
	}
	want := []string{
		`quickfix "encode % as %25" preferred=false [two fixes 0:15-0:18] [0:15-0:16 "%25"]`,
		`quickfix "drop it" preferred=false [two fixes 0:15-0:18] [0:15-0:18 ""]`,
		`quickfix "decode" preferred=true [one fix 0:32-0:35] [0:32-0:35 "A"]`,
		`source.fixAll.urlls "Fix all URL problems (1)" preferred=false [] [0:15-0:16 "%25"]`, // the error only: the hint keeps its quick fix
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("actions (-want +got):\n%s", d)
	}
}
