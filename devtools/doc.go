// Package devtools serves pipe's Model Context Protocol (MCP) dev tools, so a
// coding agent can read the fleet the way an operator reads it with `pipe
// jobs` and `pipe queues`:
//
//   - jobs.inspect: every registered job's manifest row (its own Describe());
//   - queue.depth: pending, running and failed runs per queue;
//   - jobs.list: one page of runs, newest first, with the filters of `pipe
//     jobs list`;
//   - jobs.show: one run in full — steps, journal, error and fix.
//
// Every tool is read-only: it reads through the operator API
// ([pipeline.Admin]) and the registry's manifests, and never changes a run.
// Errors come back as tool errors carrying the X_* code, the message and the
// fix. `pipe mcp` serves these tools over stdio; an application can serve
// them on any transport the MCP Go SDK offers with [NewServer].
package devtools
