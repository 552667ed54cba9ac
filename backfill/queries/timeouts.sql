-- A batch's own lock_timeout and statement_timeout, for its transaction only.
select set_config('lock_timeout', $1, true), set_config('statement_timeout', $2, true)
