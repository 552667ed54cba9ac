package errcode

// NPlusOneWrite: one job enqueued one input at a time in a loop, where one
// EnqueueMany would do; reported in development (pipe dev's worker,
// pipeline.WatchWrites, the test kit's fixtures.WatchWrites), never
// returned by an enqueue.
const NPlusOneWrite Code = "X_N_PLUS_ONE_WRITE"

func init() { Register(NPlusOneWrite, Terminal) }
