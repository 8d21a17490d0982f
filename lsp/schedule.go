package lsp

import (
	"context"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
)

// ordered is jsonrpc2.AsyncHandler with one more way out of the queue.
// Like it, it runs each message on a goroutine of its own, after the
// message before it has been answered, so that a request sees the changes
// sent before it and notifications apply in order. Unlike it, a handler may
// let the messages behind it go before it answers (release): a request that
// has taken the snapshot of its document waits for that document's
// analysis without making the requests about other documents wait too.
//
// Each message counts in busy from its arrival until it lets the messages
// behind it go: the analyses wait for that (quiet).
func ordered(handler jsonrpc2.Handler, busy *quiet) jsonrpc2.Handler {
	next := make(chan struct{})
	close(next)
	return func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
		wait := next
		next = make(chan struct{})
		var once sync.Once
		unlock := next
		busy.add()
		free := func() {
			once.Do(func() {
				close(unlock)
				busy.done()
			})
		}
		inner := reply
		reply = func(ctx context.Context, result any, err error) error {
			free()
			return inner(ctx, result, err)
		}
		ctx = context.WithValue(ctx, releaseKey{}, free)
		go func() {
			<-wait
			_ = handler(ctx, reply, req)
		}()
		return nil
	}
}

type releaseKey struct{}

// release lets the messages queued behind the request of ctx start (see
// ordered); it does nothing for a context without a queue.
func release(ctx context.Context) {
	if free, ok := ctx.Value(releaseKey{}).(func()); ok {
		free()
	}
}

// quiet tells the analyses when the server has no message to handle: the
// messages that came and have not yet been answered, or let the messages
// behind them go (release), are busy. An analysis starts only when none is
// (or after maxQuietWait), so that a request sent right behind a change,
// a hover above all, is answered on a processor of its own rather than
// beside the analysis that the change started (on two cores, beside it
// and the garbage collector's share of the other one): the analysis takes
// a few milliseconds, the request tens of microseconds. A request that
// waits for an analysis releases the queue first (current), so it never
// waits for itself.
type quiet struct {
	mu   sync.Mutex
	busy int
	idle chan struct{} // closed when busy is 0; nil while it is
}

// maxQuietWait bounds how long an analysis waits for the server to be
// quiet: a client that never stops sending still gets its diagnostics.
const maxQuietWait = 50 * time.Millisecond

func (q *quiet) add() {
	q.mu.Lock()
	q.busy++
	q.mu.Unlock()
}

func (q *quiet) done() {
	q.mu.Lock()
	q.busy--
	if q.busy == 0 && q.idle != nil {
		close(q.idle)
		q.idle = nil
	}
	q.mu.Unlock()
}

// wait returns when no message is busy, ctx is done or maxQuietWait has
// passed.
func (q *quiet) wait(ctx context.Context) {
	q.mu.Lock()
	if q.busy == 0 {
		q.mu.Unlock()
		return
	}
	if q.idle == nil {
		q.idle = make(chan struct{})
	}
	idle := q.idle
	q.mu.Unlock()
	t := time.NewTimer(maxQuietWait)
	defer t.Stop()
	select {
	case <-idle:
	case <-ctx.Done():
	case <-t.C:
	}
}
