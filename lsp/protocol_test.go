package lsp

// Protocol tests with raw frames: a client that writes bytes and reads the
// server's frames itself, so that it can send what no library would
// (malformed frames and JSON, odd ids, requests out of the lifecycle) and
// see exactly what comes back (the id as written, the error code). It runs
// against Serve over net.Pipe and, for the framing, against the urlls
// binary over standard input and output.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.uber.org/zap"
	"go.uber.org/zap/zaptest"
)

// rawMsg is one message the server sent.
type rawMsg struct {
	raw    []byte
	fields map[string]json.RawMessage // nil for a batch response
	batch  []map[string]json.RawMessage
}

func (m rawMsg) isResponse() bool {
	if m.batch != nil {
		return true
	}
	_, hasMethod := m.fields["method"]
	return !hasMethod
}

func (m rawMsg) method() string {
	var s string
	_ = json.Unmarshal(m.fields["method"], &s)
	return s
}

// rawClient is the client end of a session, byte by byte.
type rawClient struct {
	t      testing.TB
	w      io.Writer
	close  func() error
	code   chan int // the server's exit code
	mu     sync.Mutex
	msgs   []rawMsg
	seen   int           // messages consumed by the test
	change chan struct{} // closed and replaced when a message arrives or the output ends
	ended  bool          // the server's output ended
	exited bool          // the exit code was read
	probes int

	readDone chan struct{} // closed when the reader has returned
	conn     net.Conn      // the client's end of net.Pipe; nil for a process
}

// newRawClient connects a raw client to Serve over net.Pipe.
func newRawClient(t testing.TB, logger *zap.Logger) *rawClient {
	serverEnd, clientEnd := net.Pipe()
	code := make(chan int, 1)
	go func() {
		code <- Serve(context.Background(), serverEnd, Options{Logger: logger, Debounce: time.Millisecond, Version: "test"})
	}()
	c := connectRaw(t, clientEnd, clientEnd, clientEnd.Close, code)
	c.conn = clientEnd
	t.Cleanup(func() {
		// Serve must end when the client goes, and has logged its last
		// when it returns.
		clientEnd.Close()
		if !c.exited {
			c.waitExit()
		}
	})
	return c
}

// startRawProcess runs "urlls serve --stdio" and connects a raw client to it.
func startRawProcess(t *testing.T) *rawClient {
	t.Helper()
	p := runProcess(t, t.TempDir(), "serve", "--stdio", "--log-level", "debug")
	t.Cleanup(func() {
		p.in.Close()
		select {
		case <-p.waited:
		case <-time.After(patience):
			t.Errorf("the urlls process did not end after its input was closed")
			p.cmd.Process.Kill()
			<-p.waited
		}
		p.out.Close()
		if t.Failed() {
			p.logStderr(t)
		}
	})
	return connectRaw(t, p.in, p.out, p.in.Close, p.code)
}

func connectRaw(t testing.TB, w io.Writer, r io.Reader, closeW func() error, code chan int) *rawClient {
	c := &rawClient{t: t, w: w, close: closeW, code: code, change: make(chan struct{}), readDone: make(chan struct{})}
	go c.read(r)
	t.Cleanup(func() {
		c.close()
		select { // the reader reports to t: it must be done when t is
		case <-c.readDone:
		case <-time.After(patience):
			t.Errorf("the server's output did not end")
		}
	})
	return c
}

// read parses the server's output: each frame must be exactly
// "Content-Length: N\r\n\r\n" and N bytes of JSON. Requests of the server
// (workspace/configuration) are answered null.
func (c *rawClient) read(r io.Reader) {
	br := bufio.NewReader(r)
	defer close(c.readDone)
	defer func() {
		c.mu.Lock()
		c.ended = true
		close(c.change)
		c.change = make(chan struct{})
		c.mu.Unlock()
	}()
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			if line != "" {
				c.t.Errorf("the server's output ended inside a header: %q", line)
			}
			return
		}
		n, ok := strings.CutPrefix(line, "Content-Length: ")
		length, err := strconv.Atoi(strings.TrimSuffix(n, "\r\n"))
		if !ok || err != nil || !strings.HasSuffix(n, "\r\n") {
			c.t.Errorf("the server wrote a bad header line %q", line)
			return
		}
		if blank, err := br.ReadString('\n'); err != nil || blank != "\r\n" {
			c.t.Errorf("the server's header does not end with a blank line: %q", blank)
			return
		}
		body := make([]byte, length)
		if _, err := io.ReadFull(br, body); err != nil {
			c.t.Errorf("the server's output ended inside a body: %v", err)
			return
		}
		m := rawMsg{raw: body}
		if bytes.HasPrefix(body, []byte("[")) {
			if err := json.Unmarshal(body, &m.batch); err != nil || m.batch == nil {
				c.t.Errorf("the server wrote %s", body)
				return
			}
		} else if err := json.Unmarshal(body, &m.fields); err != nil {
			c.t.Errorf("the server wrote %s: %v", body, err)
			return
		}
		for _, f := range append([]map[string]json.RawMessage{m.fields}, m.batch...) {
			if f != nil {
				if problem := checkWireMessage(f); problem != "" {
					c.t.Errorf("the server wrote %s: %s", body, problem)
				}
			}
		}
		if id, ok := m.fields["id"]; ok && !m.isResponse() {
			fmt.Fprintf(c.w, "%s", frame(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":null}`, id)))
		}
		c.mu.Lock()
		c.msgs = append(c.msgs, m)
		close(c.change)
		c.change = make(chan struct{})
		c.mu.Unlock()
	}
}

// checkWireMessage says what is wrong with a message as JSON-RPC 2.0: a
// response has an id, exactly one of result and error, and an error a
// non-zero integer code and a message.
func checkWireMessage(f map[string]json.RawMessage) string {
	if string(f["jsonrpc"]) != `"2.0"` {
		return `"jsonrpc" is not "2.0"`
	}
	if _, ok := f["method"]; ok {
		return ""
	}
	if _, ok := f["id"]; !ok {
		return "a response without an id"
	}
	res, hasResult := f["result"]
	e, hasError := f["error"]
	if hasResult == hasError {
		return "a response needs exactly one of result and error"
	}
	_ = res
	if hasError {
		var we struct {
			Code    *json.Number `json:"code"`
			Message *string      `json:"message"`
		}
		if err := json.Unmarshal(e, &we); err != nil || we.Code == nil || we.Message == nil {
			return "an error without code and message"
		}
		if n, err := we.Code.Int64(); err != nil || n == 0 {
			return "an error with the code " + string(*we.Code)
		}
	}
	return ""
}

// frame frames a body as a client does.
func frame(body string) string {
	return "Content-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n" + body
}

func (c *rawClient) send(s string) {
	c.t.Helper()
	if _, err := io.WriteString(c.w, s); err != nil {
		c.t.Fatalf("writing to the server: %v", err)
	}
}

// next waits for the next message the test has not seen that matches keep
// (nil: any), skipping the others; ok is false when the output ended or
// after patience.
func (c *rawClient) next(keep func(rawMsg) bool) (rawMsg, bool) {
	deadline := time.NewTimer(patience)
	defer deadline.Stop()
	for {
		c.mu.Lock()
		for c.seen < len(c.msgs) {
			m := c.msgs[c.seen]
			c.seen++
			if keep == nil || keep(m) {
				c.mu.Unlock()
				return m, true
			}
		}
		ended, ch := c.ended, c.change
		c.mu.Unlock()
		if ended {
			return rawMsg{}, false
		}
		select {
		case <-ch:
		case <-deadline.C:
			return rawMsg{}, false
		}
	}
}

// probe sends a request and returns the responses that came before its
// answer, which must come: the server is still there and in order.
func (c *rawClient) probe() []rawMsg {
	c.t.Helper()
	c.probes++
	id := fmt.Sprintf(`"probe-%d"`, c.probes)
	c.send(frame(`{"jsonrpc":"2.0","id":` + id + `,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///probe.txt"},"position":{"line":0,"character":0}}}`))
	var before []rawMsg
	for {
		m, ok := c.next(rawMsg.isResponse)
		if !ok {
			c.t.Fatalf("no answer to the probe %s; responses before it: %s", id, show(before))
		}
		if string(m.fields["id"]) == id {
			return before
		}
		before = append(before, m)
	}
}

func show(ms []rawMsg) string {
	var parts []string
	for _, m := range ms {
		parts = append(parts, string(m.raw))
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// call sends a request with the id and params given (raw JSON) and
// returns its response.
func (c *rawClient) call(id, method, params string) rawMsg {
	c.t.Helper()
	body := `{"jsonrpc":"2.0","id":` + id + `,"method":"` + method + `"`
	if params != "" {
		body += `,"params":` + params
	}
	c.send(frame(body + "}"))
	m, ok := c.next(func(m rawMsg) bool { return m.isResponse() && string(m.fields["id"]) == id })
	if !ok {
		c.t.Fatalf("no answer to %s %s", method, id)
	}
	return m
}

func (c *rawClient) notify(method, params string) {
	c.t.Helper()
	body := `{"jsonrpc":"2.0","method":"` + method + `"`
	if params != "" {
		body += `,"params":` + params
	}
	c.send(frame(body + "}"))
}

const initParams = `{"processId":null,"rootUri":null,"capabilities":{"textDocument":{"publishDiagnostics":{"versionSupport":true}}}}`

func (c *rawClient) initialize() {
	c.t.Helper()
	if m := c.call(`"init"`, "initialize", initParams); errCode(m) != 0 {
		c.t.Fatalf("initialize: %s", m.raw)
	}
	c.notify("initialized", `{}`)
}

// waitExit returns the server's exit code.
func (c *rawClient) waitExit() int {
	c.t.Helper()
	select {
	case code := <-c.code:
		c.exited = true
		return code
	case <-time.After(patience):
		c.exited = true
		c.t.Fatalf("the server did not end")
	}
	return -1
}

// published waits for the next publication of diagnostics for uri.
// (Requests wait for it too before they use the document: until the
// Mapper's line table is built eagerly, a request and a publication that
// share one race to build it.)
func (c *rawClient) published(uri string) rawMsg {
	c.t.Helper()
	m, ok := c.next(func(m rawMsg) bool {
		return m.method() == "textDocument/publishDiagnostics" && strings.Contains(string(m.fields["params"]), `"uri":"`+uri+`"`)
	})
	if !ok {
		c.t.Fatalf("no diagnostics for %s", uri)
	}
	return m
}

// errCode is the error code of a response, 0 for a result.
func errCode(m rawMsg) int {
	var e struct {
		Code int `json:"code"`
	}
	if raw, ok := m.fields["error"]; ok {
		if json.Unmarshal(raw, &e) != nil || e.Code == 0 {
			return -1
		}
		return e.Code
	}
	return 0
}

// answer is an expected response: its id exactly as written and its error
// code (0: a result); batch: an array of these.
type answer struct {
	id    string
	code  int
	batch []answer
}

func (a answer) String() string {
	if a.batch != nil {
		return fmt.Sprint(a.batch)
	}
	return fmt.Sprintf("{id %s code %d}", a.id, a.code)
}

func (a answer) matches(m rawMsg) bool {
	if a.batch != nil {
		if len(m.batch) != len(a.batch) {
			return false
		}
		for i, b := range a.batch {
			if !b.matches(rawMsg{fields: m.batch[i]}) {
				return false
			}
		}
		return true
	}
	return m.fields != nil && string(m.fields["id"]) == a.id && errCode(m) == a.code
}

const hoverX = `"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///x.txt"},"position":{"line":0,"character":0}}`

// hoverReq is a hover request with the id given (raw JSON).
func hoverReq(id string) string { return `{"jsonrpc":"2.0","id":` + id + `,` + hoverX + `}` }

// wireCases are the frames and messages of the issue and their siblings,
// with the answers JSON-RPC 2.0 and LSP 3.17 ask for; a probe request after
// each must be answered: the connection goes on.
var wireCases = []struct {
	name string
	send string
	want []answer
}{
	// Framing.
	{"lower-case content-length", strings.Replace(frame(hoverReq("1")), "Content-Length", "content-length", 1), []answer{{id: "1"}}},
	{"upper-case header", strings.Replace(frame(`{"jsonrpc":"2.0","id":1,`+hoverX+`}`), "Content-Length", "CONTENT-LENGTH", 1), []answer{{id: "1"}}},
	{"content-type first", "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n" + frame(`{"jsonrpc":"2.0","id":1,`+hoverX+`}`), []answer{{id: "1"}}},
	{"content-type after", strings.Replace(frame(`{"jsonrpc":"2.0","id":1,`+hoverX+`}`), "\r\n\r\n", "\r\nContent-Type: application/vscode-jsonrpc; charset=utf8\r\n\r\n", 1), []answer{{id: "1"}}},
	{"charset not utf-8", "Content-Type: application/vscode-jsonrpc; charset=latin1\r\n" + frame(`{"jsonrpc":"2.0","id":1,`+hoverX+`}`), []answer{{id: "null", code: -32700}}},
	{"LF line ends", strings.ReplaceAll(frame(`{"jsonrpc":"2.0","id":1,`+hoverX+`}`), "\r\n", "\n"), []answer{{id: "1"}}},
	{"space before colon", strings.Replace(frame(`{"jsonrpc":"2.0","id":1,`+hoverX+`}`), ":", " :", 1), []answer{{id: "1"}}},
	{"blank lines between frames", "\r\n\r\n" + frame(`{"jsonrpc":"2.0","id":1,`+hoverX+`}`) + "\r\n", []answer{{id: "1"}}},
	{"two frames at once", frame(`{"jsonrpc":"2.0","id":1,`+hoverX+`}`) + frame(`{"jsonrpc":"2.0","id":2,`+hoverX+`}`), []answer{{id: "1"}, {id: "2"}}},
	{"no content-length", "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n" + `{"jsonrpc":"2.0","id":1,` + hoverX + `}`, []answer{{id: "null", code: -32700}}},
	{"no header at all", `{"jsonrpc":"2.0","id":1,` + hoverX + `}`, []answer{{id: "null", code: -32700}}},
	{"garbage line", "hello\r\n", []answer{{id: "null", code: -32700}}},
	{"negative content-length", "Content-Length: -5\r\n\r\n{}", []answer{{id: "null", code: -32700}}},
	{"content-length not a number", "Content-Length: 5x\r\n\r\n{}", []answer{{id: "null", code: -32700}}},
	{"content-length empty", "Content-Length:\r\n\r\n{}", []answer{{id: "null", code: -32700}}},
	{"huge content-length", "Content-Length: 99999999999999999999999\r\n\r\n{}", []answer{{id: "null", code: -32700}}},
	{"content-length over the limit", "Content-Length: " + strconv.Itoa(maxFrame+1) + "\r\n\r\n{}", []answer{{id: "null", code: -32700}}},
	{"two content-lengths", "Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}", []answer{{id: "null", code: -32700}}},
	{"content-length 0", "Content-Length: 0\r\n\r\n", []answer{{id: "null", code: -32700}}},
	{"content-length short", "Content-Length: 10\r\n\r\n" + `{"jsonrpc":"2.0","id":1,` + hoverX + `}`, []answer{{id: "null", code: -32700}}},
	{"stray byte after the body", frame(hoverReq("1") + "C"), []answer{{id: "null", code: -32700}}},
	{"content-length long", "Content-Length: " + strconv.Itoa(len(hoverReq("1"))+10) + "\r\n\r\n" + hoverReq("1") + frame(hoverReq("2")), []answer{{id: "1"}, {id: "2"}}},
	{"header line too long", "X-Long: " + strings.Repeat("x", maxHeaderLine+10) + "\r\n" + frame(`{"jsonrpc":"2.0","id":1,`+hoverX+`}`), []answer{{id: "null", code: -32700}, {id: "1"}}},

	// Bodies that are not requests.
	{"not JSON", frame(`{not json`), []answer{{id: "null", code: -32700}}},
	{"truncated JSON", frame(`{"jsonrpc":"2.0","id":1,"method":"textDocument/hov`), []answer{{id: "null", code: -32700}}},
	{"empty object", frame(`{}`), []answer{{id: "null", code: -32600}}},
	{"number", frame(`42`), []answer{{id: "null", code: -32600}}},
	{"string", frame(`"hello"`), []answer{{id: "null", code: -32600}}},
	{"null", frame(`null`), []answer{{id: "null", code: -32600}}},
	{"batch", frame(`[{"jsonrpc":"2.0","id":1,` + hoverX + `},{"jsonrpc":"2.0","method":"x"}]`), []answer{{batch: []answer{{id: "1", code: -32600}, {id: "null", code: -32600}}}}},
	{"batch of numbers", frame(`[1,2,3]`), []answer{{batch: []answer{{id: "null", code: -32600}, {id: "null", code: -32600}, {id: "null", code: -32600}}}}},
	{"empty batch", frame(`[]`), []answer{{id: "null", code: -32600}}},
	{"no jsonrpc", frame(`{"id":1,` + hoverX + `}`), []answer{{id: "1", code: -32600}}},
	{"jsonrpc 1.0", frame(`{"jsonrpc":"1.0","id":1,` + hoverX + `}`), []answer{{id: "1", code: -32600}}},
	{"jsonrpc a number", frame(`{"jsonrpc":2.0,"id":1,` + hoverX + `}`), []answer{{id: "1", code: -32600}}},
	{"no method", frame(`{"jsonrpc":"2.0","id":1}`), []answer{{id: "1", code: -32600}}},
	{"method a number", frame(`{"jsonrpc":"2.0","id":1,"method":1}`), []answer{{id: "1", code: -32600}}},
	{"method null", frame(`{"jsonrpc":"2.0","id":1,"method":null}`), []answer{{id: "1", code: -32600}}},
	{"method not a string, no id", frame(`{"jsonrpc":"2.0","method":1,"params":"bar"}`), []answer{{id: "null", code: -32600}}},
	{"id an object", frame(`{"jsonrpc":"2.0","id":{"a":1},` + hoverX + `}`), []answer{{id: "null", code: -32600}}},
	{"id an array", frame(`{"jsonrpc":"2.0","id":[1],` + hoverX + `}`), []answer{{id: "null", code: -32600}}},
	{"id a boolean", frame(`{"jsonrpc":"2.0","id":true,` + hoverX + `}`), []answer{{id: "null", code: -32600}}},
	{"params a string", frame(`{"jsonrpc":"2.0","id":1,"method":"textDocument/hover","params":"x"}`), []answer{{id: "1", code: -32600}}},
	{"params a number", frame(`{"jsonrpc":"2.0","id":1,"method":"shutdown","params":5}`), []answer{{id: "1", code: -32600}}},
	{"response to nothing", frame(`{"jsonrpc":"2.0","id":12345,"result":{}}`), nil},
	{"error response to nothing", frame(`{"jsonrpc":"2.0","id":"x","error":{"code":-32601,"message":"no"}}`), nil},

	// Ids, echoed as written.
	{`id ""`, frame(`{"jsonrpc":"2.0","id":"",` + hoverX + `}`), []answer{{id: `""`}}},
	{"id null", frame(`{"jsonrpc":"2.0","id":null,` + hoverX + `}`), []answer{{id: "null"}}},
	{"id 0", frame(`{"jsonrpc":"2.0","id":0,` + hoverX + `}`), []answer{{id: "0"}}},
	{"id -1", frame(`{"jsonrpc":"2.0","id":-1,` + hoverX + `}`), []answer{{id: "-1"}}},
	{"id 1.0", frame(`{"jsonrpc":"2.0","id":1.0,` + hoverX + `}`), []answer{{id: "1.0"}}},
	{"id 1e3", frame(`{"jsonrpc":"2.0","id":1e3,` + hoverX + `}`), []answer{{id: "1e3"}}},
	{"id 2^53+1", frame(`{"jsonrpc":"2.0","id":9007199254740993,` + hoverX + `}`), []answer{{id: "9007199254740993"}}},
	{"id beyond int64", frame(`{"jsonrpc":"2.0","id":123456789012345678901234567890,` + hoverX + `}`), []answer{{id: "123456789012345678901234567890"}}},
	{"id a string of digits", frame(`{"jsonrpc":"2.0","id":"7",` + hoverX + `}`), []answer{{id: `"7"`}}},
	{"id with escapes", frame(`{"jsonrpc":"2.0","id":"\u00e9\n",` + hoverX + `}`), []answer{{id: `"\u00e9\n"`}}},
	{"same id twice", frame(`{"jsonrpc":"2.0","id":3,`+hoverX+`}`) + frame(`{"jsonrpc":"2.0","id":3,`+hoverX+`}`), []answer{{id: "3"}, {id: "3"}}},

	// Error codes.
	{"unknown method", frame(`{"jsonrpc":"2.0","id":1,"method":"foo/bar"}`), []answer{{id: "1", code: -32601}}},
	{"empty method", frame(`{"jsonrpc":"2.0","id":1,"method":""}`), []answer{{id: "1", code: -32601}}},
	{"rpc. method", frame(`{"jsonrpc":"2.0","id":1,"method":"rpc.discover"}`), []answer{{id: "1", code: -32601}}},
	{"$/ request", frame(`{"jsonrpc":"2.0","id":1,"method":"$/custom","params":{}}`), []answer{{id: "1", code: -32601}}},
	{"$/cancelRequest as a request", frame(`{"jsonrpc":"2.0","id":1,"method":"$/cancelRequest","params":{"id":1}}`), []answer{{id: "1", code: -32601}}},
	{"unknown notification", frame(`{"jsonrpc":"2.0","method":"foo/bar","params":{}}`), nil},
	{"$/ notification", frame(`{"jsonrpc":"2.0","method":"$/progress","params":{"token":1,"value":{}}}`), nil},
	{"hover without params", frame(`{"jsonrpc":"2.0","id":1,"method":"textDocument/hover"}`), []answer{{id: "1", code: -32602}}},
	{"hover params null", frame(`{"jsonrpc":"2.0","id":1,"method":"textDocument/hover","params":null}`), []answer{{id: "1", code: -32602}}},
	{"hover params an array", frame(`{"jsonrpc":"2.0","id":1,"method":"textDocument/hover","params":[]}`), []answer{{id: "1", code: -32602}}},
	{"hover without textDocument", frame(`{"jsonrpc":"2.0","id":1,"method":"textDocument/hover","params":{"position":{"line":0,"character":0}}}`), []answer{{id: "1", code: -32602}}},
	{"hover uri a number", frame(`{"jsonrpc":"2.0","id":1,"method":"textDocument/hover","params":{"textDocument":{"uri":5},"position":{"line":0,"character":0}}}`), []answer{{id: "1", code: -32602}}},
	{"hover line a string", frame(`{"jsonrpc":"2.0","id":1,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///x"},"position":{"line":"0","character":0}}}`), []answer{{id: "1", code: -32602}}},
	{"hover line negative", frame(`{"jsonrpc":"2.0","id":1,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///x"},"position":{"line":-1,"character":0}}}`), []answer{{id: "1", code: -32602}}},
	{"hover line a fraction", frame(`{"jsonrpc":"2.0","id":1,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///x"},"position":{"line":0.5,"character":0}}}`), []answer{{id: "1", code: -32602}}},
	{"codeAction without range", frame(`{"jsonrpc":"2.0","id":1,"method":"textDocument/codeAction","params":{"textDocument":{"uri":"file:///x"},"context":{"diagnostics":[]}}}`), []answer{{id: "1", code: -32602}}},
	{"codeAction of a closed document", frame(`{"jsonrpc":"2.0","id":1,"method":"textDocument/codeAction","params":{"textDocument":{"uri":"file:///x"},"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}},"context":{"diagnostics":[]}}}`), []answer{{id: "1", code: -32803}}},
	{"documentLink of a closed document", frame(`{"jsonrpc":"2.0","id":1,"method":"textDocument/documentLink","params":{"textDocument":{"uri":"file:///x"}}}`), []answer{{id: "1", code: -32803}}},
	{"semanticTokens of a closed document", frame(`{"jsonrpc":"2.0","id":1,"method":"textDocument/semanticTokens/full","params":{"textDocument":{"uri":"file:///x"}}}`), []answer{{id: "1", code: -32803}}},
	{"bad notification params", frame(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":5}}`), nil},
	{"notification sent as a request", frame(`{"jsonrpc":"2.0","id":1,"method":"textDocument/didClose","params":{"textDocument":{"uri":"file:///x"}}}`), []answer{{id: "1"}}},
	{"bad params of a notification sent as a request", frame(`{"jsonrpc":"2.0","id":1,"method":"textDocument/didClose","params":{}}`), []answer{{id: "1", code: -32602}}},
	{"second initialize", frame(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":` + initParams + `}`), []answer{{id: "1", code: -32600}}},
}

// runWireCase sends one case to an initialized session and checks the
// answers that come before the probe's.
func runWireCase(t *testing.T, c *rawClient, send string, want []answer) {
	t.Helper()
	c.send(send)
	got := c.probe()
	ok := len(got) == len(want)
	for i := 0; ok && i < len(want); i++ {
		ok = want[i].matches(got[i])
	}
	if !ok {
		t.Errorf("answers %s, want %v", show(got), want)
	}
}

// TestWire sends each case to a new session over net.Pipe.
func TestWire(t *testing.T) {
	for _, tc := range wireCases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := newRawClient(t, zaptest.NewLogger(t, zaptest.Level(zap.WarnLevel)))
			c.initialize()
			runWireCase(t, c, tc.send, tc.want)
			c.call("9", "shutdown", "")
			c.notify("exit", "")
			if code := c.waitExit(); code != 0 {
				t.Errorf("exit code %d", code)
			}
		})
	}
}

// TestWireStdio sends every case, one after another, to one urlls process
// over its standard input and output, as an editor would.
func TestWireStdio(t *testing.T) {
	c := startRawProcess(t)
	c.initialize()
	for _, tc := range wireCases {
		if strings.Contains(tc.name, "initialize") {
			continue
		}
		t.Run(tc.name, func(t *testing.T) { c.t = t; runWireCase(t, c, tc.send, tc.want) })
	}
	c.t = t
	c.call("9", "shutdown", "{}")
	c.notify("exit", "{}")
	if code := c.waitExit(); code != 0 {
		t.Errorf("exit code %d", code)
	}
}

// TestWireByteByByte: a frame written one byte at a time is one message.
func TestWireByteByByte(t *testing.T) {
	c := newRawClient(t, zaptest.NewLogger(t))
	c.initialize()
	for _, b := range []byte(frame(`{"jsonrpc":"2.0","id":"slow",` + hoverX + `}`)) {
		c.send(string([]byte{b}))
	}
	if m, ok := c.next(rawMsg.isResponse); !ok || string(m.fields["id"]) != `"slow"` || errCode(m) != 0 {
		t.Errorf("answer %s", m.raw)
	}
}

// TestWireLargeBody: a body of several megabytes is read whole.
func TestWireLargeBody(t *testing.T) {
	c := newRawClient(t, zaptest.NewLogger(t, zaptest.Level(zap.WarnLevel)))
	c.initialize()
	text := strings.Repeat("see http://example.org/%zz here\n", 40000) // 1.3 MB
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": map[string]any{
		"textDocument": map[string]any{"uri": "file:///big.txt", "languageId": "plaintext", "version": 1, "text": text}}})
	c.send(frame(string(body)))
	c.published("file:///big.txt")
	m := c.call("1", "textDocument/documentLink", `{"textDocument":{"uri":"file:///big.txt"}}`)
	var links []json.RawMessage
	if err := json.Unmarshal(m.fields["result"], &links); err != nil || len(links) != 40000 {
		t.Errorf("%d links (%v), want 40000", len(links), err)
	}
}

// TestLifecycle: LSP 3.17's "Server lifecycle", on the wire.
func TestLifecycle(t *testing.T) {
	logger := func(t *testing.T) *zap.Logger { return zaptest.NewLogger(t, zaptest.Level(zap.WarnLevel)) }

	t.Run("before initialize", func(t *testing.T) {
		c := newRawClient(t, logger(t))
		for _, m := range []string{"textDocument/hover", "shutdown", "foo/bar", "$/cancelRequest"} {
			if r := c.call(`"`+m+`"`, m, `{}`); errCode(r) != -32002 {
				t.Errorf("%s before initialize: %s, want -32002", m, r.raw)
			}
		}
		// Notifications are dropped: the document is not opened.
		c.notify("textDocument/didOpen", `{"textDocument":{"uri":"file:///a.txt","languageId":"plaintext","version":1,"text":"http://x.org/%zz"}}`)
		c.notify("initialized", `{}`)
		c.initialize()
		if r := c.call("1", "textDocument/documentLink", `{"textDocument":{"uri":"file:///a.txt"}}`); errCode(r) != -32803 {
			t.Errorf("the didOpen before initialize was not dropped: %s", r.raw)
		}
	})

	t.Run("exit before initialize", func(t *testing.T) {
		c := newRawClient(t, logger(t))
		c.notify("exit", "")
		if code := c.waitExit(); code != 1 {
			t.Errorf("exit code %d, want 1", code)
		}
	})

	t.Run("initialize with bad params", func(t *testing.T) {
		c := newRawClient(t, logger(t))
		for _, params := range []string{``, `null`, `[]`, `{"capabilities":5}`, `{"processId":"x"}`, `{"rootUri":1}`, `{"clientInfo":{}}`, `{"workspaceFolders":[{"uri":1}]}`} {
			if r := c.call("1", "initialize", params); errCode(r) != -32602 {
				t.Errorf("initialize %s: %s, want -32602", params, r.raw)
			}
		}
		if r := c.call("2", "textDocument/hover", `{}`); errCode(r) != -32002 {
			t.Errorf("after a refused initialize: %s, want -32002", r.raw)
		}
		if r := c.call("3", "initialize", `{}`); errCode(r) != 0 {
			t.Fatalf("initialize {}: %s", r.raw)
		}
		if r := c.call("4", "initialize", initParams); errCode(r) != -32600 {
			t.Errorf("second initialize: %s, want -32600", r.raw)
		}
	})

	t.Run("capabilities of a later LSP", func(t *testing.T) {
		c := newRawClient(t, logger(t))
		// semanticTokens.requests.full was a boolean in 3.15's types, and
		// a client may send anything new: the server reads what it uses.
		r := c.call("1", "initialize", `{"capabilities":{"textDocument":{"hover":{"contentFormat":["plaintext"]},"semanticTokens":{"requests":{"full":{"delta":true}}},"publishDiagnostics":{"versionSupport":"yes"}}}}`)
		if errCode(r) != 0 {
			t.Fatalf("initialize: %s", r.raw)
		}
		c.notify("textDocument/didOpen", `{"textDocument":{"uri":"file:///a.txt","languageId":"plaintext","version":1,"text":"http://x.org/%41"}}`)
		c.published("file:///a.txt")
		h := c.call("2", "textDocument/hover", `{"textDocument":{"uri":"file:///a.txt"},"position":{"line":0,"character":14}}`)
		if !strings.Contains(string(h.fields["result"]), `"plaintext"`) {
			t.Errorf("hover %s, want plain text", h.raw)
		}
	})

	t.Run("after shutdown", func(t *testing.T) {
		c := newRawClient(t, logger(t))
		c.initialize()
		if r := c.call("1", "shutdown", ""); errCode(r) != 0 || string(r.fields["result"]) != "null" {
			t.Errorf("shutdown: %s, want a null result", r.raw)
		}
		for _, m := range []string{"textDocument/hover", "shutdown", "initialize", "foo/bar"} {
			if r := c.call(`"`+m+`"`, m, `{}`); errCode(r) != -32600 {
				t.Errorf("%s after shutdown: %s, want -32600", m, r.raw)
			}
		}
		c.notify("exit", "")
		if code := c.waitExit(); code != 0 {
			t.Errorf("exit code %d, want 0", code)
		}
	})

	// shutdown and exit with params {}, [], null or none: all the same.
	for _, sp := range []string{"", "{}", "[]", "null"} {
		for _, ep := range []string{"", "{}", "[]", "null"} {
			t.Run(fmt.Sprintf("shutdown %q exit %q", sp, ep), func(t *testing.T) {
				t.Parallel()
				c := newRawClient(t, logger(t))
				c.initialize()
				if r := c.call("1", "shutdown", sp); errCode(r) != 0 {
					t.Errorf("shutdown: %s", r.raw)
				}
				c.notify("exit", ep)
				if code := c.waitExit(); code != 0 {
					t.Errorf("exit code %d, want 0", code)
				}
			})
		}
		t.Run(fmt.Sprintf("exit %q without shutdown", sp), func(t *testing.T) {
			t.Parallel()
			c := newRawClient(t, logger(t))
			c.initialize()
			c.notify("exit", sp)
			if code := c.waitExit(); code != 1 {
				t.Errorf("exit code %d, want 1", code)
			}
		})
	}

	t.Run("shutdown sent as a notification", func(t *testing.T) {
		c := newRawClient(t, logger(t))
		c.initialize()
		c.notify("shutdown", "")
		if r := c.call("1", "textDocument/hover", `{}`); errCode(r) != -32600 {
			t.Errorf("a request after shutdown: %s, want -32600", r.raw)
		}
		c.notify("exit", "")
		if code := c.waitExit(); code != 0 {
			t.Errorf("exit code %d, want 0", code)
		}
	})

	t.Run("exit sent as a request", func(t *testing.T) {
		c := newRawClient(t, logger(t))
		c.initialize()
		c.call("1", "shutdown", "")
		if r := c.call("2", "exit", ""); errCode(r) != 0 {
			t.Errorf("exit: %s", r.raw)
		}
		if code := c.waitExit(); code != 0 {
			t.Errorf("exit code %d, want 0", code)
		}
	})
}

// TestVersions: LSP versions are integers that increase; 0 is one, a
// negative one or one beyond an int32 is refused (not wrapped), and so is
// a change that is not newer than the document.
func TestVersions(t *testing.T) {
	c := newRawClient(t, zaptest.NewLogger(t, zaptest.Level(zap.ErrorLevel)))
	c.initialize()
	open := func(uri string, version string) {
		c.notify("textDocument/didOpen", `{"textDocument":{"uri":"`+uri+`","languageId":"plaintext","version":`+version+`,"text":"http://x.org/%zz\n"}}`)
	}
	change := func(uri, version, text string) {
		c.notify("textDocument/didChange", `{"textDocument":{"uri":"`+uri+`","version":`+version+`},"contentChanges":[{"text":"`+text+`"}]}`)
	}
	publication := c.published
	message := func() string {
		t.Helper()
		m, ok := c.next(func(m rawMsg) bool { return m.method() == "window/showMessage" })
		if !ok {
			t.Fatal("no window/showMessage")
		}
		var p struct{ Message string }
		_ = json.Unmarshal(m.fields["params"], &p)
		return p.Message
	}
	version := func(m rawMsg) string {
		var p struct{ Version json.RawMessage }
		_ = json.Unmarshal(m.fields["params"], &p)
		return string(p.Version)
	}

	open("file:///zero.txt", "0")
	if v := version(publication("file:///zero.txt")); v != "0" {
		t.Errorf("version 0 published as %q", v)
	}
	for _, v := range []string{"-1", "2147483648", "4294967295", `"1"`, "1.5", "null"} {
		open("file:///bad.txt", v)
		if msg := message(); !strings.Contains(msg, "textDocument.version") {
			t.Errorf("didOpen version %s: message %q", v, msg)
		}
	}
	if r := c.call("1", "textDocument/documentLink", `{"textDocument":{"uri":"file:///bad.txt"}}`); errCode(r) != -32803 {
		t.Errorf("a document opened with a bad version is open: %s", r.raw)
	}

	change("file:///zero.txt", "2", `http://x.org/%zy\n`)
	if v := version(publication("file:///zero.txt")); v != "2" {
		t.Errorf("version 2 published as %q", v)
	}
	for _, v := range []string{"1", "2", "-1", "2147483648"} {
		change("file:///zero.txt", v, `changed`)
		if msg := message(); !strings.Contains(msg, "version") {
			t.Errorf("didChange version %s: message %q", v, msg)
		}
	}
	change("file:///zero.txt", "2147483647", `http://x.org/%zx\n`)
	if v := version(publication("file:///zero.txt")); v != "2147483647" {
		t.Errorf("version 2147483647 published as %q", v)
	}
	// Nothing of the refused changes reached the document.
	m := c.call("2", "textDocument/documentLink", `{"textDocument":{"uri":"file:///zero.txt"}}`)
	if !strings.Contains(string(m.fields["result"]), `%zx`) {
		t.Errorf("links %s, want the text of version 2147483647", m.fields["result"])
	}
}

// TestCancelOnTheWire: $/cancelRequest names a request by the id the
// client wrote ("" and 1.0 included), whatever id the stream gave it. The
// request waits behind another one, which the server's lock holds up.
func TestCancelOnTheWire(t *testing.T) {
	for _, tc := range []struct{ id, cancel string }{
		{`7`, `7`}, {`"7"`, `"7"`}, {`""`, `""`}, {`1.0`, `1`}, {`1e0`, `1`}, {`9007199254740993`, `9007199254740993`},
	} {
		t.Run(tc.id, func(t *testing.T) {
			var out bytes.Buffer
			in := strings.NewReader(frame(hoverReq(`"first"`)) + frame(hoverReq(tc.id)))
			w := newWireStream(struct {
				io.Reader
				io.Writer
				io.Closer
			}{in, &out, io.NopCloser(nil)}, zaptest.NewLogger(t))
			s := newServer(nopClient{}, Options{Logger: zaptest.NewLogger(t)})
			s.ids = w
			s.state.Store(stateInitialized)
			h := s.handler()
			answers := make(chan error, 2)
			s.mu.Lock() // the first hover waits for it, the second behind the first
			for range 2 {
				msg, _, err := w.Read(context.Background())
				if err != nil {
					t.Fatal(err)
				}
				if err := h(context.Background(), func(_ context.Context, _ any, err error) error { answers <- err; return nil }, msg.(jsonrpc2.Request)); err != nil {
					t.Fatal(err)
				}
			}
			s.cancelRequest(json.RawMessage(`{"id":` + tc.cancel + `}`))
			s.mu.Unlock()
			for i := range 2 {
				select {
				case err := <-answers:
					if i == 1 && errCode(rawMsg{fields: map[string]json.RawMessage{"error": errJSON(err)}}) != -32800 {
						t.Errorf("the cancelled request: answered %v, want RequestCancelled", err)
					}
					if i == 0 && err != nil {
						t.Errorf("the first request: %v", err)
					}
				case <-time.After(patience):
					t.Fatal("never answered")
				}
			}
		})
	}
}

// errJSON renders an error as the wire does.
func errJSON(err error) json.RawMessage {
	if err == nil {
		return nil
	}
	b, _ := json.Marshal(rpcError(err))
	return b
}

// TestInHandWhileBuffered: a message read with another one behind it in
// the stream's buffer (a didChange and the hover written with it) keeps
// the server busy (quiet) until the one behind it has been read and the
// Read after it comes, by when the handler has counted it; a message read
// alone does not, and nothing stays counted when the stream ends.
func TestInHandWhileBuffered(t *testing.T) {
	busy := func(q *quiet) int {
		q.mu.Lock()
		defer q.mu.Unlock()
		return q.busy
	}
	in := strings.NewReader(frame(hoverReq(`1`)) + frame(hoverReq(`2`)))
	w := newWireStream(struct {
		io.Reader
		io.Writer
		io.Closer
	}{in, io.Discard, io.NopCloser(nil)}, zaptest.NewLogger(t))
	var q quiet
	w.inHand = &q
	for i, want := range []int{1, 1} {
		if _, _, err := w.Read(context.Background()); err != nil {
			t.Fatal(err)
		}
		if got := busy(&q); got != want {
			t.Fatalf("after message %d: busy %d, want %d", i+1, got, want)
		}
	}
	if _, _, err := w.Read(context.Background()); err == nil {
		t.Fatal("a third message read from two")
	}
	if got := busy(&q); got != 0 {
		t.Fatalf("after the end: busy %d, want 0", got)
	}
	// One message alone.
	w = newWireStream(struct {
		io.Reader
		io.Writer
		io.Closer
	}{strings.NewReader(frame(hoverReq(`3`))), io.Discard, io.NopCloser(nil)}, zaptest.NewLogger(t))
	w.inHand = &q
	if _, _, err := w.Read(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := busy(&q); got != 0 {
		t.Fatalf("after a message alone: busy %d, want 0", got)
	}
}
