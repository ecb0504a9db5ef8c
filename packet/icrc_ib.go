package packet

import (
	"encoding/binary"
	"hash/crc32"
)

// Native InfiniBand framing constants used by the ICRC (FACTS 1.2).
const (
	ibLRHLen        = 8    // LRH, FACTS 1.2 LRH [R6b]
	ibGRHLen        = 40   // GRH, FACTS 1.1 IPv6 header row [R2]
	ibLNHLocal      = 0x2  // LNH: BTH follows the LRH [R6b]
	ibLNHGlobal     = 0x3  // LNH: GRH follows the LRH [R6b]
	ibGRHNextIBA    = 0x1B // GRH NxtHdr announcing a BTH [R5]
	ibICRCMaxMasked = ibLRHLen + ibGRHLen + roceBTHLen
)

// ibICRCHeader validates the LRH (and GRH) at the start of pkt and returns
// whether a GRH is present and the length of the masked prefix (LRH, GRH,
// BTH).
func ibICRCHeader(pkt []byte) (global bool, n int, err error) {
	if len(pkt) < ibLRHLen {
		return false, 0, truncated("LRH", "header", ibLRHLen, len(pkt))
	}
	switch lnh := pkt[1] & 0x03; lnh {
	case ibLNHLocal:
		n = ibLRHLen + roceBTHLen
	case ibLNHGlobal:
		if len(pkt) < ibLRHLen+ibGRHLen {
			return false, 0, truncated("GRH", "header", ibLRHLen+ibGRHLen, len(pkt))
		}
		if v := pkt[ibLRHLen] >> 4; v != 6 {
			return false, 0, badField("GRH", "IPVer", BadVersion, uint64(v))
		}
		if nh := pkt[ibLRHLen+6]; nh != ibGRHNextIBA {
			return false, 0, badField("GRH", "NxtHdr", BadValue, uint64(nh))
		}
		global, n = true, ibLRHLen+ibGRHLen+roceBTHLen
	default:
		// Raw packets (LNH 0 and 1) carry no ICRC.
		return false, 0, badField("LRH", "LNH", BadValue, uint64(lnh))
	}
	if len(pkt) < n {
		return false, 0, truncated("BTH", "header", n, len(pkt))
	}
	return global, n, nil
}

// IBICRC returns the ICRC of a native InfiniBand packet. pkt runs from the
// first LRH byte to the last payload byte (pad included), without ICRC and
// VCRC. The CRC is the same CRC-32 as the RoCEv2 ICRC (FACTS 1.3), with the
// fields that switches and routers may change read as all ones:
//   - local packet (LNH 0x2, no GRH): the LRH VL nibble and the BTH Resv8a
//     byte (FECN, BECN and reserved bits);
//   - global packet (LNH 0x3): the whole LRH, the GRH TClass, FlowLabel and
//     HopLmt, and the BTH Resv8a byte.
//
// Source of the masks: IBTA Vol. 1 section 7.8.1 as quoted in the NVIDIA
// developer forum thread "How to calculate the CRC32 for BF2 RDMA?"
// (forums.developer.nvidia.com/t/290428) and T. Shanley, InfiniBand Network
// Architecture, ch. 25 "Packet CRCs" (local: the LRH except VL; global: the
// GRH IPVer, PayLen, NxtHdr, SGID and DGID, with no LRH field in the covered
// list, since routers rewrite the LRH). Masking the whole LRH in the global
// case is what RoCEv2 inherits as its 8 bytes of 0xFF (FACTS 1.3). No native
// IB packet with a known ICRC was found to test against.
//
// It returns a *FieldError for a short buffer, a raw packet (LNH 0 or 1), a
// GRH whose IPVer is not 6 or whose NxtHdr is not 0x1B.
func IBICRC(pkt []byte) (uint32, error) {
	global, n, err := ibICRCHeader(pkt)
	if err != nil {
		return 0, err
	}
	var hdr [ibICRCMaxMasked]byte
	copy(hdr[:], pkt[:n])
	bth := ibLRHLen
	if global {
		for i := range ibLRHLen {
			hdr[i] = 0xFF
		}
		g := hdr[ibLRHLen:]
		g[0] |= 0x0F                        // TClass, high nibble
		g[1], g[2], g[3] = 0xFF, 0xFF, 0xFF // TClass low nibble, FlowLabel
		g[7] = 0xFF                         // HopLmt
		bth += ibGRHLen
	} else {
		hdr[0] |= 0xF0 // VL
	}
	hdr[bth+4] = 0xFF // Resv8a
	reg := ieeeShort.register(^uint32(0), hdr[:n])
	if n == len(pkt) {
		return ^reg, nil // crc32.Update of nothing, without its dispatch
	}
	return crc32.Update(^reg, crc32.IEEETable, pkt[n:]), nil
}

// ibPacket trims pkt (from the first LRH byte, possibly followed by the VCRC)
// to LRH.PktLen*4 bytes, which run through the ICRC.
func ibPacket(pkt []byte) ([]byte, error) {
	_, n, err := ibICRCHeader(pkt)
	if err != nil {
		return nil, err
	}
	words := int(binary.BigEndian.Uint16(pkt[4:]) & 0x07FF)
	total := words * 4
	if total < n+ICRCLen {
		return nil, badField("LRH", "PktLen", BadLength, uint64(words))
	}
	if len(pkt) < total {
		return nil, truncated("ICRC", "packet", total, len(pkt))
	}
	return pkt[:total], nil
}

// PutIBICRC computes the ICRC of a native IB packet and writes it into the 4
// bytes that end LRH.PktLen*4, least-significant byte first as in RoCEv2
// (FACTS 1.3 [R2]; the same order for native IB is assumed, not confirmed
// from stored text). Bytes after PktLen*4 (the VCRC) are left alone.
func PutIBICRC(pkt []byte) error {
	p, err := ibPacket(pkt)
	if err != nil {
		return err
	}
	end := len(p) - ICRCLen
	c, err := IBICRC(p[:end])
	if err != nil {
		return err
	}
	binary.LittleEndian.PutUint32(p[end:], c)
	return nil
}

// CheckIBICRC verifies the ICRC of a native IB packet framed as for
// PutIBICRC. On a mismatch it returns a *FieldError with Problem BadChecksum
// and the ICRC found, read least-significant byte first, as Value.
func CheckIBICRC(pkt []byte) error {
	p, err := ibPacket(pkt)
	if err != nil {
		return err
	}
	end := len(p) - ICRCLen
	c, err := IBICRC(p[:end])
	if err != nil {
		return err
	}
	if got := binary.LittleEndian.Uint32(p[end:]); got != c {
		return badField("BTH", "ICRC", BadChecksum, uint64(got))
	}
	return nil
}
