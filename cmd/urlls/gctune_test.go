package main

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

func TestGCSettings(t *testing.T) {
	const mib = 1 << 20
	tests := []struct {
		name    string
		live    uint64
		percent int
		limit   int64
	}{
		{"before the first collection", 0, 400, 16 * mib},
		{"a run of small files", 2 * mib, 400, 16 * mib},
		{"at the edge of the largest percentage", 4 * mib, 400, 16 * mib},
		{"between", 8 * mib, 200, 20 * mib},
		{"Go's default from the headroom on", 16 * mib, 100, 36 * mib},
		{"a large file", 700 * mib, 100, 1404 * mib},
	}
	// After a large file in the same run (floor), the limit stays.
	if percent, limit := gcSettings(2*mib, 204*mib); percent != 400 || limit != 204*mib {
		t.Errorf("gcSettings(2 MiB, 204 MiB) = %d, %d; want 400, 204 MiB", percent, limit)
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			percent, limit := gcSettings(tc.live, 0)
			if percent != tc.percent || limit != tc.limit {
				t.Errorf("gcSettings(%d) = %d, %d; want %d, %d", tc.live, percent, limit, tc.percent, tc.limit)
			}
		})
	}
}

// TestGCSettingsBounds: what gctune.go promises of gcSettings, over live
// heaps from none to 4 GiB: the percentage between Go's 100 and
// gcMaxPercent, Go's 100 from gcHeadroom of live heap on; the limit at
// least gcHeadroom, and at least 4 MiB above the goal Go's default sets for
// the live heap (twice it), exactly gcHeadroom while that goal is below,
// with no floor; with one (a run that saw a larger heap), at least it.
func TestGCSettingsBounds(t *testing.T) {
	const mib = 1 << 20
	for live := uint64(0); live <= 4<<30; live = live*9/8 + 64<<10 {
		for _, floor := range []int64{0, gcHeadroom, 100 * mib, 10 << 30} {
			percent, limit := gcSettings(live, floor)
			if percent < 100 || percent > gcMaxPercent || live >= gcHeadroom && percent != 100 {
				t.Errorf("gcSettings(%d, %d): percent %d", live, floor, percent)
			}
			defaultGoal := 2 * int64(live)
			if limit < gcHeadroom || limit < defaultGoal+4*mib || limit < floor ||
				floor <= gcHeadroom && defaultGoal+4*mib <= gcHeadroom && limit != gcHeadroom {
				t.Errorf("gcSettings(%d, %d): limit %d, Go's default goal %d", live, floor, limit, defaultGoal)
			}
		}
	}
}

// TestTuneGC: a run sets the tuning and follows the live heap after each
// collection; the end of the last of overlapping runs puts back what was
// there; GOGC in the environment leaves the collector alone.
func TestTuneGC(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	before := debug.SetGCPercent(100)
	defer debug.SetGCPercent(before)
	limitBefore := debug.SetMemoryLimit(-1)

	end1 := tuneGC()
	end2 := tuneGC() // an overlapping run
	if p := gcPercent(); p < 100 || p > gcMaxPercent {
		t.Errorf("percent %d during a run", p)
	}
	waitTuned(t)
	end1()
	if p := debug.SetGCPercent(100); p == 100 {
		t.Errorf("the end of one of two runs put back the percentage")
	}
	end2()
	if p := debug.SetGCPercent(100); p != 100 {
		t.Errorf("percent %d after the runs, want 100", p)
	}
	if l := debug.SetMemoryLimit(-1); l != limitBefore {
		t.Errorf("memory limit %d after the runs, want %d", l, limitBefore)
	}
	// After the end, the sentinel stops: the percentage set stays.
	debug.SetGCPercent(100)
	runtime.GC()
	runtime.GC()
	time.Sleep(10 * time.Millisecond)
	if p := debug.SetGCPercent(100); p != 100 {
		t.Errorf("percent %d set after the tuning ended", p)
	}

	t.Setenv("GOGC", "100")
	end := tuneGC()
	if p := debug.SetGCPercent(100); p != 100 {
		t.Errorf("percent %d with GOGC=100 in the environment", p)
	}
	end()
}

// gcPercent returns the GOGC in force.
func gcPercent() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}

// TestTuneGCLimitHolds: the memory limit a run set for a large live heap
// stays when the heap is small again: a limit that fell back to
// gcHeadroom made the runtime collect at once (the freed memory still
// counted) and the next large file climb up again a collection at a time.
func TestTuneGCLimitHolds(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	end := tuneGC()
	defer end()
	const live = 48 << 20
	large := make([]byte, live)
	for i := range large {
		large[i] = byte(i) // touched: in use, as a file's text
	}
	waitTuned(t)
	high := debug.SetMemoryLimit(-1)
	runtime.KeepAlive(large)
	if high < 2*live {
		t.Fatalf("limit %d with %d bytes live", high, live)
	}
	large = nil
	waitTuned(t)
	if l := debug.SetMemoryLimit(-1); l < high {
		t.Errorf("limit %d once the large heap is gone, %d before", l, high)
	}
}

// waitTuned collects until the tuning has followed a collection.
func waitTuned(t *testing.T) {
	t.Helper()
	gcTuning.mu.Lock()
	cycles := gcTuning.tunedCycles
	gcTuning.mu.Unlock()
	deadline := time.Now().Add(10 * time.Second)
	for {
		runtime.GC()
		runtime.Gosched()
		gcTuning.mu.Lock()
		n := gcTuning.tunedCycles
		gcTuning.mu.Unlock()
		if n > cycles {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("no collection reached the tuning")
		}
		time.Sleep(time.Millisecond)
	}
}
