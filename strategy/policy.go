package strategy

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/pgbufsim/pgbufsim/pg"
)

// Replacement chooses victims once the ring and the free list have none.
type Replacement interface {
	// Access: a backend pinned b, which already held its page (a hit, PinBuffer).
	Access(b pg.Buffer)
	// Load: b now holds page t (BufferAlloc after a miss or an extension).
	Load(b pg.Buffer, t pg.BufferTag)
	// Forget: b's page t left the pool (eviction, DROP, pg_buffercache_evict).
	Forget(b pg.Buffer, t pg.BufferTag)
	// Victim returns an unpinned buffer to reuse, or ErrNoUnpinnedBuffers.
	Victim(states []pg.BufState) (pg.Buffer, error)
}

// policy is one registry entry.
type policy struct {
	name, doc string
	new       func(nbuffers int) Replacement
}

// registry guards policies: Register may add to it while pools are built.
var registry sync.RWMutex

// policies is the registry of replacement policies, by setting value.
var policies = []policy{
	{"clock", "PostgreSQL's clock sweep with usage counts (8.1 and later)", func(int) Replacement { return Clock{} }},
	{"lru", "least recently used: the page whose last pin is oldest", func(n int) Replacement { return newLRU(n) }},
	{"2q", "2Q: pages seen once queue apart from pages seen again (PostgreSQL 8.0.2)", func(n int) Replacement { return newTwoQ(n) }},
	{"arc", "ARC: T1/T2 with ghost lists B1/B2 and an adaptive T1 target (PostgreSQL 8.0.0/8.0.1)", func(n int) Replacement { return newARC(n) }},
	{"clock-pro", "CLOCK-Pro: hot and cold pages on one clock, cold pages on trial (Jiang, Chen, Zhang 2005)", func(n int) Replacement { return newClockPro(n) }},
}

// PolicyNames lists the replacement policies in registry order: the
// built-in ones, then those added by Register.
func PolicyNames() []string {
	registry.RLock()
	defer registry.RUnlock()
	var ns []string
	for _, p := range policies {
		ns = append(ns, p.name)
	}
	return ns
}

// PolicyDoc is a policy's one-line description ("" if unknown).
func PolicyDoc(name string) string {
	registry.RLock()
	defer registry.RUnlock()
	for _, p := range policies {
		if p.name == name {
			return p.doc
		}
	}
	return ""
}

// NewReplacement returns policy name for a pool of nbuffers buffers.
func NewReplacement(name string, nbuffers int) (Replacement, error) {
	registry.RLock()
	for _, p := range policies {
		if p.name == name {
			registry.RUnlock()
			return p.new(nbuffers), nil
		}
	}
	registry.RUnlock()
	ns := PolicyNames()
	return nil, &pg.SettingError{Name: "replacement", Value: name, Allowed: "must be one of " + strings.Join(ns, ", ")}
}

// Register adds a replacement policy under name, the value of
// bufmgr.Config.Replacement that selects it: help is its one-line description
// (PolicyDoc) and factory builds it for a pool of nbuffers buffers (it is
// called by NewReplacement, and by bufmgr.Config.Validate with 16). The
// policy's methods must not allocate, as those of the built-in ones do not:
// they run on every pin and every miss.
//
// A name is lower-case letters, digits, '-' and '_', starting with a letter
// or a digit (so that it reads as one value in a scenario and in
// compare --vary lists), and must not be taken. Register reports every
// problem, one line each, as *pg.SettingError, and changes nothing then.
// It is safe to call concurrently with NewReplacement; call it before the
// pools that use the policy are built, typically from an init function.
func Register(name, help string, factory func(nbuffers int) Replacement) error {
	registry.Lock()
	defer registry.Unlock()
	var errs []error
	bad := func(allowed string) {
		errs = append(errs, &pg.SettingError{Name: "replacement", Value: name, Allowed: allowed})
	}
	if !policyName(name) {
		bad("a policy name is lower-case letters, digits, '-' and '_', starting with a letter or a digit")
	}
	for _, p := range policies {
		if p.name == name {
			bad("a policy of that name is already registered")
		}
	}
	if strings.TrimSpace(help) == "" {
		bad("a policy needs a one-line description")
	}
	if factory == nil {
		bad("a policy needs a factory")
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	policies = append(policies, policy{name: name, doc: help, new: factory})
	return nil
}

// policyName reports whether s is a valid policy name: [a-z0-9][a-z0-9_-]*.
func policyName(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
		case (c == '-' || c == '_') && i > 0:
		default:
			return false
		}
	}
	return s != ""
}

// SetReplacement makes r choose the victims. Clock (or nil) keeps the
// built-in clock sweep, whose loop stays inline on the hot path.
func (c *Control) SetReplacement(r Replacement) {
	if _, ok := r.(Clock); ok {
		r = nil
	}
	c.repl = r
}

// Replacement is the policy in force (nil: the clock sweep).
func (c *Control) Replacement() Replacement { return c.repl }

// Clock is PostgreSQL's clock sweep (StrategyGetBuffer / ClockSweepTick):
// Control runs it inline, so its methods are never called on the hot path.
// It is in the registry so that replacement=clock names the default.
type Clock struct{}

// Access does nothing: PinBuffer's usage count is the clock's memory.
func (Clock) Access(pg.Buffer) {}

// Load does nothing.
func (Clock) Load(pg.Buffer, pg.BufferTag) {}

// Forget does nothing.
func (Clock) Forget(pg.Buffer, pg.BufferTag) {}

// Victim is never called: Control sweeps itself.
func (Clock) Victim([]pg.BufState) (pg.Buffer, error) {
	panic("strategy: Clock.Victim called; Control runs the clock sweep inline")
}

// Reject is what a BULKREAD ring does with a dirty buffer whose write needs a
// WAL flush (the simulator setting reject=pg|flush).
type Reject uint8

const (
	// RejectPG is StrategyRejectBuffer: the ring gives the buffer up and takes
	// another victim from the pool, so a scan over freshly dirtied pages
	// spreads over shared buffers.
	RejectPG Reject = iota
	// RejectFlush never rejects: the ring flushes WAL and writes the buffer,
	// as VACUUM's and BULKWRITE's rings do, and stays the same set of buffers.
	RejectFlush
)

func (r Reject) String() string { return [...]string{"pg", "flush"}[r] }

// ParseReject parses the reject setting.
func ParseReject(s string) (Reject, error) {
	switch s {
	case "pg":
		return RejectPG, nil
	case "flush":
		return RejectFlush, nil
	}
	return 0, &pg.SettingError{Name: "reject", Value: s, Allowed: "must be one of pg, flush"}
}

// MaxUsageLimit is the largest usage_max: the displays count buffers by
// usage 0..5, PostgreSQL's BM_MAX_USAGE_COUNT.
const MaxUsageLimit = pg.MaxUsageCount

// CheckUsageMax validates the usage_max setting.
func CheckUsageMax(n int) error {
	if n < 1 || n > MaxUsageLimit {
		return &pg.SettingError{Name: "usage_max", Value: fmt.Sprint(n), Allowed: fmt.Sprintf("outside the allowed range 1..%d", MaxUsageLimit)}
	}
	return nil
}
