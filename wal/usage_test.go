package wal

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestUsageZero: Zero holds for the empty Usage only; each counter set on
// its own (every field, found by reflection, so a counter added later is
// covered) makes it false, as adding that Usage would change a total.
func TestUsageZero(t *testing.T) {
	var u Usage
	require.True(t, u.Zero())
	v := reflect.ValueOf(&u).Elem()
	for i := 0; i < v.NumField(); i++ {
		for _, x := range []int64{1, -1, 1 << 40} {
			u = Usage{}
			v.Field(i).SetInt(x)
			require.False(t, u.Zero(), "field %s = %d", v.Type().Field(i).Name, x)
			var sum Usage
			sum.Add(u)
			require.NotEqual(t, Usage{}, sum)
		}
	}
}
