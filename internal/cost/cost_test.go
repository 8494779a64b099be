package cost

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"
)

// Scaled multiplies every duration of the model except the two the host's
// CPU does not decide (the device's fdatasync and the client's pause) and
// the wal_writer settings that the engine fills in per cluster. The test
// walks the struct, so a field added later without deciding whether it
// scales fails here.
func TestScaled(t *testing.T) {
	unscaled := map[string]bool{"FsyncNs": true, "InterCommandNs": true, "WriterDelayNs": true, "WriterFlushAft": true}
	m := Default.Scaled(2.5)
	var walk func(path string, a, b reflect.Value)
	walk = func(path string, a, b reflect.Value) {
		for i := range a.NumField() {
			f := a.Type().Field(i)
			x, y := a.Field(i), b.Field(i)
			if f.Type.Kind() == reflect.Struct {
				walk(path+f.Name+".", x, y)
				continue
			}
			require.Equal(t, reflect.Int64, f.Type.Kind(), path+f.Name)
			if unscaled[f.Name] {
				require.Equal(t, x.Int(), y.Int(), path+f.Name)
				continue
			}
			require.NotZero(t, x.Int(), "%s: a zero default would hide a missing scale", path+f.Name)
			require.Equal(t, x.Int()*5/2, y.Int(), path+f.Name)
		}
	}
	walk("", reflect.ValueOf(Default), reflect.ValueOf(m))
	require.Equal(t, Default, Default.Scaled(1))
	// Rounded to the nearest nanosecond: 200 ns × 1.0025 = 200.5 → 201.
	require.EqualValues(t, 201, Default.Scaled(1.0025).Buf.PinNs)
}
