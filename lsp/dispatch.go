package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.uber.org/zap"
)

// The dispatch of requests and notifications, by the book (JSON-RPC 2.0,
// LSP 3.17 "Server lifecycle"):
//
//   - Before initialize, a request is answered ServerNotInitialized
//     (-32002) and a notification is dropped, except exit.
//   - A second initialize is InvalidRequest (-32600), and so is every
//     request after shutdown, shutdown included.
//   - exit ends the session whenever it comes (the exit code is 0 after
//     shutdown, 1 before); shutdown and exit take any params or none
//     ({}, [], null, absent are all the same).
//   - An unknown request is MethodNotFound (-32601), and so is any request
//     whose method starts with "$/" ($/cancelRequest sent with an id
//     among them: LSP 3.17 says such a request must be answered
//     MethodNotFound). Unknown notifications, "$/" ones included, are
//     ignored. A notification the server knows, sent as a request, is done
//     and answered with null; shutdown sent as a notification is done.
//   - Params are checked before any work: wrong types and missing required
//     fields are InvalidParams (-32602) with a message naming the field;
//     for a notification, which cannot be answered, the message is logged
//     and shown (window/showMessage) and the notification ignored.
//   - A request about a document that is not open (code actions, links,
//     tokens) is RequestFailed (-32803); hover answers null.
//   - A handler that fails without a code, or panics, is InternalError
//     (-32603). No answer ever has the code 0.

// Lifecycle states of a session.
const (
	stateNew         int32 = iota // before initialize
	stateInitialized              // initialize answered
	stateShutdown                 // shutdown answered
)

// handler is the connection's handler chain: cancellation (ours: the
// library's CancelHandler mis-decodes numeric ids), then front, which
// handles messages one after another, each on a goroutine of its own
// (ordered: a request waiting for its document's analysis lets the
// messages behind it go).
func (s *Server) handler() jsonrpc2.Handler {
	async := ordered(s.front, &s.quiet)
	return func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
		call, isCall := req.(*jsonrpc2.Call)
		if !isCall {
			if req.Method() == protocol.MethodCancelRequest {
				s.cancelRequest(req.Params()) // now, not in its turn
				return nil
			}
			return async(ctx, reply, req)
		}
		// A request can be cancelled from the moment it arrives, also
		// while it waits for the requests before it.
		connCtx := ctx
		ctx, cancel := context.WithCancel(ctx)
		key := s.requestKey(call.ID())
		f := &flight{cancel: cancel}
		s.inflightMu.Lock()
		s.inflight[key] = append(s.inflight[key], f)
		s.inflightMu.Unlock()
		inner := reply
		reply = func(_ context.Context, result any, err error) error {
			s.inflightMu.Lock()
			fs := s.inflight[key]
			for i, g := range fs {
				if g == f {
					fs = append(fs[:i:i], fs[i+1:]...)
					break
				}
			}
			if len(fs) == 0 {
				delete(s.inflight, key)
			} else {
				s.inflight[key] = fs
			}
			s.inflightMu.Unlock()
			cancel()
			// Reply on the connection's context: the stream writes
			// nothing on a cancelled one, and a cancelled request must
			// still be answered.
			return inner(connCtx, result, err)
		}
		return async(ctx, reply, req)
	}
}

// flight is a request in flight, for $/cancelRequest.
type flight struct{ cancel context.CancelFunc }

// front answers every request exactly once and lets notifications through
// in order. It never returns an error: that would end the connection.
func (s *Server) front(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	method, params := req.Method(), req.Params()
	_, isCall := req.(*jsonrpc2.Call)
	replied := false
	answer := func(result any, err error) {
		if replied {
			return
		}
		replied = true
		if err == nil && isCall {
			// Encoded here: a result the library fails to encode would
			// leave the request unanswered.
			b, merr := json.Marshal(result)
			if merr != nil {
				s.log.Error("result cannot be encoded", zap.String("method", method), zap.Error(merr))
				err = jsonrpc2.Errorf(jsonrpc2.InternalError, "internal error: the result of %s cannot be encoded", method)
			} else {
				result = json.RawMessage(b)
			}
		}
		if err != nil {
			s.log.Info("request failed", zap.String("method", method), zap.Error(err))
			result = nil
		}
		if rerr := reply(ctx, result, err); rerr != nil {
			s.log.Debug("reply", zap.String("method", method), zap.Error(rerr))
		}
	}
	defer func() {
		if r := recover(); r != nil {
			s.log.Error("panic in a handler", zap.String("method", method), zap.Any("panic", r), zap.Stack("stack"))
			answer(nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "internal error in %s", method))
		}
	}()
	if method == protocol.MethodExit {
		// Whenever it comes, whatever its params; sent as a request, it
		// is answered before the end.
		answer(nil, nil)
		_ = s.Exit(ctx)
		return nil
	}
	if !isCall {
		s.notification(ctx, method, params)
		answer(nil, nil) // lets the next message in
		return nil
	}
	answer(s.request(ctx, method, params))
	return nil
}

// request answers a request in its turn.
func (s *Server) request(ctx context.Context, method string, params json.RawMessage) (any, error) {
	switch state := s.state.Load(); {
	case state == stateShutdown:
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidRequest, "the server has shut down: only exit may follow (%s refused)", method)
	case method == protocol.MethodInitialize && state != stateNew:
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "initialize was already received")
	case state == stateNew && method != protocol.MethodInitialize:
		return nil, jsonrpc2.Errorf(jsonrpc2.ServerNotInitialized, "the server is not initialized: initialize must come first (%s refused)", method)
	case ctx.Err() != nil:
		return nil, protocol.ErrRequestCancelled // while it waited for the requests before it
	case strings.HasPrefix(method, "$/"):
		return nil, jsonrpc2.Errorf(jsonrpc2.MethodNotFound, "method not supported: %s (requests starting with $/ are not)", method)
	}
	if h := requests[method]; h != nil {
		return h(s, ctx, method, params)
	}
	if h := notifications[method]; h != nil {
		return nil, h(s, ctx, method, params)
	}
	return nil, jsonrpc2.Errorf(jsonrpc2.MethodNotFound, "method not supported: %s", method)
}

// notification handles a notification in its turn.
func (s *Server) notification(ctx context.Context, method string, params json.RawMessage) {
	if st := s.state.Load(); st != stateInitialized {
		s.log.Debug("notification dropped", zap.String("method", method), zap.Bool("beforeInitialize", st == stateNew))
		return
	}
	h := notifications[method]
	if h == nil {
		s.log.Debug("notification ignored", zap.String("method", method))
		return
	}
	err := h(s, ctx, method, params)
	if err == nil {
		return
	}
	// The library dropped errors of notifications silently; say them.
	s.log.Warn("notification refused", zap.String("method", method), zap.Error(err))
	var coded *jsonrpc2.Error
	if errors.As(err, &coded) && coded.Code == jsonrpc2.InvalidParams {
		s.showMessageLater(protocol.MessageTypeError, "urlls: "+err.Error()+" (ignored)")
	}
}

type handlerFunc func(s *Server, ctx context.Context, method string, params json.RawMessage) (any, error)
type notifyFunc func(s *Server, ctx context.Context, method string, params json.RawMessage) error

// requests are the requests the server answers; everything else is
// MethodNotFound.
var requests = map[string]handlerFunc{
	protocol.MethodInitialize: (*Server).initialize,
	protocol.MethodShutdown: func(s *Server, ctx context.Context, _ string, _ json.RawMessage) (any, error) {
		return nil, s.Shutdown(ctx)
	},
	protocol.MethodTextDocumentHover: handle(hoverParams, nil, (*Server).Hover),
	protocol.MethodTextDocumentCodeAction: handle(codeActionParams,
		func(p *protocol.CodeActionParams) protocol.DocumentURI { return p.TextDocument.URI }, (*Server).CodeAction),
	protocol.MethodTextDocumentDocumentLink: handle(documentParams,
		func(p *protocol.DocumentLinkParams) protocol.DocumentURI { return p.TextDocument.URI }, (*Server).DocumentLink),
	protocol.MethodSemanticTokensFull: handle(documentParams,
		func(p *protocol.SemanticTokensParams) protocol.DocumentURI { return p.TextDocument.URI }, (*Server).SemanticTokensFull),
}

// notifications are the notifications the server acts on; others are
// ignored. exit and $/cancelRequest are handled before these. shutdown is
// a request, but JSON-RPC 2.0 says a notification is a request whose
// answer is not wanted: sent so, it is done all the same.
var notifications = map[string]notifyFunc{
	protocol.MethodShutdown: func(s *Server, ctx context.Context, _ string, _ json.RawMessage) error {
		return s.Shutdown(ctx)
	},
	protocol.MethodInitialized: func(s *Server, ctx context.Context, method string, params json.RawMessage) error {
		return s.Initialized(ctx, &protocol.InitializedParams{})
	},
	protocol.MethodTextDocumentDidOpen:             notify(didOpenParams, (*Server).DidOpen),
	protocol.MethodTextDocumentDidChange:           notify(didChangeShape, func(s *Server, _ context.Context, p *didChangeParams) error { return s.didChange(*p) }),
	protocol.MethodTextDocumentDidClose:            notify(documentParams, (*Server).DidClose),
	protocol.MethodTextDocumentDidSave:             notify(didSaveParams, (*Server).DidSave),
	protocol.MethodWorkspaceDidChangeConfiguration: notify(didChangeConfigurationParams, (*Server).DidChangeConfiguration),
	protocol.MethodSetTrace:                        notify(setTraceParams, (*Server).SetTrace),
}

// handle makes the handler of a request: params checked against sh and
// decoded, the document (when uri is given) open, then f.
func handle[P, R any](sh *shape, uri func(*P) protocol.DocumentURI, f func(*Server, context.Context, *P) (R, error)) handlerFunc {
	return func(s *Server, ctx context.Context, method string, raw json.RawMessage) (any, error) {
		var p P
		if err := decodeParams(method, raw, sh, &p); err != nil {
			return nil, err
		}
		if uri != nil && !s.isOpen(uri(&p)) {
			return nil, jsonrpc2.Errorf(codeRequestFailed, "%s: document %s is not open", method, uri(&p))
		}
		return f(s, ctx, &p)
	}
}

// notify makes the handler of a notification.
func notify[P any](sh *shape, f func(*Server, context.Context, *P) error) notifyFunc {
	return func(s *Server, ctx context.Context, method string, raw json.RawMessage) error {
		var p P
		if err := decodeParams(method, raw, sh, &p); err != nil {
			return err
		}
		return f(s, ctx, &p)
	}
}

func (s *Server) isOpen(u protocol.DocumentURI) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.docs[u]
	return ok
}

// initialize checks and decodes InitializeParams. The capabilities are
// decoded into protocol v0.12.0's types (LSP 3.15); a client of a later
// version may send a capability whose type changed since, so when they
// do not fit, the few the server reads are picked out by hand.
func (s *Server) initialize(ctx context.Context, method string, raw json.RawMessage) (any, error) {
	if err := checkParams(method, raw, initializeParams); err != nil {
		return nil, err
	}
	var fields map[string]json.RawMessage
	_ = json.Unmarshal(raw, &fields) // an object: checked
	caps := fields["capabilities"]
	delete(fields, "capabilities")
	rest, _ := json.Marshal(fields)
	var p protocol.InitializeParams
	if err := json.Unmarshal(rest, &p); err != nil {
		return nil, invalidParams(method, decodeProblem(err))
	}
	if len(caps) > 0 {
		if err := json.Unmarshal(caps, &p.Capabilities); err != nil {
			s.log.Info("client capabilities not of LSP 3.15's types: reading the few the server uses", zap.Error(err))
			p.Capabilities = lenientCapabilities(caps)
		}
	}
	res, err := s.Initialize(ctx, &p)
	if err == nil {
		s.state.Store(stateInitialized)
	}
	return res, err
}

// lenientCapabilities picks the capabilities settings.capabilities reads,
// ignoring whatever else does not fit.
func lenientCapabilities(raw json.RawMessage) protocol.ClientCapabilities {
	var m map[string]any
	_ = json.Unmarshal(raw, &m)
	get := func(path ...string) any {
		var v any = m
		for _, k := range path {
			o, ok := v.(map[string]any)
			if !ok {
				return nil
			}
			v = o[k]
		}
		return v
	}
	flag := func(path ...string) bool { b, _ := get(path...).(bool); return b }
	var caps protocol.ClientCapabilities
	if formats, ok := get("textDocument", "hover", "contentFormat").([]any); ok {
		h := &protocol.HoverTextDocumentClientCapabilities{}
		for _, f := range formats {
			if s, ok := f.(string); ok {
				h.ContentFormat = append(h.ContentFormat, protocol.MarkupKind(s))
			}
		}
		caps.TextDocument = &protocol.TextDocumentClientCapabilities{Hover: h}
	}
	if _, ok := get("textDocument", "publishDiagnostics").(map[string]any); ok {
		if caps.TextDocument == nil {
			caps.TextDocument = &protocol.TextDocumentClientCapabilities{}
		}
		pd := &protocol.PublishDiagnosticsClientCapabilities{
			CodeDescriptionSupport: flag("textDocument", "publishDiagnostics", "codeDescriptionSupport"),
			VersionSupport:         flag("textDocument", "publishDiagnostics", "versionSupport"),
		}
		if tags, ok := get("textDocument", "publishDiagnostics", "tagSupport", "valueSet").([]any); ok {
			pd.TagSupport = &protocol.PublishDiagnosticsClientCapabilitiesTagSupport{}
			for _, t := range tags {
				if n, ok := t.(float64); ok {
					pd.TagSupport.ValueSet = append(pd.TagSupport.ValueSet, protocol.DiagnosticTag(n))
				}
			}
		}
		caps.TextDocument.PublishDiagnostics = pd
	}
	if flag("workspace", "configuration") {
		caps.Workspace = &protocol.WorkspaceClientCapabilities{Configuration: true}
	}
	return caps
}

// --- cancellation ---

// requestKey is the key of a request in flight: its id as the client wrote
// it (the stream's own id when there is no stream, in tests).
func (s *Server) requestKey(id jsonrpc2.ID) string {
	if s.ids != nil {
		if raw, ok := s.ids.clientID(id); ok {
			return idKeyRaw(raw)
		}
	}
	return idKey(id)
}

// idKey renders a jsonrpc2 id as a key: a number and a string with the same
// digits stay different ids. (jsonrpc2.ID's MarshalJSON has a pointer
// receiver: marshalled by value, every id would be "{}".)
func idKey(id jsonrpc2.ID) string {
	b, err := json.Marshal(&id)
	if err != nil {
		return fmt.Sprint(id)
	}
	return idKeyRaw(b)
}

// idKeyRaw renders an id as written on the wire as a key: strings by
// their value, numbers by their value where it is exact (1, 1.0 and 1e0
// are one id), else by their text; "" for what cannot be an id.
func idKeyRaw(raw json.RawMessage) string {
	switch idKind(raw) {
	case "string":
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return ""
		}
		return "s:" + s
	case "number":
		t := string(bytes.TrimSpace(raw))
		if n, err := strconv.ParseInt(t, 10, 64); err == nil {
			return "n:" + strconv.FormatInt(n, 10)
		}
		if len(t) <= 40 { // bounded: big.Float does not expand the exponent
			if f, ok := new(big.Float).SetPrec(200).SetString(t); ok && f.IsInt() {
				if i, acc := f.Int64(); acc == big.Exact {
					return "n:" + strconv.FormatInt(i, 10)
				}
			}
		}
		return "n:" + t
	}
	return ""
}

// cancelRequest handles $/cancelRequest, whose id is a number or a string.
func (s *Server) cancelRequest(raw json.RawMessage) {
	var p struct {
		ID json.RawMessage `json:"id"`
	}
	if err := json.Unmarshal(raw, &p); err != nil || len(p.ID) == 0 {
		s.log.Warn("bad $/cancelRequest", zap.ByteString("params", raw))
		return
	}
	key := idKeyRaw(p.ID)
	if kind := idKind(p.ID); key == "" || kind == "null" {
		s.log.Warn("bad $/cancelRequest id", zap.ByteString("id", p.ID))
		return
	}
	s.inflightMu.Lock()
	fs := s.inflight[key]
	for _, f := range fs {
		f.cancel()
	}
	s.inflightMu.Unlock()
	s.log.Debug("cancel", zap.String("id", key), zap.Bool("inFlight", len(fs) > 0))
}

// --- params ---

// shape is what a JSON value must look like.
type shape struct {
	kind     string // object, array, string, boolean, integer, uinteger, any
	nullable bool
	fields   []field // object: the fields checked (others are let through)
	elem     *shape  // array: every element
}

type field struct {
	name     string
	required bool
	shape    *shape
}

func object(fields ...field) *shape    { return &shape{kind: "object", fields: fields} }
func arrayOf(elem *shape) *shape       { return &shape{kind: "array", elem: elem} }
func req(name string, sh *shape) field { return field{name: name, required: true, shape: sh} }
func opt(name string, sh *shape) field { return field{name: name, shape: sh} }
func orNull(sh *shape) *shape          { c := *sh; c.nullable = true; return &c }
func scalar(kind string) *shape        { return &shape{kind: kind} }
func invalidParams(method, problem string) *jsonrpc2.Error {
	return jsonrpc2.Errorf(jsonrpc2.InvalidParams, "invalid params of %s: %s", method, problem)
}

var (
	tString   = scalar("string")
	tInteger  = scalar("integer")  // LSP integer: -2^31 .. 2^31-1
	tUinteger = scalar("uinteger") // LSP uinteger: 0 .. 2^31-1
	tAny      = scalar("any")

	progressToken = scalar("token") // integer or string

	textDocumentIdentifier = object(req("uri", tString))
	positionShape          = object(req("line", tUinteger), req("character", tUinteger))
	rangeShape             = object(req("start", positionShape), req("end", positionShape))
	workDone               = []field{opt("workDoneToken", progressToken), opt("partialResultToken", progressToken)}

	documentParams = object(append([]field{req("textDocument", textDocumentIdentifier)}, workDone...)...)
	hoverParams    = object(append([]field{req("textDocument", textDocumentIdentifier), req("position", positionShape)}, workDone...)...)
	// context is required by LSP; clients that leave it out get every action.
	codeActionParams = object(append([]field{req("textDocument", textDocumentIdentifier), req("range", rangeShape),
		opt("context", object(opt("diagnostics", arrayOf(object(req("range", rangeShape), req("message", tString)))), opt("only", arrayOf(tString))))},
		workDone...)...)
	// Versions must be LSP integers that a client increments from 0 or 1:
	// a negative one, or one beyond an int32, is refused, not wrapped.
	didOpenParams = object(req("textDocument", object(req("uri", tString), req("languageId", tString),
		req("version", tUinteger), req("text", tString))))
	didChangeShape = object(req("textDocument", object(req("uri", tString), req("version", tUinteger))),
		req("contentChanges", arrayOf(object(opt("range", rangeShape), opt("rangeLength", tUinteger), req("text", tString)))))
	didSaveParams                = object(req("textDocument", textDocumentIdentifier), opt("text", tString))
	didChangeConfigurationParams = object(opt("settings", tAny))
	setTraceParams               = object(req("value", tString))
	// processId, rootUri and capabilities are required by LSP; clients
	// that leave them out are served all the same.
	initializeParams = object(
		opt("processId", orNull(tInteger)),
		opt("clientInfo", object(req("name", tString), opt("version", tString))),
		opt("locale", tString),
		opt("rootPath", orNull(tString)),
		opt("rootUri", orNull(tString)),
		opt("initializationOptions", tAny),
		opt("capabilities", object()),
		opt("trace", tString),
		opt("workspaceFolders", orNull(arrayOf(object(req("uri", tString), req("name", tString))))),
		opt("workDoneToken", progressToken),
	)
)

// decodeParams checks raw against sh and decodes it into v.
func decodeParams(method string, raw json.RawMessage, sh *shape, v any) error {
	if err := checkParams(method, raw, sh); err != nil {
		return err
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return invalidParams(method, decodeProblem(err))
	}
	return nil
}

// decodeProblem names the field of a decoding error.
func decodeProblem(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		return fmt.Sprintf("%s must not be %s", te.Field, articled(te.Value))
	}
	return err.Error()
}

// checkParams checks the params of method against sh.
func checkParams(method string, raw json.RawMessage, sh *shape) error {
	if len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null" {
		return invalidParams(method, "params are required")
	}
	if problem := check(raw, sh, "params"); problem != "" {
		return invalidParams(method, problem)
	}
	return nil
}

// check returns what is wrong with raw as sh, naming the field by path.
func check(raw json.RawMessage, sh *shape, path string) string {
	raw = bytes.TrimSpace(raw)
	got := jsonType(raw)
	if got == "null" {
		if sh.nullable || sh.kind == "any" {
			return ""
		}
		return fmt.Sprintf("%s must be %s, not null", path, describe(sh))
	}
	want := map[string]string{"object": "object", "array": "array", "string": "string", "boolean": "boolean",
		"integer": "number", "uinteger": "number", "token": got, "any": got}[sh.kind]
	if sh.kind == "token" && got != "string" && got != "number" || got != want {
		return fmt.Sprintf("%s must be %s, not %s", path, describe(sh), articled(got))
	}
	switch sh.kind {
	case "integer", "uinteger", "token":
		if got == "string" {
			return ""
		}
		lo := int64(-1 << 31)
		if sh.kind == "uinteger" {
			lo = 0
		}
		n, err := strconv.ParseInt(string(raw), 10, 64)
		if err != nil || n < lo || n > 1<<31-1 {
			return fmt.Sprintf("%s must be %s, not %s", path, describe(sh), raw)
		}
	case "object":
		var m map[string]json.RawMessage
		if json.Unmarshal(raw, &m) != nil {
			return fmt.Sprintf("%s must be an object", path)
		}
		for _, f := range sh.fields {
			v, ok := m[f.name]
			if !ok || !f.required && string(bytes.TrimSpace(v)) == "null" {
				// An optional field may be null: clients written in Go
				// send their nil slices and pointers so.
				if !ok && f.required && path == "params" {
					return fmt.Sprintf("%s is required", f.name)
				}
				if !ok && f.required {
					return fmt.Sprintf("%s.%s is required", path, f.name)
				}
				continue
			}
			sub := f.name
			if path != "params" {
				sub = path + "." + f.name
			}
			if p := check(v, f.shape, sub); p != "" {
				return p
			}
		}
	case "array":
		var a []json.RawMessage
		if json.Unmarshal(raw, &a) != nil {
			return fmt.Sprintf("%s must be an array", path)
		}
		for i, v := range a {
			if p := check(v, sh.elem, fmt.Sprintf("%s[%d]", path, i)); p != "" {
				return p
			}
		}
	}
	return ""
}

// describe says what sh is, for messages.
func describe(sh *shape) string {
	s := map[string]string{
		"object":   "an object",
		"array":    "an array",
		"string":   "a string",
		"boolean":  "a boolean",
		"integer":  "an integer from -2147483648 to 2147483647",
		"uinteger": "an integer from 0 to 2147483647",
		"token":    "an integer or a string",
		"any":      "a value",
	}[sh.kind]
	if sh.nullable {
		s += " or null"
	}
	return s
}

// jsonType names the type of a valid JSON value.
func jsonType(raw []byte) string {
	if len(raw) == 0 {
		return "nothing"
	}
	switch c := raw[0]; {
	case c == '{':
		return "object"
	case c == '[':
		return "array"
	case c == '"':
		return "string"
	case c == 't' || c == 'f':
		return "boolean"
	case c == 'n':
		return "null"
	}
	return "number"
}

func articled(t string) string {
	switch t {
	case "null", "nothing":
		return t
	case "object", "array", "integer":
		return "an " + t
	}
	return "a " + t
}
