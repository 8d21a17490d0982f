package lsp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/urlls/urlls/analysis/samples"
)

// The benchmarks of issue 12 through the server's stdio protocol, as a
// client (and the judge) sees it: the built "urlls serve" process, JSON-RPC
// frames on its standard input and output. Each pairs what it measures with
// its peer in the same loop (alternating), so that the ratios it reports
// compare times taken under the same load:
//
//	go test ./lsp -run '^$' -bench 'Wire' -benchtime 100x

// wireClient is a raw JSON-RPC client of a urlls serve process: it writes
// frames and lets a benchmark wait for the answer to a request or for the
// publication of a version of a document, without decoding what it does
// not need (the diagnostics).
type wireClient struct {
	in io.WriteCloser
	id int

	mu        sync.Mutex
	cond      *sync.Cond
	answered  map[int]bool
	published map[string]int // the latest version published, by URI
	err       error
}

// URLLS_WIRE_BINARY, when set, names the urlls binary to run rather than
// one built from this module (an older build, to compare with).
//
// wireInProcess, when set, runs the server in the benchmark's process
// (Serve on OS pipes, the stream urlls serve reads) rather than the built
// binary, for go test -trace and -cpuprofile to see it.
var wireInProcess = os.Getenv("URLLS_WIRE_IN_PROCESS") != ""

func startWireClient(b *testing.B) *wireClient {
	var in io.WriteCloser
	var out io.Reader
	var wait func()
	if wireInProcess {
		inR, inW, err := os.Pipe()
		if err != nil {
			b.Fatal(err)
		}
		outR, outW, err := os.Pipe()
		if err != nil {
			b.Fatal(err)
		}
		done := make(chan struct{})
		go func() {
			Serve(context.Background(), pipeConn{inR, outW}, Options{})
			outW.Close()
			close(done)
		}()
		in, out, wait = inW, outR, func() { <-done }
	} else {
		bin := os.Getenv("URLLS_WIRE_BINARY") // another build to compare with
		if bin == "" {
			bin = urllsBinary(b)
		}
		cmd := exec.Command(bin, "serve")
		var err error
		if in, err = cmd.StdinPipe(); err != nil {
			b.Fatal(err)
		}
		if out, err = cmd.StdoutPipe(); err != nil {
			b.Fatal(err)
		}
		cmd.Stderr = io.Discard
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		wait = func() { cmd.Wait() }
	}
	c := &wireClient{in: in, answered: map[int]bool{}, published: map[string]int{}}
	c.cond = sync.NewCond(&c.mu)
	go c.read(bufio.NewReaderSize(out, 1<<16))
	c.request(b, "initialize", map[string]any{"processId": os.Getpid(), "rootUri": nil, "capabilities": map[string]any{}})
	c.notify(b, "initialized", map[string]any{})
	b.Cleanup(func() {
		c.request(b, "shutdown", nil)
		c.notify(b, "exit", nil)
		in.Close()
		wait()
	})
	return c
}

// pipeConn is the server's end of two OS pipes.
type pipeConn struct {
	r *os.File
	w *os.File
}

func (p pipeConn) Read(b []byte) (int, error)  { return p.r.Read(b) }
func (p pipeConn) Write(b []byte) (int, error) { return p.w.Write(b) }
func (p pipeConn) Close() error                { return p.r.Close() }

// read reads the server's frames until its output ends.
func (c *wireClient) read(r *bufio.Reader) {
	fail := func(err error) {
		c.mu.Lock()
		c.err = err
		c.mu.Unlock()
		c.cond.Broadcast()
	}
	for {
		n := -1
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				fail(err)
				return
			}
			line = strings.TrimSpace(line)
			if line == "" {
				break
			}
			if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
				n, _ = strconv.Atoi(v)
			}
		}
		body := make([]byte, n)
		if _, err := io.ReadFull(r, body); err != nil {
			fail(err)
			return
		}
		c.mu.Lock()
		if uri, v, ok := publication(body); ok {
			c.published[uri] = max(c.published[uri], v)
		} else {
			var m struct {
				ID     *int   `json:"id"`
				Method string `json:"method"`
			}
			if json.Unmarshal(body, &m) == nil && m.ID != nil && m.Method == "" {
				c.answered[*m.ID] = true
			}
		}
		c.mu.Unlock()
		c.cond.Broadcast()
	}
}

// publication returns the URI and version of a publishDiagnostics
// notification, read from its start (its diagnostics follow them).
func publication(body []byte) (string, int, bool) {
	head := body[:min(len(body), 512)]
	if !bytes.Contains(head, []byte(`"textDocument/publishDiagnostics"`)) {
		return "", 0, false
	}
	var p struct {
		URI     string `json:"uri"`
		Version int    `json:"version"`
	}
	k := bytes.Index(head, []byte(`"params":`))
	if k < 0 {
		return "", 0, false
	}
	// The params up to their diagnostics, closed by hand.
	params := head[k+len(`"params":`):]
	if d := bytes.Index(params, []byte(`,"diagnostics"`)); d >= 0 {
		params = append(params[:d:d], '}')
	}
	if json.Unmarshal(params, &p) != nil {
		return "", 0, false
	}
	return p.URI, p.Version, true
}

// wireFrame returns msg as a frame.
func wireFrame(b *testing.B, msg map[string]any) []byte {
	body, err := json.Marshal(msg)
	if err != nil {
		b.Fatal(err)
	}
	return append([]byte(fmt.Sprintf("Content-Length: %d\r\n\r\n", len(body))), body...)
}

func (c *wireClient) write(b *testing.B, frames ...[]byte) {
	if _, err := c.in.Write(bytes.Join(frames, nil)); err != nil {
		b.Fatal(err)
	}
}

func (c *wireClient) notification(b *testing.B, method string, params any) []byte {
	return wireFrame(b, map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
}

func (c *wireClient) notify(b *testing.B, method string, params any) {
	c.write(b, c.notification(b, method, params))
}

// call returns a request's frame and its id.
func (c *wireClient) call(b *testing.B, method string, params any) ([]byte, int) {
	c.id++
	return wireFrame(b, map[string]any{"jsonrpc": "2.0", "id": c.id, "method": method, "params": params}), c.id
}

func (c *wireClient) request(b *testing.B, method string, params any) {
	f, id := c.call(b, method, params)
	c.write(b, f)
	c.waitAnswer(b, id)
}

// waitAnswer returns when the request id has been answered.
func (c *wireClient) waitAnswer(b *testing.B, id int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for !c.answered[id] && c.err == nil {
		c.cond.Wait()
	}
	if c.err != nil {
		b.Fatal(c.err)
	}
	delete(c.answered, id)
}

// waitPublished returns when version v of uri (or a newer one) has been
// published.
func (c *wireClient) waitPublished(b *testing.B, uri string, v int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for c.published[uri] < v && c.err == nil {
		c.cond.Wait()
	}
	if c.err != nil {
		b.Fatal(c.err)
	}
}

func (c *wireClient) open(b *testing.B, uri, lang string, version int, text []byte) {
	c.notify(b, "textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": uri, "languageId": lang, "version": version, "text": string(text)}})
}

// change is a didChange frame that types "x" at the start of line, or
// deletes it (odd versions), so that the document keeps its size.
func (c *wireClient) change(b *testing.B, uri string, version int, line int) []byte {
	ch := map[string]any{"range": map[string]any{"start": map[string]any{"line": line, "character": 0},
		"end": map[string]any{"line": line, "character": 0}}, "text": "x"}
	if version%2 == 1 {
		ch = map[string]any{"range": map[string]any{"start": map[string]any{"line": line, "character": 0},
			"end": map[string]any{"line": line, "character": 1}}, "text": ""}
	}
	return c.notification(b, "textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": uri, "version": version},
		"contentChanges": []any{ch}})
}

// hover is a hover request's frame over line 7000 (far from the edits).
func (c *wireClient) hover(b *testing.B, uri string) ([]byte, int) {
	return c.call(b, "textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uri},
		"position": map[string]any{"line": 7000, "character": 70}})
}

// wirePercentiles are the times of one measure of a wire benchmark.
type wirePercentiles []time.Duration

func (w wirePercentiles) at(q int) time.Duration {
	s := append([]time.Duration(nil), w...)
	slices.Sort(s)
	return s[min(len(s)-1, len(s)*q/100)]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// BenchmarkWireHover: over stdio, a hover sent right behind a
// one-character edit (both frames in one write), timed from that write to
// the hover's answer, paired with a hover on the idle document (its
// analysis published) in the same loop.
func BenchmarkWireHover(b *testing.B) {
	for _, l := range benchLanguages {
		b.Run(l.name, func(b *testing.B) {
			c := startWireClient(b)
			uri := "file:///bench/wire/" + l.uri[len("file:///bench/"):]
			version := 1
			c.open(b, uri, l.lang, version, samples.Prose(1_140_000))
			c.waitPublished(b, uri, version)
			var idle, after wirePercentiles
			for b.Loop() {
				f, id := c.hover(b, uri)
				began := time.Now()
				c.write(b, f)
				c.waitAnswer(b, id)
				idle = append(idle, time.Since(began))

				version++
				edit := c.change(b, uri, version, 5000)
				f, id = c.hover(b, uri)
				began = time.Now()
				c.write(b, edit, f)
				c.waitAnswer(b, id)
				after = append(after, time.Since(began))
				c.waitPublished(b, uri, version)
			}
			b.ReportMetric(ms(idle.at(50)), "idle-p50-ms")
			b.ReportMetric(ms(idle.at(99)), "idle-p99-ms")
			b.ReportMetric(ms(after.at(50)), "after-edit-p50-ms")
			b.ReportMetric(ms(after.at(99)), "after-edit-p99-ms")
			b.ReportMetric(float64(after.at(99))/float64(idle.at(99)), "p99-ratio")
		})
	}
}

// BenchmarkWirePathological: over stdio, a pathological document (a line
// of 100k "%", 40k URLs on one line, 20k silenced ones) beside ordinary text of the same size,
// alternately: didOpen to its publishDiagnostics, and a one-character edit
// at its start to the publication of that version.
func BenchmarkWirePathological(b *testing.B) {
	for _, doc := range pathologicalDocuments() {
		b.Run(doc.name, func(b *testing.B) {
			c := startWireClient(b)
			texts := [2][]byte{doc.text, samples.Prose(len(doc.text))}
			var open, edit [2]wirePercentiles
			n := 0
			for b.Loop() {
				for k, text := range texts {
					n++
					uri := fmt.Sprintf("file:///bench/wire/%d%s", n, uriExt(doc.lang))
					began := time.Now()
					c.open(b, uri, doc.lang, 1, text)
					c.waitPublished(b, uri, 1)
					open[k] = append(open[k], time.Since(began))
					began = time.Now()
					c.write(b, c.change(b, uri, 2, 0))
					c.waitPublished(b, uri, 2)
					edit[k] = append(edit[k], time.Since(began))
					c.notify(b, "textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": uri}})
				}
			}
			b.ReportMetric(ms(open[0].at(50)), "open-p50-ms")
			b.ReportMetric(ms(open[1].at(50)), "ordinary-open-p50-ms")
			b.ReportMetric(float64(open[0].at(50))/float64(open[1].at(50)), "open-ratio")
			b.ReportMetric(ms(edit[0].at(50)), "edit-p50-ms")
			b.ReportMetric(ms(edit[1].at(50)), "ordinary-edit-p50-ms")
			b.ReportMetric(float64(edit[0].at(50))/float64(edit[1].at(50)), "edit-ratio")
			b.ReportMetric(float64(edit[0].at(50))/float64(open[1].at(50)), "edit-vs-ordinary-open")
		})
	}
}
