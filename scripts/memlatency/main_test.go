//go:build linux

package main

import (
	"slices"
	"strings"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
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
	// every page of a fresh mapping is in memory after touchPages, and
	// none before it
	mem, err := mapFor(1<<20, true)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Munmap(mem)
	resident := func() int {
		vec := make([]byte, len(mem)/pageBytes)
		_, _, errno := unix.Syscall(unix.SYS_MINCORE, uintptr(unsafe.Pointer(&mem[0])), uintptr(len(mem)), uintptr(unsafe.Pointer(&vec[0])))
		if errno != 0 {
			t.Fatal("mincore:", errno)
		}
		n := 0
		for _, v := range vec {
			n += int(v & 1)
		}
		return n
	}
	if n := resident(); n != 0 {
		t.Fatalf("%d pages of a fresh mapping are in memory before the first touch", n)
	}
	if n := touchPages(mem); n != len(mem)/pageBytes {
		t.Errorf("touchPages wrote %d pages of %d", n, len(mem)/pageBytes)
	}
	if n := resident(); n != len(mem)/pageBytes {
		t.Errorf("%d of %d pages are in memory after the first touch", n, len(mem)/pageBytes)
	}
}
