package errcode

// The codes of one person's data (package subject).
const (
	// SubjectTableUndeclared: a table the walk reached from the person's
	// root has no treatment. The message names the table and the path of
	// foreign keys that reached it.
	SubjectTableUndeclared Code = "X_SUBJECT_TABLE_UNDECLARED"
	// SubjectTreatmentInvalid: a treatment cannot be carried out as
	// declared: a blank reason, an unknown column, a value the column cannot
	// hold, a delete a kept row would block or a cascade would carry a kept
	// row away. Each fault is named.
	SubjectTreatmentInvalid Code = "X_SUBJECT_TREATMENT_INVALID"
	// SubjectCycle: a loop of deleted tables has no nullable key to clear
	// first, so no delete order exists.
	SubjectCycle Code = "X_SUBJECT_CYCLE"
	// SubjectEraseIncomplete: after an erase, the person's data is still
	// found outside a retain (the proof names table and column), or the
	// app kept writing the person's rows while the erase ran.
	SubjectEraseIncomplete Code = "X_SUBJECT_ERASE_INCOMPLETE"
	// SubjectBystanderTouched: the proof's erase changed or removed a row
	// of another person.
	SubjectBystanderTouched Code = "X_SUBJECT_BYSTANDER_TOUCHED"
	// SubjectProofUnseedable: the proof could not seed a table with a
	// generated row (a check constraint, a type it cannot generate); give
	// the column a value in the proof's values.
	SubjectProofUnseedable Code = "X_SUBJECT_PROOF_UNSEEDABLE"
	// SubjectStatementFailed: a statement of an erase or export was
	// refused by PostgreSQL (a lock timeout, a row written meanwhile that a
	// key forbids): retryable, named by SQLSTATE and constraint, never by
	// the server's message, which can quote a value.
	SubjectStatementFailed Code = "X_SUBJECT_STATEMENT_FAILED"
)

func init() {
	for _, c := range []Code{
		SubjectTableUndeclared, SubjectTreatmentInvalid, SubjectCycle, SubjectEraseIncomplete,
		SubjectBystanderTouched, SubjectProofUnseedable,
	} {
		Register(c, Terminal)
	}
}
