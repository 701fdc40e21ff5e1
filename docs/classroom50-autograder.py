"""archlab's autograder for Classroom 50 (docs/teachers.md).

Put it at CLASSROOM/autograders/ASSIGNMENT/autograder.py in the
classroom50 repository, with Go in the assignment's runtime block
({"go": "1.26"}). Classroom 50's runner starts it in the student's
checkout with the submission's identity in its environment; `archlab
check --format classroom50` writes ./result.json, the one file the
contract asks for. check's exit status 1 (an exercise not done) is a
grade, not an error: the script exits 0 then, and passes 2 or 3 (archlab
could not judge) on, which the runner reports as an error.

archlab is built once and the binary run, not `go run`: go run exits 1
whatever archlab's status, so "could not judge" would read as a grade.
Exercises that do not compile fail the build: an error, with go's message.
"""

import os
import subprocess
import sys
import tempfile

with tempfile.TemporaryDirectory() as tmp:
    archlab = os.path.join(tmp, "archlab")
    if subprocess.run(["go", "build", "-o", archlab, "./cmd/archlab"], check=False).returncode != 0:
        sys.exit(3)
    status = subprocess.run(
        [archlab, "check", "--format", "classroom50", "--output-dir", "."],
        check=False,
    ).returncode
sys.exit(0 if status in (0, 1) else status)
