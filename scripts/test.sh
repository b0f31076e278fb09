#!/usr/bin/env bash
# Install everything the test suite needs, then run all of it with pytest.
# This is the README's test command, and .ci/run runs exactly this.
set -euo pipefail
cd "$(dirname "$0")/.."

python -m pip install --quiet --disable-pip-version-check -e '.[test,server,web-test,rl,openspiel,fast,ray,plot]'
python -m pytest "$@"
