package pipecli

import (
	"context"
	"time"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/pipeline"
)

// DemoJobName is the durable name of [DemoJob].
const DemoJobName = "demo.onboard"

// DemoMailerDeferred is the code of the demo's planned failure. It is
// unclassified, so it takes the retry path.
const DemoMailerDeferred errcode.Code = "X_DEMO_MAILER_DEFERRED"

// DemoInput is a signup for [DemoJob] to onboard. SignupID is the
// idempotency key.
type DemoInput struct {
	SignupID string `json:"signupId"`
	User     string `json:"user"`
}

// DemoResult is what an onboarding run answers.
type DemoResult struct {
	Account  string `json:"account"`
	Welcomed bool   `json:"welcomed"`
	Recorded string `json:"recorded"`
}

// DemoJob declares the job `pipe demo` runs: three steps — provision,
// send-welcome, record — where send-welcome fails on the run's first attempt
// on purpose. The retry (3 attempts, 200ms base delay) replays provision from
// the journal instead of running it again, and send-welcome succeeds.
func DemoJob() *pipeline.Job[DemoInput, DemoResult] {
	return pipeline.MustJob(DemoJobName, demoKey, onboard, pipeline.JobOptions[DemoInput, DemoResult]{
		Retry: &pipeline.Retry{Attempts: 3, Delay: 200 * time.Millisecond},
	})
}

func demoKey(in DemoInput) string { return in.SignupID }

func onboard(ctx context.Context, run *pipeline.Run[DemoInput]) (DemoResult, error) {
	var res DemoResult
	var err error
	res.Account, err = pipeline.Step(ctx, "provision", func(context.Context) (string, error) {
		return "acct-" + run.Input.User, nil
	})
	if err != nil {
		return res, err
	}
	res.Welcomed, err = pipeline.Step(ctx, "send-welcome", func(context.Context) (bool, error) {
		if run.Attempt == 1 {
			return false, errcode.New(DemoMailerDeferred,
				"send-welcome: the mail server deferred the message (the demo fails this step's first attempt on purpose)").
				WithFix("none: the worker retries the run; provision replays from the journal and is not run again")
		}
		return true, nil
	})
	if err != nil {
		return res, err
	}
	res.Recorded, err = pipeline.Step(ctx, "record", func(context.Context) (string, error) {
		return "onboarded", nil
	})
	return res, err
}
