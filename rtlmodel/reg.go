package rtlmodel

import "fmt"

// Reg is a clocked register: Q is the value committed at the last edge, Set
// writes D, and the edge's commit copies D to Q. A second Set in one edge is
// a modelling error that stops the run.
type Reg[T any] struct {
	q, d    T
	written bool
	id      int
	name    string
	owner   *Handle
}

// NewReg returns a register owned by a component, holding init.
func NewReg[T any](owner *Handle, name string, init T) *Reg[T] {
	return &Reg[T]{q: init, d: init, id: owner.e.newElemID(), name: owner.Path() + "/" + name, owner: owner}
}

// Q returns the committed value.
func (r *Reg[T]) Q() T { return r.q }

// Set writes the next value.
func (r *Reg[T]) Set(v T) {
	e := r.owner.e
	if r.written {
		e.fail(fmt.Errorf("register %s written twice in cycle %d at %v", r.name,
			r.owner.Domain().CycleAt(e.now), e.now))
		return
	}
	r.d, r.written = v, true
	e.markDirty(r)
}

// Name returns the register's hierarchical name.
func (r *Reg[T]) Name() string { return r.name }

func (r *Reg[T]) elemID() int { return r.id }

func (r *Reg[T]) commit(*Engine) { r.q, r.written = r.d, false }
