/** Exit codes of the patch step, so a failed RUN says why without parsing its output. */
export const PATCH_EXIT = {
  conflict: 64,
  toolMissing: 65,
  sourceDirMissing: 66,
} as const;

/** Every line the patch step prints starts with this, so its output can be told apart from the build's. */
export const PATCH_MARKER = "speedgate-patch:";
export const CONFLICT_BEGIN = `${PATCH_MARKER} rejected-begin`;
export const CONFLICT_END = `${PATCH_MARKER} rejected-end`;

/**
 * The shell script run inside the baseline image: it applies the patch ($2, by default
 * /speedgate/candidate.patch) in the source folder ($1) with `git apply` when the image has git, else `patch -p1`. On a conflict it prints
 * the tool's output and the rejected hunks between marker lines, then exits with a code of its own.
 * POSIX sh only: engine images range from full Ubuntu to busybox.
 */
export const APPLY_PATCH_SCRIPT = `#!/bin/sh
patch_file=\${2:-/speedgate/candidate.patch}
log=/tmp/speedgate-patch.log
say() { echo "${PATCH_MARKER} $*"; }
if ! cd "$1" 2>/dev/null; then
  say "the source folder $1 does not exist in the image (candidate.sourceDir)"
  exit ${PATCH_EXIT.sourceDirMissing}
fi
if command -v git >/dev/null 2>&1; then
  tool="git apply"
  say "applying the patch in $1 with git apply"
  git apply --verbose --reject --whitespace=nowarn "$patch_file" >"$log" 2>&1
  status=$?
elif command -v patch >/dev/null 2>&1; then
  tool="patch -p1"
  say "applying the patch in $1 with patch -p1"
  if patch --version 2>/dev/null | grep -q GNU; then
    patch -p1 --batch --forward <"$patch_file" >"$log" 2>&1
  else
    patch -p1 <"$patch_file" >"$log" 2>&1
  fi
  status=$?
else
  say "the image has neither git nor patch, so the patch cannot be applied; install git or patch in the baseline image"
  exit ${PATCH_EXIT.toolMissing}
fi
if [ "$status" -eq 0 ]; then
  sed "s/^/${PATCH_MARKER} | /" "$log"
  rm -f "$log"
  say "applied"
  exit 0
fi
say "$tool failed with status $status: the patch does not apply to this source tree"
echo "${CONFLICT_BEGIN}"
sed "s/^/${PATCH_MARKER} | /" "$log"
find . -name '*.rej' -newer "$patch_file" 2>/dev/null | while read -r rejected; do
  echo "${PATCH_MARKER} | --- rejected hunks of $rejected"
  sed "s/^/${PATCH_MARKER} | /" "$rejected"
done
echo "${CONFLICT_END}"
rm -f "$log"
exit ${PATCH_EXIT.conflict}
`;
