package pipecli

import (
	"fmt"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/spf13/cobra"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/pipeline"
)

// taskRun is `pipe tasks run`'s answer.
type taskRun struct {
	Task   string    `json:"task"`
	At     time.Time `json:"at"`
	Queued int       `json:"queued"`
}

func (a *app) tasksRunCommand() *cobra.Command {
	var config string
	var wait bool
	c := &cobra.Command{
		Use:   "run TASK",
		Short: "Queue a declared task's jobs now, outside its schedule",
		Long: "run queues the jobs of TASK now, as its next fire would, for an occurrence at the\n" +
			"present second, in one transaction, for `pipe worker` to run. The task's schedule is\n" +
			"untouched: its next occurrence fires as before. TASK must be declared by this pipe\n" +
			"(pipecli.Options.Tasks, the hourly pipe.maintain, or --config pipe.json). With --wait it\n" +
			"works the runs in this process, saying what each meets, and exits 1 unless every one is done.",
		Args: exactArgs("TASK"),
		RunE: func(c *cobra.Command, args []string) error {
			if _, err := a.useProject(config); err != nil {
				return err
			}
			task := a.declaredTask(args[0])
			if task == nil {
				return errcode.New(errcode.JobUnknown, "this pipe declares no task of that name").
					WithFix("run `pipe tasks list` for the declared tasks (a project file's need --config)")
			}
			return a.withPool(c.Context(), func(pool *pgxpool.Pool) error {
				at := time.Now().UTC().Truncate(time.Second)
				if wait {
					return a.runTaskHere(c.Context(), pool, task, at)
				}
				n, err := task.Enqueue(c.Context(), pool, at)
				if err != nil {
					return err
				}
				return a.emit(taskRun{Task: task.Name(), At: at, Queued: n}, fmt.Sprintf("queued %d run(s) of task %s", n, task.Name()))
			})
		},
	}
	configFlag(c, &config)
	c.Flags().BoolVar(&wait, "wait", false, "run the task's runs in this process and wait for them")
	return c
}

// declaredTask answers the declared task named name, or nil.
func (a *app) declaredTask(name string) *pipeline.Task {
	for _, t := range a.opts.Tasks {
		if t.Name() == name {
			return t
		}
	}
	return nil
}
