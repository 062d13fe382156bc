#!/usr/bin/env bash
# Tags the tested commit $SHA as v$VERSION (annotated, never moved afterwards) and moves the major tag
# (v1 for 1.y.z) to it, so `uses: OWNER/speedgate@v1` follows the newest 1.x release. A patch release of
# an older line (1.2.4 after 1.3.0) gets its own tag but leaves the major tag where it is. Pushes to origin.
set -euo pipefail

version="${VERSION:?set VERSION to the version to release, such as 1.2.3}"
sha="${SHA:?set SHA to the commit to release}"
major="v${version%%.*}"

git fetch --quiet --tags --force origin
newest="$(git tag --list "$major.*" | sed 's/^v//' | grep -E '^[0-9]+\.[0-9]+\.[0-9]+$' | sort -V | tail -n 1 || true)"

git -c user.name="${GIT_AUTHOR_NAME:-github-actions[bot]}" \
  -c user.email="${GIT_AUTHOR_EMAIL:-41898282+github-actions[bot]@users.noreply.github.com}" \
  tag --annotate "v$version" "$sha" --message "speedgate v$version"
# Without --force: a release tag that exists on the remote is refused, never replaced.
git push --quiet origin "refs/tags/v$version"

if [ -z "$newest" ] || [ "$(printf '%s\n%s\n' "$newest" "$version" | sort -V | tail -n 1)" = "$version" ]; then
  git tag --force "$major" "$sha" >/dev/null
  git push --quiet --force origin "refs/tags/$major"
  echo "release: tagged v$version and moved $major to ${sha:0:12}"
else
  echo "release: tagged v$version; $major stays on v$newest, the newest $major release"
fi
