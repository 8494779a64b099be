// Package prefetch asks the CPU to bring memory into its cache ahead of use:
// a hint with no effect on any value (a trace replay names its next requests'
// memory this way, so that their cache misses overlap with the work on the
// requests before them instead of each waiting in turn). On CPUs without an
// implementation here it does nothing.
package prefetch
