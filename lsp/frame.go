package lsp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"sync"

	"go.lsp.dev/jsonrpc2"
	"go.uber.org/zap"
)

// The base protocol (LSP 3.17 "Base Protocol", JSON-RPC 2.0), read and
// written by wireStream in front of jsonrpc2.Conn. The library's own stream
// ends the connection on anything it cannot decode: a body that is not
// JSON, a lower-case header name, an id that is neither an int32 nor a
// non-empty string; it reads the id "" as 0, takes a request with id null
// for a notification, and cannot answer with id null. wireStream reads
// frames itself and answers every malformed message as JSON-RPC 2.0 says,
// then goes on:
//
//   - Header names are case-insensitive; Content-Type is optional (any
//     media type; a charset other than utf-8 is refused); Content-Length is
//     required, a decimal byte count of at most maxFrame. Lines may end in
//     CRLF or LF.
//   - A header without a usable Content-Length (missing, not a number,
//     negative, above maxFrame), bytes that are not a header, or a body that
//     is not JSON: one Parse error (-32700, id null), then everything up to
//     the next Content-Length header is skipped. Nothing is allocated from
//     what a header claims: a body is read as it arrives, and never beyond
//     maxFrame.
//   - A body that is a JSON value followed by the start of the next header
//     (a Content-Length that counts too much): the value is the message and
//     the header is read next.
//   - JSON that is not a request object (no or a wrong "jsonrpc", a method
//     that is not a string, an id that is an object, an array or a boolean,
//     params that are neither object nor array): Invalid Request (-32600),
//     with the id when it is a valid one, else null. A batch (an array):
//     LSP does not use them; an array with one Invalid Request per element,
//     or a single one for an empty array.
//   - Valid requests reach the Conn under an id of the stream's own, and
//     their responses go out with the id as the client wrote it: "" stays
//     "", 1.0 stays 1.0, 2^53+1 keeps its digits, null stays null.

// maxFrame is the largest body accepted, in bytes: a larger Content-Length
// is answered with a Parse error and its body is skipped, never stored.
const maxFrame = 64 << 20

// maxHeaderLine bounds a header line, so that a line that never ends cannot
// take memory either.
const maxHeaderLine = 8 << 10

// codeRequestFailed is LSP 3.17's RequestFailed: the request was valid but
// could not be served (jsonrpc2 v0.10.0 lacks it).
const codeRequestFailed jsonrpc2.Code = -32803

// nullID is the id of a response to a message whose id cannot be read.
var nullID = json.RawMessage("null")

// wireStream implements jsonrpc2.Stream over a byte stream.
type wireStream struct {
	rwc      io.ReadWriteCloser
	in       *bufio.Reader
	pushback []byte // bytes read too far (an over-long body), read again first
	skip     bool   // after a framing error: skip to the next Content-Length
	log      *zap.Logger

	// inHand, when not nil, counts a message that is read already (its
	// bytes are buffered) but not yet handed to the handler as busy, so
	// that an analysis does not start between a didChange and the hover
	// that came in the same write (quiet): from the return of the
	// message before it to the next Read after it, which comes once the
	// handler has counted it. held and holding are the counts taken at
	// the return before last and at the last return.
	inHand        *quiet
	held, holding bool

	writeMu sync.Mutex // one frame at a time

	mu    sync.Mutex
	seq   uint64
	ids   map[jsonrpc2.ID]json.RawMessage // the stream's ids of requests in flight -> the client's
	calls map[jsonrpc2.ID]bool            // ids of the server's requests awaiting a response
}

var _ jsonrpc2.Stream = (*wireStream)(nil)

func newWireStream(rwc io.ReadWriteCloser, log *zap.Logger) *wireStream {
	return &wireStream{
		rwc:   rwc,
		in:    bufio.NewReaderSize(rwc, 64<<10),
		log:   log,
		ids:   map[jsonrpc2.ID]json.RawMessage{},
		calls: map[jsonrpc2.ID]bool{},
	}
}

// Read returns the next valid message; everything malformed before it has
// been answered (or, for responses, dropped) on the way.
func (w *wireStream) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	if w.inHand != nil {
		// The message read two Reads ago had one behind it; that one has
		// been handed over since.
		if w.held {
			w.inHand.done()
		}
		w.held, w.holding = w.holding, false
	}
	for {
		if err := ctx.Err(); err != nil {
			w.dropHeld()
			return nil, 0, err
		}
		body, err := w.readFrame()
		if err != nil {
			w.dropHeld()
			return nil, 0, err
		}
		if body == nil {
			continue // answered
		}
		if msg := w.decode(body); msg != nil {
			if w.inHand != nil && (w.in.Buffered() > 0 || len(w.pushback) > 0) {
				w.inHand.add()
				w.holding = true
			}
			return msg, int64(len(body)), nil
		}
	}
}

// dropHeld gives back the counts of messages in hand: the stream ended.
func (w *wireStream) dropHeld() {
	if w.held {
		w.inHand.done()
	}
	if w.holding {
		w.inHand.done()
	}
	w.held, w.holding = false, false
}

// Write sends a message. A response goes out with the id its request had
// on the wire; errors keep their JSON-RPC code, and one without a code is
// an Internal error.
func (w *wireStream) Write(ctx context.Context, msg jsonrpc2.Message) (int64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	switch m := msg.(type) {
	case *jsonrpc2.Response:
		id := m.ID()
		w.mu.Lock()
		raw, ok := w.ids[id]
		delete(w.ids, id)
		w.mu.Unlock()
		if !ok {
			b, err := json.Marshal(&id)
			if err != nil {
				return 0, err
			}
			raw = b
		}
		return w.writeResponse(raw, m.Result(), m.Err())
	case *jsonrpc2.Call:
		w.mu.Lock()
		w.calls[m.ID()] = true
		w.mu.Unlock()
		n, err := w.writeMessage(m)
		if err != nil {
			w.mu.Lock()
			delete(w.calls, m.ID())
			w.mu.Unlock()
		}
		return n, err
	}
	return w.writeMessage(msg)
}

// Close closes the connection.
func (w *wireStream) Close() error { return w.rwc.Close() }

// clientID returns the id a request in flight had on the wire.
func (w *wireStream) clientID(id jsonrpc2.ID) (json.RawMessage, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	raw, ok := w.ids[id]
	return raw, ok
}

// --- writing ---

type wireError struct {
	Code    jsonrpc2.Code    `json:"code"`
	Message string           `json:"message"`
	Data    *json.RawMessage `json:"data,omitempty"`
}

type wireResponse struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *wireError      `json:"error,omitempty"`
}

// rpcError gives err its JSON-RPC code: the code of the *jsonrpc2.Error it
// wraps with err's own message, else InternalError. Never 0.
func rpcError(err error) *wireError {
	e := &wireError{Code: jsonrpc2.InternalError, Message: err.Error()}
	var coded *jsonrpc2.Error
	if errors.As(err, &coded) {
		if coded.Code != 0 {
			e.Code = coded.Code
		}
		e.Data = coded.Data
		if coded.Message != "" && e.Message == "" {
			e.Message = coded.Message
		}
	}
	if e.Message == "" {
		e.Message = "internal error"
	}
	return e
}

func (w *wireStream) writeResponse(id, result json.RawMessage, err error) (int64, error) {
	resp := wireResponse{JSONRPC: "2.0", ID: id}
	if err != nil {
		resp.Error = rpcError(err)
	} else {
		resp.Result = result
		if len(bytes.TrimSpace(result)) == 0 {
			resp.Result = nullID // "result" is required on success
		}
	}
	data, merr := marshal(resp)
	if merr != nil {
		// A result that cannot be sent: say so rather than nothing.
		resp.Result, resp.Error = nil, &wireError{Code: jsonrpc2.InternalError, Message: "the result cannot be encoded: " + merr.Error()}
		data, merr = marshal(resp)
		if merr != nil {
			return 0, merr
		}
	}
	return w.writeFrame(data)
}

func (w *wireStream) writeMessage(msg jsonrpc2.Message) (int64, error) {
	data, err := marshal(msg)
	if err != nil {
		return 0, fmt.Errorf("marshaling message: %w", err)
	}
	return w.writeFrame(data)
}

// marshal encodes v without HTML escapes, so that an id goes back byte for
// byte as it came ("<" would become "\u003c").
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// writeFrame writes header and body in one Write, under writeMu.
func (w *wireStream) writeFrame(data []byte) (int64, error) {
	frame := make([]byte, 0, len(data)+32)
	frame = append(frame, "Content-Length: "...)
	frame = strconv.AppendInt(frame, int64(len(data)), 10)
	frame = append(frame, "\r\n\r\n"...)
	frame = append(frame, data...)
	w.writeMu.Lock()
	defer w.writeMu.Unlock()
	n, err := w.rwc.Write(frame)
	return int64(n), err
}

// replyError answers a message the stream refuses itself.
func (w *wireStream) replyError(id json.RawMessage, code jsonrpc2.Code, msg string) {
	if _, err := w.writeResponse(id, nil, jsonrpc2.NewError(code, msg)); err != nil {
		w.log.Debug("writing an error response", zap.Error(err))
	}
}

// --- reading frames ---

func (w *wireStream) readByte() (byte, error) {
	if len(w.pushback) > 0 {
		b := w.pushback[0]
		w.pushback = w.pushback[1:]
		return b, nil
	}
	return w.in.ReadByte()
}

// readBody reads n bytes as they arrive: memory follows the bytes received,
// not the count a header claims.
func (w *wireStream) readBody(n int64) ([]byte, error) {
	var buf bytes.Buffer
	take := min(n, int64(len(w.pushback)))
	buf.Write(w.pushback[:take])
	w.pushback = w.pushback[take:]
	if _, err := buf.ReadFrom(io.LimitReader(w.in, n-take)); err != nil {
		return nil, err
	}
	if int64(buf.Len()) < n {
		return nil, io.ErrUnexpectedEOF
	}
	return buf.Bytes(), nil
}

// isTokenChar says whether b may be in a header name (RFC 7230 §3.2.6).
func isTokenChar(b byte) bool {
	switch {
	case 'a' <= b && b <= 'z', 'A' <= b && b <= 'Z', '0' <= b && b <= '9':
		return true
	}
	return strings.IndexByte("!#$%&'*+-.^_`|~", b) >= 0
}

type lineKind int

const (
	lineBlank lineKind = iota
	lineField
	lineGarbage // not a header line; its bytes up to the one that said so are consumed
)

// headerLine reads one header line: a blank line, a "Name: value" field,
// or garbage, detected at the first byte that cannot be part of a header
// line, so that a message sent without a header is answered at once.
func (w *wireStream) headerLine() (lineKind, string, string, error) {
	b, err := w.readByte()
	if err != nil {
		return 0, "", "", err
	}
	switch b {
	case '\n':
		return lineBlank, "", "", nil
	case '\r':
		if b, err = w.readByte(); err != nil {
			return 0, "", "", err
		}
		if b == '\n' {
			return lineBlank, "", "", nil
		}
		return lineGarbage, "", "", nil
	}
	var name []byte
	for {
		if b == ':' && len(name) > 0 {
			break
		}
		if b == ' ' || b == '\t' { // whitespace before the colon: tolerated
			if len(name) == 0 {
				return lineGarbage, "", "", nil
			}
		} else if !isTokenChar(b) || len(name) > 64 {
			return lineGarbage, "", "", nil
		} else {
			name = append(name, b)
		}
		if b, err = w.readByte(); err != nil {
			return 0, "", "", err
		}
	}
	value, ok, err := w.headerValue()
	if err != nil {
		return 0, "", "", err
	}
	if !ok {
		return lineGarbage, "", "", nil
	}
	return lineField, string(name), value, nil
}

// headerValue reads the rest of a header line after its colon; ok is false
// when the line is longer than maxHeaderLine (the excess is not read).
func (w *wireStream) headerValue() (string, bool, error) {
	var value []byte
	for {
		b, err := w.readByte()
		if err != nil {
			return "", false, err
		}
		if b == '\n' {
			return strings.Trim(string(value), " \t\r"), true, nil
		}
		if len(value) >= maxHeaderLine {
			return "", false, nil
		}
		value = append(value, b)
	}
}

// resync skips input up to and including the next "Content-Length" [ws]
// ":" (in any case, anywhere: the header may follow garbage on its line).
func (w *wireStream) resync() error {
	const name = "content-length"
	i := 0
	for {
		b, err := w.readByte()
		if err != nil {
			return err
		}
		if 'A' <= b && b <= 'Z' {
			b += 'a' - 'A'
		}
		if i == len(name) {
			switch b {
			case ' ', '\t':
				continue
			case ':':
				return nil
			}
			i = 0
		}
		switch {
		case b == name[i]:
			i++
		case b == name[0]:
			i = 1
		default:
			i = 0
		}
	}
}

// parseLength reads a Content-Length value: decimal digits only.
func parseLength(v string) (int64, bool) {
	if v == "" || len(v) > 18 {
		if len(v) > 18 && strings.Trim(v, "0123456789") == "" {
			return math.MaxInt64, true // larger than any limit
		}
		return 0, false
	}
	for i := 0; i < len(v); i++ {
		if v[i] < '0' || v[i] > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseInt(v, 10, 64)
	return n, err == nil
}

// charsetProblem says why a Content-Type value is refused: LSP reads only
// utf-8 (and "utf8", for backwards compatibility).
func charsetProblem(v string) string {
	parts := strings.Split(v, ";")
	for _, p := range parts[1:] {
		k, val, ok := strings.Cut(p, "=")
		if !ok || !strings.EqualFold(strings.TrimSpace(k), "charset") {
			continue
		}
		val = strings.Trim(strings.TrimSpace(val), `"`)
		if !strings.EqualFold(val, "utf-8") && !strings.EqualFold(val, "utf8") {
			return fmt.Sprintf("the charset %q is not supported: LSP messages are utf-8", val)
		}
	}
	return ""
}

// readFrame returns the body of the next frame, or nil after answering a
// frame it could not read with a Parse error. The error is that of the
// input (its end, for one).
func (w *wireStream) readFrame() ([]byte, error) {
	length := int64(-1)
	var problem, charset string
	fields := 0
	if w.skip {
		w.skip = false
		if err := w.resync(); err != nil {
			return nil, err
		}
		v, ok, err := w.headerValue()
		if err != nil {
			return nil, err
		}
		if !ok {
			v = "(too long)"
		}
		fields++
		length, problem = w.contentLength(v, length)
	}
	for {
		kind, name, value, err := w.headerLine()
		if err != nil {
			if fields > 0 {
				w.log.Warn("the input ended inside a message header")
			}
			return nil, err
		}
		if kind == lineBlank {
			if fields == 0 {
				continue // blank lines between messages
			}
			break
		}
		if kind == lineGarbage {
			w.log.Warn("input that is not a message header: skipped to the next Content-Length header")
			w.replyError(nullID, jsonrpc2.ParseError, "parse error: expected a header (Content-Length: N), found other bytes: skipped to the next Content-Length header")
			w.skip = true
			return nil, nil
		}
		fields++
		switch {
		case strings.EqualFold(name, "Content-Length"):
			length, problem = w.contentLength(value, length)
		case strings.EqualFold(name, "Content-Type"):
			charset = charsetProblem(value)
		}
	}
	if problem == "" && length < 0 {
		problem = "the header has no Content-Length"
	}
	if problem != "" {
		w.log.Warn("bad message header: skipped to the next Content-Length header", zap.String("problem", problem))
		w.replyError(nullID, jsonrpc2.ParseError, "parse error: "+problem)
		w.skip = true
		return nil, nil
	}
	body, err := w.readBody(length)
	if err != nil {
		w.log.Warn("the input ended inside a message", zap.Int64("contentLength", length), zap.Error(err))
		return nil, err
	}
	if charset != "" {
		w.log.Warn("message refused", zap.String("problem", charset))
		w.replyError(nullID, jsonrpc2.ParseError, "parse error: "+charset)
		return nil, nil
	}
	return body, nil
}

// contentLength checks a Content-Length value; prev is the one already
// read in this header (-1 if none). It returns the length and what is
// wrong with it.
func (w *wireStream) contentLength(v string, prev int64) (int64, string) {
	n, ok := parseLength(v)
	switch {
	case !ok:
		return prev, fmt.Sprintf("Content-Length %q is not a byte count", v)
	case n > maxFrame:
		return prev, fmt.Sprintf("Content-Length %s exceeds the limit of %d bytes", v, maxFrame)
	case prev >= 0 && n != prev:
		return prev, fmt.Sprintf("two different Content-Length headers (%d and %d)", prev, n)
	}
	return n, ""
}

// --- decoding messages ---

// overlong splits a body that holds a JSON value followed by the start of
// another header: its Content-Length counted bytes of the next frame.
func overlong(body []byte) ([]byte, []byte, bool) {
	dec := json.NewDecoder(bytes.NewReader(body))
	var v json.RawMessage
	if dec.Decode(&v) != nil {
		return nil, nil, false
	}
	rest := bytes.TrimLeft(body[dec.InputOffset():], " \t\r\n")
	if len(rest) == 0 {
		return nil, nil, false
	}
	// The count may end anywhere in the next header, even in its name,
	// but "Content-" at least must be there: a stray byte after the JSON
	// is no header, and taken for one it would spoil the next frame.
	start := strings.ToLower(string(rest[:min(len(rest), 14)]))
	if len(start) < len("content-") {
		return nil, nil, false
	}
	for _, h := range []string{"content-length", "content-type"} {
		if strings.HasPrefix(start, h) || strings.HasPrefix(h, start) {
			return v, rest, true
		}
	}
	return nil, nil, false
}

// decode validates a body as a JSON-RPC 2.0 message. It returns the
// message for the Conn, or nil when it answered (or dropped) it itself.
func (w *wireStream) decode(body []byte) jsonrpc2.Message {
	if !json.Valid(body) {
		msg, rest, ok := overlong(body)
		if !ok {
			var v any
			err := json.Unmarshal(body, &v)
			w.log.Warn("a message that is not JSON", zap.Error(err), zap.ByteString("start", body[:min(len(body), 200)]))
			w.replyError(nullID, jsonrpc2.ParseError, fmt.Sprintf("parse error: the message is not JSON: %v", err))
			w.skip = true
			return nil
		}
		w.log.Warn("the Content-Length of a message counted bytes of the next one", zap.Int("contentLength", len(body)), zap.Int("message", len(msg)))
		w.pushback = append(rest, w.pushback...)
		body = msg
	}
	trimmed := bytes.TrimLeft(body, " \t\r\n")
	switch trimmed[0] {
	case '{':
		return w.object(body)
	case '[':
		w.batch(body)
		return nil
	}
	w.replyError(nullID, jsonrpc2.InvalidRequest, "invalid request: a message must be a JSON object")
	return nil
}

// batch answers a JSON-RPC batch: LSP does not use them.
func (w *wireStream) batch(body []byte) {
	var elems []json.RawMessage
	_ = json.Unmarshal(body, &elems) // valid JSON array
	const msg = "invalid request: batches are not supported (LSP sends one message per frame)"
	if len(elems) == 0 {
		w.replyError(nullID, jsonrpc2.InvalidRequest, "invalid request: an empty batch")
		return
	}
	w.log.Warn("a batch refused", zap.Int("messages", len(elems)))
	out := make([]wireResponse, 0, len(elems))
	for _, e := range elems {
		id := nullID
		var fields map[string]json.RawMessage
		if json.Unmarshal(e, &fields) == nil {
			if raw, ok := fields["id"]; ok && idKind(raw) != "" {
				id = raw
			}
		}
		out = append(out, wireResponse{JSONRPC: "2.0", ID: id, Error: &wireError{Code: jsonrpc2.InvalidRequest, Message: msg}})
	}
	data, err := marshal(out)
	if err != nil {
		return
	}
	if _, err := w.writeFrame(data); err != nil {
		w.log.Debug("writing a batch response", zap.Error(err))
	}
}

// idKind says what a JSON value is as a request id: "string", "number",
// "null", or "" when it cannot be one.
func idKind(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return ""
	}
	switch c := raw[0]; {
	case c == '"':
		return "string"
	case c == '-' || '0' <= c && c <= '9':
		return "number"
	case string(raw) == "null":
		return "null"
	}
	return ""
}

// object validates a request, a notification or a response.
func (w *wireStream) object(body []byte) jsonrpc2.Message {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(body, &fields); err != nil {
		w.replyError(nullID, jsonrpc2.ParseError, "parse error: "+err.Error())
		return nil
	}
	rawID, hasID := fields["id"]
	kind := ""
	if hasID {
		kind = idKind(rawID)
	}
	replyID := nullID
	if kind != "" {
		replyID = rawID
	}
	invalid := func(msg string) jsonrpc2.Message {
		w.log.Warn("invalid request", zap.String("problem", msg), zap.ByteString("id", replyID))
		w.replyError(replyID, jsonrpc2.InvalidRequest, "invalid request: "+msg)
		return nil
	}
	var version string
	if v, ok := fields["jsonrpc"]; !ok || json.Unmarshal(v, &version) != nil || version != "2.0" {
		return invalid(`"jsonrpc" must be "2.0"`)
	}
	rawMethod, hasMethod := fields["method"]
	if !hasMethod {
		_, hasResult := fields["result"]
		_, hasError := fields["error"]
		if hasID && (hasResult || hasError) {
			return w.response(rawID, fields)
		}
		return invalid(`a request needs a "method"`)
	}
	var method string
	if idKind(rawMethod) != "string" || json.Unmarshal(rawMethod, &method) != nil {
		return invalid(`"method" must be a string`)
	}
	if hasID && kind == "" {
		return invalid(`"id" must be a string, a number or null`)
	}
	params, hasParams := fields["params"]
	if hasParams {
		switch p := bytes.TrimSpace(params); {
		case string(p) == "null":
			params = nil // as if absent: some clients send it with shutdown and exit
		case p[0] != '{' && p[0] != '[':
			return invalid(`"params" must be an object or an array`)
		}
	}
	var (
		msg jsonrpc2.Message
		err error
	)
	if hasID {
		w.mu.Lock()
		w.seq++
		id := jsonrpc2.NewStringID("urlls-" + strconv.FormatUint(w.seq, 10))
		w.ids[id] = append(json.RawMessage(nil), rawID...)
		w.mu.Unlock()
		msg, err = jsonrpc2.NewCall(id, method, params)
	} else {
		msg, err = jsonrpc2.NewNotification(method, params)
	}
	if err != nil { // params are valid JSON: cannot happen
		w.replyError(replyID, jsonrpc2.InternalError, "internal error: "+err.Error())
		return nil
	}
	return msg
}

// response passes the client's response to a request of the server on to
// the Conn, once; responses to nothing are dropped (a response is never
// answered) and the result is nil.
func (w *wireStream) response(rawID json.RawMessage, fields map[string]json.RawMessage) jsonrpc2.Message {
	var id jsonrpc2.ID
	if err := json.Unmarshal(rawID, &id); err != nil {
		w.log.Warn("a response with an id the server never sent", zap.ByteString("id", rawID))
		return nil
	}
	w.mu.Lock()
	pending := w.calls[id]
	delete(w.calls, id)
	w.mu.Unlock()
	if !pending {
		w.log.Warn("a response to no request of the server", zap.ByteString("id", rawID))
		return nil
	}
	var resp *jsonrpc2.Response
	if e, ok := fields["error"]; ok {
		var werr jsonrpc2.Error
		if json.Unmarshal(e, &werr) != nil {
			werr = jsonrpc2.Error{Code: jsonrpc2.InternalError, Message: "malformed error response: " + string(e)}
		}
		resp, _ = jsonrpc2.NewResponse(id, nil, &werr)
	} else {
		resp, _ = jsonrpc2.NewResponse(id, fields["result"], nil)
	}
	return resp
}
