package tracefile

import (
	"errors"
	"os"
	"syscall"
)

// dataExtents returns the ranges of the file that hold data, skipping
// the holes of a sparse file (lseek's SEEK_DATA and SEEK_HOLE); where the
// file system cannot tell, the whole file.
func dataExtents(f *os.File, size int64) [][2]int64 {
	const seekData, seekHole = 3, 4
	var ext [][2]int64
	for off := int64(0); off < size; {
		start, err := f.Seek(off, seekData)
		if err != nil {
			if off == 0 && len(ext) == 0 && !isNoData(err) {
				return [][2]int64{{0, size}}
			}
			break // no data after off
		}
		end, err := f.Seek(start, seekHole)
		if err != nil || end > size {
			end = size
		}
		if end <= start {
			break
		}
		ext = append(ext, [2]int64{start, end})
		off = end
	}
	return ext
}

// isNoData reports whether err is ENXIO: no data at or after the offset.
func isNoData(err error) bool {
	return errors.Is(err, syscall.ENXIO)
}
