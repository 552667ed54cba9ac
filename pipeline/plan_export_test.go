package pipeline

// The worker's hot statements and the planner settings they run under, for
// the plan tests.
var (
	SQLClaim      = sqlClaim
	SQLComplete   = sqlComplete
	SQLRenew      = sqlRenew
	SQLSteps      = sqlAppendSteps
	BatchSettings = batchSettings
	ClaimSettings = claimSettings
)
