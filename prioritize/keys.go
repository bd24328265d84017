package prioritize

import (
	"encoding/binary"
	"hash/maphash"
	"strconv"

	"github.com/suncat-go/suncat/logrt/tracefile"
)

// keySeeds seed the two hashes of stackKeyOf, once per process: keys are
// compared only within one summary.
var keySeeds = [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}

// stackKeyOf is a short key of what a terminal or a site is: prefix (its
// getter), then two independent 64-bit hashes of its frames, the first
// frame's line left out when skipLine0. A -reads trace has hundreds of
// thousands of stacks of dozens of frames; keys that spell the frames
// out took gigabytes. Two different stacks of one getter share a key with
// a probability of about 2^-128 a pair.
func stackKeyOf(prefix string, fs []tracefile.Frame, skipLine0 bool) string {
	var buf [binary.MaxVarintLen64]byte
	key := make([]byte, 0, len(prefix)+17)
	key = append(append(key, prefix...), 0)
	for _, seed := range keySeeds {
		var h maphash.Hash
		h.SetSeed(seed)
		for i, f := range fs {
			line := f.Line
			if i == 0 && skipLine0 {
				line = 0
			}
			h.WriteString(f.Func)
			h.WriteByte(0)
			h.WriteString(f.File)
			h.Write(buf[:binary.PutVarint(buf[:], int64(line))])
		}
		key = binary.LittleEndian.AppendUint64(key, h.Sum64())
	}
	return string(key)
}

// terminalKey identifies a terminal: its getter and its frames.
func terminalKey(getter uint32, fs []tracefile.Frame) string {
	return stackKeyOf(strconv.FormatUint(uint64(getter), 10), fs, false)
}

// siteKey is a site's getter and stack; the getter's own line is left
// out, so a getter with two return statements is one site.
func siteKey(t *Terminal, fs []tracefile.Frame) string {
	return stackKeyOf(t.Getter.Package+"\x00"+t.Name, fs, true)
}
