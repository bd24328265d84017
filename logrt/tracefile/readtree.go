package tracefile

import "github.com/suncat-go/suncat/logrt/tracefmt"

// The reader's side of the call-site tree of version 2 and 3 traces (stack.go,
// format.go): nodes as they are defined, and a Stack for each node that
// an event uses, made when first used.

type readNode struct {
	parent uint32
	pc     uint32
	stack  uint32 // its id in Trace.Stacks, once an event used it
	last   uint32 // its lastEvent in readTree.lasts + 1, once an event used it (version 5)
}

// A lastEvent is the stream's last event on a node (version 5,
// readbatch.go): its getter (0: none yet) and value. Only the nodes that
// events used have one: a -reads trace's tree has several times as many
// nodes as stacks.
type lastEvent struct {
	getter uint32
	hasLit bool
	val    string
	vlen   int
	lit    uint64 // the value's literal L (tracefmt, RecBatch), if it had one
}

type readTree struct {
	nodes    []readNode  // by id; node 0 is the root
	lasts    []lastEvent // by readNode.last - 1
	frames   [][]Frame   // by pc id - 1
	lastNode uint32      // the node of the stream's last event (version 5)
	node     uint32      // the node of the event being decoded
}

// lastOf returns the last event on node, made empty when first asked for.
func (t *readTree) lastOf(node uint32) *lastEvent {
	n := &t.nodes[node]
	if n.last == 0 {
		t.lasts = append(t.lasts, lastEvent{})
		n.last = uint32(len(t.lasts))
	}
	return &t.lasts[n.last-1]
}

// frames decodes a tracefmt.RecFrames record.
func (d *decoder) frames() error {
	if d.version == 1 {
		return d.errorf(d.pos, "frames record in a version 1 trace")
	}
	at := d.pos
	id, err := d.int("pc id", 1<<31)
	if err != nil {
		return err
	}
	if id != len(d.tree.frames)+1 {
		return d.errorf(at, "pc id %d out of sequence (want %d)", id, len(d.tree.frames)+1)
	}
	n, err := d.int("frame count", uint64(d.end-d.pos))
	if err != nil {
		return err
	}
	if n > maxPCFrames {
		return d.limitf(at, "pc id %d stands for %d frames, more than the reader's limit of %d", id, n, maxPCFrames)
	}
	fs := make([]Frame, n)
	for i := range fs {
		if fs[i].Func, err = d.string("frame function"); err != nil {
			return err
		}
		if fs[i].File, err = d.string("frame file"); err != nil {
			return err
		}
		if fs[i].Line, err = d.int("frame line", 1<<31); err != nil {
			return err
		}
	}
	d.tree.frames = append(d.tree.frames, fs)
	return nil
}

// nodes decodes the stack part of a version 2 event, defining its new
// nodes, and returns the id of its Stack.
func (d *decoder) nodes() (int, error) {
	t := &d.tree
	if len(t.nodes) == 0 {
		t.nodes = append(t.nodes, readNode{})
	}
	k, err := d.int("new node count", uint64(d.end-d.pos))
	if err != nil {
		return 0, err
	}
	at := d.pos
	back, err := d.int("node distance", uint64(len(t.nodes)))
	if err != nil {
		return 0, err
	}
	if back == 0 {
		return 0, d.errorf(at, "node distance 0")
	}
	node := uint32(len(t.nodes) - back)
	for i := 0; i < k; i++ {
		at := d.pos
		pc, err := d.int("pc id", uint64(len(t.frames)))
		if err != nil {
			return 0, err
		}
		if pc == 0 && i > 0 {
			return 0, d.errorf(at, "the cut-stack marker inside a stack")
		}
		t.nodes = append(t.nodes, readNode{parent: node, pc: uint32(pc)})
		node = uint32(len(t.nodes) - 1)
	}
	t.node = node
	return d.nodeStack(at, node)
}

// nodeStack returns the id of the Stack of node, an existing node, made
// when first used; at is the offset of the event, for errors.
func (d *decoder) nodeStack(at int, node uint32) (int, error) {
	t := &d.tree
	if t.nodes[node].stack == 0 {
		if t.depth(node) > tracefmt.MaxFrames+1 {
			return 0, d.errorf(at, "stack of more than %d nodes", tracefmt.MaxFrames+1)
		}
		if err := d.spendFrames(at, t.frameCount(node)); err != nil {
			return 0, err
		}
		t.nodes[node].stack = d.stackIDOf(t.stackOf(node, uint32(len(d.t.Stacks)+1)))
	}
	return int(t.nodes[node].stack), nil
}

// depth counts the nodes from node up to the root, stopping past the
// deepest stack a writer makes (a corrupt trace may chain more).
func (t *readTree) depth(node uint32) int {
	n := 0
	for ; node != 0 && n <= tracefmt.MaxFrames+1; node = t.nodes[node].parent {
		n++
	}
	return n
}

// frameCount counts the frames of node's stack.
func (t *readTree) frameCount(node uint32) int {
	n := 0
	for ; node != 0; node = t.nodes[node].parent {
		if pc := t.nodes[node].pc; pc != 0 {
			n += len(t.frames[pc-1])
		}
	}
	return n
}

// stackOf lists the frames of node, innermost first.
func (t *readTree) stackOf(node, id uint32) Stack {
	buf := make([]Frame, 1, 1+t.frameCount(node)) // buf[0]: room for WithFirst
	s := Stack{ID: id}
	for n := node; n != 0; n = t.nodes[n].parent {
		pc := t.nodes[n].pc
		if pc == 0 {
			s.Truncated = true
			break
		}
		buf = append(buf, t.frames[pc-1]...)
	}
	s.Frames, s.room = buf[1:], buf[:1]
	s.Entry = entryOf(s)
	return s
}
