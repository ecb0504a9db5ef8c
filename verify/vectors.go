package verify

import (
	"bufio"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/big"
	"math/rand/v2"
	"os"
	"path/filepath"
)

// VectorBeatBytes is the tdata width, in bytes, of frame ports in hex
// vectors: each line of a frame file is {tlast, tkeep[7:0], tdata[63:0]},
// byte 0 of the frame in tdata[7:0].
const VectorBeatBytes = 8

// MaxVectors bounds the transactions of one vector set.
const MaxVectors = 10_000_000

// Vectors are input transactions for a block and the outputs its golden
// model produces for them.
type Vectors struct {
	// Block is the golden model.
	Block *Block
	// Params are its resolved parameters.
	Params Params
	// Seed drew the inputs (0 when they were given).
	Seed uint64
	// Inputs are the stimulus.
	Inputs []Txn
	// Outputs are the expected outputs, with Origin[i] the index of the
	// input that produced Outputs[i].
	Outputs []Txn
	Origin  []int
}

// GenerateVectors draws count random inputs for the named block from seed
// and computes the expected outputs.
func GenerateVectors(block string, params map[string]uint64, count int, seed uint64) (*Vectors, error) {
	b, err := LookupBlock(block)
	if err != nil {
		return nil, err
	}
	if count < 1 || count > MaxVectors {
		return nil, fmt.Errorf("count %d; use 1 to %d", count, MaxVectors)
	}
	p, err := b.Resolve(params)
	if err != nil {
		return nil, err
	}
	// parameters the model refuses fail before a stimulus is drawn with them
	m, err := b.New(p)
	if err != nil {
		return nil, err
	}
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	v, err := runModel(b, p, m, b.Stimulus(r, p, count))
	if err != nil {
		return nil, err
	}
	v.Seed = seed
	return v, nil
}

// ComputeVectors runs the block's golden model over the given inputs.
func ComputeVectors(b *Block, p Params, inputs []Txn) (*Vectors, error) {
	m, err := b.New(p)
	if err != nil {
		return nil, err
	}
	return runModel(b, p, m, inputs)
}

// runModel runs model m of block b, built from p, over the inputs.
func runModel(b *Block, p Params, m Model, inputs []Txn) (*Vectors, error) {
	var err error
	v := &Vectors{Block: b, Params: p, Inputs: inputs}
	for i := range inputs {
		n := len(v.Outputs)
		if v.Outputs, err = m.Apply(&inputs[i], v.Outputs); err != nil {
			return nil, fmt.Errorf("input %d: %w", i, err)
		}
		for range v.Outputs[n:] {
			v.Origin = append(v.Origin, i)
		}
	}
	return v, nil
}

// layoutField is one field of a hex line in the manifest.
type layoutField struct {
	Name string `json:"name"`
	MSB  int    `json:"msb"`
	LSB  int    `json:"lsb"`
}

// portManifest describes one hex file.
type portManifest struct {
	Kind         string        `json:"kind"`
	Hex          string        `json:"hex"`
	JSONL        string        `json:"jsonl"`
	Transactions int           `json:"transactions"`
	Lines        int           `json:"lines"`
	Width        int           `json:"width"`
	Layout       []layoutField `json:"layout"`
	Doc          string        `json:"doc"`
}

// manifest is vectors.json.
type manifest struct {
	Block  string       `json:"block"`
	Params Params       `json:"params"`
	Seed   uint64       `json:"seed"`
	Input  portManifest `json:"input"`
	Output portManifest `json:"output"`
}

// layout returns the packing of a hex line for a port and its width.
func layout(p *PortSpec) ([]layoutField, int) {
	if p.Kind == Frame {
		w := 8 * VectorBeatBytes
		return []layoutField{{"tlast", w + VectorBeatBytes, w + VectorBeatBytes}, {"tkeep", w + VectorBeatBytes - 1, w}, {"tdata", w - 1, 0}}, w + VectorBeatBytes + 1
	}
	w := 0
	for _, f := range p.Fields {
		w += f.Width
	}
	var out []layoutField
	top := w
	for _, f := range p.Fields {
		out = append(out, layoutField{f.Name, top - 1, top - f.Width})
		top -= f.Width
	}
	return out, w
}

// WriteDir writes into dir (created if needed): stimulus.hex and
// expected.hex for $readmemh, stimulus.jsonl and expected.jsonl, and
// vectors.json describing the packing of every hex line.
func (v *Vectors) WriteDir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	mf := manifest{Block: v.Block.Name, Params: v.Params, Seed: v.Seed}
	var err error
	if mf.Input, err = writePort(dir, "stimulus", &v.Block.Input, v.Inputs, nil); err != nil {
		return err
	}
	if mf.Output, err = writePort(dir, "expected", &v.Block.Output, v.Outputs, v.Origin); err != nil {
		return err
	}
	b, err := json.MarshalIndent(mf, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "vectors.json"), append(b, '\n'), 0o644)
}

// jsonTxn is one line of a JSON Lines file.
type jsonTxn struct {
	N      int               `json:"n"`
	Input  *int              `json:"input,omitempty"`
	Fields map[string]uint64 `json:"fields,omitempty"`
	Data   string            `json:"data,omitempty"`
	Len    *int              `json:"len,omitempty"`
}

func writePort(dir, base string, p *PortSpec, txns []Txn, origin []int) (portManifest, error) {
	lay, width := layout(p)
	pm := portManifest{Kind: p.Kind.String(), Hex: base + ".hex", JSONL: base + ".jsonl", Transactions: len(txns), Width: width, Layout: lay, Doc: p.Doc}
	hf, err := os.Create(filepath.Join(dir, pm.Hex))
	if err != nil {
		return pm, err
	}
	defer hf.Close()
	jf, err := os.Create(filepath.Join(dir, pm.JSONL))
	if err != nil {
		return pm, err
	}
	defer jf.Close()
	hw, jw := bufio.NewWriter(hf), bufio.NewWriter(jf)
	digits := (width + 3) / 4
	enc := json.NewEncoder(jw)
	for i := range txns {
		t := &txns[i]
		j := jsonTxn{N: i}
		if origin != nil {
			j.Input = &origin[i]
		}
		if p.Kind == Frame {
			j.Data = hex.EncodeToString(t.Data)
			n := len(t.Data)
			j.Len = &n
			pm.Lines += writeFrameHex(hw, t.Data)
		} else {
			j.Fields = make(map[string]uint64, len(p.Fields))
			acc := new(big.Int)
			for k, f := range p.Fields {
				j.Fields[f.Name] = t.Fields[k]
				acc.Lsh(acc, uint(f.Width))
				acc.Or(acc, new(big.Int).SetUint64(t.Fields[k]&mask(f.Width)))
			}
			fmt.Fprintf(hw, "%0*x\n", digits, acc)
			pm.Lines++
		}
		if err := enc.Encode(j); err != nil {
			return pm, err
		}
	}
	if err := hw.Flush(); err != nil {
		return pm, err
	}
	if err := jw.Flush(); err != nil {
		return pm, err
	}
	if err := hf.Close(); err != nil {
		return pm, err
	}
	return pm, jf.Close()
}

// writeFrameHex writes the beats of one frame and returns how many; an
// empty frame is one beat with tlast and tkeep 0.
func writeFrameHex(w *bufio.Writer, data []byte) int {
	n := 0
	for first := true; first || len(data) > 0; first = false {
		k := min(len(data), VectorBeatBytes)
		var tdata uint64
		for i := k - 1; i >= 0; i-- {
			tdata = tdata<<8 | uint64(data[i])
		}
		data = data[k:]
		last := 0
		if len(data) == 0 {
			last = 1
		}
		fmt.Fprintf(w, "%01x%02x%016x\n", last, uint8(1<<k-1), tdata)
		n++
	}
	return n
}
