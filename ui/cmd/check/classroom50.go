package check

import (
	"context"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"archlab/ui/report"
	"archlab/ui/status"
)

// classroom50Env are the variables Classroom 50's runner sets for its
// autograder that a result.json repeats; REVIEW_URL may be unset.
var classroom50Env = []string{"CLASSROOM", "ASSIGNMENT", "SUBMISSION_TAG", "COMMIT_URL", "RELEASE_URL"}

// submission reads the submission Classroom 50's runner grades from its
// environment, and when it was submitted from git: the committer date of
// the commit checked out, in UTC. Outside the runner (a variable unset, no
// git, no commit) it is the environment's failure, exit 3: a result.json
// with no identity would be refused by Classroom 50's collection.
func (o *Options) submission(ctx context.Context) (report.Submission, error) {
	g := o.G
	var missing []string
	get := func(name string) string {
		v := g.IO.Getenv(name)
		if v == "" && name != "REVIEW_URL" {
			missing = append(missing, name)
		}
		return v
	}
	sub := report.Submission{Classroom: get("CLASSROOM"), Assignment: get("ASSIGNMENT"), Tag: get("SUBMISSION_TAG"),
		Commit: get("COMMIT_URL"), Release: get("RELEASE_URL"), Review: get("REVIEW_URL")}
	if len(missing) > 0 {
		return sub, &status.CouldNotRun{Msg: g.T("check.err.classroom50-env", strings.Join(missing, ", ")), Hint: g.T("check.err.classroom50-env.hint", strings.Join(classroom50Env, ", "))}
	}
	out, err := exec.CommandContext(ctx, "git", "log", "-1", "--format=%ct").Output()
	secs, perr := strconv.ParseInt(strings.TrimSpace(string(out)), 10, 64)
	if err != nil || perr != nil {
		if err == nil {
			err = perr
		}
		return sub, &status.CouldNotRun{Msg: g.T("check.err.classroom50-git", err)}
	}
	sub.Datetime = time.Unix(secs, 0).UTC().Format("2006-01-02T15:04:05Z")
	return sub, nil
}
