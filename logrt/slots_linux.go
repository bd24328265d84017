package logrt

import (
	"syscall"
	"unsafe"
)

// Large tables live in memory of their own, mapped outside the Go heap
// and offered to the kernel for huge pages (transparent huge pages, where
// it is set to madvise): a lookup in a call-site tree of tens of MiB
// lands on a random slot, and with 4 KiB pages nearly every one missed
// the TLB as well as the cache (BENCH.md, "Huge pages for the tree").
// The mapping and the advice are raw system calls: they do not block,
// and a pinned record (pinned.go) may grow a table.

// hugeSlots is the size from which a table's slots are mapped: a huge
// page or more.
const hugeSlots = 2 << 20 / int(unsafe.Sizeof(flatSlot{}))

const hugePage = 2 << 20

// makeSlots returns n zeroed slots, and the mapping that holds them (nil
// for slots of the Go heap).
func makeSlots(n int) ([]flatSlot, []byte) {
	size := uintptr(n) * unsafe.Sizeof(flatSlot{})
	if n < hugeSlots || !hugeOn || unsafe.Sizeof(uintptr(0)) != 8 {
		// 32-bit systems' mmap system call is another (old_mmap, mmap2).
		return make([]flatSlot, n), nil
	}
	span := size + hugePage
	p, _, errno := syscall.RawSyscall6(syscall.SYS_MMAP, 0, span, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON, ^uintptr(0), 0)
	if errno != 0 {
		return make([]flatSlot, n), nil
	}
	at := (p + hugePage - 1) &^ (hugePage - 1)
	syscall.RawSyscall(syscall.SYS_MADVISE, at, size, 14) // MADV_HUGEPAGE; advice only, so its error does not matter
	// The addresses are of memory the Go heap does not manage: converted
	// through a word in memory, which vet's unsafe.Pointer rules allow.
	m := unsafe.Slice((*byte)(*(*unsafe.Pointer)(unsafe.Pointer(&p))), span)
	return unsafe.Slice((*flatSlot)(*(*unsafe.Pointer)(unsafe.Pointer(&at))), n), m
}

// freeSlots unmaps a mapping of makeSlots.
func freeSlots(m []byte) {
	if m != nil {
		syscall.RawSyscall(syscall.SYS_MUNMAP, uintptr(unsafe.Pointer(&m[0])), uintptr(len(m)), 0)
	}
}
