package logrt

import "github.com/suncat-go/suncat/logrt/tracefmt"

// putTrailer writes the trailer of a chunk that its shard leaves, whose
// records end at off, into the end of the pad that is to fill it
// (tracefmt's trailer): how many records and events the chunk holds and a
// checksum of them, so that a reader can tell a chunk that lost records
// (zeroed, or changed) and say how many. It costs a walk and a CRC-32C of
// the chunk, once a chunk.
func putTrailer(chunk []byte, index, off int) {
	if len(chunk)-off-4 < tracefmt.TrailerSize {
		return // no room (a writer without noteRoom); the reader does without
	}
	start := 0
	if index == 0 {
		start = headerSize
	}
	records, events := 0, 0
	for p := start; p+4 <= off; {
		word := uint32(chunk[p]) | uint32(chunk[p+1])<<8 | uint32(chunk[p+2])<<16 | uint32(chunk[p+3])<<24
		if word == 0 {
			break
		}
		records++
		if tracefmt.IsEvent(byte(word)) {
			events++
		}
		p += (4 + int(word>>8) + 3) &^ 3
	}
	t := chunk[len(chunk)-tracefmt.TrailerSize:]
	le32(t[0:], uint32(off))
	le32(t[4:], uint32(records))
	le32(t[8:], uint32(events))
	le32(t[12:], tracefmt.Checksum(chunk[start:off]))
	le32(t[16:], tracefmt.TrailerTag)
	writeThrough(chunk, index, len(chunk)-tracefmt.TrailerSize, tracefmt.TrailerSize)
}
