-- Record a running run's progress, fenced on its claim. Progress is a
-- projection of the body's own state, replaced at every write, not a state
-- change of the run: it is not journalled, so a run that never ends (a
-- consumer reporting its lag) does not grow its journal.
update pipe.runs_open j set progress = $3
where j.id = $1 and j.claims = $2 and j.state = 'running'
