package replay

// idTable numbers hashed object ids densely in first-seen order: an
// open-addressing table (linear probing, a power-of-two size kept at most
// half full) from id to number, built once before the accesses and read once
// per request. It does what a map[uint64]uint32 filled with
// `if _, ok := m[id]; !ok { m[id] = uint32(len(m)) }` does, without the Go
// map's per-lookup hashing and bucket walk.
type idTable struct {
	keys []uint64 // id + 1 (0: empty slot); ids are below 2^64 − 1, see add
	vals []uint32
	n    int
	mask uint64
	zero bool   // the id 2^64 − 1 (which key+1 cannot hold) has been seen
	zv   uint32 // its number
}

func newIDTable() *idTable {
	t := &idTable{}
	t.resize(1 << 10)
	return t
}

func (t *idTable) resize(size int) {
	keys, vals := t.keys, t.vals
	t.keys, t.vals, t.mask = make([]uint64, size), make([]uint32, size), uint64(size-1)
	for i, k := range keys {
		if k != 0 {
			t.keys[t.slot(k)], t.vals[t.slot(k)] = k, vals[i]
		}
	}
}

// hash is the finalizer of SplitMix64: every bit of the id reaches the low
// bits the table indexes by.
func hash(k uint64) uint64 {
	k ^= k >> 30
	k *= 0xbf58476d1ce4e5b9
	k ^= k >> 27
	k *= 0x94d049bb133111eb
	k ^= k >> 31
	return k
}

// slot is where key k is, or the empty slot where it would go.
func (t *idTable) slot(k uint64) uint64 {
	i := hash(k) & t.mask
	for t.keys[i] != 0 && t.keys[i] != k {
		i = (i + 1) & t.mask
	}
	return i
}

// add numbers id if it is new (the next number: len before the call) and
// returns its number.
func (t *idTable) add(id uint64) uint32 {
	if id == 1<<64-1 {
		if !t.zero {
			t.zero, t.zv = true, uint32(t.n)
			t.n++
		}
		return t.zv
	}
	k := id + 1
	i := t.slot(k)
	if t.keys[i] == k {
		return t.vals[i]
	}
	v := uint32(t.n)
	t.keys[i], t.vals[i] = k, v
	t.n++
	if 2*t.n > len(t.keys) {
		t.resize(2 * len(t.keys))
	}
	return v
}

// get is id's number (the id must have been added).
func (t *idTable) get(id uint64) uint32 {
	if id == 1<<64-1 {
		return t.zv
	}
	return t.vals[t.slot(id+1)]
}

// len is how many ids are numbered.
func (t *idTable) len() int { return t.n }
