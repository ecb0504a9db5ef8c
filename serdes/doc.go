// Package serdes models the 112G PAM4 electrical layer under every NIC and
// switch port: lanes and lane groups, the exact PCS/FEC rate chain, alignment
// markers, the RS(544,514) "KP4" forward error correction code, per-lane error
// injection and the statistics that tie a pre-FEC bit error ratio to lost
// codewords.
//
// Numbers come from FACTS section 3 ("FACTS 3"); each exported name says which
// row and source it rests on, with the FACTS tag (S sourced, E derived, U
// recalled but not re-checked).
//
// # Rates
//
// Rates are exact rationals (Rat, Rate). A lane runs at 53.125 GBd PAM4 =
// 106.25 Gb/s (FACTS 3 [R23]); LaneGroup gathers 1, 2, 4 or 8 lanes into
// 100G, 200G, 400G or 800G ports. RateChain walks 100 Gb/s of MAC data through
// 64b/66b, 256b/257b transcoding and RS(544,514) and lands exactly on
// 106.25 Gb/s. Serializer turns bit counts into integer picoseconds and
// carries the remainder, so a link never drifts however many frames it sends.
// AMPlan accounts for alignment markers as bandwidth per period, paid for by
// removed idles. Interleave holds the 400GBASE-R two-codeword symbol
// interleave and its effect on fill latency and burst tolerance.
//
// # The codec
//
// Code is a Reed-Solomon code over GF(2^10) with the field polynomial
// x^10 + x^3 + 1 and generator roots alpha^0..alpha^(2t-1); RS544 returns the
// RS(544,514) instance. Code.Encode is systematic; Decoder corrects up to t
// symbol errors with syndromes, Berlekamp-Massey, Chien search and Forney, and
// flags words it cannot correct. Neither allocates per codeword. PackSymbols
// and UnpackSymbols move 10-bit symbols to and from bytes.
//
// The codec is checked against vectors made by an independent implementation,
// testdata/gen_rs_vectors.py (Python, polynomial long division and the
// Sugiyama/Euclid decoder), whose output testdata/rs544_vectors.txt is
// committed.
//
// # Errors and statistics
//
// LaneErrors injects bit errors on one lane: independent errors at a given
// BER sampled by geometric skipping, Gilbert-Elliott bursts, and lane
// failure. Every random draw comes from an RNG seeded by a uint64 (NewRNG,
// DeriveSeed), so runs are reproducible. CodecPath sends codewords through
// the real codec across lanes with injected errors and keeps FECCounters;
// HighSERMonitor raises the hi-SER alarm.
//
// Performance simulations use the statistical path instead of the codec:
// CodewordFailureProb gives the binomial tail of symbol errors per codeword,
// and FailureSampler draws codeword failures with that probability. Tests
// show the codec and the statistical path agree.
//
// # The physical link
//
// Wire computes when each frame crosses one direction of a link: first and
// last bit out at the port's exact MAC rate (preamble, frame and IPG, with
// the serializer's remainder carried between back-to-back frames), 5 ns/m
// of cable, and the receiver's codeword fill and FEC pipeline; it decides
// on the statistical path which frames an uncorrectable codeword hits, and
// applies lane failures from their time on. PhyLink runs a Wire as an
// rtlmodel component between a transmitting MAC and a receiving one and
// delivers each frame at the first receiver edge after it is decoded;
// RxMAC drops and counts frames with a bad FCS.
package serdes
