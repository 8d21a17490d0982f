// Package lsp is urlls's language server: the second thin face of package
// analysis (the first is cmd/urlls check). It keeps the open documents,
// converts byte offsets to LSP positions (UTF-16, see Mapper), publishes the
// findings of analysis/checks as diagnostics off the request path, and
// answers hovers (the grammar production under the cursor), code actions
// (fixes), document links (relative references resolved by RFC 1808) and
// semantic tokens. It speaks LSP 3.15 through go.lsp.dev/protocol v0.12.0 and
// jsonrpc2 v0.10.0, wired by hand to avoid the pitfalls of NewServer
// (shared/recipes/README.md). The server never fetches a URL and never reads
// a file a URL names; the only files it reads are .urlls.json configurations.
package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.uber.org/zap"
)

// Options configure a server.
type Options struct {
	// Logger receives the server's log; never one that writes to stdout,
	// which carries the protocol. Nil means no logging.
	Logger *zap.Logger
	// Debounce is how long diagnostics wait after the last change of a
	// document before they are computed; 0 means DefaultDebounce.
	Debounce time.Duration
	// Version is reported as serverInfo.version.
	Version string
}

// DefaultDebounce is the pause after typing before diagnostics are computed.
const DefaultDebounce = 150 * time.Millisecond

// Serve runs the language server on rwc until the client sends "exit" or
// closes the connection, and returns the process's exit code: 0 when
// "shutdown" came first, 1 otherwise (LSP 3.15, "exit").
func Serve(ctx context.Context, rwc io.ReadWriteCloser, opts Options) int {
	if opts.Logger == nil {
		opts.Logger = zap.NewNop()
	}
	if opts.Debounce <= 0 {
		opts.Debounce = DefaultDebounce
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	conn := jsonrpc2.NewConn(jsonrpc2.NewStream(rwc))
	s := newServer(protocol.ClientDispatcher(conn, opts.Logger.Named("client")), opts)
	conn.Go(ctx, s.handler())
	select {
	case <-s.exited:
	case <-conn.Done():
		opts.Logger.Info("connection closed", zap.Error(conn.Err()))
	case <-ctx.Done():
	}
	s.stop()
	// Nothing may reach the stopped server: end the connection (for stdio
	// the process exits anyway).
	conn.Close()
	if s.shutdown.Load() {
		return 0
	}
	return 1
}

// Server is the state of one LSP session.
type Server struct {
	base
	client   protocol.Client
	log      *zap.Logger
	opts     Options
	shutdown atomic.Bool
	exited   chan struct{}
	exitOnce sync.Once

	configFiles configFiles // .urlls.json files read lately

	mu       sync.Mutex
	docs     map[protocol.DocumentURI]*document
	settings settings // client capabilities and configuration
	stopping bool     // stop has begun: no analysis starts

	// requests in flight, for $/cancelRequest: by the id's JSON text
	inflightMu sync.Mutex
	inflight   map[string]context.CancelFunc

	wg sync.WaitGroup // background analyses
}

var _ protocol.Server = (*Server)(nil)

func newServer(client protocol.Client, opts Options) *Server {
	return &Server{
		client:   client,
		log:      opts.Logger,
		opts:     opts,
		exited:   make(chan struct{}),
		docs:     map[protocol.DocumentURI]*document{},
		inflight: map[string]context.CancelFunc{},
	}
}

// stop ends the background work.
func (s *Server) stop() {
	s.mu.Lock()
	s.stopDocuments()
	s.mu.Unlock()
	s.wg.Wait()
}

// handled lists the methods Server implements; the front handler answers
// every other request with MethodNotFound and drops other notifications.
var handled = map[string]bool{
	protocol.MethodInitialize:                      true,
	protocol.MethodInitialized:                     true,
	protocol.MethodShutdown:                        true,
	protocol.MethodExit:                            true,
	protocol.MethodTextDocumentDidOpen:             true,
	protocol.MethodTextDocumentDidChange:           true,
	protocol.MethodTextDocumentDidClose:            true,
	protocol.MethodTextDocumentDidSave:             true,
	protocol.MethodWorkspaceDidChangeConfiguration: true,
	protocol.MethodSetTrace:                        true,
	protocol.MethodTextDocumentHover:               true,
	protocol.MethodTextDocumentCodeAction:          true,
	protocol.MethodTextDocumentDocumentLink:        true,
	protocol.MethodSemanticTokensFull:              true,
}

// handler is the connection's handler chain: cancellation (ours: the
// library's CancelHandler mis-decodes numeric ids), requests handled in
// order on a goroutine of their own (ordered: AsyncHandler, but a request
// waiting for its document's analysis lets the others go), replies checked
// (ReplyHandler), then the front filter and the library's dispatcher.
func (s *Server) handler() jsonrpc2.Handler {
	dispatch := protocol.ServerHandler(s, nil)
	front := func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
		method := req.Method()
		_, isCall := req.(*jsonrpc2.Call)
		if !handled[method] {
			if isCall {
				return reply(ctx, nil, jsonrpc2.NewError(jsonrpc2.MethodNotFound, "method not supported: "+method))
			}
			return reply(ctx, nil, nil) // an unknown notification ($/progress, …): ignore it
		}
		// Some clients send "params": null with shutdown and exit, which the
		// library's dispatcher rejects.
		if string(req.Params()) == "null" && (method == protocol.MethodShutdown || method == protocol.MethodExit) {
			if method == protocol.MethodShutdown {
				return reply(ctx, nil, s.Shutdown(ctx))
			}
			return reply(ctx, nil, s.Exit(ctx))
		}
		if isCall && s.shutdown.Load() && method != protocol.MethodShutdown {
			// LSP 3.15, "shutdown": after it, requests are InvalidRequest.
			return reply(ctx, nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "the server is shutting down"))
		}
		if isCall && ctx.Err() != nil {
			// Cancelled while it waited for the requests before it.
			return reply(ctx, nil, protocol.ErrRequestCancelled)
		}
		var err error
		if method == protocol.MethodTextDocumentDidChange {
			var p didChangeParams
			if err = json.Unmarshal(req.Params(), &p); err == nil {
				err = s.didChange(p)
			}
			_ = reply(ctx, nil, nil)
		} else {
			err = dispatch(ctx, reply, req)
		}
		if err != nil {
			// The library drops errors of notifications silently; say them.
			s.log.Warn("handler error", zap.String("method", method), zap.Error(err))
		}
		return err
	}
	async := ordered(jsonrpc2.ReplyHandler(front))
	return func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
		if req.Method() == protocol.MethodCancelRequest {
			s.cancelRequest(req.Params())
			return nil
		}
		if call, ok := req.(*jsonrpc2.Call); ok {
			// A request can be cancelled from the moment it arrives, also
			// while it waits for the requests before it.
			connCtx := ctx
			var cancel context.CancelFunc
			ctx, cancel = context.WithCancel(ctx)
			key := idKey(call.ID())
			s.inflightMu.Lock()
			s.inflight[key] = cancel
			s.inflightMu.Unlock()
			inner := reply
			reply = func(_ context.Context, result any, err error) error {
				s.inflightMu.Lock()
				delete(s.inflight, key)
				s.inflightMu.Unlock()
				cancel()
				// Reply on the connection's context: the stream writes
				// nothing on a cancelled one, and a cancelled request must
				// still be answered.
				return inner(connCtx, result, err)
			}
		}
		return async(ctx, reply, req)
	}
}

// idKey renders a request id as its JSON text: a number and a string with
// the same digits stay different ids. (jsonrpc2.ID's MarshalJSON has a
// pointer receiver: marshalled by value, every id would be "{}".)
func idKey(id jsonrpc2.ID) string {
	b, err := json.Marshal(&id)
	if err != nil {
		return fmt.Sprint(id)
	}
	return string(b)
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
	var id jsonrpc2.ID
	if err := json.Unmarshal(p.ID, &id); err != nil {
		s.log.Warn("bad $/cancelRequest id", zap.ByteString("id", p.ID))
		return
	}
	key := idKey(id)
	s.inflightMu.Lock()
	cancel := s.inflight[key]
	s.inflightMu.Unlock()
	if cancel != nil {
		cancel()
	}
	s.log.Debug("cancel", zap.String("id", key), zap.Bool("inFlight", cancel != nil))
}

// Initialize records what the client can do and declares what the server does.
func (s *Server) Initialize(ctx context.Context, p *protocol.InitializeParams) (*protocol.InitializeResult, error) {
	s.mu.Lock()
	s.settings.capabilities(p)
	s.settings.folders = workspaceFolders(p)
	if err := s.settings.setClient("initializationOptions", p.InitializationOptions); err != nil {
		s.log.Warn("initializationOptions", zap.Error(err))
		s.showMessageLater(protocol.MessageTypeError, "urlls: "+err.Error())
	}
	s.mu.Unlock()
	if p.ClientInfo != nil {
		s.log.Info("initialize", zap.String("client", p.ClientInfo.Name), zap.String("version", p.ClientInfo.Version))
	}
	return &protocol.InitializeResult{
		Capabilities: protocol.ServerCapabilities{
			TextDocumentSync: protocol.TextDocumentSyncOptions{
				OpenClose: true,
				Change:    protocol.TextDocumentSyncKindIncremental,
				Save:      &protocol.SaveOptions{},
			},
			HoverProvider: true,
			CodeActionProvider: &protocol.CodeActionOptions{
				CodeActionKinds: []protocol.CodeActionKind{protocol.QuickFix, fixAllKind},
			},
			DocumentLinkProvider: &protocol.DocumentLinkOptions{},
			SemanticTokensProvider: map[string]any{
				"legend": protocol.SemanticTokensLegend{TokenTypes: tokenTypes, TokenModifiers: []protocol.SemanticTokenModifiers{}},
				"full":   true,
			},
		},
		ServerInfo: &protocol.ServerInfo{Name: "urlls", Version: s.opts.Version},
	}, nil
}

// Initialized pulls the client's configuration, when it can be asked.
func (s *Server) Initialized(ctx context.Context, p *protocol.InitializedParams) error {
	go s.pullConfiguration(context.Background())
	return nil
}

// Shutdown stops answering for documents; exit follows.
func (s *Server) Shutdown(ctx context.Context) error {
	s.shutdown.Store(true)
	s.log.Info("shutdown")
	return nil
}

// Exit ends the session; Serve returns the exit code.
func (s *Server) Exit(ctx context.Context) error {
	s.log.Info("exit", zap.Bool("afterShutdown", s.shutdown.Load()))
	s.exitOnce.Do(func() { close(s.exited) })
	return nil
}

// SetTrace is accepted and ignored: the log goes to stderr or --log-file.
func (s *Server) SetTrace(ctx context.Context, p *protocol.SetTraceParams) error { return nil }

// showMessageLater shows a message without blocking the caller (a request
// handler must not wait on the client).
func (s *Server) showMessageLater(typ protocol.MessageType, msg string) {
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := s.client.ShowMessage(ctx, &protocol.ShowMessageParams{Type: typ, Message: msg}); err != nil {
			s.log.Debug("showMessage", zap.Error(err))
		}
	}()
}
