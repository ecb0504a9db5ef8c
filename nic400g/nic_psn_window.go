package nic400g

// psnWindowFull reports whether q's next new packet would fall beyond
// the receiver's PSN window of window packets, counted from q's oldest
// unacknowledged packet: the receiver tracks a window's worth of PSNs
// from the one it waits for (Config.RecvWindow, RecvWindow) and drops
// what lies beyond (rx_out_of_window), so a sender that ran that far
// ahead of a hole would only send what is dropped. Both ends take the
// window from the same configuration. A sender that tracks its packets
// in flight bounds them the same way (htsim's EQDS: at most 4096, FACTS
// 2.5 [R19]).
func (q *qpState) psnWindowFull(window int) bool {
	return len(q.unacked) > 0 && PSNDiff(PSN(q.nextPSN), PSN(q.unacked[0].psn)) >= int32(window)
}
