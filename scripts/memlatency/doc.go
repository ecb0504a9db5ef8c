//go:build linux

// Command memlatency measures the machine's load latency by working-set
// size: for each size it maps that many bytes (marked for transparent huge
// pages, as `fabricmodel run` marks its heap), links every 64-byte line
// of them into one cycle in random order, and follows the cycle, one
// dependent load at a time. The nanoseconds per load step up where the
// working set outgrows each cache: what it prints near a size is what a
// model touching that much state between two visits pays per line it
// cannot prefetch. On a shared machine the last level's share and the
// memory's latency move with the neighbours' load, so run it beside the
// timings it is to explain. With -small-pages the mappings are marked
// against huge pages instead, which shows what a miss in the TLB adds.
// With -first-touch it times instead the first write to every 4 KB page
// of a fresh mapping of each size: what the page faults of memory a run
// allocates cost, in huge pages or (-small-pages) small ones.
//
//	go run ./scripts/memlatency [-mb 1,2,4,8,16,32,64] [-loads 5000000] [-seed 1] [-small-pages] [-first-touch]
package main
