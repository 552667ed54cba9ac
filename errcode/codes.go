package errcode

// The codes pipe raises. Their names and meanings follow the reference
// specification; docs/reference/errors.md, generated from this package,
// lists each with its class and fix.
const (
	Invariant                Code = "X_INVARIANT"
	IDInvalid                Code = "X_ID_INVALID"
	ConfigInvalid            Code = "X_CONFIG_INVALID"
	PostgresUnavailable      Code = "X_POSTGRES_UNAVAILABLE"
	Aborted                  Code = "X_ABORTED"
	Draining                 Code = "X_DRAINING"
	RateLimited              Code = "X_RATE_LIMITED"
	NotImplemented           Code = "X_NOT_IMPLEMENTED"
	JobDeclarationInvalid    Code = "X_JOB_DECLARATION_INVALID"
	JobEnqueueBatchTooLarge  Code = "X_JOB_ENQUEUE_BATCH_TOO_LARGE"
	JobTimeout               Code = "X_JOB_TIMEOUT"
	JobLeaseLost             Code = "X_JOB_LEASE_LOST"
	JobMaxAttempts           Code = "X_JOB_MAX_ATTEMPTS"
	JobNotFound              Code = "X_JOB_NOT_FOUND"
	JobNotRequeueable        Code = "X_JOB_NOT_REQUEUEABLE"
	JobNotCancellable        Code = "X_JOB_NOT_CANCELLABLE"
	JobNotRemovable          Code = "X_JOB_NOT_REMOVABLE"
	JobNotPromotable         Code = "X_JOB_NOT_PROMOTABLE"
	JobDuplicate             Code = "X_JOB_DUPLICATE"
	JobPageInvalid           Code = "X_JOB_PAGE_INVALID"
	JobInputInvalid          Code = "X_JOB_INPUT_INVALID"
	JobUnknown               Code = "X_JOB_UNKNOWN"
	JobCancelled             Code = "X_JOB_CANCELLED"
	JobTenantMismatch        Code = "X_JOB_TENANT_MISMATCH"
	JobCompensationFailed    Code = "X_JOB_COMPENSATION_FAILED"
	JobOnSettledFailed       Code = "X_JOB_ON_SETTLED_FAILED"
	JobKeyBusy               Code = "X_JOB_KEY_BUSY"
	JobPanicked              Code = "X_JOB_PANICKED"
	JobEventInvalid          Code = "X_JOB_EVENT_INVALID"
	StepDuplicate            Code = "X_STEP_DUPLICATE"
	StepOutputUnserializable Code = "X_STEP_OUTPUT_UNSERIALIZABLE"
	StepOutcomeUnknown       Code = "X_STEP_OUTCOME_UNKNOWN"
	StepTimeout              Code = "X_STEP_TIMEOUT"
	StepNotFound             Code = "X_STEP_NOT_FOUND"
	StepNameReserved         Code = "X_STEP_NAME_RESERVED"
	JobCrashDiverged         Code = "X_JOB_CRASH_DIVERGED"
	MigrationFailed          Code = "X_MIGRATION_FAILED"
	DurationInvalid          Code = "X_DURATION_INVALID"
)

func init() {
	for _, c := range []Code{
		Invariant, IDInvalid, ConfigInvalid, JobDeclarationInvalid,
		JobEnqueueBatchTooLarge, StepDuplicate, StepOutputUnserializable,
		StepOutcomeUnknown, JobInputInvalid, JobUnknown, JobTenantMismatch,
		JobCancelled, StepNameReserved, DurationInvalid, JobEventInvalid, JobKeyBusy,
	} {
		Register(c, Terminal)
	}
	Register(RateLimited, RetryAfter)
}
