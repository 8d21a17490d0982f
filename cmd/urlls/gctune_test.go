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
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			percent, limit := gcSettings(tc.live)
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
// the live heap (twice it), exactly gcHeadroom while that goal is below.
func TestGCSettingsBounds(t *testing.T) {
	const mib = 1 << 20
	for live := uint64(0); live <= 4<<30; live = live*9/8 + 64<<10 {
		percent, limit := gcSettings(live)
		if percent < 100 || percent > gcMaxPercent || live >= gcHeadroom && percent != 100 {
			t.Errorf("gcSettings(%d): percent %d", live, percent)
		}
		defaultGoal := 2 * int64(live)
		if limit < gcHeadroom || limit < defaultGoal+4*mib || defaultGoal+4*mib <= gcHeadroom && limit != gcHeadroom {
			t.Errorf("gcSettings(%d): limit %d, Go's default goal %d", live, limit, defaultGoal)
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
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no collection reached the tuning")
		}
		time.Sleep(time.Millisecond)
	}
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
