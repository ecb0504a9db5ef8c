package vcd

// Identifier codes are strings of printable ASCII characters '!' (33) to
// '~' (126), IEEE 1364-2005 section 18.2.1.
const (
	identFirst = '!'
	identBase  = '~' - '!' + 1
)

// IdentCode returns the identifier code for the n-th declared signal
// (n >= 0): "!" ... "~", then "!!", "!\"", ... . It is bijective base 94,
// so every code is as short as it can be and the sequence never repeats.
func IdentCode(n int) string {
	var b [12]byte
	i := len(b)
	n++
	for n > 0 {
		n--
		i--
		b[i] = byte(identFirst + n%identBase)
		n /= identBase
	}
	return string(b[i:])
}
