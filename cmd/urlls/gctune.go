package main

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// The garbage collector of a check run. A run of a tree holds little at
// once (a few files' text and findings, about 2 MiB live, whatever the size
// of the tree) and allocates a lot (the text of each file, its candidates
// and findings, let go of as soon as the file is printed), so that Go's
// default, a collection each time the heap doubles with a floor
// of 4 MiB, collected about every 6 ms: 28 times in 30 MB of real docs, 15–20%
// of the run's time on two cores, with the stop of every worker each
// time. While the live heap is small, the run lets the heap grow to about
// 16 MiB between collections instead (GOGC 400, whose floor is 16 MiB),
// under a memory limit of 16 MiB (runtime/debug.SetMemoryLimit), which also
// makes the runtime give back the memory it freed: the peak memory stays
// independent of the number of files (issue 12: 64 copies of a tree within
// 1.5x one copy). As the live heap grows (a large file's text and
// findings), the percentage falls back to Go's 100 and the limit rises 4
// MiB above the goal Go's default would set for it, so that the limit
// never makes the collector run all the time.
//
// The settings follow the live heap after each collection (a finalizer),
// not during it: until then those of the collection before hold, and when
// the live heap outgrows the limit (a large file read at once), the
// runtime collects again at once. The limit does not fall in a run: when
// it fell back to 16 MiB after a large file, the runtime collected again
// at once to get under it (the freed memory of the large file counts until
// it is given back), and each following large file climbed up a
// collection at a time. Held, the limit binds no more after a run's first
// large file (unless a larger one comes), which is still collected more
// often than Go's default would collect it; the limit rises with the live
// heap only, not with the number of files. Measured on 65 MB of four
// URL-dense files of 16.5 MB and 300 small ones: 14–17 collections where GOGC=100 made 9–12 (23–26 with a
// limit that fell); peak memory 186–232 MiB where GOGC=100 took 225–265
// (159–204 with a limit that fell, which gave memory back between the
// large files); CPU time 1.97 s where GOGC=100 took 2.02 (2.25 with a
// limit that fell, the system's share twice as large). On 11 copies of the
// real-world corpus, 21–25 collections either way where GOGC=100 made
// 34–41, in the same memory (20 MiB).
//
// GOGC or GOMEMLIMIT in the environment turn the tuning off: the user
// decided.

// gcHeadroom is what the heap may grow by between collections while the
// live heap is small.
const gcHeadroom = 16 << 20

// gcMaxPercent bounds the GOGC of a small live heap; 100 is Go's default.
const gcMaxPercent = 400

// gcSettings returns the GOGC percentage and the memory limit for a live
// heap of live bytes in a run whose limit was floor: percent =
// gcHeadroom/live in percent, between 100 and gcMaxPercent, and a limit of
// gcHeadroom, or 4 MiB above the goal that Go's default would set (twice
// the live heap) when that is larger, or floor when that is larger still:
// the limit binds while the heap is small, is never below the default's
// goal for the live heap it is set for (which the heap may have outgrown
// by the time it is set: see above), and never falls in a run.
func gcSettings(live uint64, floor int64) (percent int, limit int64) {
	percent = gcMaxPercent
	if live > 0 {
		percent = int(min(max(gcHeadroom*100/live, 100), gcMaxPercent))
	}
	return percent, max(gcHeadroom, 2*int64(live)+4<<20, floor)
}

// gcTuning is the tuning in force: runs of check may overlap (tests run
// the command in-process), and the first to start sets it, the last to
// end puts back what was there.
var gcTuning struct {
	mu           sync.Mutex
	runs         int    // the runs going on
	cycle        uint64 // bumped at each start: a sentinel of an older one stops
	percent      int    // what was in force before the first run
	limit        int64
	tunedCycles  int   // the collections after which the settings were made again (tests)
	tunedPercent int   // the last percentage set (tests)
	tunedLimit   int64 // the last limit set: the run's next is no lower
}

// tuneGC tunes the garbage collector for a check run, unless the
// environment sets GOGC or GOMEMLIMIT, and returns the function that ends
// the tuning.
func tuneGC() (end func()) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	t := &gcTuning
	t.mu.Lock()
	defer t.mu.Unlock()
	t.runs++
	if t.runs == 1 {
		t.cycle++
		percent, limit := gcSettings(liveHeap(), 0)
		t.percent = debug.SetGCPercent(percent)
		t.limit = debug.SetMemoryLimit(limit)
		t.tunedPercent, t.tunedLimit = percent, limit
		armGCSentinel(t.cycle)
	}
	return func() {
		t.mu.Lock()
		defer t.mu.Unlock()
		t.runs--
		if t.runs == 0 {
			t.cycle++ // the sentinel's next call stops
			debug.SetGCPercent(t.percent)
			debug.SetMemoryLimit(t.limit)
		}
	}
}

// gcSentinel is garbage from birth: its finalizer runs after each
// collection that finds it, makes the settings again for the live heap
// then, and sets up the next sentinel. It holds a pointer and is larger
// than 16 bytes so that it is an object of its own (the tiny allocator
// packs smaller pointer-free ones together, and frees them late).
type gcSentinel struct {
	cycle uint64
	_     *byte
	_     [2]uint64
}

func armGCSentinel(cycle uint64) {
	runtime.SetFinalizer(&gcSentinel{cycle: cycle}, onGC)
}

// onGC runs in the finalizer goroutine after a collection.
func onGC(s *gcSentinel) {
	t := &gcTuning
	t.mu.Lock()
	defer t.mu.Unlock()
	if s.cycle != t.cycle {
		return // the tuning ended (or ended and started again with its own sentinel)
	}
	percent, limit := gcSettings(liveHeap(), t.tunedLimit)
	debug.SetGCPercent(percent)
	debug.SetMemoryLimit(limit)
	t.tunedCycles++
	t.tunedPercent, t.tunedLimit = percent, limit
	armGCSentinel(s.cycle)
}

// liveHeap returns the bytes of the heap that the last collection found
// live (0 before the first).
func liveHeap() uint64 {
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(sample)
	if sample[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return sample[0].Value.Uint64()
}
