package main

// recentCache is a map that forgets what has not been used lately: it
// holds the entries used since the last time limit new entries were
// added, and at most twice limit. A walk uses the entries of the
// directories it is in and of those just left (the workers check files a
// little behind it), so its memory does not grow with the tree, while a
// tree of any size is looked up in no more than again when an entry is
// forgotten. Its user locks it.
type recentCache[K comparable, V any] struct {
	limit    int
	cur, old map[K]V
}

func newRecentCache[K comparable, V any](limit int) *recentCache[K, V] {
	return &recentCache[K, V]{limit: limit, cur: make(map[K]V, limit)}
}

// get returns the entry of k, and whether there is one.
func (c *recentCache[K, V]) get(k K) (V, bool) {
	if v, ok := c.cur[k]; ok {
		return v, true
	}
	v, ok := c.old[k]
	if ok {
		c.put(k, v) // used again: kept
	}
	return v, ok
}

// put sets the entry of k.
func (c *recentCache[K, V]) put(k K, v V) {
	c.cur[k] = v
	if len(c.cur) >= c.limit {
		// Made at its full size: a map grown entry by entry rehashes
		// itself as it goes, 1.5% of a run of a tree.
		c.old, c.cur = c.cur, make(map[K]V, c.limit)
	}
}
