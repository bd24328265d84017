package prioritize

import (
	"encoding/binary"
	"hash/maphash"
	"strconv"
	"strings"

	"github.com/suncat-go/suncat/logrt/tracefile"
)

// keySeeds seed the two hashes of stackKeyOf, once per process: keys are
// compared only within one summary.
var keySeeds = [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}

// A hashKey is a short key of what a terminal or a site is (stackKeyOf).
type hashKey [2]uint64

// stackKeyOf is a short key of what a terminal or a site is: two
// independent 64-bit hashes of prefix (its getter) and its frames, the
// frames of head then those of rest (each by its function, its file's
// base name and its line), the first frame's line left out when
// skipLine0. A -reads trace has hundreds of thousands of stacks of
// dozens of frames; keys that spell the frames out took gigabytes. Two
// different stacks of one getter share a key with a probability of about
// 2^-128 a pair.
func stackKeyOf(prefix string, head, rest []tracefile.Frame, skipLine0 bool) hashKey {
	var buf [binary.MaxVarintLen64]byte
	var key hashKey
	for k, seed := range keySeeds {
		var h maphash.Hash
		h.SetSeed(seed)
		h.WriteString(prefix)
		h.WriteByte(0)
		i := 0
		for _, fs := range [2][]tracefile.Frame{head, rest} {
			for _, f := range fs {
				line := f.Line
				if i == 0 && skipLine0 {
					line = 0
				}
				h.WriteString(f.Func)
				h.WriteByte(0)
				h.WriteString(baseName(f.File))
				h.Write(buf[:binary.PutVarint(buf[:], int64(line))])
				i++
			}
		}
		key[k] = h.Sum64()
	}
	return key
}

// baseName is the last element of a frame's file path: a function's
// name says which package and so which directory its file is in, and
// two builds of one program from two directories (a checkout per CI job,
// a copy per size) name its files by two absolute paths.
func baseName(path string) string { return path[strings.LastIndexAny(path, `/\`)+1:] }

// terminalKey identifies a terminal, in any trace of a summary: its
// getter as the table names it (id is its number in the trace's table,
// which names it only when the table does not have it) and the frames it
// shows (recorderFrame's). Neither the getter's number nor the line of
// the runtime function that recorded a read (the frame recorderFrame
// renames) says which call site an event is: two builds of one program
// number and place them differently, and a session's traces keyed by
// them counted each site once per build.
func terminalKey(g tracefile.Getter, id uint32, fs []tracefile.Frame) hashKey {
	prefix := "#" + strconv.FormatUint(uint64(id), 10)
	if g.ID != 0 {
		prefix = g.Package + "\x00" + g.Receiver + "\x00" + g.Method + "\x00" + g.Field
	}
	first, renamed, rest := shownFrames(g, fs)
	var head []tracefile.Frame
	if renamed {
		head = []tracefile.Frame{first}
	}
	return stackKeyOf(prefix, head, rest, false)
}

// siteKey is a site's getter and stack; the getter's own line is left
// out, so a getter with two return statements is one site.
func siteKey(t *Terminal, fs []tracefile.Frame) hashKey {
	return stackKeyOf(t.Getter.Package+"\x00"+t.Name, nil, fs, true)
}
