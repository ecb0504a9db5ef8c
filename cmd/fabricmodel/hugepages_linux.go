package main

import (
	"bufio"
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync"

	"golang.org/x/sys/unix"
)

// hugePageBytes is the size of a transparent huge page on x86-64 and
// arm64 with 4 KB base pages.
const hugePageBytes = 2 << 20

// heapAhead is the heap the run maps before it builds the model, so that
// the model's state lands in mappings marked for huge pages.
const heapAhead = 1 << 30

var (
	hugePagesOnce   sync.Once
	hugePagesMarked uint64
	hugePagesErr    error
	heapBallast     []byte
)

// preferHugePages makes the Go heap's pages huge where the system's
// transparent huge page setting is "madvise" (as well as "always"): it
// has the runtime map heapAhead bytes of heap (a large allocation, never
// touched, so it takes no memory), frees them, and marks every anonymous
// read-write mapping MADV_HUGEPAGE. The model built next is allocated in
// those mappings, and each first touch of 2 MB of them faults in a huge
// page. A fabric of a thousand devices reads a few lines of each device's
// state per window across hundreds of megabytes: with 4 KB pages nearly
// every such line also misses the TLB. It is a hint: the model's results
// do not depend on it, and where the kernel refuses, the run goes on with
// the pages it gets. It returns the bytes marked; a process does it once.
func preferHugePages() (uint64, error) {
	hugePagesOnce.Do(func() { hugePagesMarked, hugePagesErr = markHeapForHugePages() })
	return hugePagesMarked, hugePagesErr
}

// markHeapForHugePages is preferHugePages' work.
func markHeapForHugePages() (uint64, error) {
	heapBallast = make([]byte, heapAhead)
	heapBallast = nil
	runtime.GC()
	f, err := os.Open("/proc/self/maps")
	if err != nil {
		return 0, err
	}
	defer f.Close()
	var marked uint64
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// start-end perms offset dev inode [path], where an anonymous
		// mapping has no path or, on kernels that name them (as the Go
		// runtime does its heap), "[anon: name]"
		fields := strings.Fields(sc.Text())
		if len(fields) < 5 || fields[1] != "rw-p" || len(fields) > 5 && !strings.HasPrefix(fields[5], "[anon:") {
			continue
		}
		var start, end uintptr
		if _, err := fmt.Sscanf(fields[0], "%x-%x", &start, &end); err != nil {
			continue
		}
		start = (start + hugePageBytes - 1) &^ (hugePageBytes - 1)
		end &^= hugePageBytes - 1
		if end <= start {
			continue
		}
		// by address: the range is the process's own mapping, not a Go object
		if _, _, errno := unix.Syscall(unix.SYS_MADVISE, start, end-start, unix.MADV_HUGEPAGE); errno == 0 {
			marked += uint64(end - start)
		}
	}
	return marked, sc.Err()
}
