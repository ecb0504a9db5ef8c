//go:build linux

package main

import (
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// lineBytes is the cache line of x86-64 and most arm64 cores.
const lineBytes = 64

func main() {
	sizes := flag.String("mb", "1,2,4,8,16,32,64", "working-set sizes in MiB (1 to 4096), comma-separated")
	loads := flag.Int("loads", 5_000_000, "dependent loads timed at each size (after one pass to warm it)")
	seed := flag.Uint64("seed", 1, "seed of the random order of the lines")
	small := flag.Bool("small-pages", false, "mark the mappings against transparent huge pages (MADV_NOHUGEPAGE)")
	touch := flag.Bool("first-touch", false, "time the first write to each 4 KB page of a fresh mapping instead of loads")
	flag.Parse()
	mbs, err := parseSizes(*sizes)
	if err == nil && *loads < 1 {
		err = fmt.Errorf("-loads %d: must be at least 1", *loads)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "memlatency:", err)
		os.Exit(2)
	}
	if *touch {
		fmt.Printf("%10s  %14s\n", "MiB", "ms first touch")
		for _, mb := range mbs {
			d, err := firstTouch(mb<<20, *small)
			if err != nil {
				fmt.Fprintf(os.Stderr, "memlatency: %d MiB: %v\n", mb, err)
				os.Exit(1)
			}
			fmt.Printf("%10d  %14.1f\n", mb, float64(d.Microseconds())/1000)
		}
		return
	}
	fmt.Printf("%10s  %12s\n", "MiB", "ns per load")
	for _, mb := range mbs {
		ns, err := chase(mb<<20, *loads, *seed, *small)
		if err != nil {
			fmt.Fprintf(os.Stderr, "memlatency: %d MiB: %v\n", mb, err)
			os.Exit(1)
		}
		fmt.Printf("%10d  %12.1f\n", mb, ns)
	}
}

// parseSizes reads a comma-separated list of positive MiB counts.
func parseSizes(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 || n > 1<<12 {
			return nil, fmt.Errorf("-mb: %q is not a size from 1 to 4096 MiB", f)
		}
		out = append(out, n)
	}
	if len(out) == 0 {
		return nil, errors.New("-mb: no sizes")
	}
	return out, nil
}

// mapFor maps bytes of fresh anonymous memory marked for huge pages, or
// against them when small: a hint, as in fabricmodel run; where it is
// refused the pages are the system's default.
func mapFor(bytes int, small bool) ([]byte, error) {
	mem, err := unix.Mmap(-1, 0, bytes, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANON)
	if err != nil {
		return nil, err
	}
	advice := unix.MADV_HUGEPAGE
	if small {
		advice = unix.MADV_NOHUGEPAGE
	}
	_ = unix.Madvise(mem, advice)
	return mem, nil
}

// chase maps bytes (for huge pages unless small), links its lines into
// one random cycle and returns the nanoseconds per load of following it
// loads times.
func chase(bytes, loads int, seed uint64, small bool) (float64, error) {
	mem, err := mapFor(bytes, small)
	if err != nil {
		return 0, err
	}
	defer unix.Munmap(mem)
	at := linkCycle(mem, seed)
	follow := func(n int) {
		for range n {
			at = next(mem, at)
		}
	}
	follow(len(mem) / lineBytes) // one pass: the pages are mapped and the caches hold what fits
	start := time.Now()
	follow(loads)
	elapsed := time.Since(start)
	if at >= uint64(bytes) {
		return 0, errors.New("the cycle left the mapping") // keeps the loads live
	}
	return float64(elapsed.Nanoseconds()) / float64(loads), nil
}

// firstTouch maps bytes (for huge pages unless small) and returns the
// time taken to write one byte into each of its 4 KB pages: the page
// faults a program pays where it first touches memory it allocated.
func firstTouch(bytes int, small bool) (time.Duration, error) {
	mem, err := mapFor(bytes, small)
	if err != nil {
		return 0, err
	}
	defer unix.Munmap(mem)
	start := time.Now()
	touchPages(mem)
	return time.Since(start), nil
}

// pageBytes is the base page size on x86-64 and on arm64 as Linux
// usually configures it: the unit of a first-touch fault.
const pageBytes = 4096

// touchPages writes one byte into each pageBytes page of mem and returns
// how many pages it wrote.
func touchPages(mem []byte) int {
	n := 0
	for i := 0; i < len(mem); i += pageBytes {
		mem[i] = 1
		n++
	}
	return n
}

// linkCycle writes into the first bytes of each 64-byte line of mem the
// offset of the next line of one cycle through all of them, in an order
// drawn from seed, and returns the offset of a line of it.
func linkCycle(mem []byte, seed uint64) uint64 {
	lines := len(mem) / lineBytes
	order := make([]int, lines)
	for i := range order {
		order[i] = i
	}
	rng := rand.New(rand.NewPCG(seed, uint64(len(mem))))
	rng.Shuffle(lines, func(i, j int) { order[i], order[j] = order[j], order[i] })
	for i, l := range order {
		*(*uint64)(unsafe.Pointer(&mem[l*lineBytes])) = uint64(order[(i+1)%lines] * lineBytes)
	}
	return uint64(order[0] * lineBytes)
}

// next returns the offset the line at offset at holds.
func next(mem []byte, at uint64) uint64 { return *(*uint64)(unsafe.Pointer(&mem[at])) }
