package subject_test

import (
	"strings"
	"testing"

	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/subject"
)

// A trigger that refuses the erase by RAISEing the person's value fails the
// run named by SQLSTATE and table: neither the run's error nor anything
// else pipe stores quotes the value.
func TestEraseRefusedByATriggerQuotesNoValue(t *testing.T) {
	const secret = "zq7secretvalue9x"
	pool := setup(t, `create table members (id int primary key, email text not null);
		insert into members values (1, '`+secret+`');
		create function refuse() returns trigger language plpgsql as $$
		begin raise exception 'refusing to erase %', old.email; end $$;
		create trigger refuse before delete on members for each row execute function refuse()`)
	d := subject.Declaration{Root: "members", Tables: map[string]subject.Treatment{"members": subject.Delete()}}
	run, _ := fixtures.Run(t, pool, eraseJob(d, 10), eraseIn{Member: 1})
	if run.State != "dead" || run.LastError == nil || !strings.Contains(run.LastError.Message, "SQLSTATE P0001") {
		t.Fatalf("%s: %+v", run.State, run.LastError)
	}
	if strings.Contains(run.LastError.Message, secret) {
		t.Fatalf("the error quotes the value: %s", run.LastError.Message)
	}
	if where := fixtures.Holding(t, pool, secret); len(where) > 0 {
		t.Fatalf("the value is stored in %v", where)
	}
}
