//go:build linux

package main

import (
	"slices"
	"strings"
	"testing"
)

func TestParseSizesTakesAListAndNamesWhatItRefuses(t *testing.T) {
	got, err := parseSizes(" 1,8 ,64")
	if err != nil || !slices.Equal(got, []int{1, 8, 64}) {
		t.Fatalf("parseSizes(\" 1,8 ,64\") = %v, %v; want [1 8 64]", got, err)
	}
	for _, bad := range []string{"", "0", "-1", "4097", "8,x", "1,,2"} {
		_, err := parseSizes(bad)
		if err == nil || !strings.HasPrefix(err.Error(), "-mb: ") {
			t.Errorf("parseSizes(%q) = %v; want an error naming -mb", bad, err)
		}
	}
}

// The cycle chase follows must visit every line once before it repeats:
// a shorter cycle would measure a smaller working set than asked.
func TestLinkCycleVisitsEveryLineOnce(t *testing.T) {
	mem := make([]byte, 1<<20)
	lines := len(mem) / lineBytes
	start := linkCycle(mem, 7)
	seen := make([]bool, lines)
	at := start
	for i := range lines {
		if at%lineBytes != 0 || at >= uint64(len(mem)) {
			t.Fatalf("step %d: offset %d is not a line of the buffer", i, at)
		}
		if seen[at/lineBytes] {
			t.Fatalf("step %d: line %d again, after %d of %d lines", i, at/lineBytes, i, lines)
		}
		seen[at/lineBytes] = true
		at = next(mem, at)
	}
	if at != start {
		t.Errorf("after all %d lines the cycle is at %d, not back at %d", lines, at, start)
	}
}

func TestChaseTimesBothPageSizes(t *testing.T) {
	for _, small := range []bool{false, true} {
		ns, err := chase(1<<20, 10_000, 1, small)
		if err != nil || ns <= 0 {
			t.Errorf("chase of 1 MiB, small pages %v: %.3f ns per load, %v", small, ns, err)
		}
	}
}

func TestFirstTouchWritesEveryPage(t *testing.T) {
	for _, small := range []bool{false, true} {
		d, err := firstTouch(4<<20, small)
		if err != nil || d <= 0 {
			t.Errorf("first touch of 4 MiB, small pages %v: %v, %v", small, d, err)
		}
	}
}
