package backfill

import (
	"context"
	"fmt"
	"time"
)

// unhealthy answers why the database is too busy for the pass, or "".
func (h Health) unhealthy(ctx context.Context, q querier) (string, error) {
	var lag *float64
	var txAge float64
	var xidAge int64
	if err := q.QueryRow(ctx, sqlHealth).Scan(&lag, &txAge, &xidAge); err != nil {
		return "", err
	}
	return h.reason(lag, txAge, xidAge), nil
}

// reason words the first limit the readings pass, or "".
func (h Health) reason(lag *float64, txAge float64, xidAge int64) string {
	switch {
	case h.ReplicationLag >= 0 && lag != nil && seconds(*lag) > h.ReplicationLag:
		return fmt.Sprintf("a replica lags %s behind (limit %s)", round(seconds(*lag)), h.ReplicationLag)
	case h.TransactionAge >= 0 && seconds(txAge) > h.TransactionAge:
		return fmt.Sprintf("a transaction open for %s holds back vacuum (limit %s)", round(seconds(txAge)), h.TransactionAge)
	case h.XIDAge >= 0 && xidAge > h.XIDAge:
		return fmt.Sprintf("the transaction id age is %d, near wraparound (limit %d)", xidAge, h.XIDAge)
	}
	return ""
}

func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

func round(d time.Duration) time.Duration { return d.Round(100 * time.Millisecond) }
