package packet

// SES header sizes (FACTS 2.6 [R21]; sizes E from the ses.h field lists).
const (
	// SESCommonLen is the common part of every SES request header.
	SESCommonLen = 12
	// SESSmallLen is the small request header: common + buffer_offset.
	SESSmallLen = 20
	// SESStandardLen is the standard request header.
	SESStandardLen = 44
)

// SES header types named by the PDS next-header field (FACTS 2.6 [R21]).
const (
	SESHdrNone              uint8 = 0
	SESHdrRequestSmall      uint8 = 1
	SESHdrRequestMedium     uint8 = 2
	SESHdrRequestStd        uint8 = 3
	SESHdrResponse          uint8 = 4
	SESHdrResponseData      uint8 = 5
	SESHdrResponseDataSmall uint8 = 6
)

// SES request opcodes, the 6-bit opcode field (FACTS 2.6 [R21]).
const (
	SESOpNoOp         uint8 = 0x00
	SESOpWrite        uint8 = 0x01
	SESOpRead         uint8 = 0x02
	SESOpAtomic       uint8 = 0x03
	SESOpFetchAtomic  uint8 = 0x04
	SESOpSend         uint8 = 0x05
	SESOpRendezvous   uint8 = 0x06
	SESOpDatagramSend uint8 = 0x07
	SESOpTaggedSend   uint8 = 0x09
)

// SESCommon is the 12-byte common part of a SES request (FACTS 2.6 [R21]):
//
//	rsvd 2 | opcode 6 | version 2 | dc | ie | rel | hd | eom | som
//	message_id 16 | ri_generation 8 | job_id 24
//	rsvd 4 | pid_on_fep 12 | rsvd 4 | resource_index 12
type SESCommon struct {
	Rsvd1              uint8 // 2 bits
	Opcode             uint8 // 6 bits
	Version            uint8 // 2 bits
	DeliveryComplete   bool
	InitiatorError     bool
	RelativeAddressing bool
	HdrDataPresent     bool
	EOM                bool // end of message
	SOM                bool // start of message
	MessageID          uint16
	RIGeneration       uint8
	JobID              uint32 // 24 bits
	Rsvd2              uint8  // 4 bits
	PIDOnFEP           uint16 // 12 bits
	Rsvd3              uint8  // 4 bits
	ResourceIndex      uint16 // 12 bits
}

var sesLayout = []span{{0, "Opcode"}, {1, "Version"}, {2, "MessageID"}, {4, "RIGeneration"}, {5, "JobID"},
	{8, "PIDOnFEP"}, {10, "ResourceIndex"}, {12, "BufferOffset"}, {20, "Initiator"}, {24, "MemoryKey"},
	{32, "HeaderData"}, {40, "RequestLength"}}

func (h *SESCommon) put(b []byte, header string) error {
	for _, f := range [...]struct {
		name string
		v    uint64
		bits uint
	}{{"Rsvd1", uint64(h.Rsvd1), 2}, {"Opcode", uint64(h.Opcode), 6}, {"Version", uint64(h.Version), 2},
		{"JobID", uint64(h.JobID), 24}, {"Rsvd2", uint64(h.Rsvd2), 4}, {"PIDOnFEP", uint64(h.PIDOnFEP), 12},
		{"Rsvd3", uint64(h.Rsvd3), 4}, {"ResourceIndex", uint64(h.ResourceIndex), 12}} {
		if err := tooWide(header, f.name, f.v, f.bits); err != nil {
			return err
		}
	}
	b[0] = h.Rsvd1<<6 | h.Opcode
	b[1] = h.Version<<6 | uint8(b2u(h.DeliveryComplete))<<5 | uint8(b2u(h.InitiatorError))<<4 |
		uint8(b2u(h.RelativeAddressing))<<3 | uint8(b2u(h.HdrDataPresent))<<2 | uint8(b2u(h.EOM))<<1 | uint8(b2u(h.SOM))
	be.PutUint16(b[2:], h.MessageID)
	b[4] = h.RIGeneration
	put24(b[5:], h.JobID)
	be.PutUint16(b[8:], uint16(h.Rsvd2)<<12|h.PIDOnFEP)
	be.PutUint16(b[10:], uint16(h.Rsvd3)<<12|h.ResourceIndex)
	return nil
}

func (h *SESCommon) get(b []byte) {
	h.Rsvd1 = b[0] >> 6
	h.Opcode = b[0] & 0x3F
	h.Version = b[1] >> 6
	h.DeliveryComplete = b[1]&(1<<5) != 0
	h.InitiatorError = b[1]&(1<<4) != 0
	h.RelativeAddressing = b[1]&(1<<3) != 0
	h.HdrDataPresent = b[1]&(1<<2) != 0
	h.EOM = b[1]&(1<<1) != 0
	h.SOM = b[1]&1 != 0
	h.MessageID = be.Uint16(b[2:])
	h.RIGeneration = b[4]
	h.JobID = get24(b[5:])
	w := be.Uint16(b[8:])
	h.Rsvd2, h.PIDOnFEP = uint8(w>>12), w&0x0FFF
	w = be.Uint16(b[10:])
	h.Rsvd3, h.ResourceIndex = uint8(w>>12), w&0x0FFF
}

// SESStandard is the 44-byte SES standard request header (FACTS 2.6 [R21]):
// the common part, buffer_offset 64b, initiator 32b, memory_key or
// match_bits 64b, header_data 64b (on a start-of-message packet) or
// {rsvd 16, rsvd 2, payload_length 14, message_offset 32}, request_length 32b.
type SESStandard struct {
	SESCommon
	BufferOffset  uint64
	Initiator     uint32
	MemoryKey     uint64 // memory key, or match bits of a tagged send
	HeaderData    uint64 // raw word; see PayloadLength and MessageOffset
	RequestLength uint32
}

// PayloadLength is the 14-bit payload length carried in the HeaderData
// word of a packet that does not start a message.
func (h *SESStandard) PayloadLength() uint16 { return uint16(h.HeaderData>>32) & 0x3FFF }

// MessageOffset is the 32-bit message offset carried in the HeaderData
// word of a packet that does not start a message.
func (h *SESStandard) MessageOffset() uint32 { return uint32(h.HeaderData) }

// SetPayloadOffset fills HeaderData with a payload length (14 bits,
// masked) and a message offset, for packets after the first of a message.
func (h *SESStandard) SetPayloadOffset(payloadLen uint16, msgOffset uint32) {
	h.HeaderData = uint64(payloadLen&0x3FFF)<<32 | uint64(msgOffset)
}

// Encode writes the header into b.
func (h *SESStandard) Encode(b []byte) (int, error) {
	if len(b) < SESStandardLen {
		return 0, short("SESStandard", SESStandardLen, len(b))
	}
	if err := h.put(b, "SESStandard"); err != nil {
		return 0, err
	}
	be.PutUint64(b[12:], h.BufferOffset)
	be.PutUint32(b[20:], h.Initiator)
	be.PutUint64(b[24:], h.MemoryKey)
	be.PutUint64(b[32:], h.HeaderData)
	be.PutUint32(b[40:], h.RequestLength)
	return SESStandardLen, nil
}

// Decode reads the header from the start of b.
func (h *SESStandard) Decode(b []byte) error {
	if len(b) < SESStandardLen {
		return cut("SESStandard", sesLayout, SESStandardLen, len(b))
	}
	h.get(b)
	h.BufferOffset = be.Uint64(b[12:])
	h.Initiator = be.Uint32(b[20:])
	h.MemoryKey = be.Uint64(b[24:])
	h.HeaderData = be.Uint64(b[32:])
	h.RequestLength = be.Uint32(b[40:])
	return nil
}

// SESSmall is the 20-byte SES small request header: the common part and a
// 64-bit buffer_offset (FACTS 1.4, 2.6 [R21]).
type SESSmall struct {
	SESCommon
	BufferOffset uint64
}

// Encode writes the header into b.
func (h *SESSmall) Encode(b []byte) (int, error) {
	if len(b) < SESSmallLen {
		return 0, short("SESSmall", SESSmallLen, len(b))
	}
	if err := h.put(b, "SESSmall"); err != nil {
		return 0, err
	}
	be.PutUint64(b[12:], h.BufferOffset)
	return SESSmallLen, nil
}

// Decode reads the header from the start of b.
func (h *SESSmall) Decode(b []byte) error {
	if len(b) < SESSmallLen {
		return cut("SESSmall", sesLayout, SESSmallLen, len(b))
	}
	h.get(b)
	h.BufferOffset = be.Uint64(b[12:])
	return nil
}
