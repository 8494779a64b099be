package bgproc

import (
	"github.com/pgbufsim/pgbufsim/bufmgr"
)

// WalWriter is the WAL writer process: it wakes every wal_writer_delay (or
// when a transaction's async commit asks for it) and runs XLogBackgroundFlush;
// after 50 idle rounds it hibernates for 25 × wal_writer_delay (walwriter.c).
type WalWriter struct {
	Env Env
	// Next is the next wake-up.
	Next int64
	idle int
	be   bufmgr.Backend
}

// NewWalWriter starts the WAL writer: its first round one wal_writer_delay in.
func NewWalWriter(env Env) *WalWriter {
	return &WalWriter{Env: env, Next: env.Settings().Int("wal_writer_delay")}
}

// Run is one round at Next.
func (ww *WalWriter) Run() {
	ww.be.Type = bufmgr.Walwriter
	worked, end := ww.Env.WAL.BackgroundFlush(ww.Next, &ww.be.WAL)
	delay := ww.Env.Settings().Int("wal_writer_delay")
	if worked {
		ww.idle = 50
	} else if ww.idle > 0 {
		ww.idle--
	}
	if ww.idle == 0 {
		delay *= 25
	}
	ww.Next = end + delay
	ww.Env.FoldWAL(&ww.be)
}

// Wake sets the WAL writer's latch at time t.
func (ww *WalWriter) Wake(t int64) {
	if ww.Next > t {
		ww.Next = t
	}
}
