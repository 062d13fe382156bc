#!/usr/bin/env bash
# The release workflow's first gate: the version to release is X.Y.Z, it is the version package.json and
# src/version.ts (the version every card records) already say, and it was never tagged. Writes the commit
# that is being released as `sha=` to $GITHUB_OUTPUT (or stdout), so the tag job tags exactly what was tested.
set -euo pipefail

version="${VERSION:?set VERSION to the version to release, such as 1.2.3}"
if ! [[ "$version" =~ ^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)$ ]]; then
  echo "release: expected a version such as 1.2.3, got \"$version\"" >&2
  exit 1
fi

manifest="$(node -p 'require("./package.json").version')"
recorded="$(sed -n 's/^export const SPEEDGATE_VERSION = "\(.*\)";$/\1/p' src/version.ts)"
if [ "$manifest" != "$version" ] || [ "$recorded" != "$version" ]; then
  echo "release: package.json says ${manifest:-nothing} and src/version.ts says ${recorded:-nothing}, expected both to say $version: bump them in a pull request first" >&2
  exit 1
fi

if git rev-parse -q --verify "refs/tags/v$version" >/dev/null; then
  echo "release: v$version is already tagged at $(git rev-parse --short "v$version^{commit}"); a released version is never moved, release $version's successor instead" >&2
  exit 1
fi

echo "sha=$(git rev-parse HEAD)" >> "${GITHUB_OUTPUT:-/dev/stdout}"
