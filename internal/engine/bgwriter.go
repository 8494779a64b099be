package engine

// bgWriter is the background writer process (bgwriter.c).
type bgWriter struct {
	stats struct{ Clean, MaxWritten int64 }
}
