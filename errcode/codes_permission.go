package errcode

// PostgresPermission: the server refused a statement for want of a right
// (SQLSTATE 42501): the role pipe connects as lacks a grant on schema pipe
// or on an application's table. Terminal: the same role is refused again
// until it is granted the right. [PermissionFix] names the role.
const PostgresPermission Code = "X_POSTGRES_PERMISSION"

// postgresPermissionFix is the fix of a [PostgresPermission] refusal
// whose role is not known.
const postgresPermissionFix = "grant the role pipe connects as what it lacks: as the owner of schema pipe, run the " +
	"statements `pipe grants --role <that role>` prints (or add --apply), and on the application's tables the " +
	"rights docs/deploying.md's \"Least privilege\" section lists for the room"

func init() { Register(PostgresPermission, Terminal) }

// PermissionFix answers the fix of a refusal for want of a right of role.
// A role's name is configuration, not a row's data.
func PermissionFix(role string) string {
	return "grant role " + role + " what it lacks: as the owner of schema pipe, run the statements " +
		"`pipe grants --role " + role + "` prints (or add --apply), and on the application's tables the " +
		"rights docs/deploying.md's \"Least privilege\" section lists for the room"
}
