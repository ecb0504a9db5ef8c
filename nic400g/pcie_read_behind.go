package nic400g

import "github.com/fabricmodel/fabricmodel/rtlmodel"

// readBehind reserves a read of n bytes requested at start the way read's
// loop of send calls does, in the case that is nearly every read of a busy
// NIC: nothing is reserved upstream after the requests' start, nor
// downstream after the first completion's. Then no gap can take any of its
// transfers: the requests go back to back behind the last upstream
// interval, and each request's completions start at the later of their
// turn-around time and the end of the completions before them. It returns
// false, having changed nothing, when that case does not hold.
//
// Requests and completions are not posted writes, so each obeys the
// ordering floor of its direction; the floor keeps their starts in order.
func (l *PCIeLink) readBehind(start rtlmodel.Time, n uint64) (pcieTime, bool) {
	c := &l.cfg
	up, down := &l.up, &l.down
	reqStart := up.floor(pcieTime{start, 0})
	if !up.behind(reqStart) {
		return pcieTime{}, false
	}
	reqBytes := uint64(c.MemOverhead())
	reqDur := up.dur(reqBytes)
	t := reqStart
	upLive := len(up.iv) > up.head
	if upLive && t.less(up.iv[len(up.iv)-1].end) {
		t = up.iv[len(up.iv)-1].end
	}
	turn := c.OneWay + c.CompleterLatency
	reqEnd := up.add(t, reqDur)
	if !down.behind(down.floor(pcieTime{reqEnd.ps + turn, reqEnd.frac})) {
		return pcieTime{}, false
	}

	mrrs := uint64(c.MRRS)
	cplOverhead := uint64(c.CplOverhead())
	// a full request's completions: their count, bytes and time, computed
	// once for all the full requests of the read
	fullCpls := c.requestCpls(mrrs)
	fullBytes := mrrs + fullCpls*cplOverhead
	var fullDur pcieTime
	if n >= mrrs {
		fullDur = down.dur(fullBytes)
	}
	var end pcieTime
	reqs := uint64(0)
	for left := n; left > 0; reqs++ {
		if reqs > 0 {
			reqEnd = up.add(reqEnd, reqDur)
		}
		cpls, bytes, dur := fullCpls, fullBytes, fullDur
		r := min(left, mrrs)
		left -= r
		if r != mrrs {
			cpls = c.requestCpls(r)
			bytes = r + cpls*cplOverhead
			dur = down.dur(bytes)
		}
		end = down.reserveBehind(down.floor(pcieTime{reqEnd.ps + turn, reqEnd.frac}), dur, cpls, bytes)
		if reqs == 0 && left > 0 && !fullDur.less(reqDur) && !end.less(down.postedEnd) {
			// The rest go back to back behind the first request's
			// completions: each request's completions turn around no later
			// than the end of those before (a request is no longer on the
			// wire than a full request's completions, and the latest posted
			// write ended before), so the loop would join each to the last
			// interval. One reservation of their sum does the same: the
			// times are exact fractions.
			fulls, part := left/mrrs, left%mrrs
			rest, restCpls := fulls, fulls*fullCpls
			if part > 0 {
				rest++
				restCpls += c.requestCpls(part)
			}
			restBytes := left + restCpls*cplOverhead
			end = down.reserveBehind(end, down.dur(restBytes), restCpls, restBytes)
			reqEnd = up.add(reqEnd, up.dur(rest*reqBytes))
			reqs += 1 + rest
			break
		}
	}
	up.reserveBehind(t, pcieSub(reqEnd, t, up.div), reqs, reqs*reqBytes)
	return end, true
}

// reserveBehind reserves l from start, or from the end of the last live
// interval if later, joining that interval when they touch: send's
// reservation for a transfer that is not a posted write when behind(start)
// holds and start has its floor. It returns the end.
func (d *pcieDir) reserveBehind(start, l pcieTime, tlps, n uint64) pcieTime {
	t := start
	k := len(d.iv) - 1
	live := k >= d.head
	if live && t.less(d.iv[k].end) {
		t = d.iv[k].end
	}
	end := d.add(t, l)
	d.tlps += tlps
	d.bytes += n
	if d.last.less(end) {
		d.last = end
	}
	if live && d.iv[k].end == t {
		d.iv[k].end = end
	} else {
		d.iv = append(d.iv, pcieSpan{t, end})
	}
	return end
}

// floor returns the start of a transfer that is not a posted write,
// requested at start, under the ordering rule: no earlier than the end of
// the latest posted write when requested at or after that write's request.
func (d *pcieDir) floor(start pcieTime) pcieTime {
	if !start.less(d.postedReq) && start.less(d.postedEnd) {
		return d.postedEnd
	}
	return start
}

// behind reports whether a transfer starting at start (its floor applied)
// goes after every interval reserved so far: no live interval starts
// later, so there is no gap at or after start to search.
func (d *pcieDir) behind(start pcieTime) bool {
	k := len(d.iv) - 1
	return k < d.head || !start.less(d.iv[k].start)
}

// pcieSub returns a - b (a not before b) for times of denominator div.
func pcieSub(a, b pcieTime, div uint64) pcieTime {
	if a.frac >= b.frac {
		return pcieTime{a.ps - b.ps, a.frac - b.frac}
	}
	return pcieTime{a.ps - b.ps - 1, a.frac + div - b.frac}
}
