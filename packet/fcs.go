package packet

import "encoding/binary"

// FCSLen is the length of the Ethernet frame check sequence in bytes
// (FACTS 1.1 FCS row: ETH_FCS_LEN 4 [R76]).
const FCSLen = 4

// FCS returns the Ethernet frame check sequence of frame, which runs from the
// first byte of the destination MAC address to the last byte of the payload
// or pad, without preamble, SFD or the FCS itself. The value is CRC-32 (IEEE)
// (FACTS 1.1 FCS row [R76]); on the wire it is sent least-significant byte
// first, which PutFCS and AppendFCS do.
func FCS(frame []byte) uint32 { return CRC32IEEE(frame) }

// AppendFCS appends the 4 FCS bytes of frame (least-significant byte first,
// as on the wire) to dst and returns the extended slice. Passing frame as dst
// appends the FCS to the frame itself.
func AppendFCS(dst, frame []byte) []byte {
	return binary.LittleEndian.AppendUint32(dst, FCS(frame))
}

// PutFCS computes the FCS over frame[:len(frame)-4] and writes it into the
// last 4 bytes of frame. It returns a *FieldError (Truncated) if frame is
// shorter than the FCS.
func PutFCS(frame []byte) error {
	if len(frame) < FCSLen {
		return truncated("Ethernet", "FCS", FCSLen, len(frame))
	}
	n := len(frame) - FCSLen
	binary.LittleEndian.PutUint32(frame[n:], FCS(frame[:n]))
	return nil
}

// CheckFCS verifies a frame whose last 4 bytes are its FCS. It returns nil
// when they match, a *FieldError with Problem BadChecksum (Value: the FCS
// found on the wire, read least-significant byte first) when they do not,
// and Truncated when the frame is shorter than the FCS.
func CheckFCS(frame []byte) error {
	if len(frame) < FCSLen {
		return truncated("Ethernet", "FCS", FCSLen, len(frame))
	}
	n := len(frame) - FCSLen
	got := binary.LittleEndian.Uint32(frame[n:])
	if got != FCS(frame[:n]) {
		return badField("Ethernet", "FCS", BadChecksum, uint64(got))
	}
	return nil
}
