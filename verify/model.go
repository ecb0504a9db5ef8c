package verify

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
)

// Model is a block's golden model behind the common transaction interface.
type Model interface {
	// Reset returns the model to its state after reset.
	Reset()
	// Apply consumes one input transaction and appends the output
	// transactions it produces (zero or more) to out. An error means the
	// model cannot process the input (for example a frame that is not a
	// RoCEv2 packet) and is reported as a divergence.
	Apply(in *Txn, out []Txn) ([]Txn, error)
}

// ParamSpec is one parameter of a block's golden model.
type ParamSpec struct {
	// Name is the key under params in a signal map and in vectors.
	Name string
	// Default is the value used when the map leaves it out.
	Default uint64
	// Doc says what it sets, with its unit.
	Doc string
	// Min and Max bound the value, both included; a flag is 0 to 1.
	Min, Max uint64
}

// Allowed says which values the parameter takes: "1 to 8", "0 or 1".
func (s ParamSpec) Allowed() string {
	if s.Max == s.Min+1 {
		return fmt.Sprintf("%d or %d", s.Min, s.Max)
	}
	return fmt.Sprintf("%d to %d", s.Min, s.Max)
}

// Params are resolved parameter values by name.
type Params map[string]uint64

// Block is one registered golden model.
type Block struct {
	// Name is the block's name in signal maps and on the command line.
	Name string
	// Summary says what the block computes and from which model code.
	Summary string
	// Params are the parameters it accepts.
	Params []ParamSpec
	// Check, when set, rejects resolved parameters that are each in
	// range but do not go together (a shortest frame above the longest).
	Check func(p Params) error
	// Input and Output are the transaction formats.
	Input, Output PortSpec
	// New builds a model from resolved parameters.
	New func(p Params) (Model, error)
	// Stimulus draws n random valid input transactions.
	Stimulus func(r *rand.Rand, p Params, n int) []Txn
}

// Resolve checks the given parameters against the block's, each within
// its range and all together (Check), and fills in the defaults. An
// unknown name is an error naming it; a value out of range is an error
// giving the range.
func (b *Block) Resolve(given map[string]uint64) (Params, error) {
	p := make(Params, len(b.Params))
	for _, s := range b.Params {
		p[s.Name] = s.Default
	}
	names := make([]string, 0, len(given))
	for k := range given {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		s, ok := b.param(k)
		if !ok {
			return nil, fmt.Errorf("block %s has no parameter %q (it has: %s)", b.Name, k, b.paramNames())
		}
		if v := given[k]; v < s.Min || v > s.Max {
			return nil, fmt.Errorf("%s: %s %d; use %s", b.Name, k, v, s.Allowed())
		}
		p[k] = given[k]
	}
	if b.Check != nil {
		if err := b.Check(p); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// param returns the block's parameter of that name.
func (b *Block) param(name string) (ParamSpec, bool) {
	for _, s := range b.Params {
		if s.Name == name {
			return s, true
		}
	}
	return ParamSpec{}, false
}

func (b *Block) paramNames() string {
	if len(b.Params) == 0 {
		return "none"
	}
	s := make([]string, len(b.Params))
	for i, p := range b.Params {
		s[i] = p.Name
	}
	return strings.Join(s, ", ")
}

var registry = map[string]*Block{}

// register adds a block at package initialisation; a duplicate name is a
// programming error.
func register(b *Block) {
	if _, dup := registry[b.Name]; dup {
		panic("verify: block " + b.Name + " registered twice")
	}
	registry[b.Name] = b
}

// Blocks returns every registered block, sorted by name.
func Blocks() []*Block {
	out := make([]*Block, 0, len(registry))
	for _, b := range registry {
		out = append(out, b)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// LookupBlock returns the named block, or an error listing the known ones.
func LookupBlock(name string) (*Block, error) {
	if b, ok := registry[name]; ok {
		return b, nil
	}
	names := make([]string, 0, len(registry))
	for _, b := range Blocks() {
		names = append(names, b.Name)
	}
	return nil, fmt.Errorf("unknown block %q (known: %s)", name, strings.Join(names, ", "))
}

// beat returns a beat transaction with the given field values.
func beat(fields ...uint64) Txn { return Txn{Fields: fields} }

// mask returns the low w bits set.
func mask(w int) uint64 {
	if w >= 64 {
		return ^uint64(0)
	}
	return 1<<w - 1
}
