package packet

import "fmt"

// Audit checks the free descriptors for what Get's partial clearing relies
// on: the header bytes after HdrLen are zero, and a tail not handed out
// by EditTail is zero. It returns how many free descriptors have a tail in
// use, so that a test can see the tails were exercised. It is for tests.
func (pl *DescPool) Audit() (tails int, err error) {
	for _, d := range pl.free {
		for i := int(d.HdrLen); i < HeaderCap; i++ {
			if d.Hdr[i] != 0 {
				return tails, fmt.Errorf("descriptor %d: header byte %d is %#x past HdrLen %d", d.ID, i, d.Hdr[i], d.HdrLen)
			}
		}
		switch {
		case d.tailUsed:
			tails++
		case d.tail != DescTail{}:
			return tails, fmt.Errorf("descriptor %d: tail written without EditTail: %+v", d.ID, d.tail)
		}
	}
	return tails, nil
}
