package bufmgr

import (
	"testing"

	"github.com/pgbufsim/pgbufsim/internal/rng"
	"github.com/pgbufsim/pgbufsim/pg"
)

// The private refcount table agrees with a plain map under a random mix of
// pins and releases over few and many buffers (the table grows past its
// initial 16 slots and deletes from long probe runs): the "already held" and
// "last pin" answers, the count of buffers held and the set itself.
func TestPrivateRefsMatchMap(t *testing.T) {
	p := rng.New(42)
	for _, nbuf := range []uint64{3, 40, 1000} {
		be := NewBackend(ClientBackend, 0)
		model := map[pg.Buffer]int{}
		for step := 0; step < 200000; step++ {
			b := pg.Buffer(p.Uint64n(nbuf) + 1)
			if p.Uint64n(2) == 0 || model[b] == 0 {
				held := be.addPrivate(b)
				if held != (model[b] > 0) {
					t.Fatalf("nbuf %d step %d: addPrivate(%d) held=%v, model has %d pins", nbuf, step, b, held, model[b])
				}
				model[b]++
			} else {
				last := be.dropPrivate(b)
				model[b]--
				if last != (model[b] == 0) {
					t.Fatalf("nbuf %d step %d: dropPrivate(%d) last=%v, model has %d pins left", nbuf, step, b, last, model[b])
				}
				if model[b] == 0 {
					delete(model, b)
				}
			}
			if be.PinCount() != len(model) {
				t.Fatalf("nbuf %d step %d: PinCount %d, model %d", nbuf, step, be.PinCount(), len(model))
			}
		}
		seen := map[pg.Buffer]bool{}
		be.forEachPin(func(b pg.Buffer) { seen[b] = true })
		if len(seen) != len(model) {
			t.Fatalf("nbuf %d: forEachPin saw %d buffers, model holds %d", nbuf, len(seen), len(model))
		}
		for b := range model {
			if !seen[b] {
				t.Fatalf("nbuf %d: buffer %d pinned but not listed", nbuf, b)
			}
		}
	}
}
