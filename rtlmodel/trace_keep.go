package rtlmodel

// KeepTransfers limits what the transfer hooks (Hooks.OnTransfer) are told
// of on every link of item type T built so far, and of the items of type T
// components hand on to themselves (Engine.NoteTransfer), to the items keep
// reports true for. The others go by as they would with no hooks at all:
// delivered when sent, not staged for the commit nor reported, so a listener that
// follows a few items of a large model (a TraceRecorder keeping one flow's
// frames) costs the run about what those items cost. Links of other item
// types are reported in full, as before. Called again for a type, as
// each of several listeners does, it keeps what any of the calls keeps.
// It returns the number of links it applies to. Call it after the model
// is built and before the run; keep must be a pure function of the item.
func KeepTransfers[T any](e *Engine, keep func(T) bool) int {
	n := 0
	for _, li := range e.links {
		if l, ok := li.(*Link[T]); ok {
			if prev := l.traceKeep; prev != nil {
				l.traceKeep = func(v T) bool { return prev(v) || keep(v) }
			} else {
				l.traceKeep = keep
			}
			n++
		}
	}
	e.noteKeeps = append(e.noteKeeps, func(item any) (bool, bool) {
		v, ok := item.(T)
		return ok, ok && keep(v)
	})
	return n
}

// keepsNoted reports whether a noted item goes to the transfer hooks: no
// KeepTransfers was made for its type, or one of those made keeps it.
func (e *Engine) keepsNoted(item any) bool {
	typed := false
	for _, k := range e.noteKeeps {
		ofType, keep := k(item)
		if keep {
			return true
		}
		typed = typed || ofType
	}
	return !typed
}

// passesOver reports whether v goes by the transfer hooks (KeepTransfers):
// its link keeps only some items, v is not one, and nothing this link sent
// in this edge waits for the commit, which v must not overtake.
func (l *Link[T]) passesOver(v T) bool {
	return l.traceKeep != nil && l.staged.n == 0 && !l.traceKeep(v)
}
