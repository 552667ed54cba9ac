package subjectbench

import (
	"encoding/json"

	"github.com/pipekit/pipe/pipeline"
)

func decode[T any](d *pipeline.RunDetail) (T, error) {
	var v T
	err := json.Unmarshal(d.Result, &v)
	return v, err
}
