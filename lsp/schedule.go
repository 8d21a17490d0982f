package lsp

import (
	"context"
	"sync"

	"go.lsp.dev/jsonrpc2"
)

// ordered is jsonrpc2.AsyncHandler with one more way out of the queue.
// Like it, it runs each message on a goroutine of its own, after the
// message before it has been answered, so that a request sees the changes
// sent before it and notifications apply in order. Unlike it, a handler may
// let the messages behind it go before it answers (release): a request that
// has taken the snapshot of its document waits for that document's
// analysis without making the requests about other documents wait too.
func ordered(handler jsonrpc2.Handler) jsonrpc2.Handler {
	next := make(chan struct{})
	close(next)
	return func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
		wait := next
		next = make(chan struct{})
		var once sync.Once
		unlock := next
		free := func() { once.Do(func() { close(unlock) }) }
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
