package errcode

// MigrationChanged: a migration this database applied differs from the
// file of the same version this pipe ships (a released migration was
// edited), or a migration this pipe ships is older than one the database
// already applied. Meta "version" names it. Terminal: migrating again meets
// the same database.
const MigrationChanged Code = "X_MIGRATION_CHANGED"

func init() { Register(MigrationChanged, Terminal) }
