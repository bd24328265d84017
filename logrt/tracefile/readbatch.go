package tracefile

import (
	"encoding/binary"
	"strconv"

	"github.com/suncat-go/suncat/logrt/tracefmt"
)

// The reader's side of batches (version 5, tracefmt.RecBatch): a batch
// record is decoded whole into its stream's queue, whose events are
// handed on one by one, each at the batch's time. An entry leaves out
// what it shares with the stream's previous event on its node, which
// the stream's tree keeps (lastEvent: getter, value) for every event.

// A batchQueue holds the events of the batch record read last, not yet
// handed on.
type batchQueue struct {
	evs  []Event
	next int    // the next to hand on
	seq  uint64 // the sequence number before the first
	at   int    // the record's offset
	err  error  // the damage that ended the batch, after evs
}

// batch decodes a tracefmt.RecBatch record into the stream's queue. An
// entry that cannot be decoded ends the batch: the entries before it are
// handed on, then the damage is (batchQueue.err).
func (d *decoder) batch() error {
	at := d.pos
	s := d.out
	if s == nil || d.version < 5 {
		return d.errorf(at, "batch record in a version %d trace", d.version)
	}
	if !d.t.ByClock {
		return d.errorf(at, "batch record in a trace ordered by the counter")
	}
	if d.end-d.pos < 4 {
		return d.errorf(at, "batch record of %d bytes", d.end-d.pos)
	}
	used := int(binary.LittleEndian.Uint32(d.payload[d.pos-d.base:]))
	if used == 0 || used > d.end-d.pos-4 {
		return d.errorf(at, "batch of %d bytes in a record of %d", used, d.end-d.pos)
	}
	end := d.end
	d.pos += 4
	d.end = d.pos + used
	defer func() { d.pos, d.end = end, end }() // the room the batch did not use
	if err := d.delta(); err != nil {
		return err
	}
	q := &s.queue
	q.evs, q.next, q.seq, q.at = q.evs[:0], 0, d.lastSeq, d.off-4
	for d.pos < d.end {
		e, err := d.entry()
		if err != nil {
			if len(q.evs) == 0 {
				return err
			}
			q.err = err
			break
		}
		d.lastSeq++
		q.evs = append(q.evs, e)
	}
	if len(q.evs) == 0 {
		return d.errorf(at, "batch record without entries")
	}
	return nil
}

// entry decodes one entry of a batch (tracefmt.RecBatch).
func (d *decoder) entry() (Event, error) {
	at := d.pos
	t := &d.tree
	head, err := d.uvarint("batch entry")
	if err != nil {
		return Event{}, err
	}
	zz := head >> 3
	node := int64(t.lastNode) + (int64(zz>>1) ^ -int64(zz&1))
	if node <= 0 || node >= int64(len(t.nodes)) {
		return Event{}, d.errorf(at, "batch entry on undefined node %d", node)
	}
	n := t.lastOf(uint32(node))
	g := n.getter
	if head&4 != 0 {
		if g, err = d.uint32("getter id"); err != nil {
			return Event{}, err
		}
	}
	if g == 0 {
		return Event{}, d.errorf(at, "batch entry without a getter")
	}
	switch head & 3 {
	case 0:
		if n.getter == 0 {
			return Event{}, d.errorf(at, "batch entry repeats the value of a node that has none")
		}
	case 1:
		v, err := d.int("string id", uint64(len(d.strs)))
		if err != nil {
			return Event{}, err
		}
		if v == 0 {
			return Event{}, d.errorf(at, "batch entry refers to undefined string 0")
		}
		n.val, n.vlen = d.strs[v-1], d.lens[v-1]
	case 2:
		l, err := d.uvarint("literal")
		if err != nil {
			return Event{}, err
		}
		if err := d.setLiteral(n, l, at); err != nil {
			return Event{}, err
		}
	default:
		if d.version < 7 {
			return Event{}, d.errorf(at, "batch entry of value kind 3 in a version %d trace", d.version)
		}
		if !n.hasLit || n.lit&3 == tracefmt.LitBool {
			return Event{}, d.errorf(at, "batch entry adds one to a node whose value is no integer literal")
		}
		if err := d.setLiteral(n, plusOne(n.lit), at); err != nil {
			return Event{}, err
		}
	}
	if head&3 == 1 {
		n.hasLit = false
	}
	n.getter, t.lastNode = g, uint32(node)
	stack, err := d.nodeStack(at, uint32(node))
	if err != nil {
		return Event{}, err
	}
	return Event{
		Time: d.now, Getter: g, Stack: uint32(stack),
		Value: n.val, Len: n.vlen, Truncated: n.vlen > len(n.val),
		Entry: d.t.Stacks[stack-1].Entry,
	}, nil
}

func (d *decoder) uint32(what string) (uint32, error) {
	v, err := d.int(what, 1<<31)
	return uint32(v), err
}

// setLiteral makes literal l node n's value, the string the writer
// would have interned; at is the entry's offset.
func (d *decoder) setLiteral(n *lastEvent, l uint64, at int) error {
	s, ok := literal(l)
	if !ok {
		return d.errorf(at, "boolean literal %d", l>>2)
	}
	n.val, n.vlen, n.lit, n.hasLit = s, len(s), l, true
	return nil
}

// plusOne returns the integer literal l (tracefmt, RecBatch) plus one.
func plusOne(l uint64) uint64 {
	x := l >> 2
	if l&3 == tracefmt.LitInt {
		v := int64(x>>1) ^ -int64(x&1)
		v++
		x = uint64(v<<1 ^ v>>63)
	} else {
		x++
	}
	return x<<2 | l&3
}

// literal returns the string that the writer would have interned for
// the literal l of a batch entry, and whether l is one.
func literal(l uint64) (string, bool) {
	x := l >> 2
	switch l & 3 {
	case tracefmt.LitInt:
		return strconv.FormatInt(int64(x>>1)^-int64(x&1), 10), true
	case tracefmt.LitUint:
		return strconv.FormatUint(x, 10), true
	case tracefmt.LitLen:
		return "len " + strconv.FormatUint(x, 10), true
	}
	switch x {
	case 0:
		return "false", true
	case 1:
		return "true", true
	}
	return "", false
}

// noteEvent remembers an event record of a version 5 stream on node, of
// getter g and string v (an id already checked), for the batch entries
// after it.
func (d *decoder) noteEvent(node uint32, g uint32, v int) {
	t := &d.tree
	if d.version < 5 || int(node) >= len(t.nodes) {
		return
	}
	n := t.lastOf(node)
	n.getter, n.val, n.vlen, n.hasLit = g, d.strs[v-1], d.lens[v-1], false
	t.lastNode = node
}

// batchEntries counts the entries of a batch record's payload p, as far
// as they can be told apart (the getters and values they refer to are
// not checked).
func batchEntries(p []byte) int {
	if len(p) < 4 {
		return 0
	}
	used := int(binary.LittleEndian.Uint32(p))
	if used > len(p)-4 {
		used = len(p) - 4
	}
	p = p[4 : 4+used]
	_, k := binary.Uvarint(p) // the time delta
	count := 0
	for k > 0 && k < len(p) {
		head, n := binary.Uvarint(p[k:])
		if n <= 0 {
			break
		}
		k += n
		for _, more := range [2]bool{head&4 != 0, head&3 == 1 || head&3 == 2} {
			if more {
				if _, n = binary.Uvarint(p[k:]); n <= 0 {
					return count
				}
				k += n
			}
		}
		count++
	}
	return count
}
