// Package options holds the one rule of every call in pipe that takes an
// optional options struct: the struct is variadic, so a call without it
// reads without it, and a call given more than one is refused with a coded
// error — never answered with the first and the rest dropped.
//
//	func (j *Job[In, Out]) Enqueue(ctx context.Context, db DB, in In, opts ...EnqueueOptions) (EnqueueResult, error) {
//		o, err := options.One("enqueue", opts)
//		if err != nil {
//			return EnqueueResult{}, err
//		}
//		...
//	}
package options

import "github.com/pipekit/pipe/errcode"

// One answers the options struct a call was given: the zero value for
// none, the struct for one. More than one is X_INVARIANT naming call, a
// misuse that no retry mends.
func One[T any](call string, opts []T) (T, error) {
	var zero T
	switch len(opts) {
	case 0:
		return zero, nil
	case 1:
		return opts[0], nil
	}
	return zero, errcode.New(errcode.Invariant, "%s: %d options structs given, and it takes at most one", call, len(opts)).
		WithFix("merge the options into one struct")
}
