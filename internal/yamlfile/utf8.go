package yamlfile

import (
	"bytes"
	"fmt"
	"unicode/utf8"
)

// checkUTF8 finds the first byte of a file's text that is not UTF-8, with
// its line, which the YAML library's "invalid leading UTF-8 octet" leaves
// out. Text that starts with a UTF-16 byte order mark is the library's to
// read.
func (k Kind) checkUTF8(data []byte) error {
	if bytes.HasPrefix(data, []byte{0xfe, 0xff}) || bytes.HasPrefix(data, []byte{0xff, 0xfe}) {
		return nil
	}
	line, col := 1, 1
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size <= 1 {
			return AtLine(line, fmt.Errorf("byte 0x%02x, character %d of the line, is not UTF-8: a %s file is UTF-8 text", data[i], col, k.Name))
		}
		if r == '\n' {
			line, col = line+1, 0
		}
		i += size
		col++
	}
	return nil
}
