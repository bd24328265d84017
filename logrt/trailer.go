package logrt

import "github.com/suncat-go/suncat/logrt/tracefmt"

// checksumReady makes hash/crc32 build its CRC-32C table (a sync.Once)
// while the program starts: putTrailer runs pinned to a P, where a
// goroutine must never block, and one blocked on that Once (another
// goroutine leaving its first chunk at the same moment) killed the
// program ("schedule: holding locks").
var checksumReady = tracefmt.Checksum(nil)

// putTrailer writes the trailer of a chunk that its shard leaves, whose
// records end at off, into the end of the pad that is to fill it
// (tracefmt's trailer): how many records and events the chunk holds (the
// shard counts them as it commits them) and a checksum of them, so that
// a reader can tell a chunk that lost records (zeroed, or changed) and
// say how many. It costs a CRC-32C of the chunk, once a chunk, before the
// pad's commit word is stored.
func putTrailer(chunk []byte, index, off, records, events int) {
	if len(chunk)-off-4 < tracefmt.TrailerSize {
		return // no room (a writer without noteRoom); the reader does without
	}
	start := 0
	if index == 0 {
		start = headerSize
	}
	t := chunk[len(chunk)-tracefmt.TrailerSize:]
	le32(t[0:], uint32(off))
	le32(t[4:], uint32(records))
	le32(t[8:], uint32(events))
	le32(t[12:], tracefmt.Checksum(chunk[start:off]))
	le32(t[16:], tracefmt.TrailerTag)
	writeThrough(chunk, index, len(chunk)-tracefmt.TrailerSize, tracefmt.TrailerSize)
}

// getterCheckRoom is the room a getter table record keeps after it for
// its check: its padding, and the check's record.
const getterCheckRoom = 3 + 4 + tracefmt.GettersCheckLen

// checkGetters writes the check of the getter table record whose payload
// is b, right after it (tracefmt.GettersCheckTag).
func (s *shard) checkGetters(b []byte) {
	c := s.reserve(tracefmt.GettersCheckLen)
	if c == nil {
		return
	}
	le32(c, tracefmt.GettersCheckTag)
	le32(c[4:], tracefmt.Checksum(b))
	s.commit(kindPad, tracefmt.GettersCheckLen)
}
