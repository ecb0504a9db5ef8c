package packet

import "strconv"

// DescIDs numbers the descriptors one device makes: the device's 24-bit
// identity and its own count, so that a packet's ID depends on who made
// it and in what order that device made its packets, not on the order in
// which the engine evaluated the devices (a partitioned run and a
// lockstep run of one fabric give every packet the same ID, where the
// pool's one count would not). Such an ID renders as #<owner>.<count>.
// The zero value leaves IDs as the pool gave them (DescPool.Get).
type DescIDs struct{ next uint64 }

// Bits of a DescIDs ID: the top bit marks it, the 24 below it hold the
// owner, the rest the owner's count from 1.
const (
	descOwnedBit   = 1 << 63
	descOwnerShift = 39
	descOwnerMask  = 1<<24 - 1
	descCountMask  = 1<<descOwnerShift - 1
)

// NewDescIDs numbers the descriptors of owner (its low 24 bits: a NIC's
// endpoint address).
func NewDescIDs(owner uint32) DescIDs {
	return DescIDs{next: descOwnedBit | uint64(owner&descOwnerMask)<<descOwnerShift}
}

// Number gives d, fresh from a pool, the owner's next ID, and returns it.
func (s *DescIDs) Number(d *Desc) *Desc {
	if s.next != 0 {
		s.next++
		d.ID = s.next
	}
	return d
}

// appendDescID renders an ID: #<owner>.<count> for one a DescIDs made,
// #<n> for the pool's.
func appendDescID(b []byte, id uint64) []byte {
	b = append(b, '#')
	if id&descOwnedBit == 0 {
		return strconv.AppendUint(b, id, 10)
	}
	b = strconv.AppendUint(b, id>>descOwnerShift&descOwnerMask, 10)
	b = append(b, '.')
	return strconv.AppendUint(b, id&descCountMask, 10)
}
