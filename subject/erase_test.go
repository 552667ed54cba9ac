package subject_test

import (
	"testing"
	"time"

	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
	"github.com/pipekit/pipe/subject"
)

// eraseIn is the tests' erase input.
type eraseIn struct {
	Member int64 `json:"member"`
}

func eraseJob(d subject.Declaration, pageRows int) *pipeline.Job[eraseIn, subject.EraseResult] {
	return subject.MustErase(subject.EraseOptions[eraseIn]{
		Name:     "test.erase",
		Subject:  d,
		Person:   func(in eraseIn) subject.Key { return subject.Key{in.Member} },
		PageRows: pageRows,
		Job:      pipeline.JobOptions[eraseIn, subject.EraseResult]{Retry: &pipeline.Retry{Attempts: 3, Delay: 10 * time.Millisecond}},
	})
}

const forumRows = `
insert into members values (1, 'ada@example.com', 'Ada', 'bio'), (2, 'bob@example.com', 'Bob', 'bio');
insert into posts select i, 1 + i % 2, 'post' from generate_series(1, 10) i;
insert into comments select i, 1 + i % 2, 1 + i % 10, null, 'c' from generate_series(1, 40) i;
update comments set reply_to = id - 2 where id > 2;
insert into likes select m, c from generate_series(1, 2) m, generate_series(1, 40) c;
`

func TestEraseDeletesChildrenFirstAndLeavesTheBystander(t *testing.T) {
	pool := setup(t, forumDDL+forumRows)
	before := count(t, pool, `select count(*) from comments where author_id = 2`)
	d, res := fixtures.Run(t, pool, eraseJob(forum(), 7), eraseIn{Member: 1})
	if d.State != "done" {
		t.Fatalf("%s: %+v", d.State, d.LastError)
	}
	t.Logf("%+v", res)
	if n := count(t, pool, `select count(*) from members where id = 1`); n != 0 {
		t.Errorf("the member is still there")
	}
	if n := count(t, pool, `select count(*) from comments where author_id = 1`); n != 0 {
		t.Errorf("%d comments of the member left", n)
	}
	if n := count(t, pool, `select count(*) from comments where author_id = 2`); n != before {
		t.Errorf("the bystander's comments: %d, were %d", n, before)
	}
	if n := count(t, pool, `select count(*) from posts where author_id is null`); n != 5 {
		t.Errorf("%d posts released; want the member's 5 kept with author null", n)
	}
}
